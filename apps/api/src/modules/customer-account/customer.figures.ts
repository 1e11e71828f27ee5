import { and, eq, inArray, sql } from 'drizzle-orm';
import { customerBalance, customerFigures } from '@pos/domain/ledger';
import { parseMoney, toDecimal } from '@pos/domain/money';
import { SETTLED_STATUSES } from '@pos/domain/schemas/sale';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { customer, customerPayment, order, orderPayment, paymentType } from '../../db/schema/index.ts';
import { isoDate, num } from '../../lib/present.ts';


export interface FiguresCents {
  sale: number;
  paid: number;
  outstanding: number;
  openingBalance: number;
  /** outstanding + opening balance: what the customer owes. */
  balance: number;
}

/**
 * Credit figures of customers, computed in SQL from the rows (no cached column to drift):
 * sale = Σ stored `total` of credit-type payments of the customer's settled orders (a return's
 * negative credit payments net it down), paid = Σ customer payments, outstanding = sale - paid,
 * balance = outstanding + opening balance.
 */
export async function loadCustomerFigures(db: Db | Tx, ids: number[]): Promise<Map<number, FiguresCents>> {
  const out = new Map<number, FiguresCents>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const d = db as Db;
  const [sales, payments, opening] = await allOn(db, [
    () => d.select({ customerId: order.customerId, total: sql<string>`coalesce(sum(${orderPayment.total}), 0)::text` })
      .from(orderPayment)
      .innerJoin(order, eq(order.id, orderPayment.orderId))
      .innerJoin(paymentType, eq(paymentType.id, orderPayment.typeId))
      .where(and(inArray(order.customerId, unique), eq(paymentType.type, 'credit'), inArray(order.status, SETTLED_STATUSES)))
      .groupBy(order.customerId),
    () => d.select({ customerId: customerPayment.customerId, total: sql<string>`coalesce(sum(${customerPayment.amount}), 0)::text` })
      .from(customerPayment).where(inArray(customerPayment.customerId, unique)).groupBy(customerPayment.customerId),
    () => d.select({ id: customer.id, openingBalance: customer.openingBalance }).from(customer).where(inArray(customer.id, unique)),
  ]);
  const saleBy = new Map(sales.map((r) => [r.customerId!, parseMoney(r.total)]));
  const paidBy = new Map(payments.map((r) => [r.customerId, parseMoney(r.total)]));
  for (const c of opening) {
    const f = customerFigures({ creditSalesCents: [saleBy.get(c.id) ?? 0], paymentsCents: [paidBy.get(c.id) ?? 0] });
    const openingBalance = parseMoney(c.openingBalance);
    out.set(c.id, { ...f, openingBalance, balance: customerBalance({ outstandingCents: f.outstanding, openingBalanceCents: openingBalance }) });
  }
  return out;
}

/**
 * The customer fields every response shares (orders and payments are added by the customers
 * module). Without figures (`null`, e.g. inside order lists, where computing every customer's
 * credit would cost a scan of their whole history) sale/paid/outstanding/balance are left out.
 */
export function presentCustomerFields(c: typeof customer.$inferSelect, f: FiguresCents | null | undefined) {
  const opening = parseMoney(c.openingBalance);
  const fig = f === undefined ? { sale: 0, paid: 0, outstanding: 0, openingBalance: opening, balance: opening } : f;
  return {
    '@id': `/api/customers/${c.id}`,
    '@type': 'Customer',
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    birthday: c.birthday,
    address: c.address,
    lat: c.lat,
    lng: c.lng,
    cnic: c.cnic,
    openingBalance: num(c.openingBalance) ?? 0,
    allowCreditSale: c.allowCreditSale,
    allowCredit: c.allowCreditSale,
    creditLimit: num(c.creditLimit),
    ...(fig ? { sale: toDecimal(fig.sale), paid: toDecimal(fig.paid), outstanding: toDecimal(fig.outstanding), balance: toDecimal(fig.balance) } : {}),
    createdAt: isoDate(c.createdAt),
    updatedAt: isoDate(c.updatedAt),
    uuid: c.uuid,
  };
}
