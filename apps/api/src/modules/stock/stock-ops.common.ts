import { inArray, sql } from 'drizzle-orm';
import { notFound, validationError, type Violation } from '@pos/domain/errors';
import { parseMoney, parseQuantity, quantityToDecimal, toDecimal } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { product, productVariant, store, userAccount } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/raw.ts';
import { withRetry } from '../../db/retry.ts';

/** Shared pieces of the stock operations (transfers, counts, adjustments). */

/** 'reorder': the purchase orders made from the "to order" list (RO-<store>-<n>). */
export type DocKind = 'transfer' | 'count' | 'adjustment' | 'reorder';

/** The next gap-free number of a document kind in a store (the counter row stays locked until commit). */
export async function nextNumber(tx: Tx, storeId: number, kind: DocKind): Promise<number> {
  const rows = rowsOf<{ n: number }>(await tx.execute(sql`insert into stock_doc_counter (store_id, kind, last_number) values (${storeId}, ${kind}, 1)
    on conflict (store_id, kind) do update set last_number = stock_doc_counter.last_number + 1 returning last_number as n`));
  return Number(rows[0].n);
}

/** One transaction; a lost deadlock / serialization race is re-run (PostgreSQL picks a victim). */
export async function write<T>(db: Db, fn: (tx: Tx) => Promise<T>, attempts = 5): Promise<T> {
  return withRetry(() => db.transaction(fn), attempts);
}

export const throwIf = (v: Violation[]) => { if (v.length) throw validationError(v); };

/** A record of a store the caller does not belong to is a 404 (no existence leak). */
export function assertVisible<T>(row: T | undefined, ok: (row: T) => boolean, what: string): T {
  if (!row || !ok(row)) throw notFound(`${what} not found`);
  return row;
}

export interface ProductInfo { id: number; name: string; sku: string | null; barcode: string | null; cost: string; manageInventory: boolean }
export interface VariantInfo { id: number; productId: number; name: string | null; attributeValue: string | null; sku: string | null; barcode: string | null }

/**
 * Checks the product (and variant) of each line: the product exists and tracks stock, the variant
 * belongs to it. Violations name `<path>[i].product` / `.variant`.
 */
export async function resolveProducts(tx: Tx | Db, lines: { product: number; variant?: number | null }[], path = 'lines') {
  const ids = [...new Set(lines.map((l) => l.product))];
  const vIds = [...new Set(lines.map((l) => l.variant).filter((v): v is number => v != null))];
  const products = new Map<number, ProductInfo>((ids.length ? await tx.select({
    id: product.id, name: product.name, sku: product.sku, barcode: product.barcode, cost: product.cost, manageInventory: product.manageInventory,
  }).from(product).where(inArray(product.id, ids)) : []).map((p) => [p.id, p]));
  const variants = new Map<number, VariantInfo>((vIds.length ? await tx.select({
    id: productVariant.id, productId: productVariant.productId, name: productVariant.name, attributeValue: productVariant.attributeValue,
    sku: productVariant.sku, barcode: productVariant.barcode,
  }).from(productVariant).where(inArray(productVariant.id, vIds)) : []).map((v) => [v.id, v]));
  const v: Violation[] = [];
  lines.forEach((l, i) => {
    const p = products.get(l.product);
    if (!p) v.push({ propertyPath: `${path}[${i}].product`, message: `'Product' with ID '${l.product}' not found` });
    else if (!p.manageInventory) v.push({ propertyPath: `${path}[${i}].product`, message: 'This product does not track stock.' });
    if (l.variant != null) {
      const pv = variants.get(l.variant);
      if (!pv || pv.productId !== l.product) v.push({ propertyPath: `${path}[${i}].variant`, message: `'Product variant' with ID '${l.variant}' not found` });
    }
  });
  throwIf(v);
  return { products, variants };
}

/** Refuses the same product (and variant) twice in one document. */
export function assertDistinct(lines: { product: number; variant?: number | null }[], path = 'lines') {
  const seen = new Set<string>();
  const v: Violation[] = [];
  lines.forEach((l, i) => {
    const key = `${l.product}:${l.variant ?? ''}`;
    if (seen.has(key)) v.push({ propertyPath: `${path}[${i}].product`, message: 'This product is already on another line.' });
    seen.add(key);
  });
  throwIf(v);
}

