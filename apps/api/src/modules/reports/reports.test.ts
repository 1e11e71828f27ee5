/**
 * Issue 25.6, reports: sales by day and hour in the store's time zone (Pacific/Auckland, 13 hours
 * ahead of UTC in March), totals equal to the orders' own figures, returns as negatives on their
 * day, voided orders left out, CSV read back, and who may see what.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { order, product, store } from '../../db/schema/index.ts';
import { parseCsv } from '../../lib/csv.ts';
import { reportShop } from './reports.fixtures.ts';

let t: TestApp;
let admin: Record<string, string>;
let main: number;
let mall: number;
let t1: number;
let m1: number;
let cash: number;
let card: number;
let P: number; // untaxed, 5.00
let T: number; // taxed

const cents = (x: number) => Math.round(x * 100);

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const db = t.app.db;
  const shop = await reportShop(db);
  ({ main, mall, t1, m1, cash, card } = shop);
  P = shop.plain[5];
  T = shop.taxed;
  await db.update(product).set({ basePrice: '5.00', cost: '2.00' }).where(eq(product.id, P));
  await db.update(product).set({ basePrice: '12.40', cost: '7.10' }).where(eq(product.id, T));
  const res = await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { timeZone: 'Pacific/Auckland' } });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(async () => { await t?.close(); });

type Line = { item: number; quantity: number };
async function sell(at: string, items: Line[], opts: { storeId?: number; terminalId?: number; card?: number; refundingFrom?: number } = {}) {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: admin, payload: {
    items, payments: opts.refundingFrom ? [] : [...(opts.card ? [{ received: opts.card, type: card }] : []), { received: 1000, type: cash }],
    store: opts.storeId ?? main, terminal: opts.terminalId ?? t1, refundingFrom: opts.refundingFrom,
  } });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json().order;
  await t.app.db.update(order).set({ createdAt: new Date(at) }).where(eq(order.id, o.id));
  return o as { id: number; total: number; itemTaxes: number; items: Array<{ discount: number; orderDiscount: number }> };
}
const get = (url: string, headers = admin) => t.app.inject({ method: 'GET', url, headers });
const report = async (query: string) => {
  const res = await get(`/api/reports/sales?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

describe('sales report', () => {
  // Local (NZDT, UTC+13) times: A Tue 10 Mar 09:30, B 10 Mar 23:59, C Wed 11 Mar 00:00, R (return of A) 11 Mar 12:15.
  let A: Awaited<ReturnType<typeof sell>>;
  let B: typeof A;
  let C: typeof A;
  let R: typeof A;
  beforeAll(async () => {
    A = await sell('2026-03-09T20:30:00Z', [{ item: P, quantity: 3 }, { item: T, quantity: 1 }]);
    B = await sell('2026-03-10T10:59:00Z', [{ item: T, quantity: 2 }], { card: 10 }); // 10.00 by card, the rest cash
    C = await sell('2026-03-10T11:00:00Z', [{ item: P, quantity: 1 }]);
    R = await sell('2026-03-10T23:15:00Z', [{ item: P, quantity: -1 }], { refundingFrom: A.id });
    // Voided: sold on the 10th, then deleted.
    const V = await sell('2026-03-10T01:00:00Z', [{ item: P, quantity: 7 }]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/order/${V.id}`, headers: admin })).statusCode).toBe(200);
    // Another store, same instants: not in a report of main.
    await sell('2026-03-10T01:00:00Z', [{ item: P, quantity: 4 }], { storeId: mall, terminalId: m1 });
  });

  it('buckets days in the store time zone; totals are the orders\' own figures, the return a negative on its day, the void left out', async () => {
    const r = await report(`group=day&from=2026-03-10&to=2026-03-11&store=${main}`);
    expect(r).toMatchObject({ currency: 'USD', digits: 2, timeZone: 'Pacific/Auckland' });
    expect(r.rows.map((x: any) => x.key)).toEqual(['2026-03-10', '2026-03-11']);
    const [d10, d11] = r.rows;
    expect(d10).toMatchObject({ orders: 2, quantity: 6, gross: cents(A.total + B.total), tax: cents(A.itemTaxes + B.itemTaxes), refunds: 0 });
    expect(d10.net).toBe(cents(A.total - A.itemTaxes + B.total - B.itemTaxes));
    expect(d11).toMatchObject({ orders: 1, quantity: 0, gross: cents(C.total + R.total), refunds: cents(R.total) });
    expect(R.total).toBe(-5);
    expect(r.totals).toMatchObject({ orders: 3, quantity: 6, gross: cents(A.total + B.total + C.total + R.total) });
    // Cost and margin for an owner: P costs 2.00, T 7.10.
    expect(r.totals.cost).toBe(3 * 200 + 3 * 710 + 200 - 200);
    expect(r.totals.margin).toBe(r.totals.net - r.totals.cost);
  });

  it('buckets hours 0-23 of local time', async () => {
    const r = await report(`group=hour&from=2026-03-10&to=2026-03-11&store=${main}`);
    expect(r.rows).toHaveLength(24);
    const gross = Object.fromEntries(r.rows.filter((x: any) => x.gross !== 0 || x.orders).map((x: any) => [x.key, x.gross]));
    expect(gross).toEqual({ 0: cents(C.total), 9: cents(A.total), 12: cents(R.total), 23: cents(B.total) });
    expect(r.rows[9].label).toBe('09:00');
    // One day only: the 11th's midnight sale and the return are not in the 10th.
    const one = await report(`group=hour&from=2026-03-10&to=2026-03-10&store=${main}`);
    expect(one.totals.gross).toBe(cents(A.total + B.total));
  });

  it('groups by product, cashier, payment type and tax rate with the same totals', async () => {
    const byProduct = await report(`group=product&from=2026-03-10&to=2026-03-11&store=${main}`);
    const p = byProduct.rows.find((x: any) => x.key === String(P));
    expect(p).toMatchObject({ quantity: 3 + 1 - 1, orders: 2, refunds: -500, gross: 1500 });
    // A page keeps the largest groups; the total still covers every line.
    const first = await report(`group=product&from=2026-03-10&to=2026-03-11&store=${main}&limit=1`);
    expect(first).toMatchObject({ groups: 2, totals: byProduct.totals });
    expect(first.rows.map((x: any) => x.key)).toEqual([String(T)]);
    const byCashier = await report(`group=cashier&from=2026-03-10&to=2026-03-11&store=${main}`);
    expect(byCashier.rows).toHaveLength(1);
    expect(byCashier.rows[0]).toMatchObject({ label: expect.any(String), refunds: -500, orders: 3 });
    expect(byCashier.totals.gross).toBe(byProduct.totals.gross);
    const byPayment = await report(`group=payment&from=2026-03-10&to=2026-03-11&store=${main}`);
    const cardRow = byPayment.rows.find((x: any) => x.key === String(card));
    expect(cardRow).toMatchObject({ gross: 1000, orders: 1 });
    expect(byPayment.totals.gross).toBe(cents(A.total + B.total + C.total + R.total));
    const byTax = await report(`group=tax&from=2026-03-10&to=2026-03-11&store=${main}`);
    expect(byTax.totals.tax).toBe(cents(A.itemTaxes + B.itemTaxes));
    expect(byTax.rows.find((x: any) => x.key === null).net).toBe(1500);
  });

  it('answers CSV with a header row and amounts in major units', async () => {
    const res = await get(`/api/reports/sales?group=day&from=2026-03-10&to=2026-03-11&store=${main}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parseCsv(res.body).rows;
    expect(rows[0]).toEqual(['Key', 'Label', 'Orders', 'Quantity', 'Net', 'Tax', 'Gross', 'Discount', 'Refunds', 'Cost', 'Margin']);
    expect(rows.map((r) => r[0])).toEqual(['Key', '2026-03-10', '2026-03-11', '']);
    expect(rows[2][6]).toBe((C.total + R.total).toFixed(2));
    expect(rows[3][1]).toBe('Total');
    expect(rows[3][8]).toBe('-5.00');
  });

  it('top sellers and slow movers', async () => {
    const top = (await get(`/api/reports/products?sort=top&from=2026-03-10&to=2026-03-11&store=${main}&limit=2`)).json();
    expect(top.rows.map((x: any) => [x.key, x.quantity])).toEqual([[String(T), 3], [String(P), 3]]); // a tie on quantity: the larger net first
    const slow = await get(`/api/reports/products?sort=slow&from=2026-03-10&to=2026-03-11&store=${main}&limit=5`);
    expect(slow.statusCode, slow.body).toBe(200);
    for (const row of slow.json().rows) expect(row).toMatchObject({ quantity: 0, stock: expect.any(Number) });
    expect(slow.json().rows.length).toBeGreaterThan(0);
  });

  it('slow movers go on with the least sold once the products that sold nothing run out', async () => {
    // P sold 3 in the range; with stock it belongs on the list after every product with stock that sold nothing.
    await t.app.db.execute(sql`insert into product_store (product_id, store_id, quantity) values (${P}, ${main}, 7)
      on conflict (product_id, store_id) do update set quantity = 7`);
    const rows = (await get(`/api/reports/products?sort=slow&from=2026-03-10&to=2026-03-11&store=${main}&limit=500`)).json().rows as Array<{ key: string; quantity: number; stock: number }>;
    const unsold = rows.filter((r) => r.quantity === 0).length;
    expect(unsold).toBeGreaterThan(0);
    expect(rows.slice(0, unsold).every((r) => r.quantity === 0)).toBe(true);
    expect(rows.slice(unsold)).toEqual([expect.objectContaining({ key: String(P), quantity: 3, stock: 7 })]);
    // With a limit the unsold ones fill, the sold never show.
    const few = (await get(`/api/reports/products?sort=slow&from=2026-03-10&to=2026-03-11&store=${main}&limit=${unsold}`)).json().rows as Array<{ key: string }>;
    expect(few.map((r) => r.key)).toEqual(rows.slice(0, unsold).map((r) => r.key));
  });
});

describe('who may see reports, and bad input', () => {
  it('a cashier gets 403; a manager of one store gets 404 for another store', async () => {
    const cashier = await t.login('cashier');
    expect((await get('/api/reports/sales?from=2026-03-10&to=2026-03-10', cashier)).statusCode).toBe(403);
    for (const path of ['products', 'customers', 'suppliers']) expect((await get(`/api/reports/${path}?from=2026-03-10&to=2026-03-10`, cashier)).statusCode).toBe(403);
    const m = await createStaff(t, { username: 'reportmgr', role: 'manager', stores: [mall] });
    const mgr = await t.login('reportmgr', m.password);
    expect((await get(`/api/reports/sales?from=2026-03-10&to=2026-03-10&store=${main}`, mgr)).statusCode).toBe(404);
    const own = (await get('/api/reports/sales?group=store&from=2026-03-10&to=2026-03-10', mgr)).json();
    expect(own.rows.map((x: any) => x.key)).toEqual([String(mall)]);
  });

  it("without 'cost.view' a report has no cost nor margin, in JSON and CSV", async () => {
    const role = await t.app.inject({ method: 'POST', url: '/api/roles', headers: admin, payload: { name: 'Reader', permissions: ['reports.view'] } });
    expect(role.statusCode, role.body).toBe(201);
    const u = await createStaff(t, { username: 'reader', role: role.json().role.id, stores: [main] });
    const reader = await t.login('reader', u.password);
    const r = (await get(`/api/reports/sales?group=product&from=2026-03-10&to=2026-03-11`, reader)).json();
    expect(r.rows.length).toBeGreaterThan(0);
    for (const row of [...r.rows, r.totals]) expect(Object.keys(row)).not.toContain('cost');
    expect(Object.keys(r.totals)).not.toContain('margin');
    const csv = parseCsv((await get('/api/reports/sales?from=2026-03-10&to=2026-03-11&format=csv', reader)).body).rows;
    expect(csv[0]).not.toContain('Cost');
    const top = (await get('/api/reports/products?from=2026-03-10&to=2026-03-11', reader)).json();
    expect(Object.keys(top.rows[0])).not.toContain('margin');
  });

  it.each([
    ['group=week&from=2026-03-10&to=2026-03-10', 'group'],
    ['from=2026-02-30&to=2026-03-10', 'from'],
    ['from=2026-03-10', 'to'],
    ['from=2026-03-11&to=2026-03-10', 'to'],
    ['from=2025-03-10&to=2026-03-11', 'to'],
    ['from=2026-03-10&to=2026-03-10&store=abc', 'store'],
  ])('422 naming the field: %s', async (query, field) => {
    const res = await get(`/api/reports/sales?${query}`);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().violations.map((v: any) => v.propertyPath)).toContain(field);
  });

  it('a year of 366 days is accepted', async () => {
    expect((await get(`/api/reports/sales?from=2027-01-01&to=2028-01-01&store=${main}`)).statusCode).toBe(200);
  });

  it('never sums two currencies: stores of different currencies need a store chosen', async () => {
    await t.app.db.update(store).set({ currency: 'KWD' }).where(eq(store.id, mall));
    const res = await get('/api/reports/sales?from=2026-03-10&to=2026-03-10');
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0]).toMatchObject({ propertyPath: 'store', message: expect.stringContaining('KWD, USD') });
    const kwd = (await get(`/api/reports/sales?group=store&from=2026-03-10&to=2026-03-10&store=${mall}`)).json();
    expect(kwd).toMatchObject({ currency: 'KWD', digits: 3 });
    expect(kwd.totals.gross).toBe(20_000); // 4 × 5.000
    await t.app.db.update(store).set({ currency: 'USD' }).where(eq(store.id, mall));
  });
});
