import { boolean, customType, index, integer, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { device } from './catalogue.ts';
import { order } from './sales.ts';
import { userAccount } from './users.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The print queue (issue 26): one row per job sent to a network receipt printer (ESC/POS on port
 * 9100). The bytes are rendered once when the job is queued; any API process delivers a due job
 * (claimed with FOR UPDATE SKIP LOCKED and a lease), so several processes share one queue and a
 * process that dies mid-delivery leaves the job to the next one. Kinds: 'receipt' (a sale or a
 * refund, with the drawer kick when cash changed hands), 'copy' (a reprint), 'drawer' (a "no
 * sale" opening: the row is the record of who opened the drawer, and when).
 */
export const printJob = pgTable('print_job', {
  id: serial('id').primaryKey(),
  deviceId: integer('device_id').notNull().references(() => device.id, { onDelete: 'cascade' }),
  kind: varchar('kind', { length: 20 }).notNull(),
  orderId: integer('order_id').references(() => order.id, { onDelete: 'set null' }),
  userId: integer('user_id').references(() => userAccount.id, { onDelete: 'set null' }),
  /** The ESC/POS bytes, rendered once. */
  payload: bytea('payload').notNull(),
  /** Whether the job opens the cash drawer (drawer kick). */
  opensDrawer: boolean('opens_drawer').notNull().default(false),
  /** queued -> sending (leased) -> printed | queued again (retry) | failed (gave up; a retry re-queues). */
  status: varchar('status', { length: 20 }).notNull().default('queued'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  nextAttemptAt: at('next_attempt_at').notNull().defaultNow(),
  leaseUntil: at('lease_until'),
  createdAt: at('created_at').notNull().defaultNow(),
  printedAt: at('printed_at'),
}, (t) => [
  index('print_job_due_idx').on(t.status, t.nextAttemptAt),
  index('print_job_device_idx').on(t.deviceId, t.createdAt),
]);

/**
 * Receipts sent by e-mail (issue 26): to whom, by whom, when. The record of what left the shop, and
 * what the rate limit counts (per cashier and per order, in PostgreSQL: every API process sees it).
 */
export const receiptEmail = pgTable('receipt_email', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => order.id, { onDelete: 'cascade' }),
  userId: integer('user_id').references(() => userAccount.id, { onDelete: 'set null' }),
  recipient: varchar('recipient', { length: 254 }).notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
}, (t) => [
  index('receipt_email_user_idx').on(t.userId, t.createdAt),
  index('receipt_email_order_idx').on(t.orderId, t.createdAt),
]);
