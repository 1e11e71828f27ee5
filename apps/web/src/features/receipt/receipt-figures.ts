/**
 * A receipt's figures from a stored order (server data), in cents (reference 4.7, corrected):
 * line total = price x qty - discount + taxesTotal; items total = their sum; net total = items
 * total - order discount + order tax; the adjustment is printed separately; grand total = net +
 * adjustment; change = the sum of the payments' `change` (issue 19), or `due` from an older server
 * (what was handed back). A cash payment prints the cash tendered; the order's cash `rounding` and
 * its tax breakdown per rate print when the server sends them.
 *
 * `digits`: the minor-unit digits of the order's currency. Given, every figure is in those minor
 * units (a KWD receipt keeps its third decimal, issue 19); omitted, in hundredths as before.
 */
import { mulPriceQty, parseScaled, parseQuantity, sumCents } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';

export interface ReceiptFigures {
  lines: Array<{ name: string; variant: string | null; qtyMilli: number; priceCents: number; discountCents: number; taxCents: number; totalCents: number }>;
  itemsTotalCents: number;
  discountCents: number;
  taxCents: number;
  adjustmentCents: number;
  netTotalCents: number;
  grandTotalCents: number;
  payments: Array<{ name: string; kind: string | null; receivedCents: number; totalCents: number; dueCents: number; cash: boolean; tenderedCents: number }>;
  changeCents: number;
  roundingCents: number;
  taxBreakdown: Array<{ label: string; netCents: number; taxCents: number; grossCents: number }>;
  totalQtyMilli: number;
}

export function receiptFigures(order: Order, digits = 2): ReceiptFigures {
  const m = (v: number | string | null | undefined) => parseScaled(v ?? 0, digits);
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
  const payments = (order.payments ?? []).map((p) => {
    const cash = p.tendered !== undefined && p.tendered !== null ? true : !!p.type?.canHaveChangeDue || p.type?.type === 'cash';
    const dueCents = p.change !== undefined && p.change !== null ? m(p.change) : m(p.due);
    return { name: p.type?.name ?? '', kind: p.type?.type ?? null, receivedCents: m(p.received), totalCents: m(p.total), dueCents, cash, tenderedCents: m(p.tendered ?? p.received) };
  });
  const taxBreakdown = (order.taxBreakdown ?? []).map((r) => ({
    label: [r.name, `${r.rate}%`].filter(Boolean).join(' '),
    netCents: m(r.net),
    taxCents: m(r.tax),
    grossCents: m(r.gross),
  }));
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
    roundingCents: m(order.rounding),
    taxBreakdown,
    totalQtyMilli: sumCents(lines.map((l) => l.qtyMilli)),
  };
}
