import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { validationError } from '@pos/domain/errors';
import { parseMoney, toDecimal } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { customer, order, orderDiscount, orderPayment, orderProduct, orderProductTax, orderTax, paymentType } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { parseWhen, storeTimeRange, type When } from '../../lib/when.ts';
import { isJunk, type FilterFn, type ResourceDef } from '../../resources/engine.ts';
import { bool, exact, storeColumnScope } from '../../resources/filters.ts';
import { searchText, textMatch } from '../../resources/search.ts';
import { ORDER_STATUS, SETTLED_STATUSES } from '@pos/domain/schemas/sale';
import { isoDate, num } from '../../lib/present.ts';
import { presentOrders } from './order.presenter.ts';

/**
 * A lookup table without a prototype: a query parameter named `toString` or `constructor` must
 * not find Object.prototype's functions (the engine indexes filters by parameter name).
 */
export const own = (o: Record<string, FilterFn>): Record<string, FilterFn> => Object.assign(Object.create(null), o);

const first = (v: unknown) => (Array.isArray(v) ? v[0] : v);

/** Reads a date-time filter (lib/when: wall-clock values are on the store's clock). */
function parseWhenParam(raw: unknown, name: string, end: boolean): When | null {
  const s0 = first(raw);
  if (isJunk(name, s0)) return null;
  return parseWhen(s0, name, end);
}

const intParam = (v: unknown): number | undefined => {
  const s = first(v);
  if (s === undefined || s === null) return undefined;
  const m = /^(?:\/api\/[a-z_]+\/)?(\d{1,10})$/.exec(String(s).trim());
  if (!m) return undefined;
  const n = Number(m[1]);
  return n > 0 && n <= 2147483647 ? n : undefined;
};

const customerNameSql = sql`coalesce((select ${customer.name} from ${customer} where ${customer.id} = ${order.customerId}), ${order.customerName})`;
const SORTS: Record<string, PgColumn | SQL> = {
  orderId: order.orderId,
  id: order.id,
  createdAt: order.createdAt,
  status: order.status,
  customer: customerNameSql,
  tax: sql`(select ${orderTax.amount} from ${orderTax} where ${orderTax.orderId} = ${order.id})`,
  discount: sql`(select ${orderDiscount.amount} from ${orderDiscount} where ${orderDiscount.orderId} = ${order.id})`,
  total: order.total,
};

/** Matching orders whose payments are summed through the order_id index (listOrders). */
const PROBED = 100_000;

/**
 * The sale history / day-closing list (GET /api/admin/order/list): `{list, total, count, payments}`.
 * Filters run in SQL over the caller's stores; `payments` sums the stored payment `total`s per
 * payment-type kind over ALL matching settled orders (not the page) in one aggregate query, with
 * `cash` always present.
 */
