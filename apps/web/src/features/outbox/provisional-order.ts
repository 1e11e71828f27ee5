/**
 * The receipt of a sale that is still in the outbox: the order as the server will store it,
 * computed from the queued body with the same domain maths the server runs (@pos/domain/cart),
 * without an order number (assigned on upload) and with the local reference instead.
 */
import { cartLineFromWire, computeOrderTotals, resolveOrderDiscount } from '@pos/domain/cart';
import { parseMoney, parseRate, toDecimal } from '@pos/domain/money';
import type { Order } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/features/payment/build-sale';

export interface ProvisionalContext {
  localRef: string;
  createdAt: string;
  store?: { id?: number; name?: string } | null;
  terminal?: { id?: number; code?: string } | null;
  user?: { id?: number; displayName?: string } | null;
  /** The cart's customer (the body only carries its id). */
  customerName?: string | null;
}

export type ProvisionalOrder = Order & { offline: true; localRef: string };

export function provisionalOrder(body: SaleBody, ctx: ProvisionalContext): ProvisionalOrder {
  const totals = computeOrderTotals({
    lines: body.items.map((i) => cartLineFromWire(i)),
    orderTaxRate: body.tax ? parseRate(body.tax.rate) : null,
    discount: resolveOrderDiscount({ discount: body.discount, discountAmount: body.discountAmount ?? undefined, discountRateType: body.discountRateType }),
    adjustmentCents: parseMoney(body.adjustment ?? 0),
  });
  return {
    id: 0,
    orderId: null,
    offline: true,
    localRef: ctx.localRef,
    createdAt: ctx.createdAt,
    status: body.isSuspended ? 'On Hold' : body.status,
    isSuspended: body.isSuspended,
    items: body.items.map((i, k) => ({
      product: { id: i.item.id, name: i.item.name, basePrice: i.price },
      variant: i.variant ? { id: i.variant.id, attributeValue: i.variant.attributeValue } : null,
      quantity: i.quantity,
      price: i.price,
      discount: toDecimal(totals.lines[k].discountCents),
      taxesTotal: toDecimal(totals.lines[k].taxesTotalCents),
      taxes: i.taxes.map((t) => ({ id: t.id, name: t.name, rate: t.rate })),
    })),
    discount: totals.discountTotalCents ? { amount: toDecimal(totals.discountTotalCents) } : null,
    tax: totals.orderTaxCents ? { amount: toDecimal(totals.orderTaxCents), rate: body.tax?.rate ?? null } : null,
    itemTaxes: toDecimal(totals.itemTaxesCents),
    subTotal: toDecimal(totals.subTotalCents),
    adjustment: toDecimal(totals.adjustmentCents),
    total: toDecimal(totals.totalCents),
    payments: body.payments.map((p) => ({ total: p.total, received: p.received, due: p.due, type: { id: p.type.id, name: p.type.name, type: p.type.type } })),
    notes: body.notes,
    customer: ctx.customerName ?? body.customer ?? null,
    store: ctx.store ?? { id: body.store },
    terminal: ctx.terminal ?? { id: body.terminal },
    user: ctx.user ?? null,
    returnedFrom: body.refundingFrom ? { id: body.refundingFrom } : null,
  };
}
