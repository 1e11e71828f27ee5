import { and, eq, inArray, sql } from 'drizzle-orm';
import { minorToString, parseQuantity, quantityToString, toDecimalString } from '@pos/domain/money';
import { preparedQuery, type Tx } from '../../db/client.ts';
import { orderDiscount, orderPayment, orderProduct, orderProductTax, orderTax, stockMovement } from '../../db/schema/index.ts';
import { type AuthInfo } from '../../plugins/auth.ts';
import { moveStocks, stockMoveCtes, variantMoves, type StockDelta } from '../../lib/stock.ts';
import { namedSql, opaque, pgArray, rowsOf } from '../../db/raw.ts';
import { orderDto, type OrderDto } from './order.presenter.ts';
import { type OrderRow, parseJson } from './sale-support.ts';
import { type Place } from './sale-read.ts';
import { type PricedLine, type PricedSale } from './sale-pricing.ts';

// ---------------------------------------------------------------------------------------------
// Writing: numbers, stock, content
// ---------------------------------------------------------------------------------------------

/**
 * Next number of a store, inside the sale's transaction: the counter row lock makes numbers unique
 * and gap-free (a rolled-back sale rolls its number back too). Take it as late as possible: the
 * lock is held until the commit.
 */
export async function nextOrderNumber(tx: Tx, storeId: number): Promise<number> {
  const [row] = rowsOf<{ last_order_id: number }>(await tx.execute(counterBump(storeId)));
  return Number(row.last_order_id);
}

export const counterBump = (storeId: number) => sql`insert into store_counter (store_id, last_order_id) values (${storeId}, 1)
  on conflict (store_id) do update set last_order_id = store_counter.last_order_id + 1 returning last_order_id`;

export interface Move { productId: number; variantId: number | null; storeId: number | null; qtyMilli: number }

/**
 * Applies stock moves through lib/stock moveStocks: atomic set-based updates + ledger rows, the rows
 * locked in one fixed order (variants by id, then store rows by product), so concurrent sales queue
 * instead of deadlocking (a deadlock against another writer is retried by withRetry).
 */
export async function applyMoves(tx: Tx, moves: Move[], meta: { orderId: number; reason: string; userId: number }) {
  await moveStocks(tx, moves.map(stockDelta), meta);
}

/** A ledger row's store is always known (migration 0015); a null one is refused by lib/stock (it throws). */
export const stockDelta = (m: Move): StockDelta => ({ productId: m.productId, variantId: m.variantId, storeId: m.storeId as number, delta: quantityToString(m.qtyMilli) });

/**
 * What a completed order takes off the shelves of its store (a return line puts it back): a
 * variant's row in the store and the product's row there (lib/stock variantMoves).
 */
export function saleMoves(storeId: number, lines: PricedLine[]): StockDelta[] {
  return lines.filter((l) => l.manageInventory).flatMap((l) => variantMoves(l.productId, l.variantId, storeId, quantityToString(-l.qtyMilli)));
}

/** Sum of an order's ledger rows per stock row (optionally only some reasons). */
export async function ledgerOf(tx: Tx, orderId: number, reasons?: string[]): Promise<Move[]> {
  const rows = await tx.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    qty: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement)
    .where(reasons ? and(eq(stockMovement.orderId, orderId), inArray(stockMovement.reason, reasons)) : eq(stockMovement.orderId, orderId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);
  return rows.map((r) => ({ productId: r.productId, variantId: r.variantId, storeId: r.storeId, qtyMilli: parseQuantity(r.qty) }));
}

/** What the content statement wrote, as stored (the sale's answer is built from it). */
export interface Written {
  lines: (typeof orderProduct.$inferSelect)[];
  lineTaxes: (typeof orderProductTax.$inferSelect)[];
  payments: (typeof orderPayment.$inferSelect)[];
  discount: typeof orderDiscount.$inferSelect | null;
  tax: typeof orderTax.$inferSelect | null;
}

