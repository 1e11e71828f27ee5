import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { SCALE_RULE_MESSAGES } from '@pos/domain/scale-barcode-rule';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { setting, store } from '../../db/schema/index.ts';
import { api, messageAt, paths, type Api } from './test-support.ts';

let t: TestApp;
let admin: Api;
let main: number;

beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  admin = api(t, () => a);
  main = (await t.app.db.select().from(store).orderBy(asc(store.id)))[0].id;
});
afterAll(async () => { await t?.close(); });

const scaleRows = () => t.app.db.select().from(setting).where(eq(setting.name, 'scale_barcode'));

describe('the scale_barcode setting (issue 26)', () => {
  it('refuses a malformed rule with a 422 naming the field; nothing is written', async () => {
    const before = (await scaleRows()).length;
    const cases: [unknown, string, string][] = [
      ['{"prefixes":["21"],"itemDigits":5', 'value', SCALE_RULE_MESSAGES.json],
      [{ prefixes: ['31'], itemDigits: 5, embeds: 'price' }, 'value.prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: [], itemDigits: 5, embeds: 'price' }, 'value.prefixes', SCALE_RULE_MESSAGES.prefixes],
      [{ prefixes: ['21'], itemDigits: 7, embeds: 'price' }, 'value.itemDigits', SCALE_RULE_MESSAGES.itemDigits],
      [{ prefixes: ['21'], itemDigits: '5', embeds: 'price' }, 'value.itemDigits', SCALE_RULE_MESSAGES.itemDigits],
      [JSON.stringify({ prefixes: ['21'], itemDigits: 5, embeds: 'volume' }), 'value.embeds', SCALE_RULE_MESSAGES.embeds],
      [{ prefixes: ['21'], itemDigits: 5, embeds: 'weight', store: 99999 }, 'value.store', "'Store' with ID '99999' not found"],
    ];
    for (const [value, path, message] of cases) {
      const res = await admin.post('/api/settings', { name: 'scale_barcode', value });
      expect(res.statusCode, JSON.stringify(value)).toBe(422);
      expect(messageAt(res, path), JSON.stringify(value)).toBe(message);
    }
    expect((await scaleRows()).length).toBe(before);
  });

  it('stores a good rule (normalised) and reads it back; a bad update leaves it as it was', async () => {
    const created = await admin.post('/api/settings', {
      name: 'scale_barcode', type: 'scale_barcode',
      value: JSON.stringify({ prefixes: ['21', '22'], itemDigits: 5, embeds: 'weight', store: main, note: 'dropped' }),
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    const back = (await admin.get(`/api/settings/${id}`)).json();
    expect(back).toMatchObject({ name: 'scale_barcode', type: 'scale_barcode' });
    expect(JSON.parse(back.value)).toEqual({ prefixes: ['21', '22'], itemDigits: 5, embeds: 'weight', store: main });

    const bad = await admin.put(`/api/settings/${id}`, { value: { prefixes: ['21'], itemDigits: 3, embeds: 'weight' } });
    expect(bad.statusCode).toBe(422);
    expect(paths(bad)).toEqual(['value.itemDigits']);
    expect(JSON.parse((await admin.get(`/api/settings/${id}`)).json().value)).toMatchObject({ itemDigits: 5, store: main });

    // An object value is taken too; a null store is every store's rule.
    const updated = await admin.put(`/api/settings/${id}`, { value: { prefixes: ['23'], itemDigits: 4, embeds: 'price', store: null } });
    expect(updated.statusCode).toBe(200);
    expect(JSON.parse((await admin.get(`/api/settings/${id}`)).json().value)).toEqual({ prefixes: ['23'], itemDigits: 4, embeds: 'price' });

    // Renaming another setting to scale_barcode checks its value too.
    const other = (await admin.post('/api/settings', { name: 'note', value: 'free text' })).json().id as number;
    const renamed = await admin.put(`/api/settings/${other}`, { name: 'scale_barcode' });
    expect(renamed.statusCode).toBe(422);
    expect(paths(renamed)).toEqual(['value']);
  });

  it('one rule per store and one for every store; two made at once for one store: one is refused', async () => {
    // The test above left a rule for every store.
    const rule = (store?: number) => ({ name: 'scale_barcode', value: { prefixes: ['24'], itemDigits: 5, embeds: 'price', ...(store ? { store } : {}) } });
    const everyStore = await admin.post('/api/settings', rule());
    expect(everyStore.statusCode).toBe(422);
    expect(messageAt(everyStore, 'value.store')).toBe('There is already a scale rule for every store.');
    const mine = await admin.post('/api/settings', rule(main));
    expect(mine.statusCode, mine.body).toBe(201);
    const again = await admin.post('/api/settings', rule(main));
    expect(messageAt(again, 'value.store')).toBe('This store already has a scale rule.');
    // Its own rule edited keeps its store.
    expect((await admin.put(`/api/settings/${mine.json().id}`, { value: { ...rule(main).value, itemDigits: 6 } })).statusCode).toBe(200);
    const other = (await t.app.db.select().from(store).orderBy(asc(store.id)))[1].id;
    const both = await Promise.all([admin.post('/api/settings', rule(other)), admin.post('/api/settings', rule(other))]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const stores = (await scaleRows()).map((r) => JSON.parse(r.value!).store ?? null).sort();
    expect(stores).toEqual([main, other, null].sort());
  });
});
