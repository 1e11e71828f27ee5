import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { BLANK } from '@pos/domain/wire-fields';
import { conflict, notFound, validationError, type Violation } from '@pos/domain/errors';
import { parseMoney, parseQuantity, quantityToString } from '@pos/domain/money';
import { purchaseTotal, supplierOutstanding } from '@pos/domain/ledger';
import type { Db, Tx } from '../../db/client.ts';
import {
  paymentStore, paymentType, product, productVariant, purchase, purchaseItem, purchaseItemVariant, purchaseOrder,
  purchaseOrderItem, purchaseOrderItemVariant, stockMovement, supplier, supplierPayment, supplierStore,
} from '../../db/schema/index.ts';
import { moveStock } from '../../lib/stock.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { assertStoreAccess, type AuthInfo } from '../../plugins/auth.ts';
import { linkedToStores } from '../../resources/filters.ts';
import type { PurchaseBody, PurchaseOrderBody, PurchaseUpdateBody, SupplierPaymentBody, VariantRef } from './purchasing.schemas.ts';

/**
 * Purchasing: purchase orders, purchases (goods receipts) and supplier payments.
 * Every exported write runs in one transaction (a savepoint when handed a transaction): a 422 or
 * a conflict leaves nothing written.
 */
type Conn = Db | Tx;

export const USED_MESSAGE = 'This purchase order is already used.';
export const PO_LOCKED_MESSAGE = 'This purchase order is used by a purchase and cannot be changed or deleted.';
export const ALREADY_USED_VALUE = 'This value is already used.';

const notFoundRef = (propertyPath: string, label: string, id: number) =>
  validationError([{ propertyPath, message: `'${label}' with ID '${id}' not found` }]);

/** A unique-index violation (PGlite and node-postgres, wrapped by Drizzle or not). */
function uniqueViolation(err: unknown): string | null {
  for (let e: any = err, i = 0; e && i < 4; e = e.cause, i++) {
    if (e.code === '23505') return String(e.constraint ?? e.message ?? '');
  }
  return null;
}

const UNIQUE_FIELDS: Record<string, string> = {
  purchase_number_uq: 'purchaseNumber', purchase_po_uq: 'purchaseOrder', purchase_order_number_uq: 'poNumber',
};

/** Runs a write in a transaction and turns a unique violation of a known index into a 422 on its field. */
async function write<T>(db: Conn, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await (db as Db).transaction(fn);
  } catch (err) {
    const which = uniqueViolation(err);
    if (which !== null) {
      const key = Object.keys(UNIQUE_FIELDS).find((k) => which.includes(k));
      if (key) throw validationError([{ propertyPath: UNIQUE_FIELDS[key], message: key === 'purchase_po_uq' ? USED_MESSAGE : ALREADY_USED_VALUE }]);
    }
    throw err;
  }
}

// ---------------------------------------------------------------------------------------------
// References

async function assertSupplier(tx: Tx, id: number, actor: AuthInfo, propertyPath = 'supplier') {
  const [row] = await tx.select({ id: supplier.id }).from(supplier)
    .where(and(eq(supplier.id, id), linkedToStores(supplierStore, supplier.id, actor.storeIds)));
  if (!row) throw notFoundRef(propertyPath, 'Supplier', id);
}

async function assertPaymentType(tx: Tx, id: number, actor: AuthInfo) {
  const [row] = await tx.select({ id: paymentType.id }).from(paymentType)
    .where(and(eq(paymentType.id, id), linkedToStores(paymentStore, paymentType.id, actor.storeIds)));
  if (!row) throw notFoundRef('paymentType', 'Payment', id);
}

/** A purchase or PO line after its references are checked. Quantities and prices are decimal strings. */
export interface ResolvedLine {
  productId: number;
  quantity: string;
  quantityRequested: string | null;
  price: string;
  unit: string | null;
  barcode: string | null;
  comments: string | null;
  variants: { variantId: number; quantity: string; quantityRequested: string | null; price: string; unit: string | null; comments: string | null }[];
}

interface LineInput {
  item: number;
  quantity: string;
  quantityRequested?: string | null;
  purchasePrice?: string;
  price?: string;
  purchaseUnit?: string | null;
  unit?: string | null;
  barcode?: string | null;
  comments?: string | null;
  variants?: { ref: VariantRef; quantity: string; quantityRequested: string | null; purchasePrice: string; purchaseUnit: string | null; comments: string | null }[];
}

/**
 * Checks products and variants of the lines and resolves every variant row to a ProductVariant id.
 * `own` maps the line-variant rows of the record being edited (purchase-item-variant or
 * PO-item-variant id -> variant id); a bare number is looked up there first.
 */
