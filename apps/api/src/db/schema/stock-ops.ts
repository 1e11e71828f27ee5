import { sql } from 'drizzle-orm';
import { integer, pgTable, primaryKey, serial, text, timestamp, varchar, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, qty } from './common.ts';
import { store } from './stores.ts';
import { userAccount } from './users.ts';
import { product, productVariant } from './catalogue.ts';

/**
 * Stock operations (issue 25): transfers between stores, stock counts and adjustments. Every stock
 * effect goes through the stock ledger (lib/stock.ts, table stock_movement); these tables are the
 * documents (who, when, what) the ledger rows belong to. Ledger rows of one document carry the
 * document's user and the time of its transaction (stock_movement.created_at = the step's `…At`).
 */
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Next document number per store and kind ('transfer', 'count', 'adjustment'): a row lock makes them unique and gap-free. */
export const stockDocCounter = pgTable('stock_doc_counter', {
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  kind: varchar('kind', { length: 20 }).notNull(),
  lastNumber: integer('last_number').notNull().default(0),
}, (t) => [primaryKey({ columns: [t.storeId, t.kind] })]);

/** A transfer: requested -> sent (stock out of the sending store, in transit) -> received; or cancelled before sending. */
export const stockTransfer = pgTable('stock_transfer', {
  id: serial('id').primaryKey(),
  /** Per sending store, gap-free. */
  number: integer('number').notNull(),
  fromStoreId: integer('from_store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  toStoreId: integer('to_store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  status: varchar('status', { length: 20 }).notNull(),
  note: text('note'),
  /** Why received < sent (the difference is recorded on the lines as `lost`). */
  lossReason: varchar('loss_reason', { length: 255 }),
  requestedById: integer('requested_by_id').notNull().references(() => userAccount.id),
  requestedAt: at('requested_at').notNull().defaultNow(),
  sentById: integer('sent_by_id').references(() => userAccount.id),
  sentAt: at('sent_at'),
  receivedById: integer('received_by_id').references(() => userAccount.id),
  receivedAt: at('received_at'),
  cancelledById: integer('cancelled_by_id').references(() => userAccount.id),
  cancelledAt: at('cancelled_at'),
}, (t) => [
  uniqueIndex('stock_transfer_number_uq').on(t.fromStoreId, t.number),
  index('stock_transfer_to_idx').on(t.toStoreId),
]);

export const stockTransferLine = pgTable('stock_transfer_line', {
  id: serial('id').primaryKey(),
  transferId: integer('transfer_id').notNull().references(() => stockTransfer.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'restrict' }),
  requested: qty('requested').notNull(),
  sent: qty('sent'),
  received: qty('received'),
  /** sent - received, booked at receipt. */
  lost: qty('lost'),
  /** The sending store's average unit cost at sending: what the receiving store's average takes in. */
  unitCost: money('unit_cost'),
}, (t) => [index('stock_transfer_line_transfer_idx').on(t.transferId)]);

/** A stock count of one store: open (lines being scanned) -> approved (adjustments written) or cancelled. */
export const stockCount = pgTable('stock_count', {
  id: serial('id').primaryKey(),
  number: integer('number').notNull(),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  /** 'full' | 'category' | 'brand' | 'supplier' | 'location' */
  scope: varchar('scope', { length: 20 }).notNull(),
  /** The category, brand or supplier of a partial count. */
  scopeId: integer('scope_id'),
  /** A location count: the shelf locations that start with this ("A3" = A3, A3-01, A3-02…), any case. */
  scopeLocation: varchar('scope_location', { length: 255 }),
  status: varchar('status', { length: 20 }).notNull(),
  note: text('note'),
  createdById: integer('created_by_id').notNull().references(() => userAccount.id),
  createdAt: at('created_at').notNull().defaultNow(),
  approvedById: integer('approved_by_id').references(() => userAccount.id),
  approvedAt: at('approved_at'),
  cancelledById: integer('cancelled_by_id').references(() => userAccount.id),
  cancelledAt: at('cancelled_at'),
}, (t) => [uniqueIndex('stock_count_number_uq').on(t.storeId, t.number)]);

/**
 * One counted product (or variant: `variantId`, migration 0015) of a count. `counted` adds up scans
 * (concurrent scans add atomically); `expected` is the store's stock (= its ledger sum) at the
 * first scan (a variant line: the variant's row in the store), so sales after that scan are not
 * variance: approval books `counted - expected` as a delta on the stock of that moment.
 */
export const stockCountLine = pgTable('stock_count_line', {
  id: serial('id').primaryKey(),
  countId: integer('count_id').notNull().references(() => stockCount.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'restrict' }),
  counted: qty('counted').notNull(),
  expected: qty('expected').notNull(),
  /** Unit cost when first counted (the store's average, else product.cost), for the variance value. */
  cost: money('cost').notNull(),
  scans: integer('scans').notNull().default(1),
  firstCountedById: integer('first_counted_by_id').notNull().references(() => userAccount.id),
  firstCountedAt: at('first_counted_at').notNull().defaultNow(),
  lastCountedById: integer('last_counted_by_id').notNull().references(() => userAccount.id),
  lastCountedAt: at('last_counted_at').notNull().defaultNow(),
  // One line per product and variant (a product's own line: variant 0); scans upsert on it (counts.service.ts).
}, (t) => [uniqueIndex('stock_count_line_uq').on(t.countId, t.productId, sql`coalesce(${t.variantId}, 0)`)]);

/** A stock adjustment of one store: lines with a reason each, booked at once. */
export const stockAdjustment = pgTable('stock_adjustment', {
  id: serial('id').primaryKey(),
  number: integer('number').notNull(),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  note: text('note'),
  createdById: integer('created_by_id').notNull().references(() => userAccount.id),
  createdAt: at('created_at').notNull().defaultNow(),
}, (t) => [uniqueIndex('stock_adjustment_number_uq').on(t.storeId, t.number)]);

export const stockAdjustmentLine = pgTable('stock_adjustment_line', {
  id: serial('id').primaryKey(),
  adjustmentId: integer('adjustment_id').notNull().references(() => stockAdjustment.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'restrict' }),
  /** Signed: negative takes stock out. */
  quantity: qty('quantity').notNull(),
  /** 'damage' | 'theft' | 'expiry' | 'own_use' | 'correction' | 'found' (also the ledger reason). */
  reason: varchar('reason', { length: 20 }).notNull(),
  note: text('note'),
  /** Unit cost at the time (the store's average, else product.cost), for the value of the adjustment. */
  cost: money('cost').notNull(),
}, (t) => [index('stock_adjustment_line_adjustment_idx').on(t.adjustmentId)]);
