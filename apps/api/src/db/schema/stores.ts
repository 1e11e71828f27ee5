import { integer, pgTable, serial, varchar, index } from 'drizzle-orm/pg-core';
import { active, timestamps, uuidCol } from './common.ts';

export const store = pgTable('store', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  location: varchar('location', { length: 255 }),
  ...active,
  ...timestamps,
  ...uuidCol,
});

export const terminal = pgTable('terminal', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 255 }).notNull(),
  description: varchar('description', { length: 255 }),
  storeId: integer('store_id').references(() => store.id, { onDelete: 'cascade' }),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [index('terminal_store_idx').on(t.storeId)]);

/** Next order number per store: a row lock inside the sale transaction makes numbers unique and gap-free. */
export const storeCounter = pgTable('store_counter', {
  storeId: integer('store_id').primaryKey().references(() => store.id, { onDelete: 'cascade' }),
  lastOrderId: integer('last_order_id').notNull().default(0),
});
