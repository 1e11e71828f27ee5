/**
 * The demo shop for the purchasing API tests (not a test file): purchasing.stock.test.ts and
 * purchasing.records.test.ts. `openPurchasingShop()` registers the hooks that open a seeded app and
 * close it; the bindings below are filled by its beforeAll (ES module exports are live, so a test file
 * reads them once the hook has run). With the helpers that read stock, the ledger and row counts.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  paymentType, product, productStore, productVariant, productVariantStore, purchase, purchaseItem, purchaseOrder, stockMovement, store, supplier, supplierPayment,
} from '../../db/schema/index.ts';

export let t: TestApp;
export let admin: Record<string, string>;
export let cashier: Record<string, string>;
export let main: number;
export let mall: number;
export let cash: number;
export let credit: number;
/** A stock-managed grocery product, an unmanaged one, and a clothing product with variants. */
export let managed: typeof product.$inferSelect;
export let unmanaged: typeof product.$inferSelect;
export let clothing: typeof product.$inferSelect;
export let variants: (typeof productVariant.$inferSelect)[];
export let otherVariant: typeof productVariant.$inferSelect;
export let freshFarms: number;

export function openPurchasingShop(): void {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin');
    cashier = await t.login('cashier');
    const db = t.app.db;
    const stores = await db.select().from(store).orderBy(asc(store.id));
    [main, mall] = [stores[0].id, stores[1].id];
    const types = await db.select().from(paymentType);
    cash = types.find((x) => x.type === 'cash')!.id;
    credit = types.find((x) => x.type === 'credit')!.id;
    const products = await db.select().from(product).orderBy(asc(product.id));
    const allVariants = await db.select().from(productVariant).orderBy(asc(productVariant.id));
    managed = products.find((p) => p.manageInventory && !allVariants.some((v) => v.productId === p.id))!;
    unmanaged = products.find((p) => !p.manageInventory)!;
    clothing = products.find((p) => allVariants.some((v) => v.productId === p.id))!;
    variants = allVariants.filter((v) => v.productId === clothing.id);
    otherVariant = allVariants.find((v) => v.productId !== clothing.id)!;
    freshFarms = (await db.select().from(supplier).where(eq(supplier.name, 'Fresh Farms Ltd')))[0].id;
  });
  afterAll(async () => { await t?.close(); });
}

export const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
  t.app.inject({ method, url, payload: payload as any, headers });

export async function storeQty(productId: number, storeId: number): Promise<number> {
  const [row] = await t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}
export async function variantQty(id: number): Promise<number> {
  const [row] = await t.app.db.select().from(productVariant).where(eq(productVariant.id, id));
  return Number(row.quantity);
}
export async function variantStoreQty(variantId: number, storeId: number): Promise<number> {
  const [row] = await t.app.db.select().from(productVariantStore).where(and(eq(productVariantStore.variantId, variantId), eq(productVariantStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}
/** Σ ledger rows of one purchase per (product, variant, store). */
export async function ledgerOf(purchaseId: number) {
  const rows = await t.app.db.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    q: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement).where(eq(stockMovement.purchaseId, purchaseId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);
  return Object.fromEntries(rows.map((r) => [`${r.productId}:${r.variantId ?? ''}:${r.storeId ?? ''}`, Number(r.q)]));
}
/** The stock ledger always sums to the stock (per product and store, per variant). */
export async function assertLedgerMatchesStock(productId: number, storeId: number) {
  const [{ s }] = await t.app.db.select({ s: sql<string>`coalesce(sum(${stockMovement.quantity}), 0)::text` }).from(stockMovement)
    .where(and(eq(stockMovement.productId, productId), eq(stockMovement.storeId, storeId), isNull(stockMovement.variantId)));
  expect(Number(s)).toBe(await storeQty(productId, storeId));
}
export async function counts() {
  const c = async (table: any) => Number((await t.app.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n);
  return { purchases: await c(purchase), items: await c(purchaseItem), moves: await c(stockMovement), orders: await c(purchaseOrder), payments: await c(supplierPayment) };
}

let seq = 0;
export function purchaseBody(over: Record<string, unknown> = {}) {
  seq++;
  return {
    createdAt: '2024-03-01T10:00', purchaseNumber: `P-${seq}`, purchaseMode: 'Items list', supplier: `/api/suppliers/${freshFarms}`,
    paymentType: `/api/payments/${cash}`, store: `/api/stores/${main}`, purchasedBy: '/api/users/999', updateStocks: true, updatePrice: true,
    items: [{ item: `/api/products/${managed.id}`, quantity: '5', quantityRequested: null, purchasePrice: '2.50', comments: '', purchaseUnit: 'pcs', variants: [] }],
    ...over,
  };
}
