import { expect } from 'vitest';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  paymentType, product, productPrice, productStore, productTax, productVariant, productVariantStore, stockAdjustment, stockAdjustmentLine, stockCount, stockCountLine, stockMovement,
  stockTransfer, stockTransferLine, store, terminal,
} from '../../db/schema/index.ts';
import { moveStock } from '../../lib/stock.ts';
import { ledgerMismatches } from '../catalogue/products.service.ts';

/**
 * The demo shop for the stock-operation tests (not a test file): two stores, an admin in both,
 * stock-managed products with known stock (set through the ledger), a helper that sells through
 * POST /api/admin/order/create, and the invariant check (ledger sum = stock, every row).
 */
export interface StockFixture {
  t: TestApp;
  admin: Record<string, string>;
  cashier: Record<string, string>;
  main: number;
  mall: number;
  t1: number;
  cash: number;
  /** Stock-managed, untaxed, no variants; price 10, cost 6. */
  A: typeof product.$inferSelect;
  /** Like A; price 4, cost 2.50. */
  B: typeof product.$inferSelect;
  /** Stock-managed, stocked in main only (never in the mall). */
  N: typeof product.$inferSelect;
  /** Not stock-managed. */
  U: typeof product.$inferSelect;
  /** A product with variants (stock-managed). */
  V: typeof product.$inferSelect;
  variants: (typeof productVariant.$inferSelect)[];
}

export async function stockFixture(): Promise<StockFixture> {
  const t = await createTestApp();
  const admin = await t.login('admin');
  const cashier = await t.login('cashier');
  const db = t.app.db;
  const stores = await db.select().from(store).orderBy(asc(store.id));
  const [main, mall] = [stores[0].id, stores[1].id];
  const t1 = (await db.select().from(terminal)).find((x) => x.code === 'T1')!.id;
  const cash = (await db.select().from(paymentType)).find((x) => x.type === 'cash')!.id;
  const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
  const allVariants = await db.select().from(productVariant).orderBy(asc(productVariant.id));
  const withVariants = new Set(allVariants.map((v) => v.productId));
  const products = await db.select().from(product).orderBy(asc(product.id));
  const plain = products.filter((p) => p.manageInventory && !taxed.has(p.id) && !withVariants.has(p.id) && p.isActive && p.isAvailable);
  const [A, B, N] = plain;
  const U = products.find((p) => !p.manageInventory)!;
  const V = products.find((p) => withVariants.has(p.id) && p.manageInventory)!;
  await db.update(product).set({ basePrice: '10.00', cost: '6.00' }).where(eq(product.id, A.id));
  await db.update(product).set({ basePrice: '4.00', cost: '2.50' }).where(eq(product.id, B.id));
  // Their prices are these whatever the day (no price rule of a month, a weekday or a time).
  await db.delete(productPrice).where(inArray(productPrice.productId, [A.id, B.id]));
  // Known stock: A 50 / B 20 in main, A 5 in mall and B not stocked there at all; written through the ledger.
  await db.transaction(async (tx) => {
    for (const p of [B.id, N.id]) {
      await tx.delete(stockMovement).where(and(eq(stockMovement.productId, p), eq(stockMovement.storeId, mall)));
      await tx.delete(productStore).where(and(eq(productStore.productId, p), eq(productStore.storeId, mall)));
    }
    for (const [p, s, want] of [[A.id, main, 50], [B.id, main, 20], [A.id, mall, 5], [V.id, main, 10]] as const) {
      const [row] = await tx.select().from(productStore).where(and(eq(productStore.productId, p), eq(productStore.storeId, s)));
      const have = row ? Number(row.quantity) : 0;
      await moveStock(tx, { productId: p, storeId: s, delta: String(want - have), reason: 'adjustment' });
    }
    // The demo's variant stock is in the mall (issue 25: per store); main gets 5 of V's first variant.
    const v0 = allVariants.find((v) => v.productId === V.id)!;
    await moveStock(tx, { productId: V.id, variantId: v0.id, storeId: main, delta: '5', reason: 'adjustment' });
  });
  return {
    t, admin, cashier, main, mall, t1, cash, A: (await db.select().from(product).where(eq(product.id, A.id)))[0], B: (await db.select().from(product).where(eq(product.id, B.id)))[0],
    N, U, V, variants: allVariants.filter((v) => v.productId === V.id),
  };
}