export type Stamped = { id: number; createdAt: string; updatedAt: string };
/** The content statement's answer (CONTENT_COLUMNS). */
export interface ContentRow {
  lines: (Stamped & { n: number })[] | string | null;
  payments: (Stamped & { n: number })[] | string | null;
  discount: (Stamped & { typeId: number | null; rateType: string | null; rate: string | null; amount: string }) | string | null;
  tax: (Stamped & { typeId: number | null; rate: string; amount: string }) | string | null;
}

/** A new order's header as SALE_WRITE returns it. */
export interface SaleHeader { id: number; orderId: number | null; createdAt: string; updatedAt: string; uuid: string }

/** The named values of contentCtes for a priced order. */
export function contentParams(priced: PricedSale) {
  const { lines, totals } = priced;
  const num = (xs: string[]) => pgArray(xs);
  const ints = (xs: (number | null)[]) => pgArray(xs.map((x) => (x == null ? null : Math.trunc(x))));
  const $ = (minor: number) => minorToString(minor, priced.digits);
  const taxRows = lines.flatMap((l, i) => l.taxes.map((t, k) => ({ n: i + 1, taxId: t.taxId, rate: toDecimalString(t.rate), amount: $(totals.lines[i].taxCents[k] ?? 0) })));
  const d = priced.discount;
  const x = priced.orderTax;
  return {
    l_products: ints(lines.map((l) => l.productId)), l_variants: ints(lines.map((l) => l.variantId)),
    l_quantities: num(lines.map((l) => quantityToString(l.qtyMilli))), l_prices: num(lines.map((l) => $(l.priceCents))),
    l_discounts: num(lines.map((_, i) => $(totals.lines[i].discountCents))),
    l_taxes_totals: num(lines.map((_, i) => $(totals.lines[i].taxesTotalCents))), l_costs: num(lines.map((l) => $(l.costCents))),
    l_shares: num(lines.map((_, i) => $(totals.lines[i].shareCents))), l_taxables: num(lines.map((_, i) => $(totals.lines[i].taxableCents))),
    t_lines: ints(taxRows.map((t) => t.n)), t_taxes: ints(taxRows.map((t) => t.taxId)), t_rates: num(taxRows.map((t) => t.rate)), t_amounts: num(taxRows.map((t) => t.amount)),
    p_types: ints(priced.payments.map((p) => p.typeId)), p_totals: num(priced.payments.map((p) => $(p.totalCents))),
    p_received: num(priced.payments.map((p) => $(p.receivedCents))), p_due: num(priced.payments.map((p) => $(p.dueCents))),
    d_present: d != null, d_type: d?.typeId ?? null, d_rate_type: d?.rateType ?? null,
    d_rate: d ? (d.rateType === 'percent' ? toDecimalString(d.rate) : $(d.rate)) : null,
    d_amount: $(totals.discountTotalCents),
    x_present: x != null, x_type: x?.typeId ?? null, x_rate: x ? toDecimalString(x.rate) : null, x_amount: $(totals.orderTaxCents),
  };
}

