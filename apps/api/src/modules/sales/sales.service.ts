import { desc, eq } from 'drizzle-orm';
import pg from 'pg';
import { conflict, forbidden, notFound, validationError, type Violation } from '@pos/domain/errors';
import { minorToString, parseQuantity, quantityToString } from '@pos/domain/money';
import { ORDER_STATUS, type OrderStatus, type SaleInput } from '@pos/domain/schemas/sale';
import { lockedSaleTransaction, preparedQuery, saleTransaction, type Db, type Tx } from '../../db/client.ts';
import { order, orderProduct } from '../../db/schema/index.ts';
import { can, requireCaller, type AuthInfo } from '../../plugins/auth.ts';
import { moveStocks, stockMoveParams } from '../../lib/stock.ts';
import { type OrderDto } from './order.presenter.ts';
import { type OrderRow, requestHash, fail, notFoundRef, parseJson } from './sale-support.ts';
import { withRetry } from '../../db/retry.ts';
import { type OriginalOrder, loadOriginal, type Pricing, type Place, readOrder, type SaleCaller } from './sale-read.ts';
import { priceSale, type PricedSale } from './sale-pricing.ts';
import { pgArray } from '../../db/raw.ts';
import { authoriseSale } from './sale-authorise.ts';
import { consumeApproval } from '../staff/approvals.service.ts';
import { audit } from '../../lib/audit.ts';
import { nextOrderNumber, applyMoves, saleMoves, ledgerOf, type ContentRow, type SaleHeader, contentParams, writtenOf, writeContent, SALE_WRITE, clearContent, saleDto } from './sale-write.ts';

export { canonicalJson, requestHash } from './sale-support.ts';
export { pgCode } from '../../db/retry.ts';
export type { SaleCaller } from './sale-read.ts';

// ---------------------------------------------------------------------------------------------
// Idempotency
// ---------------------------------------------------------------------------------------------

export interface SaleResult {
  id: number;
  replayed: boolean;
  /** The presented order when it was built from what the sale wrote (else the route reads it back). */
  order?: OrderDto;
  /** Who recorded it (read by the sale itself on the callerInQuery route). */
  actor?: AuthInfo;
}

class Replay extends Error {
  constructor(readonly id: number) { super('replay'); }
}

type Prior = { id: number; storeId: number; requestHash: string | null };
/** The order stored under a client id (the id appended as a literal, under its key lock). */
const BY_CLIENT = 'select id, store_id as "storeId", request_hash as "requestHash" from "order" where client_id =';

function replay(prior: Prior, hash: string, actor: AuthInfo): SaleResult {
  if (prior.requestHash !== hash || !actor.storeIds.includes(prior.storeId)) {
    throw conflict('This Idempotency-Key was already used for a different sale');
  }
  return { id: prior.id, replayed: true };
}

/** The lines of a return, as a comparable multiset. */
const lineSignature = (lines: { productId: number; variantId: number | null; qtyMilli: number }[]) =>
  lines.map((l) => `${l.productId}:${l.variantId ?? ''}:${l.qtyMilli}`).sort().join('|');

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

const resolveCaller = (db: Db, who: SaleCaller) => ('tokenUserId' in who ? requireCaller(db, who.tokenUserId) : Promise.resolve(who));

export interface SaleOptions {
  /** Idempotency-Key header (wins over the body's uuid / clientId). */
  clientId?: string | null;
  requestHash: string;
  now?: Date;
}

/** Statuses of a sale that can still be (further) refunded. */
const REFUNDABLE: string[] = [ORDER_STATUS.COMPLETED, ORDER_STATUS.DISPATCHED, ORDER_STATUS.PARTIALLY_RETURNED];

/** The order header's figures, in the store currency's minor digits. */
function orderFigures(priced: PricedSale) {
  const t = priced.totals;
  const $ = (minor: number) => minorToString(minor, priced.digits);
  return {
    adjustment: $(t.adjustmentCents), subTotal: $(t.subTotalCents), itemTaxes: $(t.itemTaxesCents), total: $(t.totalCents),
    taxMode: t.mode, rounding: $(priced.roundingCents),
  };
}

