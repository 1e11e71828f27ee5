import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { conflict, validationError, type Violation } from '@pos/domain/errors';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { product, productVariant, stockTransfer, stockTransferLine, store } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { moveStocks, variantMoves } from '../../lib/stock.ts';
import { costsInStore, priceMinor, receiveAtCost } from '../../lib/stock-cost.ts';
import { storeDigits } from '../../lib/store-money.ts';
import type { Receipt } from '@pos/domain/stock-cost';
import { assertCallerStore } from '../../lib/scope.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { TransferCreateBody, TransferReceiveBody, TransferSendBody } from './stock.schemas.ts';
import {
  assertDistinct, assertVisible, iso, namesOf, nextNumber, paging, qtyOut, resolveProducts, storeFilter, storeQuantities, throwIf, variantStoreQuantities, write,
} from './stock-ops.common.ts';

/**
 * Stock transfers between two of the caller's stores: requested -> sent -> received (or cancelled
 * while requested). Sending takes the sent quantities out of the sending store (ledger reason
 * `transfer_out`); until received they are in transit, no store's. Receiving puts the received
 * quantities into the receiving store (`transfer_in`; its product row is created when missing);
 * what was sent but not received is booked on the line as `lost` with the transfer's `lossReason`
 * (it already left the sending store at sending, so the ledger needs no further row). The line
 * keeps the sending store's average cost at sending; the receiving store's average takes the
 * received goods in at that cost (lib/stock-cost.ts).
 * Variants (issue 25): a variant line moves the variant's row in the sending store at sending and
 * in the receiving store at receiving (in transit: neither), and the product's store rows with it,
 * as a sale does (lib/stock variantMoves: product_store is the product's whole stock in a store).
 * Negative stock: a sending store with `allowNegativeStock` (a store setting, off by default) may
 * request a product (variant) it does not stock and send more than it has (its stock goes
 * negative, the ledger rows are written as usual); otherwise both are refused (422 naming the
 * line): a variant line against the variant's row in the sending store, and every line of a
 * product together against the product's row there.
 * Each step writes its audit entry (stock.transferRequested|Sent|Received|Cancelled, entity
 * 'stock_transfer') in the step's transaction; ledger rows carry the transfer as their document.
 */

export const TRANSFER_MESSAGES = {
  sameStore: 'The receiving store should differ from the sending store.',
  notStocked: 'The sending store does not stock this product.',
  variantNotStocked: 'The sending store does not stock this variant.',
  notRequested: (status: string) => `This transfer is ${status}: only a requested transfer can be sent or cancelled.`,
  notSent: (status: string) => (status === 'received' ? 'This transfer is already received.' : `This transfer is ${status}: only a sent transfer can be received.`),
  notLine: 'This line is not on this transfer.',
  moreThanStock: (have: number) => `Only ${quantityToString(have)} in stock at the sending store.`,
  moreThanSent: (sent: number) => `More than was sent (${quantityToString(sent)}).`,
  lossReason: 'Please give the reason why less was received than sent.',
};

type TransferRow = typeof stockTransfer.$inferSelect;

/** The sending store's setting: may a transfer take its stock below zero? */
async function allowsNegative(tx: Tx, storeId: number): Promise<boolean> {
  const [row] = await tx.select({ allow: store.allowNegativeStock }).from(store).where(eq(store.id, storeId));
  return row?.allow ?? false;
}

const ENTITY = 'stock_transfer';

async function lockTransfer(tx: Tx, id: number): Promise<TransferRow | undefined> {
  const [row] = await tx.select().from(stockTransfer).where(eq(stockTransfer.id, id)).for('update');
  return row;
}

export async function createTransfer(db: Db, input: TransferCreateBody, actor: AuthInfo): Promise<number> {
  assertCallerStore(actor, input.fromStore, 'fromStore');
  assertCallerStore(actor, input.toStore, 'toStore');
  if (input.fromStore === input.toStore) throw validationError([{ propertyPath: 'toStore', message: TRANSFER_MESSAGES.sameStore }]);
  assertDistinct(input.lines);
  return write(db, async (tx) => {
    await resolveProducts(tx, input.lines);
    if (!await allowsNegative(tx, input.fromStore)) {
      const have = await storeQuantities(tx, input.fromStore, input.lines.map((l) => l.product));
      const haveVariant = await variantStoreQuantities(tx, input.fromStore, input.lines.flatMap((l) => (l.variant != null ? [l.variant] : [])));
      const v: Violation[] = [];
      input.lines.forEach((l, i) => {
        if (!have.has(l.product)) v.push({ propertyPath: `lines[${i}].product`, message: TRANSFER_MESSAGES.notStocked });
        else if (l.variant != null && !haveVariant.has(l.variant)) v.push({ propertyPath: `lines[${i}].variant`, message: TRANSFER_MESSAGES.variantNotStocked });
      });
      throwIf(v);
    }
    const number = await nextNumber(tx, input.fromStore, 'transfer');
    const [row] = await tx.insert(stockTransfer).values({
      number, fromStoreId: input.fromStore, toStoreId: input.toStore, status: 'requested', note: input.note ?? null, requestedById: actor.userId,
    }).returning({ id: stockTransfer.id });
    await tx.insert(stockTransferLine).values(input.lines.map((l) => ({
      transferId: row.id, productId: l.product, variantId: l.variant ?? null, requested: quantityToString(l.quantity),
    })));
    await audit(tx, {
      action: 'stock.transferRequested', actor, storeId: input.fromStore, entity: ENTITY, entityId: row.id, after: { status: 'requested' },
      details: { number, fromStore: input.fromStore, toStore: input.toStore, lines: input.lines.map((l) => ({ product: l.product, variant: l.variant ?? null, quantity: quantityToString(l.quantity) })) },
    });
    return row.id;
  });
}

