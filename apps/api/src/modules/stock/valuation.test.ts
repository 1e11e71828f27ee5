import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull, lte } from 'drizzle-orm';
import { mulPriceQty, parseMinor, parseQuantity } from '@pos/domain/money';
import { productStore, stockMovement } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/raw.ts';
import { expectLedgerMatchesStock, sell, stockFixture, stockRequests, storeQty, type StockFixture } from './stock.fixtures.ts';

let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const { post, get } = stockRequests(() => f);
let purchases = 0;

/** A goods receipt of `lines` into a store (stock updated; prices updated when asked). */
async function receive(store: number, lines: [productId: number, qty: number | string, price: string][], updatePrice = false) {
  const res = await post('/api/purchases', {
    createdAt: '2026-11-01T10:00:00Z', purchaseNumber: `V-${++purchases}`, purchaseMode: 'Items list', supplier: '/api/suppliers/1',
    paymentType: `/api/payments/${f.cash}`, store, updateStocks: true, updatePrice,
    items: lines.map(([id, quantity, purchasePrice]) => ({ item: `/api/products/${id}`, quantity: String(quantity), purchasePrice, variants: [] })),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const avgCost = async (productId: number, storeId: number) =>
  (await f.t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId))))[0]?.avgCost ?? null;

/** The database's clock between two steps (ledger times are the database's). */
async function now(): Promise<string> {
  const [r] = rowsOf<{ t: Date }>(await f.t.app.db.execute('select clock_timestamp() as t'));
  await new Promise((r) => setTimeout(r, 5));
  return new Date(r.t).toISOString();
}

/** The test's own reference: the ledger's store rows up to `at` replayed (sum, last cost), valued per (product, store), added per store. */
async function replay(at: string): Promise<Map<number, number>> {
  const rows = await f.t.app.db.select().from(stockMovement)
    .where(and(isNull(stockMovement.variantId), lte(stockMovement.createdAt, new Date(at)))).orderBy(asc(stockMovement.createdAt), asc(stockMovement.id));
  const managed = new Set(rowsOf<{ id: number }>(await f.t.app.db.execute('select id from product where manage_inventory')).map((r) => Number(r.id)));
  const state = new Map<string, { store: number; qty: number; cost: number }>();
  for (const r of rows) {
    if (!managed.has(r.productId)) continue;
    const k = `${r.productId}:${r.storeId}`;
    const s = state.get(k) ?? { store: r.storeId!, qty: 0, cost: 0 };
    s.qty += parseQuantity(r.quantity);
    s.cost = parseMinor(r.unitCost, 2);
    state.set(k, s);
  }
  const byStore = new Map<number, number>();
  for (const s of state.values()) byStore.set(s.store, (byStore.get(s.store) ?? 0) + mulPriceQty(s.cost, s.qty));
  return byStore;
}

