import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { productSupplier, purchaseOrder, purchaseOrderItem, supplier } from '../../db/schema/index.ts';
import { sell, stockFixture, stockRequests, type StockFixture } from './stock.fixtures.ts';
import { REORDER_MESSAGES } from './reorder.service.ts';

let f: StockFixture;
let s1: number; let s2: number;
beforeAll(async () => {
  f = await stockFixture();
  const db = f.t.app.db;
  // Only what this test sets is at a level; A from supplier 1, B from supplier 2, N from nobody.
  await db.execute(sql`update product_store set re_order_level = null, re_order_quantity = null`);
  [s1, s2] = (await db.select().from(supplier).orderBy(asc(supplier.id))).map((s) => s.id);
  await db.delete(productSupplier).where(inArray(productSupplier.productId, [f.A.id, f.B.id, f.N.id]));
  await db.insert(productSupplier).values([{ productId: f.A.id, otherId: s1 }, { productId: f.B.id, otherId: s2 }]);
});
afterAll(async () => { await f?.t.close(); });

const { post, get } = stockRequests(() => f);
const put = (url: string, payload: unknown, headers = f.admin) => f.t.app.inject({ method: 'PUT', url, payload: payload as any, headers });
const poCount = async () => Number((await f.t.app.db.select({ n: sql<number>`count(*)::int` }).from(purchaseOrder))[0].n);
const paths = (res: { json(): any }) => res.json().violations.map((v: any) => v.propertyPath);

