/**
 * The order view's figures (spec 2.5 "Order detail dialog"): items total with tax, tax, discount,
 * adjustment, total and payments. Total = items + tax - discount + adjustment (the reference's
 * view left the order tax out).
 */
import { mulPriceQty, parseMoney, parseQuantity, sumCents } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';

const m = (v: number | string | null | undefined) => parseMoney(v ?? 0);

export function orderFigures(order: Order) {
  const lines = order.items.map((i) => {
    const qty = parseQuantity(i.quantity ?? 0);
    return { qty, total: sumCents([mulPriceQty(m(i.price), qty), m(i.taxesTotal), -m(i.discount)]) };
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
    total: itemsTotal + tax - discount + adjustment,
    payments: sumCents((order.payments ?? []).map((p) => m(p.total))),
  };
}