/** Per-line quantities of a send/receive body by line id; an unknown line is a 422 on `lines[i].id`. */
function overrides(lines: { id: number; quantity: number }[] | undefined, known: Set<number>): Map<number, number> {
  const v: Violation[] = [];
  const out = new Map<number, number>();
  (lines ?? []).forEach((l, i) => {
    if (!known.has(l.id)) v.push({ propertyPath: `lines[${i}].id`, message: TRANSFER_MESSAGES.notLine });
    else out.set(l.id, l.quantity);
  });
  throwIf(v);
  return out;
}

/**
 * Sends a requested transfer: the sent quantities (default: requested) leave the sending store.
 * A store cannot send more than its stock (the product row is locked while checking) unless its
 * `allowNegativeStock` setting is on; a sale always may (the till cannot refuse a customer).
 */
export async function sendTransfer(db: Db, id: number, input: TransferSendBody, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const t = assertVisible(await lockTransfer(tx, id), (r) => actor.storeIds.includes(r.fromStoreId), 'Transfer');
    if (t.status !== 'requested') throw conflict(TRANSFER_MESSAGES.notRequested(t.status));
    const lines = await tx.select().from(stockTransferLine).where(eq(stockTransferLine.transferId, id)).orderBy(asc(stockTransferLine.id));
    const given = overrides(input.lines, new Set(lines.map((l) => l.id)));
    const sent = lines.map((l) => ({ line: l, milli: given.get(l.id) ?? parseQuantity(l.requested) }));
    // Variant rows first, then the products' rows: the order lib/stock.ts locks them in.
    const haveVariant = await variantStoreQuantities(tx, t.fromStoreId, lines.flatMap((l) => (l.variantId != null ? [l.variantId] : [])), 'update');
    const have = await storeQuantities(tx, t.fromStoreId, lines.map((l) => l.productId), 'update');
    const perProduct = new Map<number, number>();
    for (const s of sent) perProduct.set(s.line.productId, (perProduct.get(s.line.productId) ?? 0) + s.milli);
    const negativeOk = await allowsNegative(tx, t.fromStoreId);
    const v: Violation[] = [];
    const path = (lineId: number) => {
      const i = (input.lines ?? []).findIndex((x) => x.id === lineId);
      return i >= 0 ? `lines[${i}].quantity` : `lines[${lines.findIndex((l) => l.id === lineId)}].quantity`;
    };
    for (const s of negativeOk ? [] : sent) {
      const stock = have.get(s.line.productId);
      const variantStock = s.line.variantId != null ? haveVariant.get(s.line.variantId) : undefined;
      if (!stock) v.push({ propertyPath: path(s.line.id), message: TRANSFER_MESSAGES.notStocked });
      else if (s.line.variantId != null && variantStock === undefined) v.push({ propertyPath: path(s.line.id), message: TRANSFER_MESSAGES.variantNotStocked });
      else if (variantStock !== undefined && s.milli > variantStock) v.push({ propertyPath: path(s.line.id), message: TRANSFER_MESSAGES.moreThanStock(variantStock) });
      else if (perProduct.get(s.line.productId)! > stock.quantity) v.push({ propertyPath: path(s.line.id), message: TRANSFER_MESSAGES.moreThanStock(stock.quantity) });
    }
    throwIf(v);
    await moveStocks(tx, sent.flatMap((s) => variantMoves(s.line.productId, s.line.variantId, t.fromStoreId, quantityToString(-s.milli))),
      { reason: 'transfer_out', userId: actor.userId, document: { kind: 'transfer', id } });
    const costs = await costsInStore(tx, t.fromStoreId, lines.map((l) => l.productId));
    for (const s of sent) await tx.update(stockTransferLine).set({ sent: quantityToString(s.milli), unitCost: costs.get(s.line.productId) }).where(eq(stockTransferLine.id, s.line.id));
    await tx.update(stockTransfer).set({ status: 'sent', sentById: actor.userId, sentAt: sql`now()` }).where(eq(stockTransfer.id, id));
    await audit(tx, {
      action: 'stock.transferSent', actor, storeId: t.fromStoreId, entity: ENTITY, entityId: id, before: { status: t.status }, after: { status: 'sent' },
      details: { number: t.number, fromStore: t.fromStoreId, toStore: t.toStoreId, lines: sent.map((s) => ({ line: s.line.id, product: s.line.productId, sent: quantityToString(s.milli) })) },
    });
  });
}

