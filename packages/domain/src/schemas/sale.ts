/**
 * The sale body of POST /api/admin/order/create and PUT /api/admin/order/edit/{id}
 * (reference client 2.5a), shared by the server (validation) and the till (typing).
 *
 * Lenient on the types the old client sends: whole objects or ids or IRIs for references,
 * numbers or numeric strings for amounts, junk extra fields ignored (the cached Product, the
 * line's `stock`, `checked`, ...). Strict on meaning: every reference must parse, amounts must be
 * decimals, quantities non-zero, statuses known.
 *
 * What is only *read* here and decided by the server: line `price` (the server prices the sale;
 * a client price is only accepted when it is a barcode price of that product), line `taxes`
 * (the product's own taxes apply; `taxIncluded` toggles them), `total` (checked against the
 * server's total, never stored), payment `total`/`due` (the server allocates them),
 * `taxAmount` (always recomputed).
 */
import { z } from 'zod';
import { BLANK, NOT_CHOICE, NOT_NUMBER, TOO_LONG, parseRef } from '../wire-fields.ts';
import { messages } from '../validation.ts';

export const ORDER_STATUS = {
  COMPLETED: 'Completed',
  ON_HOLD: 'On Hold',
  DELETED: 'Deleted',
  DISPATCHED: 'Dispatched',
  PENDING: 'Pending',
  RETURNED: 'Returned',
  /** Some lines (or part of them) were returned; more can be (issue 19). */
  PARTIALLY_RETURNED: 'Partially Returned',
} as const;
export type OrderStatus = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];

/**
 * Statuses whose payments are real money movements: the order is settled (and stays settled when
 * returned, in part or in full: its return is a separate order with negative payments). Deleted,
 * held and pending orders count nowhere (customer credit, payment summaries, the day closing).
 * (A partly returned sale was left out on the server until session 49: a credit sale with one line
 * returned left the customer owing minus the return, and the closing expected only the refund.)
 * The database keeps customers' credit with the same list (migration 0021, customer_credit_settled).
 */
export const SETTLED_STATUSES: readonly OrderStatus[] = [ORDER_STATUS.COMPLETED, ORDER_STATUS.DISPATCHED, ORDER_STATUS.PARTIALLY_RETURNED, ORDER_STATUS.RETURNED];

export const SALE_MESSAGES = {
  noItems: messages.addSomeItems,
  noPayments: 'Please add some payments by clicking on + button',
  quantityZero: messages.quantityBelowOne,
  negativeWithoutReturn: 'A negative quantity is a return: choose the order being refunded (refundingFrom)',
  badReference: 'This value is not a valid reference.',
} as const;

const DECIMAL = /^[+-]?\d{1,15}(\.\d{1,6})?$/;

/** A decimal sent as number or string; '' / null / undefined -> null. Normalised to a plain string. */
const looseDecimal = z.unknown().transform((v, ctx): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
    const s = String(v);
    if (/e/i.test(s)) { // 1e-7 and the like: far below a cent
      if (Math.abs(v) < 1e-6) return '0';
      ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER;
    }
    return s;
  }
  if (typeof v === 'string') {
    const s = v.trim();
    if (s === '') return null;
    if (!DECIMAL.test(s)) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
    return s.replace(/^\+/, '');
  }
  ctx.addIssue({ code: 'custom', message: NOT_NUMBER });
  return z.NEVER;
});

/**
 * Whether an amount came as a JSON string (typed text) rather than a JSON number (a figure the old
 * client computed with floats). The server refuses typed amounts with more decimals than the
 * store's currency allows and rounds computed ones (docs/api.md "Currency amounts").
 */
const wasTyped = (v: unknown) => typeof v === 'string' && v.trim() !== '';

