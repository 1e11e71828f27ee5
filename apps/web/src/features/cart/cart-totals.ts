/**
 * The cart's figures, computed by @pos/domain/cart: the same function the server runs when it
 * recomputes the sale, so what the till shows is what gets stored, to the cent.
 */
import { computeOrderTotals, resolveOrderDiscount, type CartLineInput, type OrderTotals } from '@pos/domain/cart';
import { parseRate, percentOf, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { CartLine, CartState } from './cart-types';

export function lineInput(line: CartLine): CartLineInput {
  return {
    priceCents: line.price,
    qtyMilli: line.quantity,
    discountCents: line.discount,
    taxIncluded: line.taxIncluded,
    taxRates: line.taxes.map((t) => parseRate(t.rate)),
  };
}

/** The typed open-discount amount, or null when it is not a number (the form refuses those). */
function typedDiscount(state: CartState): string | null {
  if (state.discountAmount === null || state.discountAmount.trim() === '') return null;
  const valid = state.discountRateType === 'percent' ? tryParseScaled(state.discountAmount, 2) : tryParseMoney(state.discountAmount);
  return valid === null ? null : state.discountAmount;
}

export function computeCartTotals(state: Pick<CartState, 'added' | 'tax' | 'discount' | 'discountAmount' | 'discountRateType' | 'adjustment'>): OrderTotals {
  return computeOrderTotals({
    lines: state.added.map(lineInput),
    orderTaxRate: state.tax ? parseRate(state.tax.rate) : null,
    discount: resolveOrderDiscount({
      discount: state.discount,
      discountAmount: typedDiscount(state as CartState),
      discountRateType: state.discountRateType,
    }),
    adjustmentCents: state.adjustment,
  });
}

/** The cart's "Taxes" cell: per-unit tax of the line (display only). */
export function unitTaxOf(line: CartLine): number {
  if (!line.taxIncluded) return 0;
  return line.taxes.reduce((sum, t) => sum + percentOf(line.price, parseRate(t.rate)), 0);
}
