import { boolean, date, doublePrecision, integer, pgTable, primaryKey, serial, text, timestamp, varchar, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { money, qty, rate, timestamps, uuidCol } from './common.ts';
import { store, terminal } from './stores.ts';
import { userAccount } from './users.ts';
import { discount, paymentType, product, productVariant, tax } from './catalogue.ts';

export const customer = pgTable('customer', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  email: varchar('email', { length: 255 }),
  phone: varchar('phone', { length: 50 }),
  birthday: date('birthday'),
  address: varchar('address', { length: 255 }),
  lat: doublePrecision('lat'),
  lng: doublePrecision('lng'),
  cnic: varchar('cnic', { length: 255 }),
  openingBalance: money('opening_balance').notNull().default('0'),
  allowCreditSale: boolean('allow_credit_sale').notNull().default(false),
  creditLimit: money('credit_limit'),
  /** Set when the customer was erased on request (issue 21.6): personal fields blanked, sales kept. */
  erasedAt: timestamp('erased_at', { withTimezone: true, mode: 'date' }),
  /** The store that registered the customer; with per-store customers (setting) only its users see them. */
  storeId: integer('store_id').references(() => store.id, { onDelete: 'set null' }),
  ...timestamps,
  ...uuidCol,
}, (t) => [index('customer_name_idx').on(t.name)]);

/** Table "order" as in the reference model; order_id is the human number, unique per store. */
export const order = pgTable('order', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id'),
  customerId: integer('customer_id').references(() => customer.id, { onDelete: 'set null' }),
  userId: integer('user_id').references(() => userAccount.id, { onDelete: 'set null' }),
  storeId: integer('store_id').notNull().references(() => store.id),
  terminalId: integer('terminal_id').references(() => terminal.id, { onDelete: 'set null' }),
  isSuspended: boolean('is_suspended').notNull().default(false),
  isDeleted: boolean('is_deleted').notNull().default(false),
  isReturned: boolean('is_returned').notNull().default(false),
  isDispatched: boolean('is_dispatched').notNull().default(false),
  status: varchar('status', { length: 30 }).notNull(),
  /** Status before a delete, so restore can put it back. */
  previousStatus: varchar('previous_status', { length: 30 }),
  description: text('description'),
  customerName: varchar('customer_name', { length: 255 }),
  adjustment: money('adjustment').notNull().default('0'),
  subTotal: money('sub_total').notNull().default('0'),
  itemTaxes: money('item_taxes').notNull().default('0'),
  total: money('total').notNull().default('0'),
  /** How the order was taxed (@pos/domain/tax TaxMode); orders before issue 19 were 'legacy'. */
  taxMode: varchar('tax_mode', { length: 10 }).notNull().default('legacy'),
  /** Cash rounding of the order (signed): grand total = total + adjustment + rounding. */
  rounding: money('rounding').notNull().default('0'),
  returnedFromId: integer('returned_from_id'),
  /** Whether the order's stock is currently taken out of the shelves (completed, not deleted). */
  stockApplied: boolean('stock_applied').notNull().default(false),
  /** Client-generated id (Idempotency-Key or body uuid) and a hash of the body it came with. */
  clientId: varchar('client_id', { length: 100 }),
  requestHash: varchar('request_hash', { length: 64 }),
  ...timestamps,
  ...uuidCol,
}, (t) => [
  uniqueIndex('order_store_number_uq').on(t.storeId, t.orderId),
  index('order_returned_from_idx').on(t.returnedFromId),
  uniqueIndex('order_client_id_uq').on(t.clientId),
  index('order_created_idx').on(t.createdAt),
  index('order_store_created_idx').on(t.storeId, t.createdAt),
  index('order_status_idx').on(t.storeId, t.status),
  index('order_customer_idx').on(t.customerId),
  // order_customer_ledger_idx (customer_id) INCLUDE (id, status, created_at, store_id) WHERE customer_id IS NOT NULL:
  // hand-written in migration 0011 (the customer ageing reads it alone).
]);

