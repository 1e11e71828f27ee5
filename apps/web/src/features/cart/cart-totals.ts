/**
 * The cart's figures (issue 19): priced by `@pos/domain/tax` `priceOrder`, the function the server
 * runs when it recomputes the sale (apps/api sale-pricing.ts), in the store's tax mode (legacy tax
 * base, tax-exclusive or tax-inclusive shelf prices) and in the MINOR units of the store's
 * currency, so what the till shows is what the server stores, to the minor unit (a JPY store rounds
 * each tax to the yen, as the server does). The cart keeps hundredths ("cents") like the rest of
 * the app; they are turned into minor units before pricing and the figures back into hundredths
 * (exact for currencies with 0-2 digits). A line's unit price is taken from its exact catalogue
 * decimal (`priceExact`) and its fixed discount from the cashier's typed decimal (`discountExact`),
 * so a currency with three digits (KWD 1.275 less 0.125) is priced to the fils; the
 * till shows, takes and sends the `minor` figures (payment panel, build-sale.ts), never the
 * hundredths, so what a KWD till shows is what the server stores.
 */
import { resolveOrderDiscount, type OrderDiscountInput } from '@pos/domain/cart';
import { priceOrder, taxModeOf, type PricedOrder, type TaxedLineInput, type TaxMode } from '@pos/domain/tax';
import { cashRounding } from '@pos/domain/tender';
import { priceReturn, type ReturnTake } from '@pos/domain/refund';
import { centsToMinor, minorToCents } from '@pos/domain/format';
import { currencyDigits } from '@pos/domain/currency';
import { parseRate, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { CartLine, CartState } from './cart-types';

/** What pricing needs of the store's money settings (lib/money `useMoney()` carries them). */
export interface CartPricing {
  currency: string;
  pricesIncludeTax: boolean;
  legacyTaxBase: boolean;
}

/** A server that sends no settings: USD, tax-exclusive (the server's defaults for a store). */
export const DEFAULT_PRICING: CartPricing = { currency: 'USD', pricesIncludeTax: false, legacyTaxBase: false };

/** The cart's totals in hundredths (for display and the wire), plus the same figures in minor units. */
export type CartTotals = PricedOrder & { minor: PricedOrder; currency: string };

/** A line's unit price in minor units: its exact catalogue decimal while that still rounds to its cents, else its cents. */
export function linePriceMinor(line: Pick<CartLine, 'price' | 'priceExact'>, currency: string): number {
  if (line.priceExact !== undefined) {
    const exact = tryParseScaled(line.priceExact, currencyDigits(currency));
    if (exact !== null && minorToCents(exact, currency) === line.price) return exact;
  }
  return centsToMinor(line.price, currency);
}

/**
 * A line's discount in minor units: the fixed amount exactly as typed (`discountExact`, e.g. KWD
 * 0.125 -> 125 fils) while that still rounds to its cents, else its cents (a percent discount, a
 * loaded order's line, every currency of 0-2 digits, where both are the same).
 */
export function lineDiscountMinor(line: Pick<CartLine, 'discount' | 'discountExact'>, currency: string): number {
  if (line.discountExact !== undefined) {
    const exact = tryParseScaled(line.discountExact, currencyDigits(currency));
    if (exact !== null && minorToCents(exact, currency) === line.discount) return exact;
  }
  return centsToMinor(line.discount, currency);
}

export function lineInput(line: CartLine, currency: string): TaxedLineInput {
  return {
    priceCents: linePriceMinor(line, currency),
    qtyMilli: line.quantity,
    discountCents: lineDiscountMinor(line, currency),
    taxIncluded: line.taxIncluded,
    taxRates: line.taxIncluded ? line.taxes.map((t) => parseRate(t.rate)) : [],
    taxKeys: line.taxIncluded ? line.taxes.map((t) => t.id) : [],
  };
}

/** The typed open-discount amount, or null when it is not a number (the form refuses those). */
function typedDiscount(state: Pick<CartState, 'discountAmount' | 'discountRateType'>): string | null {
  if (state.discountAmount === null || state.discountAmount.trim() === '') return null;
  const valid = state.discountRateType === 'percent' ? tryParseScaled(state.discountAmount, 2) : tryParseMoney(state.discountAmount);
  return valid === null ? null : state.discountAmount;
}

type PricedCart = Pick<CartState, 'added' | 'tax' | 'discount' | 'discountAmount' | 'discountRateType' | 'adjustment'> & Pick<Partial<CartState>, 'refundOf'>;

/** A refund cart whose every line gives back a line of its original: priced from the original's stored amounts. */
function refundTakes(state: PricedCart, currency: string): ReturnTake[] | null {
  const src = state.refundOf;
  if (!src || src.currency !== currency || state.added.length === 0) return null;
  const takes = state.added.map((l) => ({ line: l.origin ?? -1, want: -l.quantity }));
  return takes.every((x) => x.line >= 0 && x.line < src.lines.length && x.want > 0) ? takes : null;
}

function orderDiscount(state: PricedCart, digits: number): OrderDiscountInput {
  return resolveOrderDiscount({
    discount: state.discount,
    discountAmount: typedDiscount(state),
    discountRateType: state.discountRateType,
  }, digits);
}

const toCents = (order: PricedOrder, currency: string): PricedOrder => {
  const c = (minor: number) => minorToCents(minor, currency);
  return {
    ...order,
    lines: order.lines.map((l) => ({
      ...l,
      grossCents: c(l.grossCents), discountCents: c(l.discountCents), exclusiveCents: c(l.exclusiveCents), shareCents: c(l.shareCents),
      taxableCents: c(l.taxableCents), taxCents: l.taxCents.map(c), taxesTotalCents: c(l.taxesTotalCents), totalCents: c(l.totalCents),
      chargedCents: c(l.chargedCents),
    })),
    grossCents: c(order.grossCents),
    lineDiscountCents: c(order.lineDiscountCents),
    subTotalCents: c(order.subTotalCents),
    taxableAmountCents: c(order.taxableAmountCents),
    itemTaxesCents: c(order.itemTaxesCents),
    orderTaxCents: c(order.orderTaxCents),
    discountTotalCents: c(order.discountTotalCents),
    totalCents: c(order.totalCents),
    adjustmentCents: c(order.adjustmentCents),
    grandTotalCents: c(order.grandTotalCents),
    taxBreakdown: order.taxBreakdown.map((r) => ({ ...r, netCents: c(r.netCents), taxCents: c(r.taxCents), grossCents: c(r.grossCents) })),
  };
};

/** The tax mode of the store (the legacy tax base wins). */
export const cartTaxMode = (pricing: CartPricing): TaxMode => taxModeOf(pricing);

/** The cart priced as the server prices it (see the file comment). */
export function computeCartTotals(state: PricedCart, pricing: CartPricing = DEFAULT_PRICING): CartTotals {
  const { currency } = pricing;
  const digits = currencyDigits(currency);
  const takes = refundTakes(state, currency);
  if (takes && state.refundOf) {
    const { complete: _complete, ...returned } = priceReturn(state.refundOf, takes);
    return { ...toCents(returned, currency), minor: returned, currency };
  }
  const minor = priceOrder({
    lines: state.added.map((l) => lineInput(l, currency)),
    orderTaxRate: state.tax ? parseRate(state.tax.rate) : null,
    discount: orderDiscount(state, digits),
    adjustmentCents: centsToMinor(state.adjustment, currency),
    mode: cartTaxMode(pricing),
  });
  return { ...toCents(minor, currency), minor, currency };
}

let last: { key: readonly unknown[]; totals: CartTotals } | null = null;

/**
 * computeCartTotals for the live cart, once per change of a priced field however many readers ask
 * (the cart table, the totals block, the payment panel and the announcer all price the same cart on
 * every scan): the last answer is kept while every priced field and the pricing are the same objects.
 */
export function cartTotalsOf(state: PricedCart, pricing: CartPricing = DEFAULT_PRICING): CartTotals {
  const key = [state.added, state.tax, state.discount, state.discountAmount, state.discountRateType, state.adjustment, state.refundOf, pricing] as const;
  if (last && last.key.every((k, i) => k === key[i])) return last.totals;
  const totals = computeCartTotals(state, pricing);
  last = { key, totals };
  return totals;
}

/**
 * The store's cash rounding of a payment (issue 19), in hundredths: 0 unless the store rounds
 * (`stepMinor` > 0) and cash is tendered; then the cash part (what exact tenders leave of the
 * amount due) moves to the nearest multiple of the step, as the server's sale-payments.ts does.
 */
export function cashRoundingOf(totals: CartTotals, stepMinor: number, exactTenderedCents: number, cashTendered: boolean): number {
  return minorToCents(cashRoundingMinor(totals, stepMinor, centsToMinor(exactTenderedCents, totals.currency), cashTendered), totals.currency);
}

/** `cashRoundingOf` in minor units (what the payment panel works in). */
export function cashRoundingMinor(totals: CartTotals, stepMinor: number, exactTenderedMinor: number, cashTendered: boolean): number {
  if (!cashTendered || stepMinor <= 0 || totals.minor.adjustmentCents !== 0) return 0;
  return cashRounding(totals.minor.grandTotalCents - exactTenderedMinor, stepMinor);
}
