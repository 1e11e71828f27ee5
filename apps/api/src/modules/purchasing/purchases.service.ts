import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { BLANK } from '@pos/domain/wire-fields';
import { notFound, validationError } from '@pos/domain/errors';
import { divRoundHalfAway, parseQuantity, quantityToString } from '@pos/domain/money';
import type { Receipt } from '@pos/domain/stock-cost';
import type { Tx } from '../../db/client.ts';
import { product, productVariant, purchase, purchaseItem, purchaseItemVariant, purchaseOrder, stockMovement } from '../../db/schema/index.ts';
import { moveStock } from '../../lib/stock.ts';
import { priceMinor, receiveAtCost } from '../../lib/stock-cost.ts';
import { storeDigits } from '../../lib/store-money.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { assertStoreAccess, type AuthInfo } from '../../plugins/auth.ts';
import type { PurchaseBody, PurchaseUpdateBody } from './purchasing.schemas.ts';
import { ALREADY_USED_VALUE, type Conn, type ResolvedLine, USED_MESSAGE, assertPaymentType, assertSupplier, centsText, linesTotalCents, notFoundRef, resolveLines, write } from './purchasing.common.ts';

// ---------------------------------------------------------------------------------------------
// Stock

/**
 * Brings the stock ledger rows tagged with this purchase to the purchase's desired effect and
 * moves only the difference, so a purchase counts exactly once however often it is edited.
 *
 * Desired effect (when `updateStocks`), mirroring sales (a variant sale takes from the variant AND
 * the store's product row): product_store of the purchase's store receives the line quantity plus
 * its variant quantities (the total counts both), and each variant's row in that store its own
 * row's quantity (lib/stock.ts). Rows applied earlier are keyed by their own store (a variant row
 * of before migration 0015 by the store it was given there), so an edit takes back from where it put. Only for products that manage inventory, as sales only count those. A product whose manageInventory was switched off
 * after the purchase keeps what it already received (its rows are left alone on edit).
 * `target` null (delete) takes back everything the purchase put in.
 */
async function syncPurchaseStock(tx: Tx, purchaseId: number, target: { storeId: number; updateStocks: boolean; lines: ResolvedLine[] } | null, userId: number) {
  const applied = await tx.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    quantity: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement).where(eq(stockMovement.purchaseId, purchaseId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);

  const key = (p: number, v: number | null, s: number) => `${p}:${v ?? ''}:${s}`;
  const entries = new Map<string, { productId: number; variantId: number | null; storeId: number; have: number; want: number }>();
  const entry = (p: number, v: number | null, s: number) => {
    const k = key(p, v, s);
    let e = entries.get(k);
    if (!e) { e = { productId: p, variantId: v, storeId: s, have: 0, want: 0 }; entries.set(k, e); }
    return e;
  };
  // A ledger row's store is always known (migration 0015); a null one would be refused by moveStock.
  for (const a of applied) entry(a.productId, a.variantId, a.storeId as number).have += parseQuantity(a.quantity);

  let unmanaged = new Set<number>();
  if (target) {
    const ids = [...new Set([...target.lines.map((l) => l.productId), ...applied.map((a) => a.productId)])];
    const rows = ids.length ? await tx.select({ id: product.id, manage: product.manageInventory }).from(product).where(inArray(product.id, ids)) : [];
    unmanaged = new Set(rows.filter((r) => !r.manage).map((r) => r.id));
    if (target.updateStocks) {
      for (const l of target.lines) {
        if (unmanaged.has(l.productId)) continue;
        const storeRow = entry(l.productId, null, target.storeId);
        storeRow.want += parseQuantity(l.quantity);
        for (const v of l.variants) {
          entry(l.productId, v.variantId, target.storeId).want += parseQuantity(v.quantity);
          storeRow.want += parseQuantity(v.quantity); // as a variant sale takes from both
        }
      }
    }
  }
  // A stable order keeps concurrent receipts from locking rows in opposite orders.
  const moves = [...entries.values()]
    .filter((e) => !(target && unmanaged.has(e.productId)) && e.want !== e.have)
    .sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0) || a.storeId - b.storeId);
  if (target) await averageIn(tx, target, moves);
  for (const m of moves) {
    await moveStock(tx, {
      productId: m.productId, variantId: m.variantId, storeId: m.storeId, delta: quantityToString(m.want - m.have),
      reason: target ? 'purchase' : 'purchase_delete', purchaseId, userId,
    });
  }
}