async function resolveLines(tx: Tx, items: LineInput[], ownKind: 'purchaseItemVariant' | 'poItemVariant', own: Map<number, number>): Promise<ResolvedLine[]> {
  const violations: Violation[] = [];
  const productIds = [...new Set(items.map((i) => i.item))];
  const products = productIds.length ? await tx.select({ id: product.id }).from(product).where(inArray(product.id, productIds)) : [];
  const known = new Set(products.map((p) => p.id));
  items.forEach((it, i) => { if (!known.has(it.item)) violations.push({ propertyPath: `items[${i}].item`, message: `'Product' with ID '${it.item}' not found` }); });

  const poRefs = items.flatMap((it) => (it.variants ?? []).filter((v) => v.ref.kind === 'poItemVariant').map((v) => v.ref.id));
  const poRows = poRefs.length ? await tx.select({ id: purchaseOrderItemVariant.id, variantId: purchaseOrderItemVariant.variantId })
    .from(purchaseOrderItemVariant).where(inArray(purchaseOrderItemVariant.id, poRefs)) : [];
  const poMap = new Map(poRows.map((r) => [r.id, r.variantId]));
  const wanted: { i: number; j: number; variantId: number | null; shown: number }[] = [];
  items.forEach((it, i) => (it.variants ?? []).forEach((v, j) => {
    let variantId: number | null = null;
    if (v.ref.kind === 'variant') variantId = v.ref.id;
    else if (v.ref.kind === 'poItemVariant') variantId = (ownKind === 'poItemVariant' ? own.get(v.ref.id) : undefined) ?? poMap.get(v.ref.id) ?? null;
    else if (v.ref.kind === 'purchaseItemVariant') variantId = ownKind === 'purchaseItemVariant' ? (own.get(v.ref.id) ?? null) : null;
    else variantId = own.get(v.ref.id) ?? v.ref.id; // bare number: the record's own row, else a ProductVariant id
    wanted.push({ i, j, variantId, shown: v.ref.id });
  }));
  const variantIds = [...new Set(wanted.map((w) => w.variantId).filter((x): x is number => x != null))];
  const variants = variantIds.length ? await tx.select({ id: productVariant.id, productId: productVariant.productId }).from(productVariant).where(inArray(productVariant.id, variantIds)) : [];
  const variantProduct = new Map(variants.map((v) => [v.id, v.productId]));
  for (const w of wanted) {
    if (w.variantId == null || variantProduct.get(w.variantId) !== items[w.i].item) {
      violations.push({ propertyPath: `items[${w.i}].variants[${w.j}].variant`, message: `'Product variant' with ID '${w.variantId ?? w.shown}' not found` });
    }
  }
  if (violations.length) throw validationError(violations);

  return items.map((it, i) => ({
    productId: it.item,
    quantity: it.quantity,
    quantityRequested: it.quantityRequested ?? null,
    price: (it.purchasePrice ?? it.price)!,
    unit: it.purchaseUnit ?? it.unit ?? null,
    barcode: it.barcode ?? null,
    comments: it.comments ?? null,
    variants: (it.variants ?? []).map((v, j) => ({
      variantId: wanted.find((w) => w.i === i && w.j === j)!.variantId!,
      quantity: v.quantity, quantityRequested: v.quantityRequested, price: v.purchasePrice, unit: v.purchaseUnit, comments: v.comments,
    })),
  }));
}

/** Server-computed purchase total in cents: quantity x cost over every line and every variant. */
export function linesTotalCents(lines: ResolvedLine[]): number {
  try {
    const cents = purchaseTotal(lines.map((l) => ({
      qtyMilli: parseQuantity(l.quantity), costCents: parseMoney(l.price),
      variants: l.variants.map((v) => ({ qtyMilli: parseQuantity(v.quantity), costCents: parseMoney(v.price) })),
    })));
    if (Math.abs(cents) >= 1e17) throw new RangeError('total out of range');
    return cents;
  } catch (e) {
    if (e instanceof RangeError) throw validationError([{ propertyPath: 'items', message: 'The purchase total is too large.' }]);
    throw e;
  }
}

const centsText = (cents: number) => (cents / 100).toFixed(2);

// ---------------------------------------------------------------------------------------------
// Stock

/**
 * Brings the stock ledger rows tagged with this purchase to the purchase's desired effect and
 * moves only the difference, so a purchase counts exactly once however often it is edited.
 *
 * Desired effect (when `updateStocks`), mirroring sales (a variant sale takes from the variant AND
 * the store's product row): product_store of the purchase's store receives the line quantity plus
 * its variant quantities (the total counts both), and each variant's (global) stock its own row's
 * quantity. Only for products that manage inventory, as sales only count those. A product whose manageInventory was switched off
 * after the purchase keeps what it already received (its rows are left alone on edit).
 * `target` null (delete) takes back everything the purchase put in.
 */
