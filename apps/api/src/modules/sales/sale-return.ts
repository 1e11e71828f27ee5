/**
 * Return lines priced from the original order (issue 19, partial refunds): each returned quantity
 * takes back its exact share of every stored amount of the original line (discount, order
 * discount share, taxable, each tax), and of the order-level amounts (legacy order discount, order
 * tax, adjustment). Shares telescope: what the returns of a line took is proRata(amount, returned
 * so far, sold), so the last return takes the exact remainder and all returns together give back
 * exactly what was charged. Quantities never exceed what is left (422 naming the line).
 */
import type { Violation } from '@pos/domain/errors';
import { parseMinor, parseQuantity, quantityToString } from '@pos/domain/money';
import type { PricedOrder, TaxMode } from '@pos/domain/tax';
import { SALE_MESSAGES, type SaleInput } from '@pos/domain/schemas/sale';
import { priceReturn, type ReturnOriginal } from '@pos/domain/refund';
import { notFoundRef, safe } from './sale-support.ts';
import type { OriginalOrder, PricedLine, PricingProduct } from './sale-read.ts';

export interface ReturnLines {
  lines: PricedLine[];
  totals: PricedOrder;
  /** Per original line id, the quantity (milli) this return takes back. */
  returned: Map<number, number>;
  /** Nothing of the original is left after this return. */
  complete: boolean;
}

export function priceReturnLines(input: SaleInput, original: OriginalOrder, products: Map<number, PricingProduct>, digits: number, v: Violation[]): ReturnLines | null {
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
  if (v.length) return null;

  const priced = priceReturn(returnOriginalOf(original, digits), picks.map((p) => ({ line: p.k, want: p.want })));
  const lines: PricedLine[] = picks.map(({ k, want, name }, i) => {
    const ol = original.lines[k];
    return {
      productId: ol.productId, variantId: ol.variantId, productName: name, manageInventory: products.get(ol.productId)?.manageInventory ?? false,
      qtyMilli: -want, priceCents: m(ol.price), discountCents: priced.lines[i].discountCents,
      taxes: ol.taxes.map((t) => ({ taxId: t.taxId, rate: t.rate })), costCents: m(ol.cost),
    };
  });
  const { complete, ...totals } = priced;
  return {
    lines,
    returned: new Map(picks.reduce((acc, p) => acc.set(original.lines[p.k].id, (acc.get(original.lines[p.k].id) ?? 0) + p.want), new Map<number, number>())),
    complete,
    totals,
  };
}

/** The original's stored amounts as @pos/domain/refund reads them (minor units). */
export function returnOriginalOf(original: OriginalOrder, digits: number): ReturnOriginal {
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
