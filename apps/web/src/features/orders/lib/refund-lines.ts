/**
 * What can still be refunded of an order, line by line (issue 19): the server's
 * `refundableQuantity`, else the sold quantity less `returnedQuantity`, else the sold quantity (a
 * server before issue 19). Quantities in milli, always positive.
 */
import { parseQuantity } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';

export interface RefundLine {
  index: number;
  name: string;
  soldMilli: number;
  refundableMilli: number;
}

/** One chosen line and how much of it to refund (milli, positive). */
export interface RefundPick {
  index: number;
  qtyMilli: number;
}

const qty = (v: unknown): number | null => {
  if (v === null || v === undefined || v === '') return null;
  try {
    return Math.abs(parseQuantity(v as string | number));
  } catch {
    return null;
  }
};

export function refundLines(order: Order): RefundLine[] {
  return order.items.map((item, index) => {
    const soldMilli = qty(item.quantity) ?? 0;
    const returned = qty(item.returnedQuantity);
    const refundable = qty(item.refundableQuantity) ?? (returned === null ? soldMilli : Math.max(soldMilli - returned, 0));
    const name = item.variant?.attributeValue ? `${item.product?.name ?? ''} (${item.variant.attributeValue})` : item.product?.name ?? '';
    return { index, name, soldMilli, refundableMilli: Math.min(refundable, soldMilli) };
  });
}

/** True when something of the order may still be refunded (a completed or partly returned sale). */
export function canRefund(order: Order): boolean {
  if (order.returnedFrom) return false;
  if (order.status !== 'Completed' && order.status !== 'Partially Returned') return false;
  return refundLines(order).some((l) => l.refundableMilli > 0);
}