async function lockOrder(tx: Tx, id: number, actor: AuthInfo): Promise<OrderRow> {
  const [row] = await tx.select().from(order).where(eq(order.id, id)).for('update');
  if (!row || !actor.storeIds.includes(row.storeId)) throw notFound('Order not found');
  return row;
}

/**
 * A new order (a sale, or a return when refundingFrom is set) in the sale's transaction `q`: one
 * read (readOrder), pricing (sale-pricing.ts: one @pos/domain call), one write (SALE_WRITE). A
 * return locks its original; a customer's credit is checked under a lock on them.
 */
async function createOrderOn(q: Tx, input: SaleInput, who: SaleCaller, clientId: string | null,
  opts: SaleOptions & { trustPaymentTypes?: boolean; skipTotalCheck?: boolean }, seen: { actor?: AuthInfo }): Promise<SaleResult> {
  const now = opts.now ?? new Date();
  const { actor, place, pricing } = await readOrder(q, input, who, Boolean(opts.trustPaymentTypes));
  seen.actor = actor;
  if (input.refundingFrom == null) return writeOrder(q, input, actor, clientId, opts, now, null, place, pricing);

  const v: Violation[] = [];
  const id = input.refundingFrom;
  const original = await loadOriginal(q, id, true);
  if (!original || !actor.storeIds.includes(original.row.storeId)) throw validationError([{ propertyPath: 'refundingFrom', message: notFoundRef('Order', id) }]);
  const o = original.row;
  if (input.status !== ORDER_STATUS.COMPLETED) v.push({ propertyPath: 'status', message: 'A return is completed at once: it cannot be held or pending' });
  if (o.storeId !== input.storeId) v.push({ propertyPath: 'store', message: `Order #${o.orderId} was sold in another store: return it there` });
  if (o.returnedFromId != null) v.push({ propertyPath: 'refundingFrom', message: 'A return cannot be refunded' });
  fail(v);
  if (o.isReturned) {
    // The same return submitted again (a retry, or the old client after POST refund/{id}): answer with it.
    const returns = await q.select({ id: order.id }).from(order).where(eq(order.returnedFromId, o.id)).orderBy(desc(order.id));
    const asked = lineSignature(input.items.map((l) => ({ productId: l.productId, variantId: l.variantId, qtyMilli: (() => { try { return parseQuantity(l.quantity); } catch { return NaN; } })() })));
    for (const existing of returns) {
      const lines = await q.select().from(orderProduct).where(eq(orderProduct.orderId, existing.id));
      if (lineSignature(lines.map((l) => ({ productId: l.productId, variantId: l.variantId, qtyMilli: parseQuantity(l.quantity) }))) === asked) throw new Replay(existing.id);
    }
    throw validationError([{ propertyPath: 'refundingFrom', message: `Order #${o.orderId} has already been returned` }]);
  }
  if (!REFUNDABLE.includes(o.status)) {
    throw validationError([{ propertyPath: 'refundingFrom', message: `Order #${o.orderId ?? o.id} is ${o.status}: only completed orders can be refunded` }]);
  }
  return writeOrder(q, input, actor, clientId, opts, now, original, place, pricing);
}