/**
 * Receives a sent transfer once: the received quantities (default: sent, at most sent) enter the
 * receiving store; the rest is booked as lost with `lossReason` (required when anything is lost).
 */
export async function receiveTransfer(db: Db, id: number, input: TransferReceiveBody, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const t = assertVisible(await lockTransfer(tx, id), (r) => actor.storeIds.includes(r.toStoreId), 'Transfer');
    if (t.status !== 'sent') throw conflict(TRANSFER_MESSAGES.notSent(t.status));
    const lines = await tx.select().from(stockTransferLine).where(eq(stockTransferLine.transferId, id)).orderBy(asc(stockTransferLine.id));
    const given = overrides(input.lines, new Set(lines.map((l) => l.id)));
    const v: Violation[] = [];
    const got = lines.map((l) => {
      const sent = parseQuantity(l.sent ?? '0');
      const milli = given.get(l.id) ?? sent;
      if (milli > sent) v.push({ propertyPath: `lines[${(input.lines ?? []).findIndex((x) => x.id === l.id)}].quantity`, message: TRANSFER_MESSAGES.moreThanSent(sent) });
      return { line: l, sent, milli };
    });
    throwIf(v);
    const lost = got.some((g) => g.milli < g.sent);
    if (lost && !input.lossReason) throw validationError([{ propertyPath: 'lossReason', message: TRANSFER_MESSAGES.lossReason }]);
    // The receiving store's average takes the goods in at the sender's cost at sending (before the ledger rows: they carry it).
    const digits = await storeDigits(tx, t.toStoreId);
    const now = await costsInStore(tx, t.fromStoreId, got.filter((g) => g.line.unitCost == null).map((g) => g.line.productId));
    const receipts = new Map<number, Receipt[]>();
    for (const g of got) {
      receipts.set(g.line.productId, [...receipts.get(g.line.productId) ?? [], { qtyMilli: g.milli, unitMinor: priceMinor(g.line.unitCost ?? now.get(g.line.productId), digits) }]);
    }
    await receiveAtCost(tx, t.toStoreId, receipts);
    await moveStocks(tx, got.flatMap((g) => variantMoves(g.line.productId, g.line.variantId, t.toStoreId, quantityToString(g.milli))),
      { reason: 'transfer_in', userId: actor.userId, document: { kind: 'transfer', id } });
    for (const g of got) {
      await tx.update(stockTransferLine).set({ received: quantityToString(g.milli), lost: quantityToString(g.sent - g.milli) }).where(eq(stockTransferLine.id, g.line.id));
    }
    await tx.update(stockTransfer).set({ status: 'received', receivedById: actor.userId, receivedAt: sql`now()`, lossReason: lost ? input.lossReason! : null })
      .where(eq(stockTransfer.id, id));
    await audit(tx, {
      action: 'stock.transferReceived', actor, storeId: t.toStoreId, entity: ENTITY, entityId: id, before: { status: t.status }, after: { status: 'received' },
      details: {
        number: t.number, fromStore: t.fromStoreId, toStore: t.toStoreId, lossReason: lost ? input.lossReason! : null,
        lines: got.map((g) => ({ line: g.line.id, product: g.line.productId, received: quantityToString(g.milli), lost: quantityToString(g.sent - g.milli) })),
      },
    });
  });
}

/** Cancels a requested transfer (nothing moved yet). Either store's admin may. */
export async function cancelTransfer(db: Db, id: number, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const t = assertVisible(await lockTransfer(tx, id), (r) => actor.storeIds.includes(r.fromStoreId) || actor.storeIds.includes(r.toStoreId), 'Transfer');
    if (t.status !== 'requested') throw conflict(TRANSFER_MESSAGES.notRequested(t.status));
    await tx.update(stockTransfer).set({ status: 'cancelled', cancelledById: actor.userId, cancelledAt: sql`now()` }).where(eq(stockTransfer.id, id));
    await audit(tx, {
      action: 'stock.transferCancelled', actor, storeId: t.fromStoreId, entity: ENTITY, entityId: id, before: { status: t.status }, after: { status: 'cancelled' },
      details: { number: t.number, fromStore: t.fromStoreId, toStore: t.toStoreId },
    });
  });
}