const requiredDecimal = looseDecimal.transform((v, ctx) => {
  if (v === null) { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
  return v;
});

/** A reference that may be absent (null/undefined/''/0 -> null). */
const maybeRef = z.unknown().transform((v, ctx): number | null => {
  if (v === 0 || v === '0' || v === false) return null;
  const id = parseRef(v);
  if (id === undefined) { ctx.addIssue({ code: 'custom', message: SALE_MESSAGES.badReference }); return z.NEVER; }
  return id;
});

const requiredRef = maybeRef.transform((v, ctx) => {
  if (v === null) { ctx.addIssue({ code: 'custom', message: BLANK }); return z.NEVER; }
  return v;
});

const looseBool = z.unknown().transform((v) => v === true || v === 1 || v === 'true' || v === '1');
const optionalBool = z.unknown().transform((v): boolean | null => {
  if (v === null || v === undefined || v === '') return null;
  return v === true || v === 1 || v === 'true' || v === '1';
});

const shortText = (max: number) => z.unknown().transform((v, ctx): string | null => {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' && typeof v !== 'number') { ctx.addIssue({ code: 'custom', message: 'This value should be of type string.' }); return z.NEVER; }
  const s = String(v).trim();
  if (s.length > max) { ctx.addIssue({ code: 'custom', message: TOO_LONG }); return z.NEVER; }
  // PostgreSQL keeps no NUL in text; a client id with one would break the client id's lock query.
  if (s.includes('\u0000')) { ctx.addIssue({ code: 'custom', message: 'This value should not contain a NUL character.' }); return z.NEVER; }
  return s === '' ? null : s;
});

export const saleLineSchema = z.object({
  /** The product: the whole cached Product, {id}, an id or an IRI. `product` is accepted as an alias. */
  item: z.unknown().optional(),
  product: z.unknown().optional(),
  variant: maybeRef.optional(),
  quantity: requiredDecimal,
  price: looseDecimal.optional(),
  discount: z.unknown().optional(),
  taxIncluded: optionalBool.optional(),
  /** The cashier typed this unit price on purpose (needs 'price.override'); without it `price` is only a hint. */
  priceOverride: optionalBool.optional(),
}).transform((line, ctx) => {
  const discount = looseDecimal.safeParse(line.discount);
  if (!discount.success) {
    ctx.addIssue({ code: 'custom', path: ['discount'], message: NOT_NUMBER });
    return z.NEVER;
  }
  const productId = parseRef(line.item ?? line.product);
  if (productId == null) {
    ctx.addIssue({ code: 'custom', path: ['item'], message: productId === null ? BLANK : SALE_MESSAGES.badReference });
    return z.NEVER;
  }
  if (Number(line.quantity) === 0) {
    ctx.addIssue({ code: 'custom', path: ['quantity'], message: SALE_MESSAGES.quantityZero });
    return z.NEVER;
  }
  return {
    productId,
    variantId: line.variant ?? null,
    quantity: line.quantity,
    price: line.price ?? null,
    discount: discount.data ?? null,
    discountTyped: wasTyped(line.discount),
    taxIncluded: line.taxIncluded ?? null,
    priceOverride: line.priceOverride === true,
  };
});
export type SaleLineInput = z.output<typeof saleLineSchema>;

export const salePaymentSchema = z.object({
  received: z.unknown(),
  /** Read but not trusted: the server allocates total and due. */
  total: looseDecimal.optional(),
  due: looseDecimal.optional(),
  type: requiredRef,
}).transform((p, ctx) => {
  const received = requiredDecimal.safeParse(p.received);
  if (!received.success) {
    ctx.addIssue({ code: 'custom', path: ['received'], message: received.error.issues[0]?.message ?? NOT_NUMBER });
    return z.NEVER;
  }
  return { received: received.data, typed: wasTyped(p.received), typeId: p.type };
});
export type SalePaymentInput = z.output<typeof salePaymentSchema>;

const CUSTOMER_IRI = /^\/api\/customers\/\d+$/;

export const saleSchema = z.object({
  items: z.array(saleLineSchema, { error: SALE_MESSAGES.noItems }).max(1000, TOO_LONG).optional(),
  discount: maybeRef.optional(),
  discountAmount: looseDecimal.optional(),
  discountRateType: z.unknown().optional(),
  tax: maybeRef.optional(),
  taxAmount: z.unknown().optional(),
  payments: z.array(salePaymentSchema, { error: 'This value should be of type array.' }).max(50, TOO_LONG).nullish(),
  customerId: maybeRef.optional(),
  /** Free-text customer name (old client), or a customer reference (object / IRI). */
  customer: z.unknown().optional(),
  refundingFrom: maybeRef.optional(),
  notes: shortText(2000).optional(),
  store: requiredRef,
  terminal: requiredRef,
  total: looseDecimal.optional(),
  adjustment: looseDecimal.optional(),
  isSuspended: looseBool.optional(),
  status: z.unknown().optional(),
  /** Client-generated id making a retried submission safe (the Idempotency-Key header wins). */
  uuid: shortText(100).optional(),
  clientId: shortText(100).optional(),
  /** A manager's approval token (POST /api/approvals) for the one permission this sale needs. */
  approval: shortText(200).optional(),
}).transform((b, ctx) => {
  const items = b.items ?? [];
  if (items.length === 0) {
    ctx.addIssue({ code: 'custom', path: ['items'], message: SALE_MESSAGES.noItems });
    return z.NEVER;
  }
  let status: OrderStatus;
  const rawStatus = b.status === undefined || b.status === null || b.status === '' ? ORDER_STATUS.COMPLETED : b.status;
  if (rawStatus === ORDER_STATUS.COMPLETED || rawStatus === ORDER_STATUS.PENDING || rawStatus === ORDER_STATUS.ON_HOLD) status = rawStatus;
  else { ctx.addIssue({ code: 'custom', path: ['status'], message: NOT_CHOICE }); return z.NEVER; }
  const isSuspended = Boolean(b.isSuspended) || status === ORDER_STATUS.ON_HOLD;
  if (isSuspended) status = ORDER_STATUS.ON_HOLD;

  let discountRateType: 'fixed' | 'percent' | null = null;
  if (b.discountRateType === 'fixed' || b.discountRateType === 'percent') discountRateType = b.discountRateType;
  else if (b.discountRateType !== undefined && b.discountRateType !== null && b.discountRateType !== '') {
    ctx.addIssue({ code: 'custom', path: ['discountRateType'], message: NOT_CHOICE }); return z.NEVER;
  }

  let customerId = b.customerId ?? null;
  let customerName: string | null = null;
  const c = b.customer;
  if (typeof c === 'string') {
    const s = c.trim();
    if (CUSTOMER_IRI.test(s)) customerId = customerId ?? parseRef(s) ?? null;
    else if (s.length > 255) { ctx.addIssue({ code: 'custom', path: ['customer'], message: TOO_LONG }); return z.NEVER; }
    else customerName = s || null;
  } else if (c && typeof c === 'object') {
    const id = parseRef(c);
    if (id == null) { ctx.addIssue({ code: 'custom', path: ['customer'], message: SALE_MESSAGES.badReference }); return z.NEVER; }
    customerId = customerId ?? id;
  } else if (c !== undefined && c !== null) {
    ctx.addIssue({ code: 'custom', path: ['customer'], message: 'This value should be of type string.' }); return z.NEVER;
  }

  const refundingFrom = b.refundingFrom ?? null;
  const negative = items.findIndex((l) => l.quantity.startsWith('-'));
  if (negative >= 0 && refundingFrom === null) {
    ctx.addIssue({ code: 'custom', path: ['items', negative, 'quantity'], message: SALE_MESSAGES.negativeWithoutReturn });
    return z.NEVER;
  }

  return {
    items,
    discountId: b.discount ?? null,
    discountAmount: b.discountAmount ?? null,
    discountRateType,
    taxId: b.tax ?? null,
    payments: b.payments ?? [],
    customerId,
    customerName,
    refundingFrom,
    notes: b.notes ?? null,
    storeId: b.store,
    terminalId: b.terminal,
    total: b.total ?? null,
    adjustment: b.adjustment ?? '0',
    isSuspended,
    status,
    clientId: b.uuid ?? b.clientId ?? null,
    approval: b.approval ?? null,
  };
});
export type SaleInput = z.output<typeof saleSchema>;
