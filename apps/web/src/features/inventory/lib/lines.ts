/**
 * The line grid shared by the purchase and purchase-order forms: validation, totals (all items AND
 * all variants, unlike the reference's last-item bug) and the wire lines.
 */
import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput, parseQuantity, quantityToString, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import { normaliseNumberText } from '@/components/ui/number-input';
import { purchaseQuantity, purchaseTotal, type PurchaseLineInput } from '@pos/domain/ledger';
import type { LineVariantWire, ProductBrief, PurchaseItem, PurchaseOrderItem } from './types.ts';

const isNum = (v: string) => isValidMoneyInput(normaliseNumberText(v), { scale: 3, allowNegative: false });
const qty = () =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    .refine(isNum, { error: messages.number })
    .refine((v) => !isNum(v) || parseQuantity(v) > 0, { error: messages.positive });
const cost = () =>
  z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required })
    // The MoneyInput's text (the store currency's decimals, KWD 3, and the locale's separator: issue 19).
    .refine((v) => isValidMoneyInput(normaliseNumberText(v), { scale: 3, allowNegative: false }), { error: messages.number });

export const lineVariantSchema = z.object({
  /** ProductVariant IRI. */
  variant: z.string(),
  label: z.string(),
  quantity: qty(),
  quantityRequested: z.string(),
  purchasePrice: cost(),
  /** The existing line-variant IRI when editing. */
  id: z.string().optional(),
});

export const lineSchema = z.object({
  /** Product IRI. */
  item: z.string().min(1),
  name: z.string(),
  quantity: qty(),
  quantityRequested: z.string(),
  purchasePrice: cost(),
  comments: z.string(),
  unit: z.string(),
  variants: z.array(lineVariantSchema),
});

export const linesSchema = z.array(lineSchema).min(1, { error: messages.addSomeItems });

export type LineVariant = z.input<typeof lineVariantSchema>;
export type Line = z.input<typeof lineSchema>;

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
const safeQty = (v: string) => tryParseScaled(v, 3) ?? 0;
/** A cost in minor units of a currency of `digits` digits (2: cents; KWD 3: fils). */
const safeCost = (v: string, digits = 2) => (digits === 2 ? tryParseMoney(v) : tryParseScaled(v, digits)) ?? 0;

/** A new line for a product: quantity 1 at the product's cost; each variant quantity 1 at its price (spec 9). */
export function newLine(product: ProductBrief): Line {
  return {
    item: product['@id'] ?? `/api/products/${product.id}`,
    name: product.name,
    quantity: '1',
    quantityRequested: '',
    purchasePrice: str(product.cost ?? '0') || '0',
    comments: '',
    unit: str(product.purchaseUnit),
    variants: (product.variants ?? []).map((v) => ({
      variant: v['@id'] ?? `/api/product_variants/${v.id}`,
      label: str(v.attributeValue),
      quantity: '1',
      quantityRequested: '',
      purchasePrice: str(v.purchasePrice ?? v.price ?? '0') || '0',
    })),
  };
}

const plusOne = (quantity: string) => quantityToString((tryParseScaled(cleanNumber(quantity || '0'), 3) ?? 0) + 1000);
const iriOf = (product: ProductBrief) => product['@id'] ?? `/api/products/${product.id}`;

/** Where a scanned product (and variant) sits in the lines: the line's index, and the variant's within it (-1: none). */
export function findScanned(lines: readonly Line[], product: ProductBrief, variant: string | null): { line: number; variant: number } {
  const line = lines.findIndex((l) => l.item === iriOf(product));
  const v = line >= 0 && variant ? lines[line].variants.findIndex((x) => x.variant === variant) : -1;
  return { line, variant: v };
}

/**
 * A barcode scanned into a purchase or an order: a product not yet on it becomes a new line (as the
 * picker adds it); scanned again, one more of it, or of the variant whose barcode it was.
 */
