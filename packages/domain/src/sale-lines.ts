/**
 * A sale's lines priced from its facts (sale-facts.ts): from the catalogue (variant price, the price
 * rule in force in the store's time zone, base price, a barcode's own price, a price typed on
 * purpose) or, for a return, from the original order (each returned quantity takes back its exact
 * share of every stored amount: refund.ts). Pure; violations name the input's fields.
 */
import type { Violation } from './errors.ts';
import { parseMinor, parseQuantity, parseRate, parseWireAmount, quantityToString } from './money.ts';
import { effectivePrice, variantPrice, type PriceRuleInput } from './price-rules.ts';
import { priceReturn, type ReturnOriginal } from './refund.ts';
import { SALE_MESSAGES, type SaleInput } from './schemas/sale.ts';
import type { PricedOrder, TaxMode } from './tax.ts';
import { fail, notFoundRef, safe, type Cents, type FactOriginal, type FactPriceRule, type FactProduct, type FactTaxAmount } from './sale-facts.ts';

/** A line as priced (catalogue or return). */
export interface PricedLine {
  productId: number;
  variantId: number | null;
  productName: string;
  manageInventory: boolean;
  qtyMilli: number;
  priceCents: Cents;
  /** Requested discount (the totals cap it). */
  discountCents: Cents;
  taxes: FactTaxAmount[];
  costCents: Cents;
}

/** A line whose unit price was typed on purpose (needs 'price.override'). */
export interface PriceOverride { index: number; catalogueCents: Cents; askedCents: Cents }

/** A stored price rule as the price-rule maths reads it. */
export function ruleOf(r: FactPriceRule, digits: number): PriceRuleInput {
  let date: string | Date | null = null;
  if (r.date != null) {
    // 1-31 is a day of month; anything larger is read as a unix timestamp (seconds).
    date = r.date >= 1 && r.date <= 31 ? `2000-01-${String(r.date).padStart(2, '0')}` : new Date(r.date * 1000);
  }
  return {
    basePriceCents: parseMinor(r.basePrice, digits), date, time: r.time, timeTo: r.timeTo, day: r.day,
    week: r.week, month: r.month, quarter: r.quarter,
  };
}

export interface CatalogueContext {
  storeId: number; now: Date; timeZone: string; digits: number;
  productBy: Map<number, FactProduct>;
  variantBy: Map<number, FactProduct['variants'][number]>;
}

/**
 * A sale's lines from the catalogue, and the lines whose price was typed on purpose. Throws a 422
 * naming every faulty line, with the violations already in `v`.
 */
export function priceCatalogueLines(input: SaleInput, c: CatalogueContext, v: Violation[]): { lines: PricedLine[]; overrides: PriceOverride[] } {
  const m = (x: string | null | undefined) => parseMinor(x, c.digits);
  const lines: PricedLine[] = [];
  const overrides: PriceOverride[] = [];
  input.items.forEach((l, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const qtyMilli = safe(() => parseQuantity(l.quantity), v, at('quantity'));
    if (qtyMilli === undefined) return;
    if (qtyMilli === 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.quantityZero }); return; }
    if (qtyMilli < 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.negativeWithoutReturn }); return; }
    const p = c.productBy.get(l.productId);
    if (!p) { v.push({ propertyPath: at('item'), message: notFoundRef('Product', l.productId) }); return; }
    const variant = l.variantId != null ? c.variantBy.get(l.variantId) : undefined;
    if (l.variantId != null && (!variant || variant.productId !== p.id)) {
      v.push({ propertyPath: at('variant'), message: notFoundRef('Product variant', l.variantId) });
      return;
    }
    if (!p.isActive) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not for sale` }); return; }
    if (p.stores.length && !p.stores.includes(c.storeId)) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not sold in this store` }); return; }
    const productRules = p.rules.filter((r) => r.productVariantId == null).map((r) => ruleOf(r, c.digits));
    const base = m(p.basePrice);
    let priceCents: Cents;
    if (variant) {
      const own = p.rules.filter((r) => r.productVariantId === variant.id).map((r) => ruleOf(r, c.digits));
      priceCents = variant.price != null
        ? variantPrice(m(variant.price), base, productRules, c.now, c.timeZone)
        : effectivePrice(base, [...own, ...productRules], c.now, c.timeZone);
    } else {
      priceCents = effectivePrice(base, productRules, c.now, c.timeZone);
    }
    // A price typed on purpose (priceOverride) is used as it is; who may do it is checked by the
    // server (sale-authorise.ts) before anything is written.
    if (l.priceOverride && l.price != null) {
      const asked = safe(() => m(l.price), v, at('price'));
      if (asked !== undefined && asked < 0) v.push({ propertyPath: at('price'), message: 'This value should be either positive or zero.' });
      else if (asked !== undefined && asked !== priceCents) { overrides.push({ index: i, catalogueCents: priceCents, askedCents: asked }); priceCents = asked; }
    } else if (l.price != null) {
      // A weighed / price-embedded barcode of this very product (and variant) may carry its own price.
      const asked = safe(() => m(l.price), v, at('price'));
      if (asked !== undefined && asked !== priceCents
        && p.codes.some((x) => (x.variantId ?? null) === (l.variantId ?? null) && m(x.price) === asked)) {
        priceCents = asked;
      }
    }
    const discountCents = safe(() => (l.discountTyped ? parseWireAmount(l.discount, c.digits) : m(l.discount)), v, at('discount'));
    if (discountCents === undefined) return;
    const taxIncluded = l.taxIncluded ?? true;
    lines.push({
      productId: p.id, variantId: variant?.id ?? null, productName: p.name, manageInventory: p.manageInventory,
      qtyMilli, priceCents, discountCents,
      taxes: taxIncluded ? p.taxes.filter((t) => t.isActive).map((t) => ({ taxId: t.id, rate: parseRate(t.rate) })) : [],
      costCents: variant?.purchasePrice != null ? m(variant.purchasePrice) : m(p.cost),
    });
  });
  fail(v);
  return { lines, overrides };
}

