import { divRoundHalfAway, parseMoney, parseQuantity } from '@pos/domain/money';
import type { Customer, Discount, Order, OrderItem, Tax } from '@/features/catalogue-cache/types';
import type { CartDefaults, CartLine, CartState, DiscountRateType } from './cart-types';
import { refundSourceOf } from './refund-source';
import { cartProduct, cartVariant, emptyCart, newId } from './cart-logic';

// ---------------------------------------------------------------------------------------------
// Loading a past order into the cart (refund, re-order, unsuspend, running orders).

export type LoadKind = 'refund' | 'reorder' | 'unsuspend' | 'settle';

const decimal = (v: number | string | null | undefined) => (v === null || v === undefined || v === '' ? 0 : v);

/** An item whose taxes were stored as 0 had its tax toggled off: keep it off. */
function wasTaxIncluded(item: OrderItem): boolean {
  if (!item.taxes?.length) return true;
  return parseMoney(decimal(item.taxesTotal)) !== 0 || parseMoney(decimal(item.price)) === 0;
}

/** A stored discount as decimal text, negative on a refund line (as the cart keeps typed discounts). */
const discountText = (value: number | string, refund: boolean) => {
  const text = String(value).replace(/^-/, '');
  return refund ? `-${text}` : text;
};

function lineFromOrderItem(item: OrderItem, kind: LoadKind): CartLine {
  const qty = parseQuantity(decimal(item.quantity));
  const quantity = kind === 'refund' ? -Math.abs(qty) : Math.abs(qty);
  const discount = parseMoney(decimal(item.discount));
  return {
    key: newId(),
    item: cartProduct(item.product),
    variant: cartVariant(item.variant),
    checked: false,
    quantity,
    // A refund gives back what was paid, so the line discount is mirrored with the line;
    // a re-order is a new sale at the original price without the old discount.
    discount: kind === 'reorder' || discount === 0 ? 0 : kind === 'refund' ? -Math.abs(discount) : discount,
    // The stored discount as the server keeps it (KWD 0.125): exact for a 3-decimal currency too.
    ...(kind === 'reorder' || Number(decimal(item.discount)) === 0 ? {} : { discountExact: discountText(decimal(item.discount), kind === 'refund') }),
    price: parseMoney(decimal(item.price)),
    priceExact: String(decimal(item.price)),
    taxIncluded: wasTaxIncluded(item),
    taxes: (item.taxes ?? []).map((t) => ({ id: t.id, name: t.name, rate: t.rate })),
  };
}

function customerOf(order: Order): Customer | null {
  const c = order.customer;
  if (!c || typeof c === 'string' || c.id === null || c.id === undefined) return null;
  return c as Customer;
}

/** A sale with only a typed name (no customer record) brings the name back into the name box. */
function customerNameOf(order: Order): string {
  const c = order.customer;
  if (typeof c === 'string') return c;
  if (order.customerName) return order.customerName;
  if (c && (c.id === null || c.id === undefined)) return c.name ?? '';
  return '';
}

/**
 * Fills the cart from a past order:
 * - refund: negated quantities, refundingFrom = the order's id;
 * - reorder: the original quantities, no line discount;
 * - unsuspend: a held order's lines back in the cart (the held order is deleted by the caller);
 * - settle: a running (pending) order, keeping its id so the save becomes an update.
 * The order discount and tax, and the customer, are copied.
 */
export function loadOrder(order: Order, kind: LoadKind, defaults: Partial<CartDefaults> = {}, picks?: ReadonlyArray<{ index: number; qtyMilli: number }>): CartState {
  const base = emptyCart(defaults);
  const added = picks && kind === 'refund' ? pickedRefundLines(order, picks)
    : order.items.map((i, index) => (kind === 'refund' ? { ...lineFromOrderItem(i, kind), origin: index } : lineFromOrderItem(i, kind)));
  const d = order.discount;
  let discount: Discount | null = null;
  let discountAmount: string | null = null;
  let discountRateType: DiscountRateType | null = null;
  if (d && (d.type || d.amount)) {
    if (d.type && d.type.scope !== 'open') {
      discount = d.type;
    } else {
      discount = d.type ?? null;
      const typed = d.rate ?? d.amount;
      discountAmount = typed === null || typed === undefined ? null : String(Math.abs(Number(typed)));
      discountRateType = d.rateType === 'percent' ? 'percent' : 'fixed';
    }
  }
  const t = order.tax;
  const tax: Tax | null = t?.type ? { ...t.type, rate: t.rate ?? t.type.rate } : null;
  return {
    ...base,
    added,
    selected: Math.max(added.length - 1, 0),
    tax,
    discount,
    discountAmount,
    discountRateType,
    customer: customerOf(order),
    customerName: customerNameOf(order),
    notes: kind === 'settle' ? (order.notes ?? order.description ?? '') : '',
    orderId: kind === 'settle' ? order.id : null,
    refundingFrom: kind === 'refund' ? order.id : null,
    ...(kind === 'refund' && order.payments?.length ? { refundPayments: order.payments } : {}),
    ...(kind === 'refund' ? { refundOf: refundSourceOf(order) } : {}),
  };
}

/**
 * A partial refund (issue 19): only the picked lines, each with the picked quantity negated and
 * its share of the line discount (discount x picked / sold, rounded half away from zero).
 */
function pickedRefundLines(order: Order, picks: ReadonlyArray<{ index: number; qtyMilli: number }>): CartLine[] {
  return picks.flatMap(({ index, qtyMilli }) => {
    const item = order.items[index];
    if (!item || qtyMilli <= 0) return [];
    const line = lineFromOrderItem(item, 'refund');
    const sold = Math.abs(line.quantity);
    const discount = sold === 0 || qtyMilli >= sold ? line.discount : Number(divRoundHalfAway(BigInt(line.discount) * BigInt(qtyMilli), BigInt(sold)));
    return [{ ...line, quantity: -Math.min(qtyMilli, sold), discount, origin: index }];
  });
}
