import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/client.ts';
import { productStore, productVariant, stockMovement } from '../db/schema/index.ts';

/** Why stock moved; stored in stock_movement.reason. */
export type StockReason =
  | 'adjustment' // product create/update in the back office
  | 'import' // CSV import
  | 'sale' // a completed sale takes stock out (negative delta)
  | 'return' // a returned sale puts stock back
  | 'delete' // a deleted sale puts its stock back
  | 'restore' // a restored sale takes it out again
  | 'purchase' // a goods receipt
  | (string & {});

export interface StockMove {
  productId: number;
  /** Set for a variant: moves product_variant.quantity (global across stores; the ledger row has store_id NULL). */
  variantId?: number | null;
  /** Set for a product: moves product_store.quantity of that store (the row is created when missing). */
  storeId?: number | null;
  /** Signed quantity as a decimal string, e.g. '-2' for a sale of two, '1.250' for a weighed return. */
  delta: string;
  reason: StockReason;
  orderId?: number | null;
  purchaseId?: number | null;
  userId?: number | null;
}

/**
 * Moves stock atomically and records it in the ledger, inside the caller's transaction.
 *
 * - With `variantId`: `UPDATE product_variant SET quantity = quantity + delta` and a stock_movement
 *   row with that variant_id and store_id NULL (variant stock is global, as in the reference model).
 * - Otherwise with `storeId`: upserts product_store (productId, storeId) with `quantity = quantity + delta`
 *   and a stock_movement row with that store_id.
 *
 * Invariant kept by every caller that goes through here:
 *   SUM(stock_movement.quantity) per (product, store) = product_store.quantity, and
 *   SUM(stock_movement.quantity) per variant          = product_variant.quantity.
 * The update is a single SQL statement (no read-modify-write), so concurrent sales never lose a decrement.
 * A zero delta writes nothing. Returns the new quantity (string) or null when nothing was written.
 */
export async function moveStock(tx: Tx, move: StockMove): Promise<string | null> {
  const delta = String(move.delta).trim();
  if (!/^-?\d+(\.\d+)?$/.test(delta)) throw new Error(`moveStock: bad delta ${JSON.stringify(move.delta)}`);
  if (Number(delta) === 0) return null;
  let quantity: string | null = null;
  if (move.variantId != null) {
    const rows = await tx.update(productVariant)
      .set({ quantity: sql`${productVariant.quantity} + ${delta}::numeric` })
      .where(and(eq(productVariant.id, move.variantId), eq(productVariant.productId, move.productId)))
      .returning({ quantity: productVariant.quantity });
    if (!rows.length) throw new Error(`moveStock: variant ${move.variantId} of product ${move.productId} not found`);
    quantity = rows[0].quantity;
  } else if (move.storeId != null) {
    const rows = await tx.insert(productStore)
      .values({ productId: move.productId, storeId: move.storeId, quantity: delta })
      .onConflictDoUpdate({
        target: [productStore.productId, productStore.storeId],
        set: { quantity: sql`${productStore.quantity} + ${delta}::numeric` },
      })
      .returning({ quantity: productStore.quantity });
    quantity = rows[0].quantity;
  } else {
    throw new Error('moveStock: storeId or variantId is required');
  }
  await tx.insert(stockMovement).values({
    productId: move.productId,
    variantId: move.variantId ?? null,
    storeId: move.variantId != null ? null : move.storeId!,
    quantity: delta,
    reason: move.reason,
    orderId: move.orderId ?? null,
    purchaseId: move.purchaseId ?? null,
    userId: move.userId ?? null,
  });
  return quantity;
}
