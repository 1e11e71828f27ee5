import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { notFound, validationError } from '@pos/domain/errors';
import { parseMoney, toDecimalString } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { customer, customerPayment, order } from '../../db/schema/index.ts';
import { can, type AuthInfo } from '../../plugins/auth.ts';
import type { ResourceDef } from '../../resources/engine.ts';
import { exact, partial } from '../../resources/filters.ts';
import { searchText, textMatch } from '../../resources/search.ts';
import { isoDate, num } from '../../lib/present.ts';
import { own } from '../sales/orders.query.ts';
import { presentOrders } from '../sales/order.presenter.ts';
import { loadCustomerFigures, presentCustomerFields } from '../customer-account/customer.figures.ts';
import { redactCustomer } from './customer.access.ts';
import type { CustomerInput } from './customer.input.ts';
import { customerScope } from '../customer-account/customer.scope.ts';

type CustomerRow = typeof customer.$inferSelect;
type PaymentRow = typeof customerPayment.$inferSelect;


const presentPayment = (p: PaymentRow, o: typeof order.$inferSelect | undefined) => ({
  '@id': `/api/customer_payments/${p.id}`,
  '@type': 'CustomerPayment',
  id: p.id,
  amount: num(p.amount),
  description: p.description,
  createdAt: isoDate(p.createdAt),
  order: o ? { '@id': `/api/orders/${o.id}`, id: o.id, orderId: o.orderId, createdAt: isoDate(o.createdAt), status: o.status } : null,
  customer: `/api/customers/${p.customerId}`,
});

/**
 * Customers as the client reads them: the customer fields with sale, paid, outstanding and
 * balance (= outstanding + opening balance), plus `payments[]` (newest first) and `orders[]`
 * (the customer's orders in the caller's stores, each with items and payments[].type.name).
 */
export async function presentCustomers(db: Db, rows: CustomerRow[], auth: AuthInfo) {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [figures, payments, orders] = await allOn(db, [
    () => loadCustomerFigures(db, ids),
    () => db.select().from(customerPayment).where(inArray(customerPayment.customerId, ids)).orderBy(desc(customerPayment.createdAt), desc(customerPayment.id)),
    () => auth.storeIds.length
      ? db.select().from(order).where(and(inArray(order.customerId, ids), inArray(order.storeId, auth.storeIds))).orderBy(desc(order.createdAt), desc(order.id))
      : Promise.resolve([]),
  ]);
  const paymentOrderIds = [...new Set(payments.map((p) => p.orderId).filter((x): x is number => x != null))];
  const paymentOrders = paymentOrderIds.length ? await db.select().from(order).where(inArray(order.id, paymentOrderIds)) : [];
  const orderBy = new Map(paymentOrders.map((o) => [o.id, o]));
  const presented = await presentOrders(db, orders, { withCustomer: false });
  return rows.map((c) => ({
    ...redactCustomer(presentCustomerFields(c, figures.get(c.id)), auth),
    payments: payments.filter((p) => p.customerId === c.id).map((p) => presentPayment(p, p.orderId != null ? orderBy.get(p.orderId) : undefined)),
    orders: presented.filter((o, i) => orders[i].customerId === c.id),
  }));
}

export async function presentCustomerById(db: Db, id: number, auth: AuthInfo) {
  const rows = await db.select().from(customer).where(and(eq(customer.id, id), customerScope(auth)));
  if (!rows.length) throw notFound('Customer not found');
  const [dto] = await presentCustomers(db, rows, auth);
  return dto;
}

function values(input: CustomerInput) {
  const out: Partial<typeof customer.$inferInsert> = {};
  if (input.name !== undefined) out.name = input.name;
  if (input.phone !== undefined) out.phone = input.phone;
  if (input.email !== undefined) out.email = input.email;
  if (input.cnic !== undefined) out.cnic = input.cnic;
  if (input.address !== undefined) out.address = input.address;
  if (input.birthday !== undefined) out.birthday = input.birthday;
  if (input.lat !== undefined) out.lat = input.lat;
  if (input.lng !== undefined) out.lng = input.lng;
  if (input.openingBalance !== undefined) out.openingBalance = input.openingBalance ?? '0';
  if (input.allowCreditSale !== undefined) out.allowCreditSale = input.allowCreditSale;
  if (input.creditLimit !== undefined) out.creditLimit = input.creditLimit;
  return out;
}

/** Creates a customer; sale/paid/outstanding start at 0, balance at the opening balance. */
export async function createCustomer(db: Db, input: CustomerInput & { name: string }, auth?: Pick<AuthInfo, 'storeIds'>): Promise<number> {
  const [row] = await db.insert(customer).values({ ...values(input), name: input.name, storeId: auth?.storeIds[0] ?? null }).returning({ id: customer.id });
  return row.id;
}