const visibleTo = (storeIds: number[]) => (storeIds.length
  ? or(inArray(stockTransfer.fromStoreId, storeIds), inArray(stockTransfer.toStoreId, storeIds))!
  : sql`false`);

/** The transfer as a packing list: stores, who/when of each step, lines with product, shelf location and quantities. */
export async function getTransfer(db: Db | Tx, id: number, actor: AuthInfo) {
  const [t] = await db.select().from(stockTransfer).where(and(eq(stockTransfer.id, id), visibleTo(actor.storeIds)));
  assertVisible(t, () => true, 'Transfer');
  const lines = await db.select({
    line: stockTransferLine,
    product: { id: product.id, name: product.name, sku: product.sku, barcode: product.barcode },
    variant: { id: productVariant.id, name: productVariant.name, attributeValue: productVariant.attributeValue, sku: productVariant.sku, barcode: productVariant.barcode },
    location: sql<string | null>`(select ps.location from product_store ps where ps.product_id = ${stockTransferLine.productId} and ps.store_id = ${t.fromStoreId})`,
  }).from(stockTransferLine).innerJoin(product, eq(product.id, stockTransferLine.productId))
    .leftJoin(productVariant, eq(productVariant.id, stockTransferLine.variantId))
    .where(eq(stockTransferLine.transferId, id)).orderBy(asc(stockTransferLine.id));
  return presentTransfer(db, t, lines);
}

type LineRow = { line: typeof stockTransferLine.$inferSelect; product: object; variant: { id: number | null } | null; location: string | null };

async function presentTransfer(db: Db | Tx, t: TransferRow, lines: LineRow[]) {
  const n = await namesOf(db, [t.requestedById, t.sentById, t.receivedById, t.cancelledById], [t.fromStoreId, t.toStoreId]);
  const q = (s: string | null) => (s == null ? null : parseQuantity(s));
  const totals = { requested: 0, sent: 0, received: 0, lost: 0, inTransit: 0 };
  const out = lines.map(({ line, product: p, variant, location }) => {
    const inTransit = t.status === 'sent' ? q(line.sent)! : 0;
    totals.requested += q(line.requested)!; totals.sent += q(line.sent) ?? 0; totals.received += q(line.received) ?? 0; totals.lost += q(line.lost) ?? 0; totals.inTransit += inTransit;
    return {
      id: line.id, product: p, variant: variant?.id == null ? null : variant, location,
      requested: qtyOut(q(line.requested)), sent: qtyOut(q(line.sent)), received: qtyOut(q(line.received)), lost: qtyOut(q(line.lost)), inTransit: qtyOut(inTransit),
    };
  });
  return {
    '@id': `/api/admin/stock/transfer/${t.id}`, id: t.id, number: t.number, status: t.status,
    fromStore: n.store(t.fromStoreId), toStore: n.store(t.toStoreId), note: t.note, lossReason: t.lossReason,
    requestedBy: n.user(t.requestedById), requestedAt: iso(t.requestedAt), sentBy: n.user(t.sentById), sentAt: iso(t.sentAt),
    receivedBy: n.user(t.receivedById), receivedAt: iso(t.receivedAt), cancelledBy: n.user(t.cancelledById), cancelledAt: iso(t.cancelledAt),
    lines: out,
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, qtyOut(v)])),
  };
}

/** Transfers from or to the caller's stores (`store` narrows to one), newest first; `status` filters. */
export async function listTransfers(db: Db, query: Record<string, unknown>, actor: AuthInfo) {
  const { limit, offset } = paging(query);
  const stores = storeFilter(query, actor.storeIds);
  const where = and(visibleTo(stores), typeof query.status === 'string' && query.status ? eq(stockTransfer.status, query.status) : undefined);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(stockTransfer).where(where);
  const rows = await db.select().from(stockTransfer).where(where).orderBy(desc(stockTransfer.id)).limit(limit).offset(offset);
  const n = await namesOf(db, rows.flatMap((t) => [t.requestedById, t.sentById, t.receivedById]), rows.flatMap((t) => [t.fromStoreId, t.toStoreId]));
  const list = rows.map((t) => ({
    '@id': `/api/admin/stock/transfer/${t.id}`, id: t.id, number: t.number, status: t.status, fromStore: n.store(t.fromStoreId), toStore: n.store(t.toStoreId),
    requestedBy: n.user(t.requestedById), requestedAt: iso(t.requestedAt), sentAt: iso(t.sentAt), receivedAt: iso(t.receivedAt),
  }));
  return { list, total: Number(total), count: list.length };
}