export async function listOrders(db: Db, query: Record<string, unknown>, actor: AuthInfo) {
  const q = query ?? {};
  const conds: SQL[] = [];
  const storeParam = first(q.store ?? q['store.id'] ?? q.storeId);
  let storeIds = actor.storeIds;
  if (!isJunk('store', storeParam)) {
    const id = intParam(storeParam);
    if (id === undefined || !actor.storeIds.includes(id)) {
      throw validationError([{ propertyPath: 'store', message: `'Store' with ID '${String(storeParam)}' not found` }]);
    }
    storeIds = [id];
  }
  conds.push(storeIds.length ? inArray(order.storeId, storeIds) : sql`false`);
  const from = parseWhenParam(q.dateTimeFrom, 'dateTimeFrom', false);
  const to = parseWhenParam(q.dateTimeTo, 'dateTimeTo', true);
  const range = await storeTimeRange(db, storeIds, order.createdAt, order.storeId, from, to);
  if (range) conds.push(range);
  const rawText = first(q.q);
  const text = isJunk('q', rawText) ? undefined : searchText(String(rawText), 'q');
  if (text !== undefined) {
    // Every arm is indexed (issue 30): the customer's name through its trigram/prefix index, a
    // status by name (the statuses containing the text), an order number exactly.
    const folded = text.toLowerCase();
    const statuses = Object.values(ORDER_STATUS).filter((s) => s.toLowerCase().includes(folded));
    // One IN over a union (an OR with a subquery cannot combine indexes: it read every order). Each
    // arm carries the stores and the date range, so the planner reads whichever index is narrower:
    // a common name ("Customer 1": 11% of all orders) over two days reads the days' orders, not the
    // name's 1.1 million of 10,000,000 (2.1 s).
    const within = and(...conds);
    const arms: SQL[] = [
      sql`select ${order.id} from ${order} where ${within} and ${textMatch(order.customerName, text)}`,
      sql`select ${order.id} from ${order} where ${within} and ${order.customerId} in (select ${customer.id} from ${customer} where ${textMatch(customer.name, text)})`,
    ];
    if (statuses.length) arms.push(sql`select ${order.id} from ${order} where ${within} and ${inArray(order.status, statuses)}`);
    if (/^\d{1,9}$/.test(text)) arms.push(sql`select ${order.id} from ${order} where ${within} and ${eq(order.orderId, Number(text))}`);
    conds.push(sql`${order.id} in (${sql.join(arms, sql` union all `)})`);
  }
  const ref = (names: string[]) => {
    for (const n of names) if (!isJunk(n, first(q[n]))) return intParam(q[n]) ?? -1;
    return undefined;
  };
  const customerId = ref(['customerId', 'customer', 'customer.id']);
  if (customerId !== undefined) conds.push(eq(order.customerId, customerId));
  const terminalId = ref(['terminal', 'terminal.id', 'terminalId']);
  if (terminalId !== undefined) conds.push(eq(order.terminalId, terminalId));
  const itemId = ref(['itemId']);
  if (itemId !== undefined) conds.push(sql`exists (select 1 from ${orderProduct} where ${orderProduct.orderId} = ${order.id} and ${orderProduct.productId} = ${itemId})`);
  const variantId = ref(['variantId']);
  if (variantId !== undefined) conds.push(sql`exists (select 1 from ${orderProduct} where ${orderProduct.orderId} = ${order.id} and ${orderProduct.variantId} = ${variantId})`);
  const status = first(q.status);
  if (!isJunk('status', status)) conds.push(eq(order.status, String(status)));
  const idsRaw = q['ids[]'] ?? q.ids;
  if (idsRaw !== undefined) {
    const ids = (Array.isArray(idsRaw) ? idsRaw : [idsRaw]).map(intParam).filter((x): x is number => x !== undefined);
    conds.push(ids.length ? inArray(order.id, ids) : sql`false`);
  }
  const where = and(...conds);

  // Paging: page + itemsPerPage (default 10), or limit + offset.
  const size = Math.min(Math.max(Number(first(q.itemsPerPage ?? q.limit)) || 10, 0), 1000);
  const page = Math.max(Number(first(q.page)) || 1, 1);
  const offsetParam = Number(first(q.offset));
  const offset = Number.isInteger(offsetParam) && offsetParam >= 0 && q.page === undefined ? offsetParam : (page - 1) * size;

  const orderBy: SQL[] = [];
  for (const [k, val] of Object.entries(q)) {
    const m = /^order\[(.+)\]$/.exec(k);
    if (!m) continue;
    const dir = String(first(val)).toLowerCase();
    const col = Object.hasOwn(SORTS, m[1]) ? SORTS[m[1]] : undefined;
    if (col && (dir === 'asc' || dir === 'desc')) orderBy.push(dir === 'asc' ? asc(col) : desc(col));
  }
  if (!orderBy.length) orderBy.push(desc(order.createdAt));
  orderBy.push(desc(order.id));

  const { count, rows, sums } = await db.transaction(async (tx) => {
    // Index lookups are cheap on SSDs: with the default random_page_cost the planner hashes the
    // whole order_payment table for a one-day range (measured 6x slower on 1,000,000 orders).
    await tx.execute(sql`set local random_page_cost = 1.1`);
    const [{ count: n }] = await tx.select({ count: sql<number>`count(*)::int` }).from(order).where(where);
    const page = size === 0 || n === 0 ? [] : await tx.select().from(order).where(where).orderBy(...orderBy).limit(size).offset(offset);
    const settled = and(where, inArray(order.status, SETTLED_STATUSES));
    const sum = { type: paymentType.type, total: sql<string>`coalesce(sum(${orderPayment.total}), 0)::text` };
    // Up to PROBED matching orders (the count above), their payments are read through order_payment's
    // order_id index, whatever the table's size: with a few percent of the orders in the range (a
    // 3-day history at 200,000 orders) the planner took a hash join over the whole table as cheaper.
    // Past that (a list without dates), it joins as it sees fit. The same rows either way.
    const ids = tx.select({ id: order.id }).from(order).where(settled);
    const ofOrders = n <= PROBED ? sql`${orderPayment.orderId} = any(array(${ids}))` : inArray(orderPayment.orderId, ids);
    const totals = n === 0 ? [] : await tx.select(sum).from(orderPayment)
      .leftJoin(paymentType, eq(paymentType.id, orderPayment.typeId))
      .where(ofOrders)
      .groupBy(paymentType.type);
    return { count: n, rows: page, sums: totals };
  });
  const payments: Record<string, number> = { cash: 0 };
  for (const s of sums) payments[s.type ?? 'unknown'] = toDecimal(parseMoney(s.total));
  const list = await presentOrders(db, rows);
  return { list, total: Number(count), count: list.length, payments };
}

