import { z } from 'zod';
import { BLANK, NOT_CHOICE, decimal, flag, optionalDecimal, optionalRef, optionalText, ref, text } from '@pos/domain/wire-fields';
import { messages } from '@pos/domain/validation';

/**
 * Request bodies of purchasing as the reference client sends them (reference-client 2.7-2.9).
 * Amounts and quantities come as numbers or numeric strings and leave as decimal strings.
 */

export const NOT_DATETIME = 'This value is not a valid datetime.';

/** "yyyy-MM-ddTHH:mm" (server local time), a full ISO string, epoch ms, or {datetime: ISO}. */
export const dateTime = () =>
  z.unknown().transform((v, ctx) => {
    const raw = v && typeof v === 'object' && !Array.isArray(v) && 'datetime' in v ? (v as { datetime: unknown }).datetime : v;
    if (raw === null || raw === undefined || raw === '') { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
    const d = typeof raw === 'number' ? new Date(raw) : typeof raw === 'string' ? new Date(raw.trim()) : new Date(NaN);
    if (Number.isNaN(d.getTime()) || d.getFullYear() < 1970 || d.getFullYear() > 9999) { ctx.addIssue({ code: 'custom', message: NOT_DATETIME }); return z.NEVER; }
    return d;
  });

/**
 * Where a line variant points. The client sends three shapes (reference-client 2.8):
 * - `variant` (ProductVariant IRI or object): PO mode rows and PO bodies;
 * - no `variant`, `@id`/`id` = the ProductVariant IRI: items-list create rows;
 * - no `variant`, `id` = the existing purchase-item-variant (or PO-item-variant) IRI: edit rows.
 * A bare number in `id` is `existing` and resolved by the service (the line's own row first,
 * else a ProductVariant id).
 */
export type VariantRef = { kind: 'variant' | 'purchaseItemVariant' | 'poItemVariant' | 'existing'; id: number };

const TYPED = /^\/api\/([a-z_]+)\/(\d{1,10})$/;
const KINDS: Record<string, VariantRef['kind']> = {
  product_variants: 'variant', purchase_item_variants: 'purchaseItemVariant', purchase_order_item_variants: 'poItemVariant',
};

function typedRef(v: unknown): VariantRef | null | 'bad' {
  const s = v && typeof v === 'object' ? ((v as Record<string, unknown>)['@id'] ?? (v as Record<string, unknown>).id) : v;
  if (typeof s === 'string') {
    const m = TYPED.exec(s.trim());
    if (m) { const kind = KINDS[m[1]]; return kind ? { kind, id: Number(m[2]) } : 'bad'; }
    if (/^\d{1,10}$/.test(s.trim())) return { kind: 'existing', id: Number(s) };
    return s.trim() === '' ? null : 'bad';
  }
  if (typeof s === 'number' && Number.isInteger(s) && s > 0 && s <= 2147483647) return { kind: 'existing', id: s };
  return s === null || s === undefined ? null : 'bad';
}

/** Reads the variant reference of a line-variant row (see VariantRef). */
export function variantRefOf(row: Record<string, unknown>): VariantRef | null | 'bad' {
  if (row.variant !== undefined && row.variant !== null && row.variant !== '') {
    const r = typedRef(row.variant);
    if (r === 'bad' || r === null) return 'bad';
    // `variant` always names a ProductVariant, bare number included.
    return r.kind === 'existing' ? { kind: 'variant', id: r.id } : r;
  }
  // `id` first: on items-list create it carries the ProductVariant IRI; on edit the line's own IRI.
  for (const key of ['id', '@id'] as const) {
    const r = typedRef(row[key]);
    if (r === 'bad') continue;
    if (r) return r;
  }
  return null;
}

const variantRow = z.object({
  variant: z.unknown().optional(),
  id: z.unknown().optional(),
  '@id': z.unknown().optional(),
  quantity: decimal({ positive: true }),
  quantityRequested: optionalDecimal({ min: 0 }),
  purchasePrice: decimal({ min: 0 }),
  purchaseUnit: optionalText(),
  comments: optionalText(65_535),
}).transform((row, ctx) => {
  const r = variantRefOf(row as Record<string, unknown>);
  if (r === null || r === 'bad') {
    ctx.addIssue({ code: 'custom', path: ['variant'], message: r === null ? BLANK : 'This value is not a valid reference.' });
    return z.NEVER;
  }
  return {
    ref: r, quantity: row.quantity, quantityRequested: row.quantityRequested ?? null,
    purchasePrice: row.purchasePrice, purchaseUnit: row.purchaseUnit ?? null, comments: row.comments ?? null,
  };
});

/** Items-list rows send `cost` next to `purchasePrice`; a row with only `cost` uses it. */
const withCostFallback = (v: unknown) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  if ((o.purchasePrice === undefined || o.purchasePrice === null || o.purchasePrice === '') && o.cost !== undefined) return { ...o, purchasePrice: o.cost };
  return o;
};

const lineVariants = z.preprocess((v) => (v === null || v === undefined ? [] : Array.isArray(v) ? v.map(withCostFallback) : v),
  z.array(variantRow, { error: 'This value should be of type array.' }).max(1000));

const itemsList = <T extends z.ZodType>(row: T) => z.array(row, { error: messages.addSomeItems }).max(5000)
  .superRefine((a, ctx) => { if (a.length === 0) ctx.addIssue({ code: 'custom', message: messages.addSomeItems }); });

export const PURCHASE_MODES = ['Items list', 'Purchase order'] as const;

const purchaseLine = z.object({
  item: ref(),
  quantity: decimal({ positive: true }),
  quantityRequested: optionalDecimal({ min: 0 }),
  purchasePrice: decimal({ min: 0 }),
  purchaseUnit: optionalText(),
  barcode: optionalText(),
  comments: optionalText(65_535),
  variants: lineVariants.optional(),
});

export const purchaseBody = z.object({
  createdAt: dateTime(),
  purchaseNumber: text(),
  purchaseMode: z.enum(PURCHASE_MODES, { error: NOT_CHOICE }),
  purchaseOrder: optionalRef(),
  supplier: optionalRef(),
  paymentType: ref(),
  store: ref(),
  updateStocks: flag().optional(),
  updatePrice: flag().optional(),
  items: itemsList(purchaseLine),
});
export type PurchaseBody = z.infer<typeof purchaseBody>;
export type PurchaseUpdateBody = Partial<PurchaseBody>;
export const purchaseUpdateBody = purchaseBody.partial();

const poLine = z.object({
  item: ref(),
  quantity: decimal({ positive: true }),
  price: decimal({ min: 0 }),
  unit: optionalText(),
  comments: optionalText(),
  variants: lineVariants.optional(),
});

export const purchaseOrderBody = z.object({
  createdAt: dateTime(),
  poNumber: text(),
  supplier: ref(),
  store: ref(),
  items: itemsList(poLine),
});
export type PurchaseOrderBody = z.infer<typeof purchaseOrderBody>;
export const purchaseOrderUpdateBody = purchaseOrderBody.partial();

export const supplierPaymentBody = z.object({
  amount: decimal({ positive: true }),
  description: text(65_535),
  purchase: optionalRef(),
  supplier: ref(),
});
export type SupplierPaymentBody = z.infer<typeof supplierPaymentBody>;
