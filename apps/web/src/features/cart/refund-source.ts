/**
 * A refund cart prices itself from its original's stored amounts (issue 19), with the same
 * `@pos/domain/refund` `priceReturn` the server uses, so a partial refund shows to the minor unit
 * what the server gives back (its share of the line discount, of the order discount and of each
 * tax), not a re-pricing of the returned lines.
 */
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { parseMinor, parseQuantity } from '@pos/domain/money';
import type { ReturnOriginal } from '@pos/domain/refund';
import type { TaxMode } from '@pos/domain/tax';
import type { Order } from '@/features/catalogue-cache/types';

export type RefundSource = ReturnOriginal & { currency: string };

const MODES: readonly string[] = ['legacy', 'exclusive', 'inclusive'];

/** The original's amounts in its store currency's minor units; null from a server that does not send them. */
export function refundSourceOf(order: Order): RefundSource | null {
  if (!order.taxMode || !MODES.includes(order.taxMode)) return null;
  if (order.items.some((i) => i.taxable === undefined || i.taxable === null)) return null;
  const currency = isCurrencyCode(order.store?.currency) ? order.store!.currency! : 'USD';
  const digits = currencyDigits(currency);
  const m = (v: number | string | null | undefined) => parseMinor(v ?? 0, digits);
  const q = (v: number | string | null | undefined) => Math.abs(parseQuantity(v ?? 0));
  return {
    currency,
    mode: order.taxMode as TaxMode,
    lines: order.items.map((i) => ({
      priceMinor: m(i.price), soldMilli: q(i.quantity), returnedMilli: q(i.returnedQuantity), discount: m(i.discount),
      orderDiscount: m(i.orderDiscount), taxable: m(i.taxable), taxAmounts: (i.taxes ?? []).map((t) => m(t.amount)), taxesTotal: m(i.taxesTotal),
    })),
    orderTax: m(order.tax?.amount),
    orderDiscount: m(order.discount?.amount),
    adjustment: m(order.adjustment),
  };
}
