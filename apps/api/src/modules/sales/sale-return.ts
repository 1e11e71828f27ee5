/**
 * Return lines priced from the original order (issue 19, partial refunds): each returned quantity
 * takes back its exact share of every stored amount of the original line (discount, order
 * discount share, taxable, each tax), and of the order-level amounts (legacy order discount, order
 * tax, adjustment). Shares telescope: what the returns of a line took is proRata(amount, returned
 * so far, sold), so the last return takes the exact remainder and all returns together give back
 * exactly what was charged. Quantities never exceed what is left (422 naming the line).
 */
import type { Violation } from '@pos/domain/errors';
import { mulPriceQty, parseMinor, parseQuantity, quantityToString, sumCents } from '@pos/domain/money';
import type { PricedOrder, PricedLineTotals, TaxMode } from '@pos/domain/tax';
import { SALE_MESSAGES, type SaleInput } from '@pos/domain/schemas/sale';
import { returnSlice } from '@pos/domain/refund';
import { notFoundRef, proRata, safe, type Cents } from './sale-support.ts';
import type { OriginalOrder, PricedLine, PricingProduct } from './sale-read.ts';

export interface ReturnLines {
  lines: PricedLine[];
  totals: PricedOrder;
  /** Per original line id, the quantity (milli) this return takes back. */
  returned: Map<number, number>;
  /** Nothing of the original is left after this return. */
  complete: boolean;
}

const neg = (x: number) => (x === 0 ? 0 : -x);

/** The part of `amount` (sold over `sold` milli) that `want` more milli take after `before` were returned. */
const slice = returnSlice;

export function priceReturnLines(input: SaleInput, original: OriginalOrder, products: Map<number, PricingProduct>, digits: number, v: Violation[]): ReturnLines | null {
  const m = (x: string | null | undefined) => parseMinor(x, digits);
  const mode = original.row.taxMode as TaxMode;
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

  const done = original.lines.map(() => 0);
  const lines: PricedLine[] = [];
  const totals: PricedLineTotals[] = [];
  for (const { k, want, name } of picks) {
    const ol = original.lines[k];
    const b = before[k] + done[k];
    done[k] += want;
    const S = sold[k];
    const price = m(ol.price);
    const gross = slice(mulPriceQty(price, S), b, want, S);
    const discount = slice(m(ol.discount), b, want, S);
    const share = slice(m(ol.orderDiscount), b, want, S);
    const taxable = slice(m(ol.taxable), b, want, S);
    const taxCents = ol.taxes.map((t) => slice(m(t.amount ?? '0'), b, want, S));
    const taxesTotal = sumCents(taxCents);
    const exclusive = gross - discount;
    lines.push({
      productId: ol.productId, variantId: ol.variantId, productName: name, manageInventory: products.get(ol.productId)?.manageInventory ?? false,
      qtyMilli: -want, priceCents: price, discountCents: neg(discount), taxes: ol.taxes.map((t) => ({ taxId: t.taxId, rate: t.rate })), costCents: m(ol.cost),
    });
    totals.push({
      grossCents: neg(gross), discountCents: neg(discount), exclusiveCents: neg(exclusive), shareCents: neg(share), taxableCents: neg(taxable),
      taxCents: taxCents.map(neg), taxesTotalCents: neg(taxesTotal),
      totalCents: neg(mode === 'inclusive' ? exclusive : exclusive + taxesTotal),
      chargedCents: neg(taxable + taxesTotal),
    });
  }
  // Order-level amounts by the lines' value (price x quantity - discount + taxes): telescoping too.
  const value = original.lines.map((ol, k) => Math.abs(mulPriceQty(m(ol.price), sold[k]) - m(ol.discount) + m(ol.taxesTotal)));
  const whole = sumCents(value);
  const weightAt = (q: number[]) => sumCents(value.map((x, k) => proRata(x, q[k], sold[k])));
  const wBefore = weightAt(before);
  const wAfter = weightAt(before.map((x, k) => x + taking[k]));
  const orderPart = (amount: Cents) => (whole === 0 ? 0 : proRata(amount, wAfter, whole) - proRata(amount, wBefore, whole));
  const orderTaxCents = neg(original.tax ? orderPart(m(original.tax.amount)) : 0);
  const legacyDiscount = mode === 'legacy' && original.discount ? orderPart(m(original.discount.amount)) : 0;
  const discountTotalCents = neg(mode === 'legacy' ? legacyDiscount : neg(sumCents(totals.map((t) => t.shareCents))));
  const adjustmentCents = neg(orderPart(m(original.row.adjustment)));
  const subTotalCents = sumCents(totals.map((t) => t.totalCents));
  const totalCents = subTotalCents + orderTaxCents - discountTotalCents;
  const complete = original.lines.every((_, k) => before[k] + taking[k] >= sold[k]);
  return {
    lines,
    returned: new Map(picks.reduce((acc, p) => acc.set(original.lines[p.k].id, (acc.get(original.lines[p.k].id) ?? 0) + p.want), new Map<number, number>())),
    complete,
    totals: {
      mode, lines: totals, totalQtyMilli: sumCents(lines.map((l) => l.qtyMilli)), grossCents: sumCents(totals.map((t) => t.grossCents)),
      lineDiscountCents: sumCents(totals.map((t) => t.discountCents)), subTotalCents, taxableAmountCents: sumCents(totals.map((t) => t.taxableCents)),
      itemTaxesCents: sumCents(totals.map((t) => t.taxesTotalCents)), orderTaxCents, discountTotalCents, totalCents, adjustmentCents,
      grandTotalCents: totalCents + adjustmentCents,
      taxBreakdown: [],
    },
  };
}