/** The rows of an order's content as stored, from what contentParams sent and the statement returned. */
export function writtenOf(orderId: number, priced: PricedSale, row: ContentRow): Written {
  const { lines, totals } = priced;
  const $ = (minor: number) => minorToString(minor, priced.digits);
  const stampedLines = (parseJson(row.lines) ?? []).sort((a, b) => a.n - b.n);
  const stampedPays = (parseJson(row.payments) ?? []).sort((a, b) => a.n - b.n);
  const stamps = (s: Stamped) => ({ id: s.id, orderId, createdAt: new Date(s.createdAt), updatedAt: new Date(s.updatedAt) });
  const written: Written = {
    lines: lines.map((l, i) => ({
      productId: l.productId, variantId: l.variantId, quantity: quantityToString(l.qtyMilli), price: $(l.priceCents),
      discount: $(totals.lines[i].discountCents), taxesTotal: $(totals.lines[i].taxesTotalCents), cost: $(l.costCents),
      orderDiscount: $(totals.lines[i].shareCents), taxable: $(totals.lines[i].taxableCents), returnedQuantity: '0',
      ...stamps(stampedLines[i]), isSuspended: false, isDeleted: false, isReturned: false,
    })),
    lineTaxes: [],
    payments: priced.payments.map((p, i) => ({
      typeId: p.typeId, total: $(p.totalCents), received: $(p.receivedCents), due: $(p.dueCents),
      ...stamps(stampedPays[i]),
    })),
    discount: null,
    tax: null,
  };
  written.lineTaxes = lines.flatMap((l, i) => l.taxes.map((t, k) => ({
    orderProductId: written.lines[i].id, taxId: t.taxId, rate: toDecimalString(t.rate), amount: $(totals.lines[i].taxCents[k] ?? 0),
  })));
  const d = parseJson(row.discount);
  if (d) written.discount = { ...stamps(d), typeId: d.typeId, rateType: d.rateType, rate: d.rate, amount: d.amount };
  const x = parseJson(row.tax);
  if (x) written.tax = { ...stamps(x), typeId: x.typeId, rate: x.rate, amount: x.amount };
  return written;
}

/**
 * An order's content as WITH items (named parameters, values from contentParams; the order id is
 * `orderExpr`): the lines (:l_*), their tax rows (:t_* as line number, tax, rate), the payments
 * (:p_*), the order discount (:d_*, when :d_present) and the order tax (:x_*, when :x_present).
 * Line and payment ids are drawn first, one per input row in order (ids ascending), so the tax rows
 * can point at their line. Arrays and flags are `opaque`: one generic plan per connection.
 */
export const contentCtes = (orderExpr: string) => `ids as materialized (
    select n, nextval(pg_get_serial_sequence('order_product', 'id'))::int as id from generate_series(1, cardinality(${opaque(':l_products', 'int[]')})) as n order by n),
  ol as (insert into order_product (id, "orderId", product_id, variant_id, quantity, price, discount, taxes_total, cost, order_discount, taxable)
    select ids.id, ${orderExpr}, u.p, u.v, u.q, u.pr, u.d, u.tt, u.c, u.sh, u.tx
    from unnest(${opaque(':l_products', 'int[]')}, ${opaque(':l_variants', 'int[]')}, ${opaque(':l_quantities', 'numeric[]')}, ${opaque(':l_prices', 'numeric[]')}, ${opaque(':l_discounts', 'numeric[]')},
      ${opaque(':l_taxes_totals', 'numeric[]')}, ${opaque(':l_costs', 'numeric[]')}, ${opaque(':l_shares', 'numeric[]')}, ${opaque(':l_taxables', 'numeric[]')})
      with ordinality as u(p, v, q, pr, d, tt, c, sh, tx, n)
    join ids on ids.n = u.n order by u.n
    returning id, created_at, updated_at),
  olt as (insert into order_product_tax (order_product_id, tax_id, rate, amount)
    select ids.id, x.t, x.r, x.a from unnest(${opaque(':t_lines', 'int[]')}, ${opaque(':t_taxes', 'int[]')}, ${opaque(':t_rates', 'numeric[]')}, ${opaque(':t_amounts', 'numeric[]')}) as x(n, t, r, a)
    join ids on ids.n = x.n
    returning 1),
  pids as materialized (
    select n, nextval(pg_get_serial_sequence('order_payment', 'id'))::int as id from generate_series(1, cardinality(${opaque(':p_types', 'int[]')})) as n order by n),
  opy as (insert into order_payment (id, order_id, type_id, total, received, due)
    select pids.id, ${orderExpr}, y.t, y.tot, y.rec, y.due
    from unnest(${opaque(':p_types', 'int[]')}, ${opaque(':p_totals', 'numeric[]')}, ${opaque(':p_received', 'numeric[]')}, ${opaque(':p_due', 'numeric[]')}) with ordinality as y(t, tot, rec, due, n)
    join pids on pids.n = y.n order by y.n
    returning id, created_at, updated_at),
  odi as (insert into order_discount ("orderId", type_id, rate_type, rate, amount)
    select ${orderExpr}, :d_type::int, :d_rate_type::text, :d_rate::numeric, :d_amount::numeric where ${opaque(':d_present', 'boolean')}
    returning id, type_id, rate_type, rate, amount, created_at, updated_at),
  otx as (insert into order_tax ("orderId", type_id, rate, amount)
    select ${orderExpr}, :x_type::int, :x_rate::numeric, :x_amount::numeric where ${opaque(':x_present', 'boolean')}
    returning id, type_id, rate, amount, created_at, updated_at)`;