export interface ReturnLines {
  lines: PricedLine[];
  totals: PricedOrder;
  /** Per original line id, the quantity (milli) this return takes back. */
  returned: Map<number, number>;
  /** Nothing of the original is left after this return. */
  complete: boolean;
}

/**
 * Return lines priced from the original order (issue 19, partial refunds): shares telescope, so the
 * last return takes the exact remainder and all returns together give back exactly what was
 * charged. Quantities never exceed what is left (422 naming the line, with the violations already in `v`).
 */
export function priceReturnLines(input: SaleInput, original: FactOriginal, products: Map<number, FactProduct>, digits: number, v: Violation[]): ReturnLines {
  const m = (x: string | null | undefined) => parseMinor(x, digits);
  const sold = original.lines.map((l) => parseQuantity(l.quantity));
  const before = original.lines.map((l) => parseQuantity(l.returnedQuantity));
  const taking = original.lines.map(() => 0);
  const key = (x: { productId: number; variantId: number | null }) => `${x.productId}:${x.variantId ?? ''}`;
  const picks: { k: number; want: number; name: string }[] = [];
  input.items.forEach((l, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const qtyMilli = safe(() => parseQuantity(l.quantity), v, at('quantity'));
    if (qtyMilli === undefined) return;
    if (qtyMilli === 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.quantityZero }); return; }
    if (qtyMilli > 0) { v.push({ propertyPath: at('quantity'), message: 'A return can only contain returned items (negative quantities)' }); return; }
    const p = products.get(l.productId);
    if (!p) { v.push({ propertyPath: at('item'), message: notFoundRef('Product', l.productId) }); return; }
    const want = -qtyMilli;
    const mine = (k: number) => key(original.lines[k]) === key({ productId: p.id, variantId: l.variantId });
    const left = (k: number) => sold[k] - before[k] - taking[k];
    let askedPrice: number | null = null;
    try { askedPrice = l.price != null ? m(l.price) : null; } catch { askedPrice = null; }
    const candidates = original.lines.map((_, k) => k).filter((k) => mine(k) && left(k) >= want);
    const k = candidates.find((c) => askedPrice !== null && m(original.lines[c].price) === askedPrice) ?? candidates[0];
    if (k === undefined) {
      const total = original.lines.reduce((s, _, c) => (mine(c) ? s + left(c) : s), 0);
      const everSold = original.lines.some((_, c) => mine(c));
      v.push({
        propertyPath: at('quantity'),
        message: !everSold ? `'${p.name}' is not in order #${original.row.orderId}`
          : total > 0 ? `Cannot return more than ${quantityToString(total)} of '${p.name}'`
            : `Nothing is left to return of '${p.name}' in order #${original.row.orderId}`,
      });
      return;
    }
    taking[k] += want;
    picks.push({ k, want, name: p.name });
  });
  fail(v);

  const priced = priceReturn(returnOriginalOf(original, digits), picks.map((p) => ({ line: p.k, want: p.want })));
  const lines: PricedLine[] = picks.map(({ k, want, name }, i) => {
    const ol = original.lines[k];
    return {
      productId: ol.productId, variantId: ol.variantId, productName: name, manageInventory: products.get(ol.productId)?.manageInventory ?? false,
      qtyMilli: -want, priceCents: m(ol.price), discountCents: priced.lines[i].discountCents,
      taxes: ol.taxes.map((t) => ({ taxId: t.taxId, rate: t.rate })), costCents: m(ol.cost),
    };
  });
  const returned = new Map<number, number>();
  for (const p of picks) returned.set(original.lines[p.k].id, (returned.get(original.lines[p.k].id) ?? 0) + p.want);
  const { complete, ...totals } = priced;
  return { lines, returned, complete, totals };
}

/** The original's stored amounts as refund.ts reads them (minor units). */
export function returnOriginalOf(original: FactOriginal, digits: number): ReturnOriginal {
  const m = (x: string | null | undefined) => parseMinor(x, digits);
  return {
    mode: original.row.taxMode as TaxMode,
    lines: original.lines.map((ol) => ({
      priceMinor: m(ol.price), soldMilli: parseQuantity(ol.quantity), returnedMilli: parseQuantity(ol.returnedQuantity),
      discount: m(ol.discount), orderDiscount: m(ol.orderDiscount), taxable: m(ol.taxable),
      taxAmounts: ol.taxes.map((t) => m(t.amount ?? '0')), taxesTotal: m(ol.taxesTotal),
    })),
    orderTax: original.tax ? m(original.tax.amount) : 0,
    orderDiscount: original.discount ? m(original.discount.amount) : 0,
    adjustment: m(original.row.adjustment),
  };
}