/** Prices the order, then writes all of it (SALE_WRITE: one statement) and answers it. */
async function writeOrder(q: Tx, input: SaleInput, actor: AuthInfo, clientId: string | null, opts: SaleOptions & { trustPaymentTypes?: boolean; skipTotalCheck?: boolean },
  now: Date, original: OriginalOrder | null, place: Place, pricing: Pricing): Promise<SaleResult> {
  const held = input.status === ORDER_STATUS.ON_HOLD;
  const completed = input.status === ORDER_STATUS.COMPLETED;
  const priced = await priceSale(q, input, {
    storeId: input.storeId, now, status: input.status, original,
    skipTotalCheck: opts.skipTotalCheck, pricing, settings: place.store, actor,
  });
  const audited = await authoriseSale(q, input, priced, actor, place.store.maxDiscountPercent);
  const figures = { customerId: priced.customerId, customerName: priced.customerName ?? null, description: input.notes ?? null, ...orderFigures(priced) };
  const returned = priced.returned;
  const stock = stockMoveParams(completed ? saleMoves(input.storeId, priced.lines) : []);
  const [written] = await preparedQuery<ContentRow & { header: SaleHeader | string }>(q, 'sale_write', SALE_WRITE.text, SALE_WRITE.bind({
    ...stock.values, ...contentParams(priced),
    numbered: !held, store_id: input.storeId, terminal_id: input.terminalId, user_id: actor.userId, status: input.status, held,
    client_id: clientId, request_hash: opts.requestHash, returned_from: original?.row.id ?? null,
    returned_status: returned?.complete ? ORDER_STATUS.RETURNED : ORDER_STATUS.PARTIALLY_RETURNED, returned_all: Boolean(returned?.complete),
    r_lines: pgArray([...(returned?.lines.keys() ?? [])]), r_quantities: pgArray([...(returned?.lines.values() ?? [])].map(quantityToString)),
    tax_mode: figures.taxMode, rounding: figures.rounding,
    customer_id: figures.customerId, customer_name: figures.customerName, notes: figures.description, adjustment: figures.adjustment,
    sub_total: figures.subTotal, item_taxes: figures.itemTaxes, total: figures.total, stock_applied: completed,
    reason: original ? 'return' : 'sale', purchase_id: null,
  }));
  const w = parseJson(written.header);
  await audited(w.id);
  // An order with a customer (their balance figures) or a return (its original) is presented by
  // the route from the database; any other from what was just written (no second read).
  if (original || priced.customerId != null) return { id: w.id, replayed: false };
  const row: OrderRow = {
    id: w.id, orderId: w.orderId == null ? null : Number(w.orderId), userId: actor.userId, storeId: input.storeId, terminalId: input.terminalId,
    isSuspended: held, isDeleted: false, isReturned: false, isDispatched: false, status: input.status, previousStatus: null,
    ...figures, returnedFromId: null, stockApplied: completed, clientId, requestHash: opts.requestHash,
    // As Drizzle maps a timestamptz: the driver's text through new Date().
    createdAt: new Date(w.createdAt), updatedAt: new Date(w.updatedAt), uuid: w.uuid,
  };
  return { id: w.id, replayed: false, order: saleDto(row, priced, writtenOf(w.id, priced, written), place, actor) };
}

/**
 * Records a sale (POST /api/admin/order/create). Guarantees, in ONE transaction: the order, its
 * lines, payments, discount and tax, priced by the server (@pos/domain) — the client's total is
 * compared, never stored; a per-store order number that is unique and gap-free (none while on
 * hold); stock moved through the ledger for products that manage inventory, only for a completed
 * order; payment rules (no zero payment, exact amount for types without change, covered total,
 * credit only for a customer allowed credit within the limit, checked under a row lock). A return
 * (refundingFrom) prices its lines from the original, gives the stock back and marks the original
 * Returned; an order is returned at most once. A client id (Idempotency-Key / uuid) makes a retry
 * return the first result; the same id with a different body is a 409.
 */
