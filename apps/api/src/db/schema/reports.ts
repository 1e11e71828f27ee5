import { date, index, integer, numeric, pgTable, primaryKey, smallint } from 'drizzle-orm/pg-core';
import { store } from './stores.ts';

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
