/**
 * Issue 19, time: price rules and "today" in the history and expense lists follow the store's
 * time zone (Pacific/Auckland, America/Los_Angeles), across midnight and a daylight-saving change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { expense, order, paymentType, product, productPrice, productTax, store, terminal } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let main: number;
let mall: number;
let t1: number;
let m1: number;
let cash: number;
let P: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const db = t.app.db;
  [main, mall] = (await db.select().from(store).orderBy(asc(store.id))).map((s) => s.id);
  const terms = await db.select().from(terminal);
  t1 = terms.find((x) => x.code === 'T1')!.id;
  m1 = terms.find((x) => x.code === 'M1')!.id;
  cash = (await db.select().from(paymentType)).find((p) => p.type === 'cash')!.id;
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  P = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !taxed.has(p.id) && !p.manageInventory)[5].id;
  await db.update(product).set({ basePrice: '5.00' }).where(eq(product.id, P));
  await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { timeZone: 'Pacific/Auckland' } });
  await t.app.inject({ method: 'PUT', url: `/api/stores/${mall}`, headers: admin, payload: { timeZone: 'America/Los_Angeles' } });
});
afterAll(async () => { await t?.close(); });

const sell = async (storeId: number, terminalId: number) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: admin, payload: {
    items: [{ item: P, quantity: 1 }], payments: [{ received: 100, type: cash }], store: storeId, terminal: terminalId,
  } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
};
const list = async (query: string) => (await t.app.inject({ method: 'GET', url: `/api/admin/order/list?${query}`, headers: admin })).json();

describe('store time zone', () => {
  it('a time-of-day price rule applies on the store clock, not the server one', async () => {
    const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    const h = hour('Pacific/Auckland');
    const hh = (x: number) => `${String(x % 24).padStart(2, '0')}`;
    // The Auckland hour and the next: never the Los Angeles hour (21 hours behind in November, 19 or 20 otherwise).
    await t.app.db.insert(productPrice).values({ productId: P, time: `${hh(h)}:00`, timeTo: `${hh(h + 1)}:59`, basePrice: '3.00' });
    expect((await sell(main, t1)).items[0].price).toBe(3);
    expect((await sell(mall, m1)).items[0].price).toBe(5);
    await t.app.db.delete(productPrice).where(eq(productPrice.productId, P));
  });

  it('"today" in the history is the store day: Auckland across midnight, Los Angeles over the 25-hour day of the DST change', async () => {
    const at = async (storeId: number, terminalId: number, iso: string) => {
      const o = await sell(storeId, terminalId);
      await t.app.db.update(order).set({ createdAt: new Date(iso) }).where(eq(order.id, o.id));
      return o.id as number;
    };
    const nzLate = await at(main, t1, '2026-11-25T10:59:00Z'); // Wed 25 23:59 NZDT
    const nzMidnight = await at(main, t1, '2026-11-25T11:00:00Z'); // Thu 26 00:00 NZDT
    const nzEnd = await at(main, t1, '2026-11-26T10:59:59Z'); // Thu 26 23:59:59 NZDT
    const laBefore = await at(mall, m1, '2026-11-01T06:59:00Z'); // Sat 31 Oct 23:59 PDT
    const laFirst = await at(mall, m1, '2026-11-01T07:00:00Z'); // Sun 1 Nov 00:00 PDT
    const laRepeat = await at(mall, m1, '2026-11-01T09:30:00Z'); // Sun 1 Nov 01:30 PST (the second 01:30)
    const laLast = await at(mall, m1, '2026-11-02T07:59:00Z'); // Sun 1 Nov 23:59 PST
    const laNext = await at(mall, m1, '2026-11-02T08:00:00Z'); // Mon 2 Nov 00:00 PST
    const mine = new Set([nzLate, nzMidnight, nzEnd, laBefore, laFirst, laRepeat, laLast, laNext]);
    const ids = (r: any) => r.list.map((o: any) => o.id).filter((id: number) => mine.has(id)).sort((a: number, b: number) => a - b);
    expect(ids(await list(`store=${main}&dateTimeFrom=2026-11-26&dateTimeTo=2026-11-26`))).toEqual([nzMidnight, nzEnd]);
    expect(ids(await list(`store=${main}&dateTimeFrom=2026-11-25T00:00&dateTimeTo=2026-11-25T23:59`))).toEqual([nzLate]);
    expect(ids(await list(`store=${mall}&dateTimeFrom=2026-11-01&dateTimeTo=2026-11-01`))).toEqual([laFirst, laRepeat, laLast]);
    // Both stores at once: each order against its own store's midnight.
    const both = ids(await list('dateTimeFrom=2026-11-01&dateTimeTo=2026-11-01'));
    expect(both).toEqual([laFirst, laRepeat, laLast]);
    expect(both).not.toContain(laBefore);
    expect(both).not.toContain(laNext);
    // An instant with a zone is compared as is.
    expect(ids(await list(`store=${main}&dateTimeFrom=2026-11-25T10:59:00Z&dateTimeTo=2026-11-25T11:00:00Z`))).toEqual([nzLate, nzMidnight]);
    const bad = await t.app.inject({ method: 'GET', url: '/api/admin/order/list?dateTimeFrom=2026-13-45', headers: admin });
    expect(bad.statusCode).toBe(422);
    await t.app.db.delete(order).where(inArray(order.id, [nzLate, nzMidnight, nzEnd, laBefore, laFirst, laRepeat, laLast, laNext]));
  });

  it('the expense list reads its dates on the store clock too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/expense/create', headers: admin, payload: { description: 'Milk', amount: 3, store: main } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().expense.id;
    await t.app.db.update(expense).set({ createdAt: new Date('2026-11-25T11:30:00Z') }).where(eq(expense.id, id)); // Thu 26 00:30 NZDT
    const day = async (d: string) => (await t.app.inject({ method: 'GET', url: `/api/admin/expense/list?store=${main}&dateTimeFrom=${d}T00:00&dateTimeTo=${d}T23:59`, headers: admin })).json().list.map((e: any) => e.id);
    expect(await day('2026-11-26')).toEqual([id]);
    expect(await day('2026-11-25')).toEqual([]);
  });
});