export async function storeQty(t: TestApp, productId: number, storeId: number): Promise<number> {
  const [row] = await t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}

export async function hasStoreRow(t: TestApp, productId: number, storeId: number): Promise<boolean> {
  return (await t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId)))).length > 0;
}

export async function variantQty(t: TestApp, id: number): Promise<number> {
  return Number((await t.app.db.select().from(productVariant).where(eq(productVariant.id, id)))[0].quantity);
}

export async function variantStoreQty(t: TestApp, variantId: number, storeId: number): Promise<number> {
  const [row] = await t.app.db.select().from(productVariantStore).where(and(eq(productVariantStore.variantId, variantId), eq(productVariantStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}

/** Ledger rows of one reason: [product, store, variant, quantity, user]. */
export async function ledgerRows(t: TestApp, reason: string) {
  const rows = await t.app.db.select().from(stockMovement).where(eq(stockMovement.reason, reason)).orderBy(asc(stockMovement.id));
  return rows.map((r) => ({ productId: r.productId, storeId: r.storeId, variantId: r.variantId, quantity: Number(r.quantity), userId: r.userId, createdAt: r.createdAt }));
}

/** Ledger sum = stock for every product/store row and every variant. */
export async function expectLedgerMatchesStock(t: TestApp) {
  expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
}

/** Row counts of everything a stock operation writes: equal before and after a refusal = nothing half-written. */
export async function footprint(t: TestApp) {
  const db = t.app.db;
  const c = async (table: any) => Number((await db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n);
  const [{ s }] = await db.select({ s: sql<string>`coalesce(sum(quantity), 0)::text` }).from(productStore);
  const [{ v }] = await db.select({ v: sql<string>`coalesce(sum(quantity), 0)::text` }).from(productVariant);
  const [{ vs }] = await db.select({ vs: sql<string>`coalesce(sum(quantity), 0)::text || '/' || count(*)` }).from(productVariantStore);
  return {
    moves: await c(stockMovement), transfers: await c(stockTransfer), transferLines: await c(stockTransferLine), counts: await c(stockCount),
    countLines: await c(stockCountLine), adjustments: await c(stockAdjustment), adjustmentLines: await c(stockAdjustmentLine),
    storeRows: await c(productStore), storeStock: s, variantStock: v, variantStoreStock: vs,
    statuses: (await db.select({ s: stockTransfer.status }).from(stockTransfer).orderBy(asc(stockTransfer.id))).map((x) => x.s).join(','),
    countStatuses: (await db.select({ s: stockCount.status }).from(stockCount).orderBy(asc(stockCount.id))).map((x) => x.s).join(','),
    countSums: (await db.select({ s: sql<string>`coalesce(sum(counted), 0)::text` }).from(stockCountLine))[0].s,
  };
}

/** Sells `qty` of a product at its price 10 (A) or 4 (B) in main, as the till does. */
export async function sell(f: StockFixture, p: typeof product.$inferSelect, qty: number) {
  const price = Number(p.basePrice);
  const total = price * qty;
  const res = await f.t.app.inject({
    method: 'POST', url: '/api/admin/order/create', headers: f.cashier, payload: {
      items: [{ item: { id: p.id }, quantity: qty, price, discount: 0, taxIncluded: true }],
      store: f.main, terminal: f.t1, total, adjustment: 0, status: 'Completed',
      payments: [{ received: total, total, due: 0, type: { id: f.cash } }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
}

/** The stock tests' requests (as the admin by default) and a refusal that must leave nothing written. */
export function stockRequests(fixture: () => StockFixture) {
  const post = (url: string, payload?: unknown, headers = fixture().admin) => fixture().t.app.inject({ method: 'POST', url, payload: payload as any, headers });
  const get = (url: string, headers = fixture().admin) => fixture().t.app.inject({ method: 'GET', url, headers });
  async function refused(call: () => Promise<{ statusCode: number; body: string; json(): any }>, status: number, paths: string[] = []) {
    const before = await footprint(fixture().t);
    const res = await call();
    expect(res.statusCode, res.body).toBe(status);
    if (status === 422) expect(res.json().violations.map((v: any) => v.propertyPath)).toEqual(paths);
    expect(await footprint(fixture().t)).toEqual(before);
    return res.json();
  }
  return { post, get, refused };
}