/** What contentCtes wrote, as ContentRow columns. */
export const CONTENT_COLUMNS = `(select json_agg(json_build_object('n', ids.n, 'id', ol.id, 'createdAt', ol.created_at::text, 'updatedAt', ol.updated_at::text))
      from ol join ids on ids.id = ol.id) as lines,
    (select json_agg(json_build_object('n', pids.n, 'id', opy.id, 'createdAt', opy.created_at::text, 'updatedAt', opy.updated_at::text))
      from opy join pids on pids.id = opy.id) as payments,
    (select count(*) from olt)::int as taxes,
    (select json_build_object('id', id, 'typeId', type_id, 'rateType', rate_type, 'rate', rate::text, 'amount', amount::text,
      'createdAt', created_at::text, 'updatedAt', updated_at::text) from odi) as discount,
    (select json_build_object('id', id, 'typeId', type_id, 'rate', rate::text, 'amount', amount::text,
      'createdAt', created_at::text, 'updatedAt', updated_at::text) from otx) as tax`;
/** An order's content in ONE statement (an edited order's, after clearContent). */
export const CONTENT = namedSql(`with ${contentCtes(':order_id::int')} select ${CONTENT_COLUMNS}`);

export async function writeContent(tx: Tx, orderId: number, priced: PricedSale): Promise<Written> {
  const [row] = await preparedQuery<ContentRow>(tx, 'sale_content', CONTENT.text, CONTENT.bind({ ...contentParams(priced), order_id: orderId }));
  return writtenOf(orderId, priced, row);
}

/**
 * A new order in ONE statement of the sale's transaction: the stock
 * moves and their ledger rows (lib/stock stockMoveCtes), the content (contentCtes), for a return
 * the original marked Returned (:returned_from), then the store's next number (:numbered) and the
 * header with its figures. Everything or nothing is written. The order's id is drawn first (`o`)
 * and the header row goes in last: foreign keys are checked at the end of the statement, when it
 * is there. The WITH items run in the order the answer reads them, so every sale takes its locks in
 * the same order: variant rows by id, store rows by product, and the store's counter row LAST. The
 * counter is what the sales of one store queue on (until the commit's WAL flush): taking it last
 * keeps that queue to the flush itself.
 * A client id is written only under its key lock after a look-up found it unused (createSale), so
 * order_client_id_uq never fires in practice: a retry raises no error in PostgreSQL's log;
 * a variant or product deleted since the pricing read fails the line's foreign key, so a variant
 * row the stock update did not find can never be committed with its sale.
 */
