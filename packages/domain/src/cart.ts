/**
 * Line and order totals: the ONE implementation used by the till (for display) and by the
 * server (which recomputes and stores them). All amounts are integer cents, quantities milli,
 * rates hundredths of a percent (see ./money.ts for the rounding rule).
 *
 * Formulas (reference client 4.2/4.3, spec section 9, with the reference's defects fixed):
 *   gross          = price x qty                       (rounded once)
 *   discount       = line discount capped to |gross|, carrying the sign of gross
 *   exclusiveRow   = gross - discount
 *   taxesTotal     = taxIncluded ? sum over rates of (rate % of gross) : 0
 *                    (item tax is on gross, before the line discount, as the reference does)
 *   row            = exclusiveRow + taxesTotal
 *   subTotal       = sum row                ("Sub total", includes item taxes)
 *   taxableAmount  = sum exclusiveRow       ("Taxable amount", the reference's exclusiveSubTotal)
 *   itemTaxes      = sum taxesTotal
 *   orderTax       = orderTaxRate % of taxableAmount
 *   discountTotal  = fixed amount, or rate % of (subTotal + orderTax), capped to that base
 *   total          = subTotal + orderTax - discountTotal      (wire `total`)
 *   grandTotal     = total + adjustment                       (what is paid)
 *
 * Refunds: a refund line has a negative quantity. Every rounded amount is an odd function of
 * its inputs (half away from zero), so a refund cart's figures are the exact negation of the
 * sale cart's, including a fixed order discount (applied with the sign of the cart).
 */
import { RATE_FULL, mulPriceQty, parseMoney, parseQuantity, parseRate, parseScaled, percentOf, sumCents } from './money.ts';
import type { DecimalInput } from './money.ts';

export interface CartLineInput {
  priceCents: number;
  qtyMilli: number;
  /**
   * Line discount amount for the whole line. For a sale line a value outside [0, gross] is
   * capped. For a refund line (negative gross) either sign means the same reduction of the
   * line's magnitude, so both a copied positive discount and a mirrored negative one work.
   */
  discountCents: number;
  taxIncluded: boolean;
  /** Item tax rates in hundredths of a percent. */
  taxRates: readonly number[];
}

export interface CartLineTotals {
  grossCents: number;
  /** Effective (capped) discount, same sign as gross. */
  discountCents: number;
  exclusiveCents: number;
  /** One rounded amount per entry of taxRates (all 0 when taxIncluded is false). */
  taxCents: number[];
  taxesTotalCents: number;
  /** exclusive + taxesTotal: the stored line total. */
  totalCents: number;
}

export type OrderDiscountInput =
  | { kind: 'none' }
  | { kind: 'fixed'; amountCents: number }
  | { kind: 'percent'; rate: number /* hundredths of a percent */ };

export interface OrderInput {
  lines: readonly CartLineInput[];
  /** Order-level tax rate in hundredths of a percent; null/undefined for none. */
  orderTaxRate?: number | null;
  discount?: OrderDiscountInput;
  /** Rounding adjustment chosen at the till (see tender.roundingAdjustment). Default 0. */
  adjustmentCents?: number;
}

export interface OrderTotals {
  lines: CartLineTotals[];
  /** Sum of line quantities (cart footer). */
  totalQtyMilli: number;
  grossCents: number;
  lineDiscountCents: number;
  subTotalCents: number;
  taxableAmountCents: number;
  itemTaxesCents: number;
  orderTaxCents: number;
  discountTotalCents: number;
  /** subTotal + orderTax - discountTotal, excluding the adjustment (wire `total`). */
  totalCents: number;
  adjustmentCents: number;
  /** total + adjustment: the amount to be paid. */
  grandTotalCents: number;
}

const negate = (x: number): number => (x === 0 ? 0 : -x);

/**
 * Caps an amount that reduces `baseCents`: the result has the sign of the base and a
 * magnitude in [0, |base|]. For a non-negative base a negative amount gives 0; for a negative
 * base the amount's magnitude is used whatever its sign.
 */
function capReduction(amountCents: number, baseCents: number): number {
  if (baseCents >= 0) return Math.min(Math.max(amountCents, 0), baseCents);
  return negate(Math.min(Math.abs(amountCents), -baseCents));
}

/** The effective line discount for a line whose gross is `grossCents` (see CartLineInput). */
export function capLineDiscount(discountCents: number, grossCents: number): number {
  return capReduction(discountCents, grossCents);
}

/**
 * A percent line discount as an amount: rate % of (price x qty), rounded once. The reference
 * took the percent of the unit price only, ignoring the quantity; that is a defect.
 * Negative for a refund line, like its gross.
 */
export function lineDiscountFromPercent(priceCents: number, qtyMilli: number, rateHundredths: number): number {
  const rate = Math.min(Math.max(rateHundredths, 0), RATE_FULL);
  return percentOf(mulPriceQty(priceCents, qtyMilli), rate);
}

export function computeLineTotals(line: CartLineInput): CartLineTotals {
  const grossCents = mulPriceQty(line.priceCents, line.qtyMilli);
  const discountCents = capLineDiscount(line.discountCents, grossCents);
  const exclusiveCents = grossCents - discountCents;
  const taxCents = line.taxRates.map((rate) => (line.taxIncluded ? percentOf(grossCents, rate) : 0));
  const taxesTotalCents = sumCents(taxCents);
  return {
    grossCents,
    discountCents,
    exclusiveCents,
    taxCents,
    taxesTotalCents,
    totalCents: exclusiveCents + taxesTotalCents,
  };
}

