import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { validationError } from '@pos/domain/errors';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import type { Tx } from '../../db/client.ts';
import { productStore, productVariantStore } from '../../db/schema/index.ts';
import { moveStock, type StockReason } from '../../lib/stock.ts';

/**
 * A variant's stock as the catalogue sets it (product form, CSV import; issue 25: variant stock
 * is per store, product_variant_store). The catalogue sets a variant's figure on its own, as it
 * sets the product's own store row: the product's product_store row is not moved (every stock
 * MOVEMENT of a variant moves both, lib/stock.ts variantMoves).
 *
 * - Per store (`stores: [{store, quantity}]`, the new back office): each row's quantity is the
 *   variant's stock in that store (one of the caller's stores); the difference moves there.
 * - As a total (`quantity` alone, what the old client reads and sends back): the variant's total
 *   over the stores; the difference to the current total moves in the variant's home store, so a
 *   form saved unchanged moves nothing. Home store: of the caller's stores, the lowest-id one the
 *   product has a product_store row in, else the caller's lowest-id store (the rule of migration
 *   0015's backfill, within the caller's stores). A caller with no store cannot set stock: 422.
 */

export const NO_STORE_FOR_STOCK = 'There is no store to keep this stock in.';

export async function variantHomeStore(tx: Tx, productId: number, storeIds: number[]): Promise<number | null> {
  if (!storeIds.length) return null;
  const [row] = await tx.select({ s: sql<number | null>`min(${productStore.storeId})` }).from(productStore)
    .where(and(eq(productStore.productId, productId), inArray(productStore.storeId, storeIds)));
  return row?.s != null ? Number(row.s) : Math.min(...storeIds);
}

export interface VariantStockEdit {
  productId: number;
  variantId: number;
  /** The variant's current total (product_variant.quantity, read under the caller's lock); null for a new variant. */
  currentTotal: string | null;
  /** The total to reach (null/undefined: keep). */
  quantity?: string | null;
  /** Per-store figures (wins over `quantity`). */
  stores?: { store: number; quantity?: string | null }[] | null;
  storeIds: number[];
  reason: StockReason;
  userId: number;
  /** Where a violation points (e.g. `variants[2].quantity`). */
  path: string;
}

/** Applies a catalogue edit of a variant's stock through the ledger; true when stock moved. */
export async function setVariantStock(tx: Tx, e: VariantStockEdit): Promise<boolean> {
  const move = (storeId: number, d: number) => moveStock(tx, {
    productId: e.productId, variantId: e.variantId, storeId, delta: quantityToString(d), reason: e.reason, userId: e.userId,
  });
  const rows = (e.stores ?? []).filter((r) => r.quantity != null);
  if (rows.length) {
    const bad = rows.findIndex((r) => !e.storeIds.includes(r.store));
    if (bad >= 0) throw validationError([{ propertyPath: `${e.path.replace(/\.quantity$/, '')}.stores[${bad}].store`, message: `'Store' with ID '${rows[bad].store}' not found` }]);
    const now = await tx.select({ storeId: productVariantStore.storeId, quantity: productVariantStore.quantity }).from(productVariantStore)
      .where(and(eq(productVariantStore.variantId, e.variantId), inArray(productVariantStore.storeId, rows.map((r) => r.store))))
      .orderBy(asc(productVariantStore.storeId)).for('update');
    let moved = false;
    for (const r of [...rows].sort((a, b) => a.store - b.store)) {
      const d = parseQuantity(r.quantity!) - parseQuantity(now.find((n) => n.storeId === r.store)?.quantity ?? '0');
      if (d !== 0) { await move(r.store, d); moved = true; }
    }
    return moved;
  }
  if (e.quantity == null) return false;
  const d = parseQuantity(e.quantity) - parseQuantity(e.currentTotal ?? '0');
  if (d === 0) return false;
  const home = await variantHomeStore(tx, e.productId, e.storeIds);
  if (home == null) throw validationError([{ propertyPath: e.path, message: NO_STORE_FOR_STOCK }]);
  await move(home, d);
  return true;
}
