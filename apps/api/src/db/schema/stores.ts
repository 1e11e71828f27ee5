import { boolean, integer, pgTable, serial, varchar, index } from 'drizzle-orm/pg-core';
import { active, timestamps, uuidCol } from './common.ts';

export const store = pgTable('store', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
  location: varchar('location', { length: 255 }),
  /** Money settings (issue 19, @pos/domain/store-settings): defaults are what every store did before. */
  currency: varchar('currency', { length: 3 }).notNull().default('USD'),
  locale: varchar('locale', { length: 35 }).notNull().default('en-US'),
  timeZone: varchar('time_zone', { length: 64 }).notNull().default('UTC'),
  /** Cash rounding step in minor units of the currency; 0 = none. */
  cashRoundingStep: integer('cash_rounding_step').notNull().default(0),
  pricesIncludeTax: boolean('prices_include_tax').notNull().default(false),
  legacyTaxBase: boolean('legacy_tax_base').notNull().default(false),
  /** The largest line or order discount, in percent, without the 'discount.overLimit' permission (issue 21.1). */
  maxDiscountPercent: integer('max_discount_percent').notNull().default(20),
  /**
   * Whether a stock transfer may send more than the sending store has (its stock goes negative) or a
   * product it does not stock (issue 25.1); off by default: refused. Sales may always (the till cannot refuse a customer).
   */
  allowNegativeStock: boolean('allow_negative_stock').notNull().default(false),
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
