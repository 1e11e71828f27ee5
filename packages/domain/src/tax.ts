/**
 * Tax on what is charged (issue 19): the ONE order pricing used by till and server, per store mode.
 *
 * Modes (`taxModeOf(store settings)`):
 * - 'legacy': the reference client's order of operations (cart.ts computeOrderTotals): item tax on
 *   the price before the line discount, the order discount after tax. Kept for stores that ran the
 *   old client (store setting `legacyTaxBase`).
 * - 'exclusive': shelf prices exclude tax. Per line: gross = price x qty, net = gross - line
 *   discount; the order discount (a fixed amount capped to the net sum, or a percent of it) is
 *   spread over the lines in proportion to their net (allocateProportional: the shares add up to
 *   the discount exactly); taxable = net - share; each item tax = rate % of taxable (rounded once
 *   per line and rate); line charged = taxable + taxes.
 * - 'inclusive': shelf prices include tax. Same spread; charged = net - share is what the
 *   customer pays for the line; the tax it contains is charged x R / (100 % + R) for the sum R of
 *   the line's rates (rounded once), split over the rates (the last one takes the remainder);
 *   taxable = charged - contained tax.
 * In both new modes the order tax (the order's `tax` entity) is added on top: rate % of the sum of
 * taxable amounts. Identities (every mode): total = subTotal + orderTax - discountTotal;
 * total = sum of line charged amounts + orderTax (new modes); taxBreakdown rows add up per rate.
 * Refund carts (negative quantities) give the exact negation of the sale cart's figures.
 */
import { computeOrderTotals, capLineDiscount, type CartLineInput, type OrderDiscountInput, type OrderInput, type OrderTotals } from './cart.ts';
import { RATE_FULL, divRoundHalfAway, mulPriceQty, percentOf, sumCents, toSafeNumber } from './money.ts';

export type TaxMode = 'legacy' | 'exclusive' | 'inclusive';

/** The mode of a store: the legacy tax base wins (the old client had no inclusive prices). */
export function taxModeOf(settings: { legacyTaxBase: boolean; pricesIncludeTax: boolean }): TaxMode {
  if (settings.legacyTaxBase) return 'legacy';
  return settings.pricesIncludeTax ? 'inclusive' : 'exclusive';
}

export interface TaxedLineInput extends CartLineInput {
  /** One key per tax rate (the tax id): the breakdown groups by it. Default: the rate itself. */
  taxKeys?: readonly (number | string)[];
}

export interface PricedLineTotals {
  grossCents: number;
  discountCents: number;
  /** gross - line discount (tax-inclusive in 'inclusive' mode). */
  exclusiveCents: number;
  /** This line's share of the order discount (0 in 'legacy' mode, where the discount is order-level). */
  shareCents: number;
  /** The amount taxed: net of every discount and of the tax itself. */
  taxableCents: number;
  taxCents: number[];
  taxesTotalCents: number;
  /** The line's figure in subTotal: exclusive + taxes ('legacy', 'exclusive'), exclusive ('inclusive'). */
  totalCents: number;
  /** What the customer pays for the line after every discount, taxes included. */
  chargedCents: number;
}

export interface TaxBreakdownRow {
  key: number | string;
  rate: number;
  netCents: number;
  taxCents: number;
  grossCents: number;
}

export interface PricedOrder extends Omit<OrderTotals, 'lines'> {
  mode: TaxMode;
  lines: PricedLineTotals[];
  /** Per tax (line taxes by key; the order tax under key 'order'), in first-seen order. */
  taxBreakdown: TaxBreakdownRow[];
}

export interface PricedOrderInput extends Omit<OrderInput, 'lines'> {
  lines: readonly TaxedLineInput[];
  mode?: TaxMode;
}

const negate = (x: number): number => (x === 0 ? 0 : -x);

/**
 * Splits `amount` over `weights` in proportion (largest remainder): every share is within one
 * minor unit of its exact value and the shares add up to `amount` exactly. Works on magnitudes:
 * the shares carry the amount's sign. All weights 0: nothing is spread (all shares 0).
 */
