import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { paymentType, product, productPrice, productTax, store, terminal } from '../../db/schema/index.ts';

/**
 * Issue 23.4: the drawer's count against the server's expected cash (over/short) on every day, and
 * the list of past closings a till reprints its Z report from.
 */
let t: TestApp;
let cashier: Record<string, string>;
let mallOnly: Record<string, string>;
let main: number;
let t1: number;
let cash: number;
let itemId: number;

beforeAll(async () => {
  t = await createTestApp();
  cashier = await t.login('cashier');
  const db = t.app.db;
  const stores = await db.select().from(store).orderBy(asc(store.id));
  main = stores[0].id;
  t1 = (await db.select().from(terminal)).find((x) => x.code === 'T1')!.id;
  cash = (await db.select().from(paymentType)).find((x) => x.type === 'cash')!.id;
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  const ruled = new Set((await db.select().from(productPrice)).map((r) => r.productId));
  itemId = (await db.select().from(product).orderBy(asc(product.id))).find((x) => !taxed.has(x.id) && !ruled.has(x.id) && x.isActive)!.id;
  await db.update(product).set({ basePrice: '12.50' }).where(eq(product.id, itemId));
  const staff = await createStaff(t, { username: 'mallclerk', role: 'cashier', stores: [stores[1].id] });
  mallOnly = await t.login('mallclerk', staff.password);
});
afterAll(async () => { await t?.close(); });

const get = (url: string, headers = cashier) => t.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: unknown, headers = cashier) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });

async function sellForCash(qty: number) {
  const amount = qty * 12.5;
  const res = await post('/api/admin/order/create', {
    items: [{ item: { id: itemId }, variant: null, quantity: qty, price: 12.5, discount: 0, taxes: [] }],
    payments: [{ received: amount, total: amount, due: 0, type: { id: cash } }],
    store: main, terminal: t1, adjustment: 0, status: 'Completed', notes: '',
  });
  expect(res.statusCode, res.body).toBe(201);
}

/** Opens, starts with 100, sells `qty` for cash, counts the drawer and closes: the closed day. */
async function closeDay(qty: number, counts: Record<string, number>) {
  const day = (await get(`/api/admin/closing/opened?store=${main}&terminal=${t1}`)).json().closing;
  expect((await post(`/api/admin/closing/${day.id}`, { openingBalance: '100', updateOnly: true })).statusCode).toBe(200);
  await sellForCash(qty);
  const res = await post(`/api/admin/closing/${day.id}`, { denominations: counts });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().closing;
}

describe('over/short and past closings', () => {
  it('a counted drawer one dollar short is -1, one over is +1, and the open day shows its count live', async () => {
    // Expected 100 + 2 × 12.50 = 125; counted 100 + 20 + 4 × 1 = 124.
    const short = await closeDay(2, { '100': 1, '20': 1, '1': 4 });
    expect(short).toMatchObject({ expectedCash: 125, countedCash: 124, overShort: -1 });
    // Expected 100 + 12.50; counted 100 + 10 + 2 + 0.50 + 1.00 = 113.50.
    const over = await closeDay(1, { '100': 1, '10': 1, '2': 1, '0.5': 1, '1': 1 });
    expect(over).toMatchObject({ expectedCash: 112.5, countedCash: 113.5, overShort: 1 });
    const open = (await get(`/api/admin/closing/opened?store=${main}&terminal=${t1}`)).json().closing;
    expect(open).toMatchObject({ closedAt: null, countedCash: null, overShort: null });
  });

  it('lists the closed days of the store newest first with their figures, never the open one', async () => {
    const res = await get(`/api/admin/closing/list?store=${main}&terminal=${t1}&itemsPerPage=1`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(2);
    expect(body.list).toHaveLength(1);
    expect(body.list[0]).toMatchObject({ expectedCash: 112.5, countedCash: 113.5, overShort: 1, closedBy: { username: 'cashier' } });
    const page2 = (await get(`/api/admin/closing/list?store=${main}&itemsPerPage=1&page=2`)).json();
    expect(page2.list[0]).toMatchObject({ expectedCash: 125, overShort: -1 });
    expect(page2.list[0].closedAt.datetime <= body.list[0].closedAt.datetime).toBe(true);
  });

  it('refuses a store that is not the caller\'s and names bad paging', async () => {
    const other = await get(`/api/admin/closing/list?store=${main}`, mallOnly);
    expect(other.statusCode).toBe(422);
    expect(other.json().violations[0].propertyPath).toBe('store');
    const big = await get(`/api/admin/closing/list?store=${main}&itemsPerPage=1000`);
    expect(big.statusCode).toBe(422);
    expect(big.json().violations[0].propertyPath).toBe('itemsPerPage');
    expect((await get(`/api/admin/closing/list?store=abc`)).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/closing/list?store=${main}` })).statusCode).toBe(401);
  });
});
