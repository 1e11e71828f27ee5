/** What the sales leave behind: idempotent retries, the lists and searches over the orders, and the stock ledger. */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { barcode, order, product, stockMovement } from '../../db/schema/index.ts';
import { canonicalJson, requestHash } from './sales.service.ts';
import { t, admin, cashier, main, mall, m1, pay, vat, cust, A, B, C, clothing, variants, inject, body, cashPaid, create, storeQty, variantQty, assertLedgerMatchesStock, sell, openSalesShop } from './sales.fixtures.ts';

openSalesShop();

describe('idempotency', () => {
  it('the request hash is unchanged: one-pass canonical JSON equals the former sorted-copy JSON.stringify', () => {
    const canonical = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(canonical);
      if (value && typeof value === 'object') {
        return Object.fromEntries(Object.keys(value as object).sort().filter((k) => (value as any)[k] !== undefined)
          .map((k) => [k, canonical((value as any)[k])]));
      }
      return value;
    };
    const samples: unknown[] = [
      null, 0, -1.5, 'x"y\\u2028', true, [], {}, [undefined, null, 1], { b: 1, a: { d: [1, { z: undefined, y: 'é' }], c: null }, u: undefined },
      body([{ p: A, qty: 1 }, { p: B, qty: '2.5', discount: 1 }], { ...cashPaid(10), uuid: 'u-1', store: main }),
      { edit: 7, body: { items: [{ item: { id: 1, taxes: [{ id: 2, rate: 16 }] }, quantity: 1e21 }], notes: '\u0000' } },
      // Keys written as they are and keys JSON.stringify escapes; keys in every order (the insertion sort).
      { 'a"b': 1, 'é': 2, '': 3, '@id': 4, 'line\nbreak': 5, 'Z': 6, 'a-b.c$': 7, 'ب': 10, 'A': 11 },
    ];
    for (const x of samples) expect(canonicalJson(x)).toBe(JSON.stringify(canonical(x)));
    expect(requestHash({ b: 2, a: 1 })).toBe(requestHash({ a: 1, b: 2 }));
  });

  it('a retried submission with the same key returns the first order; a different body is a 409', async () => {
    const b = body([{ p: A, qty: 1 }], cashPaid(10));
    const key = { 'idempotency-key': `k-${Date.now()}` };
    const before = await storeQty(A.id);
    const first = await create(b, cashier, key);
    expect(first.statusCode).toBe(201);
    const second = await create(b, cashier, key);
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.json().order.id).toBe(first.json().order.id);
    expect(await storeQty(A.id)).toBe(before - 1);
    const other = await create(body([{ p: A, qty: 2 }], cashPaid(20)), cashier, key);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({ code: 'CONFLICT', message: 'This Idempotency-Key was already used for a different sale' });
  });

  it('a stored key answers with its order even when the retry would now fail validation; a bad terminal is a 422 that leaves nothing', async () => {
    const b = body([{ p: C, qty: 1 }], cashPaid(4.5));
    const key = { 'idempotency-key': `k2-${Date.now()}` };
    const first = await create(b, cashier, key);
    expect(first.statusCode).toBe(201);
    await t.app.db.update(product).set({ isActive: false }).where(eq(product.id, C.id));
    try {
      const retry = await create(b, cashier, key);
      expect(retry.statusCode, retry.body).toBe(200);
      expect(retry.json().order.id).toBe(first.json().order.id);
      expect((await create(b)).statusCode).toBe(422); // without the key it is a new sale, refused
    } finally {
      await t.app.db.update(product).set({ isActive: true }).where(eq(product.id, C.id));
    }
    const [{ n: before }] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(order);
    const bad = await create(body([{ p: C, qty: 1 }], { ...cashPaid(4.5), terminal: m1 }), cashier, { 'idempotency-key': `k3-${Date.now()}` });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations).toEqual([{ propertyPath: 'terminal', message: `'Terminal' with ID '${m1}' not found` }]);
    const [{ n: after }] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(order);
    expect(after).toBe(before);
  });

  it('a uuid in the body works the same', async () => {
    const b = body([{ p: C, qty: 1 }], { ...cashPaid(4.5), uuid: '0b8f0e52-5a0e-4a1c-9c3f-2a4b8f7c9d01' });
    const first = await create(b);
    const second = await create(b);
    expect([first.statusCode, second.statusCode]).toEqual([201, 200]);
    expect(second.json().order.id).toBe(first.json().order.id);
  });
});

