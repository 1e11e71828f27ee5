import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rowsOf } from '../../db/raw.ts';
import { supplier, terminal } from '../../db/schema/index.ts';
import { moveStock, moveStocks } from '../../lib/stock.ts';
import { expectLedgerMatchesStock, stockFixture, stockRequests, storeQty, variantQty, variantStoreQty, type StockFixture } from './stock.fixtures.ts';
import { TRANSFER_MESSAGES } from './transfers.service.ts';

/**
 * Per-store variant stock (issue 25, "Stock that matches the shelf"): a variant's stock is a row
 * per store (product_variant_store); every writer moves the store it happens in, the variant's
 * total (product_variant.quantity, still on the wire) stays the sum over the stores, and the
 * ledger's rows carry the store: SUM(ledger) per (variant, store) = that store's row.
 * One variant's journey: received in main (A), transferred to the mall (B), sold in the mall,
 * counted in main (a sale during the count is no variance), adjusted in the mall.
 */
let f: StockFixture;
let x: number; // the variant followed: 0 in main, the demo's 10 in the mall
let y: number; // a variant main never stocked
let mallTill: number;
let threads: number;
beforeAll(async () => {
  f = await stockFixture();
  [, x, y] = f.variants.map((v) => v.id);
  mallTill = (await f.t.app.db.select().from(terminal).where(eq(terminal.code, 'M1')))[0].id;
  threads = (await f.t.app.db.select().from(supplier).where(eq(supplier.name, 'Threads Apparel')))[0].id;
});
afterAll(async () => { await f?.t.close(); });

const { post, get, refused } = stockRequests(() => f);
const T = '/api/admin/stock/transfer';
const C = '/api/admin/stock/count';

/** x in main and in the mall, its total, and the product's own rows; the total is always the sum. */
async function figures() {
  const out = {
    main: await variantStoreQty(f.t, x, f.main), mall: await variantStoreQty(f.t, x, f.mall), total: await variantQty(f.t, x),
    productMain: await storeQty(f.t, f.V.id, f.main), productMall: await storeQty(f.t, f.V.id, f.mall),
  };
  expect(out.total).toBe(out.main + out.mall);
  return out;
}