export const SALE_WRITE = namedSql(`with o as materialized (select nextval(pg_get_serial_sequence('"order"', 'id'))::int as id),
  ${stockMoveCtes('(select id from o)')},
  ${contentCtes('(select id from o)')},
  rf as (update "order" set is_returned = ${opaque(':returned_all', 'boolean')}, status = :returned_status::text, updated_at = now() where id = ${opaque(':returned_from', 'int')} returning 1),
  rq as (update order_product l set returned_quantity = l.returned_quantity + r.q
    from unnest(${opaque(':r_lines', 'int[]')}, ${opaque(':r_quantities', 'numeric[]')}) as r(id, q) where l.id = r.id returning 1),
  n as (insert into store_counter (store_id, last_order_id) select :store_id::int, 1 where ${opaque(':numbered', 'boolean')}
    on conflict (store_id) do update set last_order_id = store_counter.last_order_id + 1 returning last_order_id),
  h as (insert into "order" (id, store_id, terminal_id, user_id, status, is_suspended, client_id, request_hash, returned_from_id, order_id,
      customer_id, customer_name, description, adjustment, sub_total, item_taxes, total, stock_applied, tax_mode, rounding)
    values ((select id from o), :store_id::int, :terminal_id::int, :user_id::int, :status::text, :held::boolean, :client_id::text, :request_hash::text,
      :returned_from::int, (select last_order_id from n), :customer_id::int, :customer_name::text, :notes::text, :adjustment::numeric,
      :sub_total::numeric, :item_taxes::numeric, :total::numeric, :stock_applied::boolean, :tax_mode::text, :rounding::numeric)
    returning id, order_id, created_at, updated_at, uuid)
  select array(select id from sv) as found, (select count(*) from ss)::int as stores, (select count(*) from sl)::int as ledger,
    ${CONTENT_COLUMNS}, (select count(*) from rf)::int as returned, (select count(*) from rq)::int as "returnedLines",
    (select json_build_object('id', id, 'orderId', order_id, 'createdAt', created_at::text, 'updatedAt', updated_at::text, 'uuid', uuid) from h) as header`);

export async function clearContent(tx: Tx, orderId: number) {
  await tx.delete(orderProduct).where(eq(orderProduct.orderId, orderId));
  await tx.delete(orderPayment).where(eq(orderPayment.orderId, orderId));
  await tx.delete(orderDiscount).where(eq(orderDiscount.orderId, orderId));
  await tx.delete(orderTax).where(eq(orderTax.orderId, orderId));
}

/**
 * The answer to a new sale, built by the presenter's own orderDto from the rows this transaction
 * wrote (RETURNING) and the catalogue rows it priced from: the same DTO presentOrderById would
 * read back (sales.create.test.ts compares the two), without a dozen more queries.
 */
export function saleDto(row: OrderRow, priced: PricedSale, written: Written, place: Place, actor: AuthInfo): OrderDto {
  const { refs } = priced;
  const taxBy = new Map(refs.productTaxes.map((x) => [x.t.id, x.t]));
  if (refs.taxType) taxBy.set(refs.taxType.id, refs.taxType);
  const group = <T, K>(rows: T[], key: (r: T) => K) => {
    const m = new Map<K, T[]>();
    for (const r of rows) { const k = key(r); const l = m.get(k); if (l) l.push(r); else m.set(k, [r]); }
    return m;
  };
  return orderDto(row, {
    itemsBy: new Map([[row.id, written.lines]]),
    lineTaxesBy: group(written.lineTaxes.map((lt) => ({ lt, t: taxBy.get(lt.taxId)! })), (x) => x.lt.orderProductId),
    productTaxesBy: group(refs.productTaxes, (x) => x.productId),
    paymentsBy: new Map([[row.id, written.payments.map((p) => ({ p, t: p.typeId != null ? refs.paymentTypes.get(p.typeId) ?? null : null }))]]),
    discountBy: written.discount ? new Map([[row.id, { od: written.discount, t: refs.discountType }]]) : new Map(),
    taxBy: written.tax ? new Map([[row.id, { ot: written.tax, t: refs.taxType }]]) : new Map(),
    products: refs.products,
    variants: refs.variants,
    users: new Map([[actor.userId, { id: actor.userId, username: actor.username, displayName: actor.displayName }]]),
    stores: new Map([[place.store.id, place.store]]),
    terminals: new Map([[place.terminal.id, place.terminal]]),
    customers: new Map(),
    returnedFrom: new Map(),
    figures: null,
  });
}

