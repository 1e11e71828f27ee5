/**
 * The order view's figures (spec 2.5 "Order detail dialog"): items total with tax, tax, discount,
 * adjustment, total and payments. Total = items + tax - discount + adjustment (the reference's
 * view left the order tax out). In MINOR units of the order's currency (issue 19: `digits` USD 2,
 * JPY 0, KWD 3), each wire amount read exactly to them.
 */
import { mulPriceQty, parseQuantity, parseScaled, sumCents } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';

export function orderFigures(order: Order, digits = 2) {
  const m = (v: number | string | null | undefined) => parseScaled(v ?? 0, digits);
  const lines = order.items.map((i) => {
    const qty = parseQuantity(i.quantity ?? 0);
    const price = m(i.price);
    const tax = m(i.taxesTotal);
    const discount = m(i.discount);
    return { qty, price, tax, discount, total: sumCents([mulPriceQty(price, qty), tax, -discount]) };
  });
  const itemsTotal = sumCents(lines.map((l) => l.total));
  const tax = m(order.tax?.amount);
  const discount = m(order.discount?.amount);
  const adjustment = m(order.adjustment);
  return {
    lines,
    itemsTotal,
    tax,
    discount,
    adjustment,
    total: sumCents([itemsTotal, tax, -discount, adjustment]),
    payments: sumCents((order.payments ?? []).map((p) => m(p.total))),
    /** Per tax rate (issue 19): net, tax and gross as the server priced them. */
    taxBreakdown: (order.taxBreakdown ?? []).map((r) => ({ label: [r.name, `${r.rate}%`].filter(Boolean).join(' '), net: m(r.net), tax: m(r.tax), gross: m(r.gross) })),
  };
}
