import { integer, jsonb, pgTable, serial, text, timestamp, index } from 'drizzle-orm/pg-core';
import { active, money, timestamps, uuidCol } from './common.ts';
import { store, terminal } from './stores.ts';
import { userAccount } from './users.ts';

export const expense = pgTable('expense', {
  id: serial('id').primaryKey(),
  amount: money('amount').notNull(),
  description: text('description').notNull(),
  userId: integer('user_id').notNull().references(() => userAccount.id),
  storeId: integer('store_id').references(() => store.id, { onDelete: 'cascade' }),
  deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [index('expense_store_created_idx').on(t.storeId, t.createdAt)]);

/** A till day: opened per store and terminal, closed when closedAt is set. */
export const closing = pgTable('closing', {
  id: serial('id').primaryKey(),
  dateFrom: timestamp('date_from', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  dateTo: timestamp('date_to', { withTimezone: true, mode: 'date' }),
  closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  openedById: integer('opened_by_id').references(() => userAccount.id, { onDelete: 'set null' }),
  closedById: integer('closed_by_id').references(() => userAccount.id, { onDelete: 'set null' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  terminalId: integer('terminal_id').references(() => terminal.id, { onDelete: 'cascade' }),
  openingBalance: money('opening_balance'),
  closingBalance: money('closing_balance'),
  cashAdded: money('cash_added'),
  cashWithdrawn: money('cash_withdrawn'),
  expenses: money('expenses'),
  data: jsonb('data'),
  denominations: jsonb('denominations'),
  ...timestamps,
  ...uuidCol,
}, (t) => [index('closing_store_terminal_idx').on(t.storeId, t.terminalId, t.closedAt)]);