/** GET /api/orders (order lookup by number, running orders by status / store.id / terminal.id). */
export const ordersResource: ResourceDef<typeof order.$inferSelect> = {
  path: 'orders',
  type: 'Order',
  table: order,
  filters: own({
    orderId: exact(order.orderId, 'int'),
    id: exact(order.id, 'int'),
    status: exact(order.status),
    store: exact(order.storeId, 'int'),
    'store.id': exact(order.storeId, 'int'),
    terminal: exact(order.terminalId, 'int'),
    'terminal.id': exact(order.terminalId, 'int'),
    customer: exact(order.customerId, 'int'),
    'customer.id': exact(order.customerId, 'int'),
    isSuspended: bool(order.isSuspended),
    isDeleted: bool(order.isDeleted),
    isReturned: bool(order.isReturned),
    isDispatched: bool(order.isDispatched),
  }),
  sorts: { id: order.id, orderId: order.orderId, createdAt: order.createdAt, status: order.status },
  scope: storeColumnScope(order.storeId, false),
  present: (rows, ctx) => presentOrders(ctx.db, rows),
  access: { read: 'user' },
};

/** GET /api/order_products: order lines with order, product, variant and taxes as IRIs (reference client 3). */
export const orderProductsResource: ResourceDef<typeof orderProduct.$inferSelect> = {
  path: 'order_products',
  type: 'OrderProduct',
  table: orderProduct,
  filters: own({
    product: exact(orderProduct.productId, 'int'),
    'product.id': exact(orderProduct.productId, 'int'),
    item: exact(orderProduct.productId, 'int'),
    variant: exact(orderProduct.variantId, 'int'),
    'variant.id': exact(orderProduct.variantId, 'int'),
    order: exact(orderProduct.orderId, 'int'),
    'order.id': exact(orderProduct.orderId, 'int'),
    'order.orderId': (v) => {
      const n = intParam(v);
      return n === undefined ? sql`false` : sql`exists (select 1 from ${order} where ${order.id} = ${orderProduct.orderId} and ${order.orderId} = ${n})`;
    },
  }),
  sorts: {
    id: orderProduct.id, createdAt: orderProduct.createdAt, quantity: orderProduct.quantity, price: orderProduct.price, discount: orderProduct.discount,
    'order.orderId': sql`(select ${order.orderId} from ${order} where ${order.id} = ${orderProduct.orderId})`,
  },
  scope: (ctx) => (ctx.auth.storeIds.length
    ? sql`exists (select 1 from ${order} where ${order.id} = ${orderProduct.orderId} and ${inArray(order.storeId, ctx.auth.storeIds)})`
    : sql`false`),
  async present(rows, ctx) {
    const ids = rows.map((r) => r.id);
    const taxes = ids.length ? await ctx.db.select().from(orderProductTax).where(inArray(orderProductTax.orderProductId, ids)).orderBy(asc(orderProductTax.taxId)) : [];
    return rows.map((r) => ({
      id: r.id,
      order: `/api/orders/${r.orderId}`,
      product: `/api/products/${r.productId}`,
      variant: r.variantId != null ? `/api/product_variants/${r.variantId}` : null,
      quantity: num(r.quantity),
      price: num(r.price),
      discount: num(r.discount),
      taxes: taxes.filter((t) => t.orderProductId === r.id).map((t) => `/api/taxes/${t.taxId}`),
      taxesTotal: num(r.taxesTotal),
      isSuspended: r.isSuspended,
      isDeleted: r.isDeleted,
      isReturned: r.isReturned,
      createdAt: isoDate(r.createdAt),
      updatedAt: isoDate(r.updatedAt),
    }));
  },
  access: { read: 'user' },
};