export async function createSale(db: Db, input: SaleInput, who: SaleCaller, opts: SaleOptions): Promise<SaleResult> {
  const clientId = opts.clientId ?? input.clientId ?? null;
  const seen: { actor?: AuthInfo } = {};
  try {
    // ONE transaction: (the client id's lock and look-up,) the read, pricing, the write. One
    // submission of a client id at a time, in every process on this database: the key's lock is
    // held until the order is committed, and the look-up after it sees every earlier submission. A
    // retry is answered from the stored order and never reaches the insert, so no unique-key error
    // is ever raised (order_client_id_uq stays the last guard).
    const result = await withRetry(() => lockedSaleTransaction<SaleResult, Prior>(
      db, clientId == null ? null : `sale-client:${clientId}`, clientId == null ? undefined : `${BY_CLIENT} ${pg.escapeLiteral(clientId)}`,
      async (tx, [prior]) => {
        if (prior) return replay(prior, opts.requestHash, await resolveCaller(tx as unknown as Db, who));
        return createOrderOn(tx, input, who, clientId, opts, seen);
      },
    ));
    return { ...result, actor: result.replayed ? undefined : seen.actor };
  } catch (e) {
    if (e instanceof Replay) return { id: e.id, replayed: true };
    throw e;
  }
}

/**
 * Edits a pending or held order (PUT /api/admin/order/edit/{id}), replacing its lines, payments,
 * discount, tax, customer and notes, repriced now. Completing it (status Completed, not suspended)
 * validates the payments, gives it a number if it has none and moves the stock, all in one
 * transaction under a lock on the order (two tills cannot complete it twice). A completed,
 * deleted, returned or dispatched order is not editable: it changes only through its actions.
 * The same edit body sent again answers the order as that edit left it (a retried settle).
 */
export async function updateSale(db: Db, id: number, input: SaleInput, actor: AuthInfo, opts: { now?: Date; requestHash?: string } = {}): Promise<SaleResult> {
  return withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    // The same edit sent again (a retried "Done" in payment mode) answers the order as it left it.
    if (opts.requestHash && row.requestHash === opts.requestHash) return { id: row.id, replayed: true };
    if (row.status !== ORDER_STATUS.PENDING && row.status !== ORDER_STATUS.ON_HOLD) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.status}: only pending and held orders can be edited` }]);
    }
    if (input.refundingFrom != null) throw validationError([{ propertyPath: 'refundingFrom', message: 'A return cannot be edited into an order: create the return instead' }]);
    if (input.storeId !== row.storeId) throw validationError([{ propertyPath: 'store', message: 'An order cannot move to another store' }]);
    const { pricing, place } = await readOrder(tx, input, actor, false);
    const priced = await priceSale(tx, input, { storeId: row.storeId, now: opts.now ?? new Date(), status: input.status, original: null, pricing, settings: place.store, actor });
    const audited = await authoriseSale(tx, input, priced, actor, place.store.maxDiscountPercent);
    await audited(row.id);
    const held = input.status === ORDER_STATUS.ON_HOLD;
    const completed = input.status === ORDER_STATUS.COMPLETED;
    if (completed) await moveStocks(tx, saleMoves(row.storeId, priced.lines), { orderId: row.id, reason: 'sale', userId: actor.userId });
    await clearContent(tx, row.id);
    await writeContent(tx, row.id, priced);
    // The number last: the store's counter row stays locked only until the commit.
    const number = row.orderId ?? (held ? null : await nextOrderNumber(tx, row.storeId));
    await tx.update(order).set({
      orderId: number,
      status: input.status,
      isSuspended: held,
      terminalId: input.terminalId,
      customerId: priced.customerId,
      customerName: priced.customerName,
      description: input.notes,
      ...orderFigures(priced),
      stockApplied: completed,
      requestHash: opts.requestHash ?? null,
      updatedAt: new Date(),
    }).where(eq(order.id, row.id));
    return { id: row.id, replayed: false };
  }));
}

/**
 * Refunds what is left of an order in one call (POST /api/admin/order/refund/{id}): creates the
 * return order (every line's remaining quantity negated at its sold price, with its exact share of
 * discounts, taxes and adjustment: @pos/domain/sale-lines), the money back to the original tenders in
 * proportion (@pos/domain/sale-settle), gives the stock back, marks the original Returned. Nothing left
 * is a 422. Answers the return order.
 */
export async function refundSale(db: Db, id: number, actor: AuthInfo, approval: string | null = null): Promise<SaleResult> {
  if (!approval && !can(actor, 'sale.refund')) throw forbidden("A refund needs the 'sale.refund' permission or a manager's approval.");
  const snapshot = await db.transaction((tx) => loadOriginal(tx, id, false));
  if (!snapshot || !actor.storeIds.includes(snapshot.row.storeId)) throw notFound('Order not found');
  const o = snapshot.row;
  if (o.isReturned) throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
  if (o.returnedFromId != null) throw validationError([{ propertyPath: 'id', message: 'A return cannot be refunded' }]);
  if (!REFUNDABLE.includes(o.status)) {
    throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId ?? o.id} is ${o.status}: only completed orders can be refunded` }]);
  }
  if (o.terminalId == null) throw validationError([{ propertyPath: 'terminal', message: 'The order has no terminal' }]);
  const left = snapshot.lines.map((l) => ({ l, qty: parseQuantity(l.quantity) - parseQuantity(l.returnedQuantity) })).filter((x) => x.qty > 0);
  if (!left.length) throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
  const input: SaleInput = {
    items: left.map(({ l, qty }) => ({
      productId: l.productId, variantId: l.variantId, quantity: quantityToString(-qty), price: l.price, discount: null, discountTyped: false, taxIncluded: true, priceOverride: false,
    })),
    discountId: null, discountAmount: null, discountRateType: null, taxId: null,
    // No payments: the refund goes back to the original tenders in proportion.
    payments: [],
    customerId: o.customerId, customerName: o.customerName, refundingFrom: o.id,
    notes: `Refund of order #${o.orderId}`, storeId: o.storeId, terminalId: o.terminalId,
    // A manager's approval for 'sale.refund' (cashier without it): consumed and audited by the sale (sale-authorise.ts).
    total: null, adjustment: '0', isSuspended: false, status: ORDER_STATUS.COMPLETED, clientId: null, approval,
  };
  try {
    return await withRetry(() => saleTransaction(db, (tx) => createOrderOn(tx, input, actor, null, {
      requestHash: requestHash({ refund: o.id, left: left.map((x) => [x.l.id, x.qty]) }), trustPaymentTypes: true, skipTotalCheck: true,
    }, {})));
  } catch (e) {
    if (e instanceof Replay) throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
    throw e;
  }
}