describe('re-order levels, the "to order" list and its draft purchase orders', () => {
  it('lists what is at or below its level, grouped by supplier with suggested quantities and cost; makes one draft order per supplier', async () => {
    const { A, B, N, main } = f;
    // A: 50 in stock, level 50 (at it), order 24; B: 20, level 25, no quantity (up to the level: 5); N: level 0 (above).
    const set = await put('/api/stock/reorder/levels', { store: main, lines: [
      { product: A.id, level: 50, quantity: 24 }, { product: `/api/products/${B.id}`, level: '25' }, { product: N.id, level: -1 },
    ] });
    expect(set.statusCode).toBe(422);
    expect(paths(set)).toEqual(['lines[2].level']);
    expect((await put('/api/stock/reorder/levels', { store: main, lines: [{ product: A.id, level: 50, quantity: 24 }, { product: B.id, level: '25' }, { product: N.id, level: 0 }] })).statusCode).toBe(200);
    // The product form's store rows show both.
    const pa = (await get(`/api/products/${A.id}`)).json();
    expect(pa.stores.find((s: any) => s.store.id === main)).toMatchObject({ reOrderLevel: '50', reOrderQuantity: '24' });

    const list = (await get(`/api/stock/reorder?store=${main}`)).json();
    expect(list.count).toBe(2);
    const bySupplier = Object.fromEntries(list.suppliers.map((g: any) => [g.supplier.id, g.lines.map((l: any) => [l.product.id, l.stock, l.level, l.suggested, l.cost, l.value])]));
    expect(bySupplier).toEqual({ [s1]: [[A.id, 50, 50, 24, 6, 144]], [s2]: [[B.id, 20, 25, 5, 2.5, 12.5]] });
    expect(list.suppliers.map((g: any) => g.value).sort()).toEqual([12.5, 144]);

    // N below its level but without a supplier: listed apart, and left out of the orders.
    await put('/api/stock/reorder/levels', { store: main, lines: [{ product: N.id, level: 1000 }] });
    const again = (await get(`/api/stock/reorder?store=${main}`)).json();
    expect(again.suppliers.at(-1)).toMatchObject({ supplier: null, lines: [{ product: { id: N.id } }] });

    const before = await poCount();
    const made = await post('/api/stock/reorder/purchase-orders', { store: main });
    expect(made.statusCode, made.body).toBe(201);
    const ids = made.json().purchaseOrders.map((p: any) => p.id);
    expect(ids).toHaveLength(2);
    expect(await poCount()).toBe(before + 2);
    const pos = await f.t.app.db.select().from(purchaseOrder).where(inArray(purchaseOrder.id, ids)).orderBy(asc(purchaseOrder.id));
    expect(pos.map((p) => [p.supplierId, p.storeId, p.isUsed, p.poNumber])).toEqual([[s1, main, false, `RO-${main}-1`], [s2, main, false, `RO-${main}-2`]]);
    const items = await f.t.app.db.select().from(purchaseOrderItem).where(inArray(purchaseOrderItem.purchaseOrderId, ids)).orderBy(asc(purchaseOrderItem.id));
    expect(items.map((i) => [i.purchaseOrderId, i.itemId, Number(i.quantity), Number(i.price)])).toEqual([[ids[0], A.id, 24, 6], [ids[1], B.id, 5, 2.5]]);

    // Chosen lines with a changed quantity: one order.
    const one = await post('/api/stock/reorder/purchase-orders', { store: main, lines: [{ product: B.id, quantity: 7 }] });
    expect(one.statusCode, one.body).toBe(201);
    const [item] = await f.t.app.db.select().from(purchaseOrderItem).where(eq(purchaseOrderItem.purchaseOrderId, one.json().purchaseOrders[0].id));
    expect(Number(item.quantity)).toBe(7);

    // Refused, nothing written: a product not to order, one without a supplier, a zero quantity.
    const n = await poCount();
    for (const [lines, field, message] of [
      [[{ product: A.id }, { product: f.U.id }], 'lines[1].product', REORDER_MESSAGES.notToOrder],
      [[{ product: N.id }], 'lines[0].product', REORDER_MESSAGES.noSupplier],
      [[{ product: A.id, quantity: 0 }], 'lines[0].quantity', undefined],
    ] as const) {
      const res = await post('/api/stock/reorder/purchase-orders', { store: main, lines });
      expect(res.statusCode, res.body).toBe(422);
      expect(paths(res)).toEqual([field]);
      if (message) expect(res.json().violations[0].message).toBe(message);
    }
    expect(await poCount()).toBe(n);
  });

  it('the low-stock tile counts and names the first few; selling below a level puts a product on it', async () => {
    const { A, B, N, main } = f;
    await put('/api/stock/reorder/levels', { store: main, lines: [{ product: A.id, level: 48 }, { product: B.id, level: null }, { product: N.id, level: null }] });
    const none = (await get(`/api/stock/low?store=${main}`)).json();
    expect(none).toMatchObject({ store: main, count: 0, products: [] });
    await sell(f, A, 3); // 50 -> 47, below 48
    const low = (await get(`/api/stock/low?store=${main}&limit=1`)).json();
    expect(low).toMatchObject({ count: 1, products: [{ id: A.id, stock: 47, level: 48, supplier: { id: s1 } }] });
  });

  it('422 names the field for a bad store or level; a store not the caller\'s is refused as unknown', async () => {
    const { A, N, main, mall } = f;
    const cases: [string, unknown, string[]][] = [
      ['/api/stock/reorder/levels', { store: 999, lines: [{ product: A.id, level: 1 }] }, ['store']],
      ['/api/stock/reorder/levels', { store: main, lines: [{ product: A.id, level: 'x' }] }, ['lines[0].level']],
      ['/api/stock/reorder/levels', { store: mall, lines: [{ product: N.id, level: 1 }] }, ['lines[0].product']], // N is not stocked in the mall
      ['/api/stock/reorder/levels', { store: main, lines: [] }, ['lines']],
    ];
    for (const [url, body, want] of cases) {
      const res = await put(url, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(paths(res)).toEqual(want);
    }
    for (const url of ['/api/stock/reorder?store=999', '/api/stock/reorder', '/api/stock/low?store=abc', `/api/stock/low?store=${main}&limit=0`]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(422);
      expect(paths(res)[0]).toMatch(/^(store|limit)$/);
    }
    // The cashier works in main only: the mall is not theirs (and they lack 'purchasing' anyway).
    const mallKeeper = await f.t.app.inject({ method: 'POST', url: '/api/admin/user/create', headers: f.admin, payload: { username: 'ro_mall', password: 'ro_mall-Secret-1', displayName: 'Mall', email: 'ro@example.com', role: 'manager', stores: [String(mall)] } });
    expect(mallKeeper.statusCode, mallKeeper.body).toBeLessThan(300);
    const mk = await f.t.login('ro_mall', 'ro_mall-Secret-1');
    const foreign = await get(`/api/stock/reorder?store=${main}`, mk);
    expect(foreign.statusCode).toBe(422);
    expect(paths(foreign)).toEqual(['store']);
    expect((await post('/api/stock/reorder/purchase-orders', { store: main }, mk)).statusCode).toBe(422);
  });

  it('a cashier is refused (403) on every new route', async () => {
    const { A, main } = f;
    const calls = [
      () => get(`/api/stock/reorder?store=${main}`, f.cashier),
      () => post('/api/stock/reorder/purchase-orders', { store: main }, f.cashier),
      () => put('/api/stock/reorder/levels', { store: main, lines: [{ product: A.id, level: 1 }] }, f.cashier),
      () => get(`/api/stock/low?store=${main}`, f.cashier),
      () => get('/api/stock/valuation', f.cashier),
      () => get(`/api/stock/movements?product=${A.id}`, f.cashier),
    ];
    for (const call of calls) expect((await call()).statusCode).toBe(403);
  });
});