/**
 * The order discount amount for a base of subTotal + orderTax. A fixed amount is capped to
 * the base (a discount never turns a sale into a pay-out) and takes the base's sign, so a
 * refund of a discounted sale gives back exactly what was paid. A percent is clamped to 0-100.
 */
export function computeOrderDiscount(discount: OrderDiscountInput | undefined, baseCents: number): number {
  if (!discount || discount.kind === 'none') return 0;
  if (discount.kind === 'fixed') return capReduction(discount.amountCents, baseCents);
  const rate = Math.min(Math.max(discount.rate, 0), RATE_FULL);
  return percentOf(baseCents, rate);
}

export function computeOrderTotals(order: OrderInput): OrderTotals {
  const lines = order.lines.map(computeLineTotals);
  const subTotalCents = sumCents(lines.map((l) => l.totalCents));
  const taxableAmountCents = sumCents(lines.map((l) => l.exclusiveCents));
  const orderTaxCents = order.orderTaxRate ? percentOf(taxableAmountCents, order.orderTaxRate) : 0;
  const discountTotalCents = computeOrderDiscount(order.discount, subTotalCents + orderTaxCents);
  const totalCents = subTotalCents + orderTaxCents - discountTotalCents;
  const adjustmentCents = order.adjustmentCents ?? 0;
  return {
    lines,
    totalQtyMilli: sumCents(order.lines.map((l) => l.qtyMilli)),
    grossCents: sumCents(lines.map((l) => l.grossCents)),
    lineDiscountCents: sumCents(lines.map((l) => l.discountCents)),
    subTotalCents,
    taxableAmountCents,
    itemTaxesCents: sumCents(lines.map((l) => l.taxesTotalCents)),
    orderTaxCents,
    discountTotalCents,
    totalCents,
    adjustmentCents,
    grandTotalCents: sumCents([totalCents, adjustmentCents]),
  };
}

/** Wire shape of a cart / order line (decimals as numbers or strings). */
export interface WireCartLine {
  price: DecimalInput;
  quantity: DecimalInput;
  discount?: DecimalInput;
  /** Missing means included: the reference dropped taxes of lines loaded without the flag. */
  taxIncluded?: boolean | null;
  taxes?: ReadonlyArray<{ rate?: DecimalInput }> | null;
}

/** Parses a wire line into a CartLineInput (throws RangeError on a malformed decimal). */
export function cartLineFromWire(line: WireCartLine): CartLineInput {
  return {
    priceCents: parseMoney(line.price),
    qtyMilli: parseQuantity(line.quantity),
    discountCents: parseMoney(line.discount),
    taxIncluded: line.taxIncluded ?? true,
    taxRates: (line.taxes ?? []).map((t) => parseRate(t.rate)),
  };
}

/** Wire fields that describe the order discount (reference client 4.3). */
export interface WireOrderDiscountFields {
  /** The chosen Discount entity, if any. */
  discount?: {
    rateType?: string | null; // 'fixed' | 'percent'
    scope?: string | null; // 'open' | 'exact'
    rate?: DecimalInput;
  } | null;
  /**
   * The amount typed for an open-scope discount: a currency amount when discountRateType is
   * 'fixed' or absent, a percent when it is 'percent'. (Not the computed discount total.)
   */
  discountAmount?: DecimalInput;
  discountRateType?: string | null; // 'fixed' | 'percent'
}

/**
 * Maps the wire discount fields to an OrderDiscountInput, following reference client 4.3:
 * 1. a non-zero discountAmount wins: 'percent' -> that percent, otherwise a fixed amount;
 * 2. else no discount entity -> none;
 * 3. else rateType 'fixed' -> fixed rate amount; 'percent' -> percent rate; no rateType but
 *    scope 'exact' -> fixed rate amount; anything else (e.g. open scope without an amount,
 *    or no/zero rate) -> none.
 * The percent base (subTotal + orderTax) is applied by computeOrderTotals. Amounts are read in
 * minor units of a currency with `digits` minor digits (default 2).
 */
export function resolveOrderDiscount(fields: WireOrderDiscountFields, digits = 2): OrderDiscountInput {
  const typedRateType = fields.discountRateType ?? null;
  if (typedRateType === 'percent') {
    const rate = parseRate(fields.discountAmount);
    if (rate !== 0) return { kind: 'percent', rate };
  } else {
    const amountCents = parseScaled(fields.discountAmount, digits);
    if (amountCents !== 0) return { kind: 'fixed', amountCents };
  }
  const d = fields.discount;
  if (!d) return { kind: 'none' };
  if (d.rateType === 'percent') {
    const rate = parseRate(d.rate);
    return rate !== 0 ? { kind: 'percent', rate } : { kind: 'none' };
  }
  if (d.rateType === 'fixed' || (!d.rateType && d.scope === 'exact')) {
    const amountCents = parseScaled(d.rate, digits);
    return amountCents !== 0 ? { kind: 'fixed', amountCents } : { kind: 'none' };
  }
  return { kind: 'none' };
}
