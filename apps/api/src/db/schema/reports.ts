import { date, index, integer, numeric, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { store } from './stores.ts';
import { customer } from './sales.ts';

/**
 * Roll-ups of the sales reports (modules/reports/rollups.ts): per store and CLOSED local day, the
 * figures of each grain the reports group by, summed from the same lines the live report reads.
 * `kind` names the grain (ROLLUP_KINDS) and k1/k2/rate its key (null where the grain has none or
 * the key itself is null); `orders` counts that group's distinct sales of the day (additive over
 * days: an order belongs to one day). Sums are unconstrained numeric: exact.
 * Only days marked in report_day_done are read; a write to an order of a rolled day deletes the
 * mark (trigger, migration 0016), and the next report rolls the day again.
 */
export const reportDaySales = pgTable('report_day_sales', {
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  kind: smallint('kind').notNull(),
  k1: integer('k1'),
  k2: integer('k2'),
  rate: numeric('rate'),
  orders: integer('orders').notNull(),
  quantity: numeric('quantity'),
  net: numeric('net'),
  tax: numeric('tax'),
  discount: numeric('discount'),
  refunds: numeric('refunds'),
  cost: numeric('cost'),
  gross: numeric('gross'),
}, (t) => [index('report_day_sales_idx').on(t.storeId, t.kind, t.day)]);

/** The store-days whose roll-up rows are complete and current. */
export const reportDayDone = pgTable('report_day_done', {
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
}, (t) => [primaryKey({ columns: [t.storeId, t.day] })]);

/**
 * A customer's credit, kept by triggers (migration 0021) as the order payments, orders and
 * customer payments change, for the balances with ageing (modules/reports/balances-report.ts):
 * `debit` = the credit-type payments (positive) of the customer's settled orders, `back` = their
 * negative ones (returns) as a positive amount, `paid` = the customer payments. Sums of the rows
 * themselves, updated in the writing transaction: never ahead of or behind them.
 */
export const customerCredit = pgTable('customer_credit', {
  customerId: integer('customer_id').primaryKey().references(() => customer.id, { onDelete: 'cascade' }),
  debit: numeric('debit').notNull().default('0'),
  back: numeric('back').notNull().default('0'),
  paid: numeric('paid').notNull().default('0'),
});

/** The same debits and backs per local day of the order (its store's zone): the ageing buckets read the last 90 days. */
export const customerCreditDay = pgTable('customer_credit_day', {
  customerId: integer('customer_id').notNull().references(() => customer.id, { onDelete: 'cascade' }),
  day: date('day', { mode: 'string' }).notNull(),
  debit: numeric('debit').notNull().default('0'),
  back: numeric('back').notNull().default('0'),
}, (t) => [primaryKey({ columns: [t.customerId, t.day] }), index('customer_credit_day_day_idx').on(t.day)]);