/** Merges the given fields into a customer (absent fields keep their value). */
export async function updateCustomer(db: Db, id: number, input: CustomerInput): Promise<void> {
  const [row] = await db.update(customer).set({ ...values(input), updatedAt: new Date() }).where(eq(customer.id, id)).returning({ id: customer.id });
  if (!row) throw notFound('Customer not found');
}

/**
 * Records money received from a customer against their credit (optionally for one of their
 * orders, which must be in the caller's stores). Outstanding drops by the amount; it is computed
 * from the rows, so it stays exact.
 */
export async function addCustomerPayment(db: Db, input: { amount: string; description: string; customerId: number; orderId: number | null }, auth: AuthInfo) {
  return db.transaction(async (tx) => {
    // The customer's row is locked: two payments at once cannot both fit under what is owed.
    const [c] = await tx.select({ id: customer.id }).from(customer).where(and(eq(customer.id, input.customerId), customerScope(auth))).for('update');
    if (!c) throw validationError([{ propertyPath: 'customer', message: `'Customer' with ID '${input.customerId}' not found` }]);
    let o: typeof order.$inferSelect | undefined;
    if (input.orderId != null) {
      [o] = await tx.select().from(order).where(eq(order.id, input.orderId));
      if (!o || o.customerId !== input.customerId || !auth.storeIds.includes(o.storeId)) {
        throw validationError([{ propertyPath: 'orderId', message: `'Order' with ID '${input.orderId}' not found` }]);
      }
    }
    // Without the credit-terms permission, a payment cannot exceed what is owed (no fake credit).
    if (!can(auth, 'customer.creditTerms')) {
      const owed = (await loadCustomerFigures(tx, [c.id])).get(c.id)?.balance ?? 0;
      if (parseMoney(input.amount) > owed) {
        throw validationError([{ propertyPath: 'amount', message: `This value should be less than or equal to ${toDecimalString(Math.max(owed, 0))} (what the customer owes).` }]);
      }
    }
    const [p] = await tx.insert(customerPayment).values({
      amount: input.amount, description: input.description, customerId: input.customerId, orderId: input.orderId,
    }).returning();
    return presentPayment(p, o);
  });
}

/** GET /api/customers and /api/customers/{id}: hydra list of customers with their figures and ledger. */
export const customersResource: ResourceDef<CustomerRow> = {
  path: 'customers',
  type: 'Customer',
  table: customer,
  filters: own({
    id: exact(customer.id, 'int'),
    name: partial(customer.name),
    phone: partial(customer.phone),
    // The national ID is an administrator's to see: a non-admin cannot probe it through a filter.
    cnic: (v, ctx) => (can(ctx.auth, 'customer.creditTerms') ? partial(customer.cnic)(v, ctx) : sql`false`),
    email: partial(customer.email),
    openingBalance: exact(customer.openingBalance, 'number'),
    q: (v, ctx, name = 'q') => {
      const text = searchText(v, name);
      if (text === undefined) return undefined;
      // The customer number (the till's customer box finds by name, phone or number: issue 23.2).
      const number = /^\d{1,9}$/.test(text.trim()) ? eq(customer.id, Number(text.trim())) : undefined;
      return or(textMatch(customer.name, text), textMatch(customer.phone, text), can(ctx.auth, 'customer.creditTerms') ? textMatch(customer.cnic, text) : undefined, number);
    },
  }),
  sorts: {
    id: customer.id, name: customer.name, phone: customer.phone, cnic: customer.cnic, email: customer.email,
    openingBalance: customer.openingBalance, createdAt: customer.createdAt,
  },
  scope: (ctx) => customerScope(ctx.auth),
  present: (rows, ctx) => presentCustomers(ctx.db, rows, ctx.auth),
  access: { read: 'user' },
};

/** GET /api/customer_payments (filter customer): the ledger's payments. */
export const customerPaymentsResource: ResourceDef<PaymentRow> = {
  path: 'customer_payments',
  type: 'CustomerPayment',
  table: customerPayment,
  filters: own({
    customer: exact(customerPayment.customerId, 'int'),
    'customer.id': exact(customerPayment.customerId, 'int'),
    order: exact(customerPayment.orderId, 'int'),
  }),
  sorts: { id: customerPayment.id, createdAt: customerPayment.createdAt, amount: customerPayment.amount },
  async present(rows, ctx) {
    const ids = [...new Set(rows.map((r) => r.orderId).filter((x): x is number => x != null))];
    const orders = ids.length ? await ctx.db.select().from(order).where(inArray(order.id, ids)) : [];
    const by = new Map(orders.filter((o) => ctx.auth.storeIds.includes(o.storeId)).map((o) => [o.id, o]));
    return rows.map((r) => presentPayment(r, r.orderId != null ? by.get(r.orderId) : undefined));
  },
  access: { read: 'user' },
};

