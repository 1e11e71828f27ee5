import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { api, type Api } from '../modules/catalogue/test-support.ts';
import { paymentType, store, terminal } from '../db/schema/index.ts';

let t: TestApp;
let admin: Api;
let cashier: Api;
let main: number;
const SETTINGS = ['currency', 'locale', 'timeZone', 'cashRoundingStep', 'pricesIncludeTax', 'legacyTaxBase'];
const DEFAULTS = { currency: 'USD', locale: 'en-US', timeZone: 'UTC', cashRoundingStep: 0, pricesIncludeTax: false, legacyTaxBase: false };

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  admin = api(t, () => a);
  cashier = api(t, () => c);
  main = (await t.app.db.select().from(store).orderBy(asc(store.id)))[0].id;
});
afterAll(async () => { await t?.close(); });

describe('store money settings (issue 19)', () => {
  it('every store representation carries the settings, with the defaults', async () => {
    const one = (await admin.get(`/api/stores/${main}`)).json();
    expect(one).toMatchObject(DEFAULTS);
    const list = (await admin.get('/api/stores')).json()['hydra:member'];
    for (const s of list) for (const k of SETTINGS) expect(s).toHaveProperty(k);
    const info = (await cashier.get('/api/auth/info?role=ROLE_USER')).json();
    expect(info.user.stores[0]).toMatchObject(DEFAULTS);
    const terms = (await admin.get('/api/terminals')).json()['hydra:member'];
    expect(terms.find((x: any) => x.store)?.store).toMatchObject(DEFAULTS);
  });

  it('an admin edits them; the sale answer shows the store with them', async () => {
    const res = await admin.put(`/api/stores/${main}`, { currency: 'eur', locale: 'de-DE', timeZone: 'Europe/Berlin', cashRoundingStep: 5, pricesIncludeTax: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ currency: 'EUR', locale: 'de-DE', timeZone: 'Europe/Berlin', cashRoundingStep: 5, pricesIncludeTax: true, legacyTaxBase: false });
    // A PUT merges: the name alone keeps the settings.
    const renamed = await admin.put(`/api/stores/${main}`, { name: 'Main street' });
    expect(renamed.json()).toMatchObject({ name: 'Main street', currency: 'EUR', cashRoundingStep: 5 });
    const [term] = await t.app.db.select().from(terminal).orderBy(asc(terminal.id));
    const [cash] = await t.app.db.select().from(paymentType).orderBy(asc(paymentType.id));
    const [p] = (await admin.get('/api/products?itemsPerPage=1&page=1')).json()['hydra:member'];
    const sale = await cashier.post('/api/admin/order/create', {
      items: [{ item: p.id, quantity: 1 }], store: main, terminal: term.id, payments: [{ received: 1000, type: cash.id }],
    });
    expect(sale.statusCode).toBe(201);
    expect(sale.json().order.store).toMatchObject({ currency: 'EUR', locale: 'de-DE', timeZone: 'Europe/Berlin', cashRoundingStep: 5 });
    const back = await cashier.get(`/api/admin/order/${sale.json().order.id}`);
    expect(back.statusCode).toBe(200);
    expect(back.json().order.store).toMatchObject({ currency: 'EUR', pricesIncludeTax: true });
    await admin.put(`/api/stores/${main}`, DEFAULTS);
  });

  it('creates a store with settings; bad values are a 422 naming the field, nothing written', async () => {
    const ok = await admin.post('/api/stores', { name: 'Tokyo', currency: 'JPY', locale: 'ja-JP', timeZone: 'Asia/Tokyo', cashRoundingStep: 10 });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ currency: 'JPY', locale: 'ja-JP', timeZone: 'Asia/Tokyo', cashRoundingStep: 10, pricesIncludeTax: false, legacyTaxBase: false });
    const before = (await t.app.db.select().from(store)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ currency: 'XYZ' }, 'currency'],
      [{ currency: 12 }, 'currency'],
      [{ timeZone: 'Mars/Olympus' }, 'timeZone'],
      [{ locale: 'not a locale!' }, 'locale'],
      [{ cashRoundingStep: 2.5 }, 'cashRoundingStep'],
      [{ cashRoundingStep: -5 }, 'cashRoundingStep'],
      [{ cashRoundingStep: '0.05' }, 'cashRoundingStep'],
      [{ pricesIncludeTax: 'maybe' }, 'pricesIncludeTax'],
    ];
    for (const [fields, field] of cases) {
      const res = await admin.post('/api/stores', { name: 'Bad', ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(422);
      expect(res.json().violations.map((v: any) => v.propertyPath)).toContain(field);
      const put = await admin.put(`/api/stores/${main}`, fields);
      expect(put.statusCode).toBe(422);
    }
    expect((await t.app.db.select().from(store)).length).toBe(before);
    expect((await admin.get(`/api/stores/${main}`)).json()).toMatchObject(DEFAULTS);
  });

  it('only an admin edits a store', async () => {
    const res = await cashier.put(`/api/stores/${main}`, { currency: 'JPY' });
    expect(res.statusCode).toBe(403);
  });
});
