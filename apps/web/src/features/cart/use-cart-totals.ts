import { useMemo } from 'react';
import { useMoney } from '@/lib/money';
import { useCart } from './cart-store';
import { cartTotalsOf, type CartTotals } from './cart-totals';

/**
 * The cart's figures as the till shows them (totals block, cart table, payment panel): priced with
 * @pos/domain in the store's currency and tax mode, recomputed only when a priced field changes
 * (a customer or the notes do not reprice the cart). A refund of a whole sale's lines is priced from
 * the original's stored amounts, as the sale sent to the server is; the readers share one computation.
 */
export function useCartTotals(): CartTotals {
  const currency = useMoney();
  const added = useCart((s) => s.added);
  const tax = useCart((s) => s.tax);
  const discount = useCart((s) => s.discount);
  const discountAmount = useCart((s) => s.discountAmount);
  const discountRateType = useCart((s) => s.discountRateType);
  const adjustment = useCart((s) => s.adjustment);
  const refundOf = useCart((s) => s.refundOf);
  return useMemo(
    () => cartTotalsOf({ added, tax, discount, discountAmount, discountRateType, adjustment, refundOf }, currency),
    [added, tax, discount, discountAmount, discountRateType, adjustment, refundOf, currency],
  );
}