export function allocateProportional(amount: number, weights: readonly number[]): number[] {
  const mags = weights.map((w) => BigInt(Math.abs(w)));
  const whole = mags.reduce((s, w) => s + w, 0n);
  if (whole === 0n || amount === 0) return weights.map(() => 0);
  const a = BigInt(Math.abs(amount));
  const base = mags.map((w) => (a * w) / whole);
  let left = a - base.reduce((s, x) => s + x, 0n);
  const order = mags.map((w, i) => ({ i, rem: (a * w) % whole })).sort((x, y) => (x.rem === y.rem ? x.i - y.i : x.rem > y.rem ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    base[i] += 1n;
    left -= 1n;
  }
  return base.map((x) => (amount < 0 ? negate(toSafeNumber(x)) : toSafeNumber(x)));
}

/** The order discount over a base (a fixed amount capped to it with its sign; a percent clamped to 0-100). */
function discountOver(discount: OrderDiscountInput | undefined, base: number): number {
  if (!discount || discount.kind === 'none') return 0;
  if (discount.kind === 'fixed') {
    if (base >= 0) return Math.min(Math.max(discount.amountCents, 0), base);
    return negate(Math.min(Math.abs(discount.amountCents), -base));
  }
  return percentOf(base, Math.min(Math.max(discount.rate, 0), RATE_FULL));
}

function breakdownOf(lines: readonly TaxedLineInput[], priced: PricedLineTotals[], orderTax: { rate: number; taxCents: number; baseCents: number } | null): TaxBreakdownRow[] {
  const rows = new Map<number | string, TaxBreakdownRow>();
  lines.forEach((l, i) => {
    if (!l.taxIncluded) return;
    l.taxRates.forEach((rate, k) => {
      const key = l.taxKeys?.[k] ?? rate;
      const row = rows.get(key) ?? { key, rate, netCents: 0, taxCents: 0, grossCents: 0 };
      row.netCents += priced[i].taxableCents;
      row.taxCents += priced[i].taxCents[k];
      rows.set(key, row);
    });
  });
  if (orderTax) rows.set('order', { key: 'order', rate: orderTax.rate, netCents: orderTax.baseCents, taxCents: orderTax.taxCents, grossCents: 0 });
  return [...rows.values()].map((r) => ({ ...r, grossCents: r.netCents + r.taxCents }));
}

/** Prices an order in the given mode (default 'legacy'). */
export function priceOrder(order: PricedOrderInput): PricedOrder {
  const mode = order.mode ?? 'legacy';
  if (mode === 'legacy') {
    const t = computeOrderTotals(order);
    const lines = t.lines.map((l) => ({ ...l, shareCents: 0, taxableCents: l.exclusiveCents, chargedCents: l.totalCents }));
    const orderTax = order.orderTaxRate ? { rate: order.orderTaxRate, taxCents: t.orderTaxCents, baseCents: t.taxableAmountCents } : null;
    return { ...t, mode, lines, taxBreakdown: breakdownOf(order.lines, lines, orderTax) };
  }
  const gross = order.lines.map((l) => mulPriceQty(l.priceCents, l.qtyMilli));
  const discounts = order.lines.map((l, i) => capLineDiscount(l.discountCents, gross[i]));
  const nets = gross.map((g, i) => g - discounts[i]);
  const netSum = sumCents(nets);
  const discountTotalCents = discountOver(order.discount, netSum);
  const shares = allocateProportional(discountTotalCents, nets);
  const lines: PricedLineTotals[] = order.lines.map((l, i) => {
    const charged = nets[i] - shares[i];
    const rates = l.taxIncluded ? l.taxRates : l.taxRates.map(() => 0);
    let taxCents: number[];
    if (mode === 'exclusive') {
      taxCents = rates.map((r) => percentOf(charged, r));
    } else {
      const R = rates.reduce((s, r) => s + r, 0);
      const contained = R === 0 ? 0 : toSafeNumber(divRoundHalfAway(BigInt(charged) * BigInt(R), BigInt(RATE_FULL + R)));
      taxCents = rates.map((r) => (R === 0 ? 0 : toSafeNumber(divRoundHalfAway(BigInt(charged) * BigInt(r), BigInt(RATE_FULL + R)))));
      if (taxCents.length) taxCents[taxCents.length - 1] = contained - sumCents(taxCents.slice(0, -1));
    }
    const taxesTotalCents = sumCents(taxCents);
    const taxableCents = mode === 'exclusive' ? charged : charged - taxesTotalCents;
    return {
      grossCents: gross[i], discountCents: discounts[i], exclusiveCents: nets[i], shareCents: shares[i], taxableCents, taxCents, taxesTotalCents,
      totalCents: mode === 'exclusive' ? nets[i] + taxesTotalCents : nets[i],
      chargedCents: taxableCents + taxesTotalCents,
    };
  });
  const taxableAmountCents = sumCents(lines.map((l) => l.taxableCents));
  const orderTaxCents = order.orderTaxRate ? percentOf(taxableAmountCents, order.orderTaxRate) : 0;
  const subTotalCents = sumCents(lines.map((l) => l.totalCents));
  const totalCents = subTotalCents + orderTaxCents - discountTotalCents;
  const adjustmentCents = order.adjustmentCents ?? 0;
  const orderTax = order.orderTaxRate ? { rate: order.orderTaxRate, taxCents: orderTaxCents, baseCents: taxableAmountCents } : null;
  return {
    mode,
    lines,
    totalQtyMilli: sumCents(order.lines.map((l) => l.qtyMilli)),
    grossCents: sumCents(gross),
    lineDiscountCents: sumCents(discounts),
    subTotalCents,
    taxableAmountCents,
    itemTaxesCents: sumCents(lines.map((l) => l.taxesTotalCents)),
    orderTaxCents,
    discountTotalCents,
    totalCents,
    adjustmentCents,
    grandTotalCents: sumCents([totalCents, adjustmentCents]),
    taxBreakdown: breakdownOf(order.lines, lines, orderTax),
  };
}
