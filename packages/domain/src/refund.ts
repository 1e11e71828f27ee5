/**
 * Partial refunds (issue 19): a return takes back, of every stored amount of an original line, the
 * part its quantity stands for, computed so that the returns of a line telescope: what all returns
 * up to now took is `proRata(amount, returned so far, sold)`, so the last return takes the exact
 * remainder and all of them together give back exactly what was charged, to the minor unit.
 */
import { divRoundHalfAway, mulPriceQty, sumCents, toSafeNumber } from './money.ts';
import type { PricedLineTotals, PricedOrder, TaxMode } from './tax.ts';

/** amount x part / whole, rounded once half away from zero (0 when whole is 0); signs of part/whole ignored. */
export function proRata(amount: number, part: number, whole: number): number {
  if (whole === 0) return 0;
  return toSafeNumber(divRoundHalfAway(BigInt(amount) * BigInt(Math.abs(part)), BigInt(Math.abs(whole))));
}

/** The part of `amount` (for `sold`) that `want` more take back after `before` were returned. */
export function returnSlice(amount: number, before: number, want: number, sold: number): number {
  return proRata(amount, before + want, sold) - proRata(amount, before, sold);
}

/** What a return reads of its original (minor units of the store's currency, quantities in milli). */
export interface ReturnOriginalLine {
  priceMinor: number;
  soldMilli: number;
  /** What earlier returns took back already. */
  returnedMilli: number;
  discount: number;
  /** The line's share of the order discount. */
  orderDiscount: number;
  taxable: number;
  /** One stored amount per tax of the line. */
  taxAmounts: readonly number[];
  taxesTotal: number;
}

export interface ReturnOriginal {
  mode: TaxMode;
  lines: readonly ReturnOriginalLine[];
  /** The order tax, the order discount (used in 'legacy' mode only) and the adjustment, as stored. */
  orderTax: number;
  orderDiscount: number;
  adjustment: number;
}

/** One returned piece: `want` milli more of original line `line`. */
export interface ReturnTake { line: number; want: number }

const neg = (x: number) => (x === 0 ? 0 : -x);

/**
 * A return priced from its original's stored amounts (the ONE rule for till and server): each take
 * gives back `returnSlice` of every stored amount of its line (gross, discount, order-discount share,
 * taxable, each tax); order-level amounts (order tax, the legacy order discount, the adjustment) by
 * the lines' value (price x qty - discount + taxes), telescoping the same way. Figures are negative.
 */
export function priceReturn(original: ReturnOriginal, takes: readonly ReturnTake[]): PricedOrder & { complete: boolean } {
  const { mode } = original;
  const sold = original.lines.map((l) => l.soldMilli);
  const before = original.lines.map((l) => l.returnedMilli);
  const done = original.lines.map(() => 0);
  const lines: PricedLineTotals[] = [];
  for (const { line: k, want } of takes) {
    const ol = original.lines[k];
    const b = before[k] + done[k];
    done[k] += want;
    const S = sold[k];
    const gross = returnSlice(mulPriceQty(ol.priceMinor, S), b, want, S);
    const discount = returnSlice(ol.discount, b, want, S);
    const share = returnSlice(ol.orderDiscount, b, want, S);
    const taxable = returnSlice(ol.taxable, b, want, S);
    const taxCents = ol.taxAmounts.map((t) => returnSlice(t, b, want, S));
    const taxesTotal = sumCents(taxCents);
    const exclusive = gross - discount;
    lines.push({
      grossCents: neg(gross), discountCents: neg(discount), exclusiveCents: neg(exclusive), shareCents: neg(share), taxableCents: neg(taxable),
      taxCents: taxCents.map(neg), taxesTotalCents: neg(taxesTotal),
      totalCents: neg(mode === 'inclusive' ? exclusive : exclusive + taxesTotal),
      chargedCents: neg(taxable + taxesTotal),
    });
  }
  const value = original.lines.map((ol, k) => Math.abs(mulPriceQty(ol.priceMinor, sold[k]) - ol.discount + ol.taxesTotal));
  const whole = sumCents(value);
  const weightAt = (q: number[]) => sumCents(value.map((x, k) => proRata(x, q[k], sold[k])));
  const wBefore = weightAt(before);
  const wAfter = weightAt(before.map((x, k) => x + done[k]));
  const orderPart = (amount: number) => (whole === 0 ? 0 : proRata(amount, wAfter, whole) - proRata(amount, wBefore, whole));
  const orderTaxCents = neg(orderPart(original.orderTax));
  const discountTotalCents = neg(mode === 'legacy' ? orderPart(original.orderDiscount) : neg(sumCents(lines.map((t) => t.shareCents))));
  const adjustmentCents = neg(orderPart(original.adjustment));
  const subTotalCents = sumCents(lines.map((t) => t.totalCents));
  const totalCents = subTotalCents + orderTaxCents - discountTotalCents;
  return {
    mode, lines, totalQtyMilli: neg(sumCents(takes.map((x) => x.want))), grossCents: sumCents(lines.map((t) => t.grossCents)),
    lineDiscountCents: sumCents(lines.map((t) => t.discountCents)), subTotalCents, taxableAmountCents: sumCents(lines.map((t) => t.taxableCents)),
    itemTaxesCents: sumCents(lines.map((t) => t.taxesTotalCents)), orderTaxCents, discountTotalCents, totalCents, adjustmentCents,
    grandTotalCents: totalCents + adjustmentCents,
    taxBreakdown: [],
    complete: original.lines.every((_, k) => before[k] + done[k] >= sold[k]),
  };
}