export function addScanned(lines: readonly Line[], product: ProductBrief, variant: string | null): Line[] {
  const at = findScanned(lines, product, variant);
  if (at.line < 0) return [...lines, newLine(product)];
  return lines.map((l, i) => {
    if (i !== at.line) return l;
    if (at.variant >= 0) return { ...l, variants: l.variants.map((v, j) => (j === at.variant ? { ...v, quantity: plusOne(v.quantity) } : v)) };
    return { ...l, quantity: plusOne(l.quantity) };
  });
}

function variantFromWire(v: LineVariantWire, requested: boolean): LineVariant {
  return {
    variant: v.variant?.['@id'] ?? (v.variant ? `/api/product_variants/${v.variant.id}` : ''),
    label: str(v.variant?.attributeValue),
    quantity: str(v.quantity),
    quantityRequested: requested ? str(v.quantity) : str(v.quantityRequested),
    purchasePrice: str(v.purchasePrice),
    id: requested ? undefined : v['@id'],
  };
}

/** Lines of an existing purchase (edit). */
export function linesFromPurchase(items: PurchaseItem[]): Line[] {
  return items.map((i) => ({
    item: i.item?.['@id'] ?? `/api/products/${i.item?.id}`,
    name: i.item?.name ?? '',
    quantity: str(i.quantity),
    quantityRequested: str(i.quantityRequested),
    purchasePrice: str(i.purchasePrice),
    comments: str(i.comments),
    unit: str(i.purchaseUnit),
    variants: (i.variants ?? []).map((v) => variantFromWire(v, false)),
  }));
}

/**
 * Lines of a purchase order: for a PO edit (requested=false) as they are; for a purchase received
 * against the PO (requested=true) the ordered quantity becomes "quantity requested" and the default
 * received quantity.
 */
export function linesFromOrder(items: PurchaseOrderItem[], requested: boolean): Line[] {
  return items.map((i) => ({
    item: i.item?.['@id'] ?? `/api/products/${i.item?.id}`,
    name: i.item?.name ?? '',
    quantity: str(i.quantity),
    quantityRequested: requested ? str(i.quantity) : '',
    purchasePrice: str(i.price),
    comments: str(i.comments),
    unit: str(i.unit),
    variants: (i.variants ?? []).map((v) => ({ ...variantFromWire(v, requested), id: requested ? undefined : v['@id'] })),
  }));
}

function toInput(lines: readonly Line[], digits: number): PurchaseLineInput[] {
  return lines.map((l) => ({
    qtyMilli: safeQty(l.quantity),
    costCents: safeCost(l.purchasePrice, digits),
    variants: l.variants.map((v) => ({ qtyMilli: safeQty(v.quantity), costCents: safeCost(v.purchasePrice, digits) })),
  }));
}

export interface LineTotals {
  count: number;
  /** milli */
  quantity: number;
  /** minor units of the currency (`digits`; cents by default) */
  cost: number;
  /** milli */
  requested: number;
}

/** Totals row: line count, total quantity and cost (in minor units of a `digits`-digit currency) over every item and variant. */
export function lineTotals(lines: readonly Line[], digits = 2): LineTotals {
  const input = toInput(lines, digits);
  let requested = 0;
  for (const l of lines) {
    requested += safeQty(l.quantityRequested);
    for (const v of l.variants) requested += safeQty(v.quantityRequested);
  }
  return { count: lines.length, quantity: purchaseQuantity(input), cost: purchaseTotal(input), requested };
}

/** qty x cost of one row in minor units of a `digits`-digit currency, cents by default (0 while the inputs are incomplete). */
export function rowTotal(quantity: string, purchasePrice: string, digits = 2): number {
  return purchaseTotal([{ qtyMilli: safeQty(quantity), costCents: safeCost(purchasePrice, digits) }]);
}

/** "5." -> "5", ".5" -> "0.5": what every parser agrees on. */
/** A number field's text for the wire: Arabic-Indic digits and the locale's separator read as 0-9 and '.', no dangling '.'. */
export const cleanNumber = (v: string) => normaliseNumberText(v.trim()).replace(/\.$/, '').replace(/^\./, '0.');