/** Stock of products in one store (0 without a row), optionally locked (`for update` / `for share`) in product order. */
export async function storeQuantities(tx: Tx, storeId: number, productIds: number[], lock: '' | 'update' | 'share' = ''): Promise<Map<number, { quantity: number; location: string | null }>> {
  const ids = [...new Set(productIds)].sort((a, b) => a - b);
  if (!ids.length) return new Map();
  const lockSql = lock === 'update' ? sql` for update` : lock === 'share' ? sql` for share` : sql``;
  const rows = rowsOf<{ product_id: number; quantity: string; location: string | null }>(await tx.execute(sql`select product_id, quantity::text as quantity, location
    from product_store where store_id = ${storeId} and product_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by product_id${lockSql}`));
  return new Map(rows.map((r) => [Number(r.product_id), { quantity: parseQuantity(r.quantity), location: r.location }]));
}

/**
 * Stock of variants in one store (0 without a row: absent from the map), optionally locked in
 * variant order (issue 25: product_variant_store). Lock them before the products' rows, as
 * lib/stock.ts moves them.
 */
export async function variantStoreQuantities(tx: Tx, storeId: number, variantIds: number[], lock: '' | 'update' | 'share' = ''): Promise<Map<number, number>> {
  const ids = [...new Set(variantIds)].sort((a, b) => a - b);
  if (!ids.length) return new Map();
  const lockSql = lock === 'update' ? sql` for update` : lock === 'share' ? sql` for share` : sql``;
  const rows = rowsOf<{ variant_id: number; quantity: string }>(await tx.execute(sql`select variant_id, quantity::text as quantity
    from product_variant_store where store_id = ${storeId} and variant_id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) order by variant_id${lockSql}`));
  return new Map(rows.map((r) => [Number(r.variant_id), parseQuantity(r.quantity)]));
}

export const qtyOut = (milli: number | null | undefined) => (milli == null ? null : quantityToDecimal(milli));
export const moneyOut = (cents: number) => toDecimal(cents);
export const costCents = (cost: string | null | undefined) => parseMoney(cost ?? '0');

export interface Who { id: number; username: string; displayName: string }
/** The users and stores a document names, by id. */
export async function namesOf(db: Db | Tx, userIds: (number | null)[], storeIds: number[]) {
  const u = [...new Set(userIds.filter((x): x is number => x != null))];
  const s = [...new Set(storeIds)];
  const users = new Map<number, Who>((u.length ? await db.select({ id: userAccount.id, username: userAccount.username, displayName: userAccount.displayName })
    .from(userAccount).where(inArray(userAccount.id, u)) : []).map((x) => [x.id, x]));
  const stores = new Map<number, { id: number; name: string; location: string | null }>((s.length ? await db.select({ id: store.id, name: store.name, location: store.location })
    .from(store).where(inArray(store.id, s)) : []).map((x) => [x.id, x]));
  return { user: (id: number | null) => (id == null ? null : users.get(id) ?? null), store: (id: number) => stores.get(id) ?? { id, name: '', location: null } };
}

export const iso = (d: Date | string | null) => (d == null ? null : (d instanceof Date ? d : new Date(d)).toISOString());

/** limit/offset paging of the lists (limit 1..200, default 50). */
export function paging(q: Record<string, unknown>) {
  const limit = Math.min(200, Math.max(1, Number.parseInt(String(q.limit ?? '50'), 10) || 50));
  const offset = Math.max(0, Number.parseInt(String(q.offset ?? '0'), 10) || 0);
  return { limit, offset };
}

/** A store filter of a list: one of the caller's stores, else every store of the caller. */
export function storeFilter(q: Record<string, unknown>, storeIds: number[]): number[] {
  if (q.store === undefined || q.store === '') return storeIds;
  const id = Number(String(q.store).replace(/^\/api\/stores\//, ''));
  return storeIds.includes(id) ? [id] : [];
}