async function syncPurchaseStock(tx: Tx, purchaseId: number, target: { storeId: number; updateStocks: boolean; lines: ResolvedLine[] } | null, userId: number) {
  const applied = await tx.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    quantity: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement).where(eq(stockMovement.purchaseId, purchaseId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);

  const key = (p: number, v: number | null, s: number | null) => `${p}:${v ?? ''}:${s ?? ''}`;
  const entries = new Map<string, { productId: number; variantId: number | null; storeId: number | null; have: number; want: number }>();
  const entry = (p: number, v: number | null, s: number | null) => {
    const k = key(p, v, s);
    let e = entries.get(k);
    if (!e) { e = { productId: p, variantId: v, storeId: s, have: 0, want: 0 }; entries.set(k, e); }
    return e;
  };
  for (const a of applied) entry(a.productId, a.variantId, a.variantId != null ? null : a.storeId).have += parseQuantity(a.quantity);

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
          entry(l.productId, v.variantId, null).want += parseQuantity(v.quantity);
          storeRow.want += parseQuantity(v.quantity); // as a variant sale takes from both
        }
      }
    }
  }
  // A stable order keeps concurrent receipts from locking rows in opposite orders.
  const moves = [...entries.values()]
    .filter((e) => !(target && unmanaged.has(e.productId)) && e.want !== e.have)
    .sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0) || (a.storeId ?? 0) - (b.storeId ?? 0));
  for (const m of moves) {
    await moveStock(tx, {
      productId: m.productId, variantId: m.variantId, storeId: m.storeId, delta: quantityToString(m.want - m.have),
      reason: target ? 'purchase' : 'purchase_delete', purchaseId, userId,
    });
  }
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
// Supplier payments and ledger

/**
 * Records a payment to a supplier. Guarantees: the supplier is visible to the caller; a named
 * purchase exists in one of the caller's stores and belongs to that supplier; amount > 0.
 */
export async function createSupplierPayment(db: Conn, input: SupplierPaymentBody, actor: AuthInfo): Promise<number> {
  return write(db, async (tx) => {
    await assertSupplier(tx, input.supplier, actor);
    if (input.purchase) {
      const [p] = await tx.select({ id: purchase.id, supplierId: purchase.supplierId, storeId: purchase.storeId }).from(purchase).where(eq(purchase.id, input.purchase));
      if (!p || p.supplierId !== input.supplier || !actor.storeIds.includes(p.storeId)) throw notFoundRef('purchase', 'Purchase', input.purchase);
    }
    const [row] = await tx.insert(supplierPayment).values({
      amount: input.amount, description: input.description, purchaseId: input.purchase ?? null, supplierId: input.supplier,
    }).returning({ id: supplierPayment.id });
    return row.id;
  });
}

export interface SupplierFigures {
  /** Σ totals of credit-type purchases, cents. */
  purchaseTotal: number;
  /** Σ payments, cents. */
  paid: number;
  openingBalance: number;
  /** credit purchases - payments + opening balance, cents. */
  outstanding: number;
}

/**
 * Ledger figures of suppliers (reference-client 4.10): outstanding = credit-type purchase totals
 * - payments + opening balance. `storeIds` limits the purchases counted (the caller's stores);
 * payments have no store and all count.
 */
export async function supplierFigures(db: Conn, supplierIds: number[], storeIds?: number[]): Promise<Map<number, SupplierFigures>> {
  const out = new Map<number, SupplierFigures>();
  const ids = [...new Set(supplierIds)];
  if (!ids.length) return out;
  const d = db as Db;
  const sups = await d.select({ id: supplier.id, openingBalance: supplier.openingBalance }).from(supplier).where(inArray(supplier.id, ids));
  const credit = await d.select({ supplierId: purchase.supplierId, total: purchase.total }).from(purchase)
    .innerJoin(paymentType, eq(paymentType.id, purchase.paymentTypeId))
    .where(and(inArray(purchase.supplierId, ids), eq(paymentType.type, 'credit'), storeIds ? (storeIds.length ? inArray(purchase.storeId, storeIds) : sql`false`) : undefined));
  const pays = await d.select({ supplierId: supplierPayment.supplierId, amount: supplierPayment.amount }).from(supplierPayment).where(inArray(supplierPayment.supplierId, ids));
  for (const s of sups) {
    const creditPurchaseTotals = credit.filter((c) => c.supplierId === s.id).map((c) => parseMoney(c.total));
    const payments = pays.filter((p) => p.supplierId === s.id).map((p) => parseMoney(p.amount));
    const openingBalance = parseMoney(s.openingBalance);
    out.set(s.id, {
      purchaseTotal: creditPurchaseTotals.reduce((a, b) => a + b, 0),
      paid: payments.reduce((a, b) => a + b, 0),
      openingBalance,
      outstanding: supplierOutstanding({ creditPurchaseTotals, payments, openingBalance }),
    });
  }
  return out;
}
