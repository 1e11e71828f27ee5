/**
 * A receipt's figures from a stored order (server data), in cents (reference 4.7, corrected):
 * line total = price x qty - discount + taxesTotal; items total = their sum; net total = items
 * total - order discount + order tax; the adjustment is printed separately; grand total = net +
 * adjustment; change = the sum of the payments' `due` (what was handed back).
 */
import { mulPriceQty, parseMoney, parseQuantity, sumCents } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';

const m = (v: number | string | null | undefined) => parseMoney(v ?? 0);

export interface ReceiptFigures {
  lines: Array<{ name: string; variant: string | null; qtyMilli: number; priceCents: number; discountCents: number; taxCents: number; totalCents: number }>;
  itemsTotalCents: number;
  discountCents: number;
  taxCents: number;
  adjustmentCents: number;
  netTotalCents: number;
  grandTotalCents: number;
  payments: Array<{ name: string; receivedCents: number; totalCents: number; dueCents: number }>;
  changeCents: number;
  totalQtyMilli: number;
}

export function receiptFigures(order: Order): ReceiptFigures {
  const lines = order.items.map((i) => {
    const qtyMilli = parseQuantity(i.quantity ?? 0);
    const priceCents = m(i.price);
    const discountCents = m(i.discount);
    const taxCents = m(i.taxesTotal);
    return {
      name: i.product?.name ?? '',
      variant: i.variant?.attributeValue ?? null,
      qtyMilli,
      priceCents,
      discountCents,
      taxCents,
      totalCents: sumCents([mulPriceQty(priceCents, qtyMilli), -discountCents, taxCents]),
    };
  });
  const itemsTotalCents = sumCents(lines.map((l) => l.totalCents));
  const discountCents = m(order.discount?.amount);
  const taxCents = m(order.tax?.amount);
  const adjustmentCents = m(order.adjustment);
  const netTotalCents = itemsTotalCents - discountCents + taxCents;
  const payments = (order.payments ?? []).map((p) => ({ name: p.type?.name ?? '', receivedCents: m(p.received), totalCents: m(p.total), dueCents: m(p.due) }));
  return {
    lines,
    itemsTotalCents,
    discountCents,
    taxCents,
    adjustmentCents,
    netTotalCents,
    grandTotalCents: netTotalCents + adjustmentCents,
    payments,
    changeCents: sumCents(payments.map((p) => p.dueCents)),
    totalQtyMilli: sumCents(lines.map((l) => l.qtyMilli)),
  };
}