/**
 * The receiving store's weighted-average cost takes in what this purchase adds (lib/stock-cost.ts),
 * before the ledger rows are written: a new receipt at its lines' prices (a product and its
 * variants on several lines at their own prices); an edit that adds quantity, the addition at the
 * purchase's average price of that product. Less received (an edit down, a delete) goes out at
 * the average and leaves it as it is.
 */
async function averageIn(tx: Tx, target: { storeId: number; lines: ResolvedLine[] }, moves: { productId: number; variantId: number | null; storeId: number; have: number; want: number }[]) {
  const digits = await storeDigits(tx, target.storeId);
  const byProduct = new Map<number, Receipt[]>();
  for (const m of moves) {
    if (m.variantId != null || m.storeId !== target.storeId || m.want <= m.have) continue;
    const lines = target.lines.filter((l) => l.productId === m.productId).flatMap((l) => [
      { qtyMilli: parseQuantity(l.quantity), unitMinor: priceMinor(l.price, digits) },
      ...l.variants.map((v) => ({ qtyMilli: parseQuantity(v.quantity), unitMinor: priceMinor(v.price, digits) })),
    ]).filter((r) => r.qtyMilli > 0);
    if (m.have === 0) { byProduct.set(m.productId, lines); continue; }
    const qty = lines.reduce((a, r) => a + BigInt(r.qtyMilli), 0n);
    const unit = qty === 0n ? 0 : Number(divRoundHalfAway(lines.reduce((a, r) => a + BigInt(r.qtyMilli) * BigInt(r.unitMinor), 0n), qty));
    byProduct.set(m.productId, [{ qtyMilli: m.want - m.have, unitMinor: unit }]);
  }
  await receiveAtCost(tx, target.storeId, byProduct);
}

/** updatePrice: the product's cost and the variant's purchase price; never a sale price. */
async function applyPrices(tx: Tx, lines: ResolvedLine[]) {
  const now = new Date();
  for (const l of lines) {
    await tx.update(product).set({ cost: l.price, updatedAt: now }).where(eq(product.id, l.productId));
    for (const v of l.variants) await tx.update(productVariant).set({ purchasePrice: v.price, updatedAt: now }).where(eq(productVariant.id, v.variantId));
  }
}

// ---------------------------------------------------------------------------------------------
// Purchases

async function lockPurchaseOrder(tx: Tx, id: number, storeId: number) {
  const [po] = await tx.select().from(purchaseOrder).where(eq(purchaseOrder.id, id)).for('update');
  if (!po || po.storeId !== storeId) throw notFoundRef('purchaseOrder', 'Purchase order', id);
  return po;
}

async function assertPurchaseNumberFree(tx: Tx, storeId: number, purchaseNumber: string, selfId?: number) {
  const [row] = await tx.select({ id: purchase.id }).from(purchase)
    .where(and(eq(purchase.storeId, storeId), eq(purchase.purchaseNumber, purchaseNumber), selfId ? ne(purchase.id, selfId) : undefined));
  if (row) throw validationError([{ propertyPath: 'purchaseNumber', message: ALREADY_USED_VALUE }]);
}

async function insertPurchaseLines(tx: Tx, purchaseId: number, lines: ResolvedLine[]) {
  for (const l of lines) {
    const [row] = await tx.insert(purchaseItem).values({
      purchaseId, itemId: l.productId, quantity: l.quantity, quantityRequested: l.quantityRequested, purchasePrice: l.price,
      purchaseUnit: l.unit, barcode: l.barcode, comments: l.comments,
    }).returning({ id: purchaseItem.id });
    if (l.variants.length) {
      await tx.insert(purchaseItemVariant).values(l.variants.map((v) => ({
        purchaseItemId: row.id, variantId: v.variantId, quantity: v.quantity, quantityRequested: v.quantityRequested,
        purchasePrice: v.price, purchaseUnit: v.unit, comments: v.comments,
      })));
    }
  }
}