describe('lists', () => {
  // What the lists read, written here: a sale to a named walk-in, sales by cash, card and credit
  // (a taxed product among them), a pending order deleted and a held one; more than two pages of three.
  beforeAll(async () => {
    await sell([{ p: C, qty: 1 }], { customer: 'Mr Smith', ...cashPaid(4.5) });
    for (let i = 0; i < 3; i++) await sell([{ p: B, qty: 2 }], cashPaid(10));
    await sell([{ p: A, qty: 1 }], { payments: [{ received: 10, type: pay.card }] });
    await sell([{ p: A, qty: 1 }], { customerId: cust.bilal, payments: [{ received: 10, type: pay.credit }] });
    const pending = await sell([{ p: A, qty: 1 }], { status: 'Pending', payments: [] });
    expect((await inject('DELETE', `/api/admin/order/${pending.id}`)).json().order.status).toBe('Deleted');
    await sell([{ p: A, qty: 1 }], { isSuspended: true, payments: [] });
  });

  it('admin/order/list filters, pages, sorts and sums payments per type over all matching orders', async () => {
    const all = await inject('GET', '/api/admin/order/list?itemsPerPage=1000');
    expect(all.statusCode).toBe(200);
    const full = all.json();
    expect(full.list.every((o: any) => o.store.id === main)).toBe(true); // the cashier's store only
    const settled = full.list.filter((o: any) => ['Completed', 'Dispatched', 'Partially Returned', 'Returned'].includes(o.status));
    const sum = (type: string) => Math.round(settled.flatMap((o: any) => o.payments).filter((p: any) => p.type?.type === type)
      .reduce((s: number, p: any) => s + p.total * 100, 0)) / 100;
    const page = await inject('GET', '/api/admin/order/list?page=2&itemsPerPage=3&order[orderId]=desc');
    const pj = page.json();
    expect(pj).toMatchObject({ total: full.total, count: 3 });
    expect(pj.list).toHaveLength(3);
    expect(pj.payments).toEqual(full.payments);
    expect(pj.payments.cash).toBe(sum('cash'));
    expect(pj.payments['credit card']).toBe(sum('credit card'));
    expect(pj.payments.credit).toBe(sum('credit'));
    const numbers = pj.list.map((o: any) => o.orderId ?? 0);
    expect([...numbers].sort((a, b) => b - a)).toEqual(numbers);
    // Search by customer name, by number and by status.
    const q = await inject('GET', '/api/admin/order/list?q=Mr%20Smith');
    expect(q.json().list.map((o: any) => o.customerName)).toEqual(['Mr Smith']);
    const st = await inject('GET', '/api/admin/order/list?q=Deleted&itemsPerPage=100');
    expect(st.json().list.length).toBeGreaterThan(0);
    expect(st.json().list.every((o: any) => o.status === 'Deleted')).toBe(true);
    expect(st.json().payments).toEqual({ cash: 0 });
    // Date range: the till's local format and full ISO.
    const future = await inject('GET', '/api/admin/order/list?dateTimeFrom=2999-01-01T00:00');
    expect(future.json()).toEqual({ list: [], total: 0, count: 0, payments: { cash: 0 } });
    const iso = await inject('GET', `/api/admin/order/list?dateTimeFrom=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&dateTimeTo=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&store=${main}&page=1&itemsPerPage=10`);
    expect(iso.json().total).toBe(full.total);
    const bad = await inject('GET', '/api/admin/order/list?dateTimeFrom=yesterday');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations[0].propertyPath).toBe('dateTimeFrom');
    const other = await inject('GET', `/api/admin/order/list?store=${mall}`);
    expect(other.statusCode).toBe(422);
    // Junk parameters of the old client are ignored.
    const junk = await inject('GET', '/api/admin/order/list?=undefined&q=undefined&store=undefined&customerId=null');
    expect(junk.json().total).toBe(full.total);
    const byItem = await inject('GET', `/api/admin/order/list?itemId=${B.id}&itemsPerPage=100`);
    expect(byItem.json().list.every((o: any) => o.items.some((i: any) => i.product.id === B.id))).toBe(true);
  });

  it('store scoping: orders of another store are 404 / invisible to a cashier', async () => {
    const mallSale = await sell([{ p: clothing, qty: 1, variant: variants[1] }], { store: mall, terminal: m1, ...cashPaid(100) }, admin);
    expect((await inject('GET', `/api/admin/order/${mallSale.id}`)).statusCode).toBe(404);
    expect((await inject('GET', `/api/orders/${mallSale.id}`)).statusCode).toBe(404);
    expect((await inject('DELETE', `/api/admin/order/${mallSale.id}`)).statusCode).toBe(404);
    expect((await inject('POST', `/api/admin/order/refund/${mallSale.id}`)).statusCode).toBe(404);
    expect((await inject('PUT', `/api/admin/order/edit/${mallSale.id}`, body([{ p: A, qty: 1 }], cashPaid(10)))).statusCode).toBe(404);
    const found = await inject('GET', `/api/orders?orderId=${mallSale.orderId}`);
    expect(found.json()['hydra:member'].every((o: any) => o.store.id === main)).toBe(true);
    const adminFind = await inject('GET', `/api/orders?orderId=${mallSale.orderId}&store.id=${mall}`, undefined, admin);
    expect(adminFind.json()['hydra:member'].map((o: any) => o.id)).toEqual([mallSale.id]);
  });

  it('order numbers are per store, consecutive from 1', async () => {
    const rows = await t.app.db.select({ storeId: order.storeId, n: order.orderId }).from(order).where(sql`${order.orderId} is not null`).orderBy(asc(order.orderId));
    for (const s of [main, mall]) {
      const ns = rows.filter((r) => r.storeId === s).map((r) => r.n);
      expect(ns).toEqual(ns.map((_, i) => i + 1));
    }
    const held = await t.app.db.select().from(order).where(and(eq(order.status, 'On Hold'), isNull(order.orderId)));
    expect(held.length).toBeGreaterThan(0);
  });

  it('order_products: lines of a product with IRIs', async () => {
    const res = await inject('GET', `/api/order_products/?product.id=/api/products/${B.id}&page=1&itemsPerPage=50`);
    expect(res.statusCode).toBe(200);
    const m = res.json()['hydra:member'];
    expect(m.length).toBeGreaterThan(0);
    expect(m.find((x: any) => x.taxes.length)).toMatchObject({
      '@id': expect.stringMatching(/^\/api\/order_products\/\d+$/), product: `/api/products/${B.id}`, order: expect.stringMatching(/^\/api\/orders\/\d+$/),
      variant: null, taxes: [`/api/taxes/${vat.id}`], quantity: expect.any(Number), price: 2.99, taxesTotal: expect.any(Number), createdAt: expect.any(String),
    });
    expect(res.json()['hydra:totalItems']).toBeGreaterThanOrEqual(m.length);
  });

  it('every route needs a signed-in user', async () => {
    for (const [method, url] of [['GET', '/api/admin/order/list'], ['POST', '/api/admin/order/create'], ['GET', '/api/orders'], ['GET', '/api/order_products']] as const) {
      expect((await t.app.inject({ method, url, headers: { authorization: 'Bearer undefined' } })).statusCode).toBe(401);
    }
  });
});