/** Sells `qty` of variant x as the admin at a till of `storeId`. */
async function sellX(storeId: number, qty: number) {
  const price = Number(f.V.basePrice);
  const total = Math.round(price * qty * 116) / 100; // clothing carries the demo's VAT of 16 % on top
  const res = await f.t.app.inject({
    method: 'POST', url: '/api/admin/order/create', headers: f.admin, payload: {
      items: [{ item: { id: f.V.id }, variant: { id: x }, quantity: qty, price, discount: 0, taxIncluded: true }],
      store: storeId, terminal: storeId === f.main ? f.t1 : mallTill, total, adjustment: 0, status: 'Completed',
      payments: [{ received: total, total, due: 0, type: { id: f.cash } }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
}

describe('variant stock per store', () => {
  it('follows one variant through a receipt, a transfer, a sale, a count and an adjustment, store by store', async () => {
    const { V, main, mall } = f;
    const start = await figures();
    expect([start.main, start.mall]).toEqual([0, 10]);

    // 1. Received in main: main's row (and the product's row there, with the product's own 1) up, the mall untouched.
    const purchase = await f.t.app.inject({
      method: 'POST', url: '/api/purchases', headers: f.admin, payload: {
        createdAt: '2024-03-01T10:00', purchaseNumber: 'VS-1', purchaseMode: 'Items list', supplier: `/api/suppliers/${threads}`,
        paymentType: `/api/payments/${f.cash}`, store: `/api/stores/${main}`, updateStocks: true, updatePrice: false,
        items: [{ item: `/api/products/${V.id}`, quantity: '1', purchasePrice: '10', comments: '', purchaseUnit: 'pcs',
          variants: [{ variant: `/api/product_variants/${x}`, quantity: '8', purchasePrice: '10' }] }],
      },
    });
    expect(purchase.statusCode, purchase.body).toBe(201);
    const received = await figures();
    expect(received).toMatchObject({ main: 8, mall: 10, total: 18, productMain: start.productMain + 9, productMall: start.productMall });

    // 2. Transferred to the mall: out of main at sending, in transit in neither, into the mall at receiving.
    const tr = (await post(`${T}/create`, { fromStore: main, toStore: mall, lines: [{ product: V.id, variant: x, quantity: 5 }] })).json().transfer;
    expect((await post(`${T}/${tr.id}/send`, {})).statusCode).toBe(200);
    expect(await figures()).toMatchObject({ main: 3, mall: 10, total: 13, productMain: received.productMain - 5, productMall: start.productMall });
    const got = await post(`${T}/${tr.id}/receive`, {});
    expect(got.statusCode, got.body).toBe(200);
    const moved = await figures();
    expect(moved).toMatchObject({ main: 3, mall: 15, total: 18, productMall: start.productMall + 5 });

    // The till's stock cell (GET quantities) and the back office show the store's own figure.
    const q = (store?: number) => get(`/api/admin/product/quantities?itemId=${V.id}&variantId=${x}${store ? `&store=${store}` : ''}`);
    expect((await q(main)).json()).toEqual({ quantity: 3 });
    expect((await q(mall)).json()).toEqual({ quantity: 15 });
    expect((await q()).json()).toEqual({ quantity: 18 });
    const shown = (await get(`/api/products/${V.id}`)).json().variants.find((v: any) => v.id === x);
    expect(shown.quantity).toBe(18);
    expect(shown.stock.map((s: any) => [s.store.id, s.quantity])).toEqual([[main, '3'], [mall, '15']]);

    // 3. Sold in the mall: only the mall's rows move.
    await sellX(mall, 2);
    expect(await figures()).toMatchObject({ main: 3, mall: 13, total: 16, productMain: moved.productMain, productMall: moved.productMall - 2 });

    // 4. Counted in main: expected is main's row at the first scan (3); 2 counted, then 1 sold during
    //    the count; approval books counted - expected = -1 on top of the sale: main 3 - 1 - 1 = 1.
    const count = (await post(`${C}/create`, { store: main, scope: 'full' })).json().count;
    const barcodeOfX = f.variants[1].barcode!;
    const scanned = await post(`${C}/${count.id}/lines`, { lines: [{ barcode: barcodeOfX, quantity: 2 }] });
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json().count.lines.map((l: any) => [l.product.id, l.variant?.id, l.expected, l.counted, l.current])).toEqual([[V.id, x, 3, 2, 3]]);
    await sellX(main, 1);
    const during = (await get(`${C}/${count.id}`)).json().count.lines[0];
    expect([during.current, during.movedSinceFirstCount, during.variance]).toEqual([2, -1, -1]);
    const beforeApproval = await figures();
    const approved = await post(`${C}/${count.id}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await figures()).toMatchObject({ main: 1, mall: 13, total: 14, productMain: beforeApproval.productMain - 1, productMall: beforeApproval.productMall });

    // 5. Adjusted in the mall: damage of one.
    const adj = await post('/api/admin/stock/adjustment/create', { store: mall, lines: [{ product: V.id, variant: x, quantity: -1, reason: 'damage' }] });
    expect(adj.statusCode, adj.body).toBe(201);
    expect(await figures()).toMatchObject({ main: 1, mall: 12, total: 13, productMall: beforeApproval.productMall - 1 });

    // The ledger sums to every variant's row in every store, and no variant row is storeless.
    const off = rowsOf<{ variant_id: number }>(await f.t.app.db.execute(sql`
      select coalesce(vs.variant_id, m.variant_id) as variant_id from product_variant_store vs
      full join (select variant_id, store_id, sum(quantity) as q from stock_movement where variant_id is not null group by variant_id, store_id) m
        on m.variant_id = vs.variant_id and m.store_id = vs.store_id
      where coalesce(vs.quantity, 0) <> coalesce(m.q, 0) or m.store_id is null`));
    expect(off).toEqual([]);
    await expectLedgerMatchesStock(f.t);
  });

  it('refuses (422) a transfer of more of a variant than the sending store holds, and of a variant it does not stock', async () => {
    const { V, main, mall } = f;
    expect((await get(`/api/stores/${main}`)).json()).toMatchObject({ allowNegativeStock: false });
    const have = await variantStoreQty(f.t, x, main);
    const tr = (await post(`${T}/create`, { fromStore: main, toStore: mall, lines: [{ product: V.id, variant: x, quantity: have + 1 }] })).json().transfer;
    // The product's row in main has more than enough (its own stock): the variant's row decides.
    expect(await storeQty(f.t, V.id, main)).toBeGreaterThan(have + 1);
    const more = await refused(() => post(`${T}/${tr.id}/send`, {}), 422, ['lines[0].quantity']);
    expect(more.violations[0].message).toBe(TRANSFER_MESSAGES.moreThanStock(have * 1000));
    expect((await post(`${T}/${tr.id}/cancel`)).statusCode).toBe(200);
    const lacks = await refused(() => post(`${T}/create`, { fromStore: main, toStore: mall, lines: [{ product: V.id, variant: y, quantity: 1 }] }), 422, ['lines[0].variant']);
    expect(lacks.violations[0].message).toBe(TRANSFER_MESSAGES.variantNotStocked);
    // With the setting on, main may send it below zero.
    expect((await f.t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: f.admin, payload: { allowNegativeStock: true } })).statusCode).toBe(200);
    const neg = (await post(`${T}/create`, { fromStore: main, toStore: mall, lines: [{ product: V.id, variant: x, quantity: have + 1 }] })).json().transfer;
    expect((await post(`${T}/${neg.id}/send`, {})).statusCode).toBe(200);
    expect(await variantStoreQty(f.t, x, main)).toBe(-1);
    await expectLedgerMatchesStock(f.t);
  });

  it('a refund, a deleted sale and a restored one move the variant in the sale\'s store only', async () => {
    const { main, mall } = f;
    const before = await figures();
    const order = await sellX(mall, 3);
    expect(await figures()).toMatchObject({ main: before.main, mall: before.mall - 3 });
    const refund = await f.t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${order.id}`, headers: f.admin, payload: {} });
    expect(refund.statusCode, refund.body).toBe(201);
    expect(await figures()).toMatchObject({ main: before.main, mall: before.mall });
    const other = await sellX(mall, 2);
    const del = await f.t.app.inject({ method: 'DELETE', url: `/api/admin/order/${other.id}`, headers: f.admin, payload: {} });
    expect(del.statusCode, del.body).toBe(200);
    expect(await figures()).toMatchObject({ main: before.main, mall: before.mall, productMall: before.productMall });
    const restored = await f.t.app.inject({ method: 'POST', url: `/api/admin/order/restore/${other.id}`, headers: f.admin, payload: {} });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(await figures()).toMatchObject({ main: before.main, mall: before.mall - 2, productMall: before.productMall - 2 });
    expect(await variantStoreQty(f.t, x, main)).toBe(before.main);
    await expectLedgerMatchesStock(f.t);
  });

  it('a variant move without a store fails loudly instead of writing a storeless row', async () => {
    const { V } = f;
    await expect(f.t.app.db.transaction((tx) => moveStock(tx, { productId: V.id, variantId: x, delta: '1', reason: 'adjustment' } as any))).rejects.toThrow(/no store/);
    await expect(f.t.app.db.transaction((tx) => moveStocks(tx, [{ productId: V.id, variantId: x, delta: '1' } as any], { reason: 'adjustment' }))).rejects.toThrow(/no store/);
    await expectLedgerMatchesStock(f.t);
  });
});