async function valuationAt(at: string, group = 'store') {
  const res = await get(`/api/stock/valuation?at=${encodeURIComponent(at)}&group=${group}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}
const minorOf = (v: number) => Math.round(v * 100);
const nonZero = (m: Map<number, number>) => new Map([...m].filter(([, v]) => v !== 0));
const byStoreOf = (val: any) => new Map<number, number>(val.rows.map((r: any) => [r.store.id, minorOf(r.value)]));

describe('weighted-average cost and valuation from the ledger', () => {
  it('two receipts at different costs move the store\'s average; the ledger rows carry it; a transfer takes it to the other store', async () => {
    const { B, main, mall } = f;
    expect(await storeQty(f.t, B.id, main)).toBe(20);
    expect(await avgCost(B.id, main)).toBeNull(); // nothing received yet: the catalogue cost (2.50) applies
    await receive(main, [[B.id, 30, '3.00']]);
    expect(await avgCost(B.id, main)).toBe('2.800'); // (20 x 2.50 + 30 x 3.00) / 50
    await receive(main, [[B.id, 50, '4.00']]);
    expect(await avgCost(B.id, main)).toBe('3.400'); // (50 x 2.80 + 50 x 4.00) / 100
    await sell(f, B, 1);
    const rows = (await f.t.app.db.select().from(stockMovement).where(and(eq(stockMovement.productId, B.id), eq(stockMovement.storeId, main))).orderBy(asc(stockMovement.id)))
      .slice(-3).map((r) => [r.reason, Number(r.quantity), r.unitCost]);
    expect(rows).toEqual([['purchase', 30, '2.800'], ['purchase', 50, '3.400'], ['sale', -1, '3.400']]);
    // The purchase's own price did not change the catalogue cost (updatePrice off); a sale leaves the average.
    expect(await avgCost(B.id, main)).toBe('3.400');

    // 10 sent to the mall (which never stocked B) arrive at the sender's average.
    const tr = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: B.id, quantity: 10 }] })).json().transfer;
    expect((await post(`/api/admin/stock/transfer/${tr.id}/send`, {})).statusCode).toBe(200);
    expect((await post(`/api/admin/stock/transfer/${tr.id}/receive`, {})).statusCode).toBe(200);
    expect(await avgCost(B.id, mall)).toBe('3.400');
    // More at another price into the mall: only the mall's average moves.
    await receive(mall, [[B.id, 10, '5.00']]);
    expect(await avgCost(B.id, mall)).toBe('4.200');
    expect(await avgCost(B.id, main)).toBe('3.400');
    await expectLedgerMatchesStock(f.t);
  });

  it('after purchases, sales, transfers, a count with a sale during it and adjustments: the ledger sums to the stock, and the value at each past moment is the ledger replayed to it', async () => {
    const { A, B, main, mall } = f;
    const moments: string[] = [await now()];
    const p1 = await receive(main, [[A.id, 10, '8.00'], [B.id, '2.5', '4.10']], true);
    expect(await avgCost(A.id, main)).toBe('6.330'); // (50 x 6.00 + 10 x 8.00) / 60 = 6.333…, rounded once
    await sell(f, A, 3);
    moments.push(await now());
    const tr = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: A.id, quantity: 6 }, { product: B.id, quantity: 4 }] })).json().transfer;
    expect((await post(`/api/admin/stock/transfer/${tr.id}/send`, {})).statusCode).toBe(200);
    moments.push(await now()); // in transit: in neither store
    const count = (await post('/api/admin/stock/count/create', { store: main })).json().count;
    expect((await post(`/api/admin/stock/count/${count.id}/lines`, { lines: [{ product: A.id, quantity: 40 }, { product: B.id, quantity: 90 }] })).statusCode).toBe(200);
    await sell(f, A, 2); // during the count
    expect((await post(`/api/admin/stock/transfer/${tr.id}/receive`, { lines: [{ id: tr.lines[1].id, quantity: 3 }], lossReason: 'broken' })).statusCode).toBe(200);
    expect((await post('/api/admin/stock/adjustment/create', { store: mall, lines: [{ product: A.id, quantity: -1, reason: 'damage' }, { product: B.id, quantity: 2, reason: 'found' }] })).statusCode).toBe(201);
    expect((await post(`/api/admin/stock/count/${count.id}/approve`, {})).statusCode).toBe(200);
    moments.push(await now());
    // A purchase edited (more received at its price) and another deleted.
    const edit = await f.t.app.inject({ method: 'PUT', url: `/api/purchases/${p1.id}`, headers: f.admin, payload: { items: [{ item: `/api/products/${A.id}`, quantity: '12', purchasePrice: '8.00', variants: [] }, { item: `/api/products/${B.id}`, quantity: '2.5', purchasePrice: '4.10', variants: [] }] } });
    expect(edit.statusCode, edit.body).toBe(200);
    const p2 = await receive(mall, [[A.id, 5, '9.00']]);
    expect((await f.t.app.inject({ method: 'DELETE', url: `/api/purchases/${p2.id}`, headers: f.admin })).statusCode).toBe(200);
    moments.push(await now());

    await expectLedgerMatchesStock(f.t);
    const values: Map<number, number>[] = [];
    for (const at of moments) {
      const val = await valuationAt(at);
      const want = await replay(at);
      expect(nonZero(byStoreOf(val))).toEqual(nonZero(want));
      // By category and by supplier: the same money, each product counted once.
      for (const group of ['category', 'supplier']) {
        const g = await valuationAt(at, group);
        expect(g.rows.reduce((a: number, r: any) => a + minorOf(r.value), 0)).toBe([...want.values()].reduce((a, b) => a + b, 0));
      }
      expect(minorOf(val.totals[0].value)).toBe([...want.values()].reduce((a, b) => a + b, 0));
      values.push(want);
    }
    // The past is not today: the main store's value moved between the moments.
    expect(new Set(values.map((v) => v.get(main))).size).toBeGreaterThan(2);
    // A moment before the first receipt knows nothing of it (A: 50 at 6.00 in main then).
    const first = await valuationAt(moments[0], 'store');
    expect(first.at).toBe(moments[0]);
    expect(first.rows.every((r: any) => r.currency === 'USD')).toBe(true);
  });

  it('one product\'s movement history: every reason, who, when, document and running balance; paged and filtered by time', async () => {
    const { A, main } = f;
    const res = await get(`/api/stock/movements?product=${A.id}&store=${main}&itemsPerPage=200`);
    expect(res.statusCode, res.body).toBe(200);
    const h = res.json();
    expect(h.product).toMatchObject({ id: A.id, name: A.name });
    expect(h.total).toBe(h.list.length);
    expect(h.list[0].balance).toBe(await storeQty(f.t, A.id, main)); // newest first, its balance is the stock
    for (let i = 0; i + 1 < h.list.length; i++) expect(h.list[i].balance).toBeCloseTo(h.list[i + 1].balance + h.list[i].quantity, 3);
    const reasons = new Set(h.list.map((m: any) => m.reason));
    for (const r of ['purchase', 'sale', 'transfer_out', 'count']) expect(reasons).toContain(r);
    const sale = h.list.find((m: any) => m.reason === 'sale');
    expect(sale).toMatchObject({ store: { id: main }, order: { id: expect.any(Number), number: expect.any(Number) }, user: { username: 'cashier' }, cost: expect.any(Number) });
    expect(h.list.find((m: any) => m.reason === 'purchase')).toMatchObject({ purchase: { purchaseNumber: 'V-4' }, user: { username: 'admin' } });
    // Pages and a time window.
    const p2 = (await get(`/api/stock/movements?product=${A.id}&store=${main}&itemsPerPage=2&page=2`)).json();
    expect(p2.list.map((m: any) => m.id)).toEqual(h.list.slice(2, 4).map((m: any) => m.id));
    expect(p2.list.map((m: any) => m.balance)).toEqual(h.list.slice(2, 4).map((m: any) => m.balance));
    // Every store, page by page of 3: each row's balance (stock less later rows) is the running sum of its store's ledger (the CSV's).
    const csv = (await get(`/api/stock/movements?product=${A.id}&format=csv`)).body.trim().split('\n').slice(1);
    const all = (await get(`/api/stock/movements?product=${A.id}&itemsPerPage=200`)).json();
    expect(csv.length).toBe(all.total);
    const paged: number[] = [];
    for (let page = 1; paged.length < all.total; page++) {
      const part = (await get(`/api/stock/movements?product=${A.id}&itemsPerPage=3&page=${page}`)).json();
      expect(part.list.length).toBeGreaterThan(0);
      paged.push(...part.list.map((m: any) => m.balance));
    }
    expect(paged).toEqual(csv.map((line) => Number(line.split(',')[8])));
    const from = h.list[3].at; const to = h.list[1].at;
    const window = (await get(`/api/stock/movements?product=${A.id}&store=${main}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&itemsPerPage=200`)).json();
    expect(window.list.length).toBeGreaterThan(0);
    expect(window.list.every((m: any) => m.at >= from && m.at <= to)).toBe(true);
    expect(window.list[0].balance).toBe(h.list.find((m: any) => m.id === window.list[0].id).balance); // rows before `from` still count
    // Refusals.
    for (const [q, field] of [['product=abc', 'product'], [`product=${A.id}&from=monday`, 'from'], [`product=${A.id}&page=0`, 'page'], [`product=${A.id}&store=999`, 'store']] as const) {
      const bad = await get(`/api/stock/movements?${q}`);
      expect(bad.statusCode, q).toBe(422);
      expect(bad.json().violations.map((v: any) => v.propertyPath)).toEqual([field]);
    }
    expect((await get('/api/stock/movements?product=999999')).statusCode).toBe(404);
  });

  it('refuses a bad date, group or store with a 422 naming it; a cashier is a 403', async () => {
    for (const [q, field] of [['at=yesterday', 'at'], ['at=2026-11-27', 'at'], ['group=brand', 'group'], ['store=999', 'store'], ['store=abc', 'store']] as const) {
      const res = await get(`/api/stock/valuation?${q}`);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().violations.map((v: any) => v.propertyPath)).toEqual([field]);
    }
    expect((await get('/api/stock/valuation', f.cashier)).statusCode).toBe(403);
  });
});
