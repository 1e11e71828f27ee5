import { and, eq, inArray } from 'drizzle-orm';
import { validationError, type Violation } from '@pos/domain/errors';
import { parseMoney, parseQuantity } from '@pos/domain/money';
import { purchaseTotal } from '@pos/domain/ledger';
import type { Db, Tx } from '../../db/client.ts';
import { paymentStore, paymentType, product, productVariant, purchaseOrderItemVariant, supplier, supplierStore } from '../../db/schema/index.ts';
import { type AuthInfo } from '../../plugins/auth.ts';
import { linkedToStores } from '../../resources/filters.ts';
import type { VariantRef } from './purchasing.schemas.ts';

/**
 * Purchasing: purchase orders, purchases (goods receipts) and supplier payments.
 * Every exported write runs in one transaction (a savepoint when handed a transaction): a 422 or
 * a conflict leaves nothing written.
 */
export type Conn = Db | Tx;

export const USED_MESSAGE = 'This purchase order is already used.';
export const PO_LOCKED_MESSAGE = 'This purchase order is used by a purchase and cannot be changed or deleted.';
export const ALREADY_USED_VALUE = 'This value is already used.';

export const notFoundRef = (propertyPath: string, label: string, id: number) =>
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
export async function write<T>(db: Conn, fn: (tx: Tx) => Promise<T>): Promise<T> {
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

export async function assertSupplier(tx: Tx, id: number, actor: AuthInfo, propertyPath = 'supplier') {
  const [row] = await tx.select({ id: supplier.id }).from(supplier)
    .where(and(eq(supplier.id, id), linkedToStores(supplierStore, supplier.id, actor.storeIds)));
  if (!row) throw notFoundRef(propertyPath, 'Supplier', id);
}

export async function assertPaymentType(tx: Tx, id: number, actor: AuthInfo) {
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
export async function resolveLines(tx: Tx, items: LineInput[], ownKind: 'purchaseItemVariant' | 'poItemVariant', own: Map<number, number>): Promise<ResolvedLine[]> {
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

export const centsText = (cents: number) => (cents / 100).toFixed(2);
