import { and, eq, ne } from 'drizzle-orm';
import { conflict, notFound, validationError } from '@pos/domain/errors';
import type { Tx } from '../../db/client.ts';
import { purchaseOrder, purchaseOrderItem, purchaseOrderItemVariant } from '../../db/schema/index.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { assertStoreAccess, type AuthInfo } from '../../plugins/auth.ts';
import type { PurchaseOrderBody } from './purchasing.schemas.ts';
import { ALREADY_USED_VALUE, type Conn, PO_LOCKED_MESSAGE, type ResolvedLine, assertSupplier, resolveLines, write } from './purchasing.common.ts';

// Purchase orders

async function assertPoNumberFree(tx: Tx, storeId: number, poNumber: string, selfId?: number) {
  const [row] = await tx.select({ id: purchaseOrder.id }).from(purchaseOrder)
    .where(and(eq(purchaseOrder.storeId, storeId), eq(purchaseOrder.poNumber, poNumber), selfId ? ne(purchaseOrder.id, selfId) : undefined));
  if (row) throw validationError([{ propertyPath: 'poNumber', message: ALREADY_USED_VALUE }]);
}

async function insertPoLines(tx: Tx, poId: number, lines: ResolvedLine[]) {
  for (const l of lines) {
    const [row] = await tx.insert(purchaseOrderItem).values({
      purchaseOrderId: poId, itemId: l.productId, quantity: l.quantity, price: l.price, unit: l.unit, comments: l.comments,
    }).returning({ id: purchaseOrderItem.id });
    if (l.variants.length) {
      await tx.insert(purchaseOrderItemVariant).values(l.variants.map((v) => ({
        purchaseOrderItemId: row.id, variantId: v.variantId, quantity: v.quantity, purchasePrice: v.price, purchaseUnit: v.unit, comments: v.comments,
      })));
    }
  }
}

/**
 * Creates an Open purchase order. Guarantees: the store is the caller's, the supplier is visible,
 * the PO number is unique in the store, at least one line, positive quantities, variants of the
 * line's product. No stock or price effect.
 */
export async function createPurchaseOrder(db: Conn, input: PurchaseOrderBody, actor: AuthInfo): Promise<number> {
  return write(db, async (tx) => {
    assertCallerStore(actor, input.store);
    await assertSupplier(tx, input.supplier, actor);
    await assertPoNumberFree(tx, input.store, input.poNumber);
    const lines = await resolveLines(tx, input.items, 'poItemVariant', new Map());
    const [row] = await tx.insert(purchaseOrder).values({
      supplierId: input.supplier, storeId: input.store, poNumber: input.poNumber, isUsed: false, createdAt: input.createdAt, updatedAt: new Date(),
    }).returning({ id: purchaseOrder.id });
    await insertPoLines(tx, row.id, lines);
    return row.id;
  });
}

async function lockEditablePo(tx: Tx, id: number, actor: AuthInfo) {
  const [po] = await tx.select().from(purchaseOrder).where(eq(purchaseOrder.id, id)).for('update');
  if (!po) throw notFound('Purchase order not found');
  assertStoreAccess(actor, po.storeId, 'Purchase order not found');
  if (po.isUsed) throw conflict(PO_LOCKED_MESSAGE);
  return po;
}

/** Edits an Open purchase order (merge; `items` replace the lines). A Used one is 409. */
export async function updatePurchaseOrder(db: Conn, id: number, input: Partial<PurchaseOrderBody>, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const po = await lockEditablePo(tx, id, actor);
    const storeId = input.store ?? po.storeId;
    if (storeId !== po.storeId) assertCallerStore(actor, storeId);
    if (input.supplier && input.supplier !== po.supplierId) await assertSupplier(tx, input.supplier, actor);
    const poNumber = input.poNumber ?? po.poNumber;
    if (poNumber !== po.poNumber || storeId !== po.storeId) await assertPoNumberFree(tx, storeId, poNumber, id);
    if (input.items) {
      const ownRows = await tx.select({ id: purchaseOrderItemVariant.id, variantId: purchaseOrderItemVariant.variantId }).from(purchaseOrderItemVariant)
        .innerJoin(purchaseOrderItem, eq(purchaseOrderItem.id, purchaseOrderItemVariant.purchaseOrderItemId)).where(eq(purchaseOrderItem.purchaseOrderId, id));
      const lines = await resolveLines(tx, input.items, 'poItemVariant', new Map(ownRows.map((r) => [r.id, r.variantId])));
      await tx.delete(purchaseOrderItem).where(eq(purchaseOrderItem.purchaseOrderId, id));
      await insertPoLines(tx, id, lines);
    }
    await tx.update(purchaseOrder).set({
      storeId, poNumber, supplierId: input.supplier ?? po.supplierId,
      ...(input.createdAt ? { createdAt: input.createdAt } : {}), updatedAt: new Date(),
    }).where(eq(purchaseOrder.id, id));
  });
}

/** Deletes an Open purchase order with its lines. A Used one is 409 (delete its purchase first). */
export async function deletePurchaseOrder(db: Conn, id: number, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    await lockEditablePo(tx, id, actor);
    await tx.delete(purchaseOrder).where(eq(purchaseOrder.id, id));
  });
}

// ---------------------------------------------------------------------------------------------
