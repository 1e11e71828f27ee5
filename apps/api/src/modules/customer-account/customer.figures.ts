import { inArray, sql } from 'drizzle-orm';
import { customerBalance, customerFigures } from '@pos/domain/ledger';
import { parseMoney, toDecimal } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { customer, customerCredit } from '../../db/schema/index.ts';
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
 * Credit figures of customers: sale = Σ stored `total` of credit-type payments of the customer's
 * settled orders (a return's negative credit payments net it down), paid = Σ customer payments,
 * outstanding = sale - paid, balance = outstanding + opening balance. The sums are the ones the
 * database keeps in the writing transaction (customer_credit, migration 0021: debit - back, paid),
 * so a list of customers reads a row each, not every credit sale of each customer.
 */
export async function loadCustomerFigures(db: Db | Tx, ids: number[]): Promise<Map<number, FiguresCents>> {
  const out = new Map<number, FiguresCents>();
  const unique = [...new Set(ids)];
  if (!unique.length) return out;
  const d = db as Db;
  const [credit, opening] = await allOn(db, [
    () => d.select({ customerId: customerCredit.customerId, sale: sql<string>`(${customerCredit.debit} - ${customerCredit.back})::text`, paid: sql<string>`${customerCredit.paid}::text` })
      .from(customerCredit).where(inArray(customerCredit.customerId, unique)),
    () => d.select({ id: customer.id, openingBalance: customer.openingBalance }).from(customer).where(inArray(customer.id, unique)),
  ]);
  const by = new Map(credit.map((r) => [r.customerId, r]));
  for (const c of opening) {
    const k = by.get(c.id);
    const f = customerFigures({ creditSalesCents: [parseMoney(k?.sale ?? '0')], paymentsCents: [parseMoney(k?.paid ?? '0')] });
    const openingBalance = parseMoney(c.openingBalance);
    out.set(c.id, { ...f, openingBalance, balance: customerBalance({ outstandingCents: f.outstanding, openingBalanceCents: openingBalance }) });
  }
  return out;
}

/**
 * The customer fields every response shares (orders and payments are added by the customers
 * module). Without figures (`null`, e.g. inside order lists, which do not show them)
 * sale/paid/outstanding/balance are left out.
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