/** The stored lines of a purchase, as resolved lines. */
async function storedPurchaseLines(tx: Tx, purchaseId: number): Promise<ResolvedLine[]> {
  const items = await tx.select().from(purchaseItem).where(eq(purchaseItem.purchaseId, purchaseId)).orderBy(asc(purchaseItem.id));
  const ids = items.map((i) => i.id);
  const variants = ids.length ? await tx.select().from(purchaseItemVariant).where(inArray(purchaseItemVariant.purchaseItemId, ids)).orderBy(asc(purchaseItemVariant.id)) : [];
  return items.map((i) => ({
    productId: i.itemId, quantity: i.quantity, quantityRequested: i.quantityRequested, price: i.purchasePrice, unit: i.purchaseUnit,
    barcode: i.barcode, comments: i.comments,
    variants: variants.filter((v) => v.purchaseItemId === i.id).map((v) => ({
      variantId: v.variantId, quantity: v.quantity, quantityRequested: v.quantityRequested, price: v.purchasePrice, unit: v.purchaseUnit, comments: v.comments,
    })),
  }));
}

async function ownPurchaseVariants(tx: Tx, purchaseId: number) {
  const rows = await tx.select({ id: purchaseItemVariant.id, variantId: purchaseItemVariant.variantId }).from(purchaseItemVariant)
    .innerJoin(purchaseItem, eq(purchaseItem.id, purchaseItemVariant.purchaseItemId)).where(eq(purchaseItem.purchaseId, purchaseId));
  return new Map(rows.map((r) => [r.id, r.variantId]));
}

function requirePoForMode(mode: string, poId: number | null | undefined) {
  if (mode === 'Purchase order' && !poId) throw validationError([{ propertyPath: 'purchaseOrder', message: BLANK }]);
}

/**
 * Receives goods. Guarantees, in one transaction:
 * - the store is one of the caller's; supplier, payment type, products and variants exist and are visible;
 * - the purchase number is unique in the store (422 'This value is already used.');
 * - a purchase order (required in 'Purchase order' mode) belongs to the store and is not used yet;
 *   it becomes Used;
 * - total = Σ quantity x cost over lines and variants, computed here (the client's is ignored);
 * - purchasedBy is the caller;
 * - with updateStocks, stock moves through the stock ledger once (see syncPurchaseStock);
 * - with updatePrice, product cost and variant purchase price take the line prices.
 * Returns the new purchase id.
 */
export async function createPurchase(db: Conn, input: PurchaseBody, actor: AuthInfo): Promise<number> {
  return write(db, async (tx) => {
    assertCallerStore(actor, input.store);
    requirePoForMode(input.purchaseMode, input.purchaseOrder);
    let supplierId = input.supplier ?? null;
    if (input.purchaseOrder) {
      const po = await lockPurchaseOrder(tx, input.purchaseOrder, input.store);
      if (po.isUsed) throw validationError([{ propertyPath: 'purchaseOrder', message: USED_MESSAGE }]);
      supplierId ??= po.supplierId;
    }
    if (supplierId) await assertSupplier(tx, supplierId, actor);
    await assertPaymentType(tx, input.paymentType, actor);
    await assertPurchaseNumberFree(tx, input.store, input.purchaseNumber);
    const lines = await resolveLines(tx, input.items, 'purchaseItemVariant', new Map());
    const updateStocks = input.updateStocks ?? true;
    const updatePrice = input.updatePrice ?? true;
    const [row] = await tx.insert(purchase).values({
      supplierId, storeId: input.store, purchasedById: actor.userId, purchaseOrderId: input.purchaseOrder ?? null,
      purchaseNumber: input.purchaseNumber, purchaseMode: input.purchaseMode, paymentTypeId: input.paymentType,
      updateStocks, updatePrice, total: centsText(linesTotalCents(lines)), createdAt: input.createdAt, updatedAt: new Date(),
    }).returning({ id: purchase.id });
    await insertPurchaseLines(tx, row.id, lines);
    if (input.purchaseOrder) await tx.update(purchaseOrder).set({ isUsed: true, updatedAt: new Date() }).where(eq(purchaseOrder.id, input.purchaseOrder));
    await syncPurchaseStock(tx, row.id, { storeId: input.store, updateStocks, lines }, actor.userId);
    if (updatePrice) await applyPrices(tx, lines);
    return row.id;
  });
}