describe('ledger', () => {
  it('set-based stock moves: selling more than is on the shelf goes negative exactly; the same row on two lines moves once, summed', async () => {
    const [v0] = variants;
    const before = { a: await storeQty(A.id), v: await variantQty(v0.id), cl: await storeQty(clothing.id, mall) };
    const much = Math.max(before.a, 0) + 7; // more than in stock: the sale is still taken (no oversell check), stock goes below zero
    const res = await create(body([{ p: A, qty: much }, { p: C, qty: 1 }, { p: A, qty: '0.5' }], { ...cashPaid(100000) }), admin);
    expect(res.statusCode, res.body).toBe(201);
    expect(await storeQty(A.id)).toBe(Math.min(before.a, 0) - 7.5);
    const res2 = await create(body([{ p: clothing, qty: 1, variant: { id: v0.id } }, { p: clothing, qty: 2, variant: { id: v0.id } }],
      { store: mall, terminal: m1, ...cashPaid(100000) }), admin);
    expect(res2.statusCode, res2.body).toBe(201);
    expect(await variantQty(v0.id)).toBe(before.v - 3);
    expect(await storeQty(clothing.id, mall)).toBe(before.cl - 3);
    const movesOf = async (id: number) => (await t.app.db.select().from(stockMovement).where(eq(stockMovement.orderId, id)))
      .map((m) => [m.productId, m.variantId, m.storeId, Number(m.quantity)]);
    expect(await movesOf(res.json().order.id)).toEqual([[A.id, null, main, -(much + 0.5)]]);
    expect((await movesOf(res2.json().order.id)).sort()).toEqual([[clothing.id, null, mall, -3], [clothing.id, v0.id, mall, -3]].sort());
    await assertLedgerMatchesStock();
    // Deleting them gives every row back through the same set-based path.
    for (const r of [res, res2]) expect((await inject('DELETE', `/api/admin/order/${r.json().order.id}`, undefined, admin)).statusCode).toBe(200);
    expect(await storeQty(A.id)).toBe(before.a);
    expect(await variantQty(v0.id)).toBe(before.v);
    expect(await storeQty(clothing.id, mall)).toBe(before.cl);
    await assertLedgerMatchesStock();
  });

  it('after everything above, the stock ledger still sums to the stock', async () => {
    await assertLedgerMatchesStock();
    const weighed = await t.app.db.select().from(barcode);
    expect(weighed.length).toBeGreaterThan(0);
  });
});