export const orderProduct = pgTable('order_product', {
  id: serial('id').primaryKey(),
  orderId: integer('orderId').notNull().references(() => order.id, { onDelete: 'cascade' }),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'restrict' }),
  quantity: qty('quantity').notNull(),
  price: money('price').notNull(),
  discount: money('discount').notNull().default('0'),
  taxesTotal: money('taxes_total').notNull().default('0'),
  cost: money('cost').notNull().default('0'),
  /** The line's share of the order discount (new tax modes; 0 in legacy). */
  orderDiscount: money('order_discount').notNull().default('0'),
  /** The amount the line's taxes were computed on: net of every discount and of the tax itself. */
  taxable: money('taxable').notNull().default('0'),
  /** How much of the line later returns took back (a sale line; 0 on a return's own lines). */
  returnedQuantity: qty('returned_quantity').notNull().default('0'),
  isSuspended: boolean('is_suspended').notNull().default(false),
  isDeleted: boolean('is_deleted').notNull().default(false),
  isReturned: boolean('is_returned').notNull().default(false),
  ...timestamps,
}, (t) => [index('order_product_order_idx').on(t.orderId), index('order_product_product_idx').on(t.productId)]);

/** Taxes applied to a line, with the rate at the time of sale. */
export const orderProductTax = pgTable('order_product_tax', {
  orderProductId: integer('order_product_id').notNull().references(() => orderProduct.id, { onDelete: 'cascade' }),
  taxId: integer('tax_id').notNull().references(() => tax.id, { onDelete: 'restrict' }),
  rate: rate('rate').notNull(),
  /** The tax amount of this rate on this line. */
  amount: money('amount').notNull().default('0'),
}, (t) => [primaryKey({ columns: [t.orderProductId, t.taxId] })]);

export const orderPayment = pgTable('order_payment', {
  id: serial('id').primaryKey(),
  orderId: integer('order_id').notNull().references(() => order.id, { onDelete: 'cascade' }),
  typeId: integer('type_id').references(() => paymentType.id, { onDelete: 'set null' }),
  total: money('total').notNull(),
  received: money('received').notNull(),
  due: money('due').notNull(),
  ...timestamps,
}, (t) => [
  index('order_payment_order_idx').on(t.orderId),
  // Reports (issue 25.6): the customer ageing reads the credit payments only.
  index('order_payment_type_idx').on(t.typeId),
]);

export const orderDiscount = pgTable('order_discount', {
  id: serial('id').primaryKey(),
  orderId: integer('orderId').notNull().references(() => order.id, { onDelete: 'cascade' }),
  typeId: integer('type_id').references(() => discount.id, { onDelete: 'set null' }),
  rate: money('rate'),
  rateType: varchar('rate_type', { length: 20 }),
  amount: money('amount').notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('order_discount_order_uq').on(t.orderId)]);

export const orderTax = pgTable('order_tax', {
  id: serial('id').primaryKey(),
  orderId: integer('orderId').notNull().references(() => order.id, { onDelete: 'cascade' }),
  typeId: integer('type_id').references(() => tax.id, { onDelete: 'set null' }),
  rate: rate('rate').notNull(),
  amount: money('amount').notNull(),
  ...timestamps,
}, (t) => [uniqueIndex('order_tax_order_uq').on(t.orderId)]);

export const customerPayment = pgTable('customer_payment', {
  id: serial('id').primaryKey(),
  amount: money('amount').notNull(),
  orderId: integer('order_id').references(() => order.id, { onDelete: 'set null' }),
  customerId: integer('customer_id').notNull().references(() => customer.id, { onDelete: 'cascade' }),
  description: text('description'),
  ...timestamps,
  ...uuidCol,
}, (t) => [index('customer_payment_customer_idx').on(t.customerId)]);

/** A customer's credit is summed from orders and payments by triggers in the writing transaction (customer_credit, reports.ts; migration 0021). */