/**
 * Edits a purchase (merge: absent fields keep their value; `items`, when sent, replace the lines).
 * Guarantees as createPurchase, plus:
 * - stock moves only by the difference between the new desired effect and what the ledger already
 *   holds for this purchase (a store change moves it between stores; updateStocks off takes it back);
 * - changing the purchase order frees the old one and uses the new one; purchasedBy never changes;
 * - updatePrice applies when lines are sent.
 */
export async function updatePurchase(db: Conn, id: number, input: PurchaseUpdateBody, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const [current] = await tx.select().from(purchase).where(eq(purchase.id, id)).for('update');
    if (!current) throw notFound('Purchase not found');
    assertStoreAccess(actor, current.storeId, 'Purchase not found');
    const storeId = input.store ?? current.storeId;
    if (storeId !== current.storeId) assertCallerStore(actor, storeId);
    const mode = input.purchaseMode ?? current.purchaseMode;
    const poId = input.purchaseOrder !== undefined ? input.purchaseOrder : current.purchaseOrderId;
    requirePoForMode(mode, poId);
    let supplierId = input.supplier !== undefined ? input.supplier : current.supplierId;
    if (poId !== current.purchaseOrderId) {
      if (current.purchaseOrderId) await tx.update(purchaseOrder).set({ isUsed: false, updatedAt: new Date() }).where(eq(purchaseOrder.id, current.purchaseOrderId));
      if (poId) {
        const po = await lockPurchaseOrder(tx, poId, storeId);
        if (po.isUsed) throw validationError([{ propertyPath: 'purchaseOrder', message: USED_MESSAGE }]);
        await tx.update(purchaseOrder).set({ isUsed: true, updatedAt: new Date() }).where(eq(purchaseOrder.id, poId));
        supplierId ??= po.supplierId;
      }
    } else if (poId && storeId !== current.storeId) {
      await lockPurchaseOrder(tx, poId, storeId);
    }
    if (supplierId && supplierId !== current.supplierId) await assertSupplier(tx, supplierId, actor);
    const paymentTypeId = input.paymentType ?? current.paymentTypeId;
    if (input.paymentType && input.paymentType !== current.paymentTypeId) await assertPaymentType(tx, input.paymentType, actor);
    const purchaseNumber = input.purchaseNumber ?? current.purchaseNumber;
    if (purchaseNumber !== current.purchaseNumber || storeId !== current.storeId) await assertPurchaseNumberFree(tx, storeId, purchaseNumber, id);

    let lines: ResolvedLine[];
    if (input.items) {
      lines = await resolveLines(tx, input.items, 'purchaseItemVariant', await ownPurchaseVariants(tx, id));
      await tx.delete(purchaseItem).where(eq(purchaseItem.purchaseId, id));
      await insertPurchaseLines(tx, id, lines);
    } else {
      lines = await storedPurchaseLines(tx, id);
    }
    const updateStocks = input.updateStocks ?? current.updateStocks;
    const updatePrice = input.updatePrice ?? current.updatePrice;
    await tx.update(purchase).set({
      storeId, supplierId, purchaseOrderId: poId ?? null, purchaseNumber, purchaseMode: mode, paymentTypeId,
      updateStocks, updatePrice, total: centsText(linesTotalCents(lines)),
      ...(input.createdAt ? { createdAt: input.createdAt } : {}), updatedAt: new Date(),
    }).where(eq(purchase.id, id));
    await syncPurchaseStock(tx, id, { storeId, updateStocks, lines }, actor.userId);
    if (input.items && updatePrice) await applyPrices(tx, lines);
  });
}

/**
 * Deletes a purchase: takes back exactly the stock it put in (through the ledger), frees its
 * purchase order (Open again), and detaches supplier payments that named it. Prices stay.
 */
export async function deletePurchase(db: Conn, id: number, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const [current] = await tx.select().from(purchase).where(eq(purchase.id, id)).for('update');
    if (!current) throw notFound('Purchase not found');
    assertStoreAccess(actor, current.storeId, 'Purchase not found');
    await syncPurchaseStock(tx, id, null, actor.userId);
    await tx.delete(purchase).where(eq(purchase.id, id));
    if (current.purchaseOrderId) await tx.update(purchaseOrder).set({ isUsed: false, updatedAt: new Date() }).where(eq(purchaseOrder.id, current.purchaseOrderId));
  });
}

// ---------------------------------------------------------------------------------------------