/**
 * Deletes an order (DELETE /api/admin/order/{id}). A held order is removed outright and recorded
 * in the audit log with its lines: `sale.heldResumed` when the till takes it back into a cart
 * (`{unsuspend: true}`, `resumed`), else `sale.heldDeleted`. Otherwise the order is kept as Deleted
 * (status remembered for restore) and, if its stock was taken, the ledger gives it back. Cashiers may
 * delete held and pending orders; completed and dispatched ones need 'sale.void' or a manager's
 * approval for it (`approval`, consumed in this transaction and recorded with both names). Returns and returned
 * orders are not deletable (their stock is already accounted for by the return).
 */
export async function deleteOrder(db: Db, id: number, actor: AuthInfo, approval: string | null = null, resumed = false): Promise<{ removed: boolean }> {
  return withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    const label = `Order #${row.orderId ?? row.id}`;
    if (row.status === ORDER_STATUS.ON_HOLD) {
      // Nothing lost unseen (issue 23.3): the audit log keeps what the held order held, and whether it went back into a cart.
      const lines = await tx.select({ productId: orderProduct.productId, variantId: orderProduct.variantId, quantity: orderProduct.quantity, price: orderProduct.price, discount: orderProduct.discount })
        .from(orderProduct).where(eq(orderProduct.orderId, row.id));
      await tx.delete(order).where(eq(order.id, row.id));
      await audit(tx, {
        action: resumed ? 'sale.heldResumed' : 'sale.heldDeleted', actor, storeId: row.storeId, entity: 'order', entityId: row.id,
        before: { status: row.status, total: row.total, terminalId: row.terminalId, customerName: row.customerName, lines },
      });
      return { removed: true };
    }
    if (row.status === ORDER_STATUS.DELETED) throw validationError([{ propertyPath: 'status', message: `${label} is already deleted` }]);
    if (row.status === ORDER_STATUS.RETURNED || row.status === ORDER_STATUS.PARTIALLY_RETURNED) throw validationError([{ propertyPath: 'status', message: `${label} has been returned and cannot be deleted` }]);
    if (row.returnedFromId != null) throw validationError([{ propertyPath: 'status', message: 'A return cannot be deleted' }]);
    let approver: { userId: number; displayName: string } | null = null;
    if (row.status !== ORDER_STATUS.PENDING && !can(actor, 'sale.void')) {
      if (!approval) throw forbidden("Deleting a completed order needs the 'sale.void' permission or a manager's approval.");
      approver = await consumeApproval(tx, approval, { permission: 'sale.void', storeId: row.storeId, userId: actor.userId });
    }
    if (row.stockApplied) {
      const net = await ledgerOf(tx, row.id);
      await applyMoves(tx, net.map((m) => ({ ...m, qtyMilli: -m.qtyMilli })), { orderId: row.id, reason: 'delete', userId: actor.userId });
    }
    await tx.update(order).set({
      status: ORDER_STATUS.DELETED, previousStatus: row.status, isDeleted: true, stockApplied: false, updatedAt: new Date(),
    }).where(eq(order.id, row.id));
    await audit(tx, { action: 'sale.voided', actor, approver, storeId: row.storeId, entity: 'order', entityId: row.id, before: { status: row.status, total: row.total, orderId: row.orderId }, after: { status: ORDER_STATUS.DELETED } });
    return { removed: false };
  }));
}

/**
 * Restores a deleted order to its previous status; a completed or dispatched one takes its stock
 * again. Needs 'sale.void' or a manager's approval for it (`approval`, as deleteOrder).
 */
export async function restoreOrder(db: Db, id: number, actor: AuthInfo, approval: string | null = null): Promise<void> {
  if (!approval && !can(actor, 'sale.void')) throw forbidden("Restoring an order needs the 'sale.void' permission or a manager's approval.");
  await withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    const approver = can(actor, 'sale.void') ? null : await consumeApproval(tx, approval, { permission: 'sale.void', storeId: row.storeId, userId: actor.userId });
    if (row.status !== ORDER_STATUS.DELETED) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.status}: only deleted orders can be restored` }]);
    }
    const status = (row.previousStatus as OrderStatus | null) ?? ORDER_STATUS.COMPLETED;
    const takesStock = status === ORDER_STATUS.COMPLETED || status === ORDER_STATUS.DISPATCHED;
    if (takesStock) {
      const applied = await ledgerOf(tx, row.id, ['sale', 'return']);
      await applyMoves(tx, applied, { orderId: row.id, reason: 'restore', userId: actor.userId });
    }
    await tx.update(order).set({
      status, previousStatus: null, isDeleted: false, stockApplied: takesStock, updatedAt: new Date(),
    }).where(eq(order.id, row.id));
    await audit(tx, { action: 'sale.restored', actor, approver, storeId: row.storeId, entity: 'order', entityId: row.id, before: { status: row.status }, after: { status } });
  }));
}

/** Marks a completed sale as dispatched (goods handed over / shipped). */
export async function dispatchOrder(db: Db, id: number, actor: AuthInfo): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    if (row.status !== ORDER_STATUS.COMPLETED || row.returnedFromId != null) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.returnedFromId != null ? 'a return' : row.status}: only completed sales can be dispatched` }]);
    }
    await tx.update(order).set({ status: ORDER_STATUS.DISPATCHED, isDispatched: true, updatedAt: new Date() }).where(eq(order.id, row.id));
  });
}

/** 404 unless the order exists in one of the caller's stores. */
export async function assertOrderVisible(db: Db, id: number, actor: AuthInfo): Promise<void> {
  const [row] = await db.select({ storeId: order.storeId }).from(order).where(eq(order.id, id));
  if (!row || !actor.storeIds.includes(row.storeId)) throw notFound('Order not found');
}

