import { boolean, integer, pgTable, serial, text, varchar, index, uniqueIndex } from 'drizzle-orm/pg-core';
import { active, money, qty, timestamps, uuidCol } from './common.ts';
import { store } from './stores.ts';
import { userAccount } from './users.ts';
import { paymentType, product, productVariant, supplier } from './catalogue.ts';

export const purchaseOrder = pgTable('purchase_order', {
  id: serial('id').primaryKey(),
  supplierId: integer('supplier_id').notNull().references(() => supplier.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  poNumber: varchar('po_number', { length: 255 }).notNull(),
  isUsed: boolean('is_used').notNull().default(false),
  ...timestamps,
  ...uuidCol,
}, (t) => [uniqueIndex('purchase_order_number_uq').on(t.storeId, t.poNumber), index('purchase_order_supplier_idx').on(t.supplierId)]);

export const purchaseOrderItem = pgTable('purchase_order_item', {
  id: serial('id').primaryKey(),
  purchaseOrderId: integer('purchase_order_id').notNull().references(() => purchaseOrder.id, { onDelete: 'cascade' }),
  itemId: integer('item_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  quantity: qty('quantity').notNull(),
  price: money('price').notNull(),
  unit: varchar('unit', { length: 255 }),
  comments: varchar('comments', { length: 255 }),
  ...timestamps,
}, (t) => [index('purchase_order_item_po_idx').on(t.purchaseOrderId)]);

export const purchaseOrderItemVariant = pgTable('purchase_order_item_variant', {
  id: serial('id').primaryKey(),
  purchaseOrderItemId: integer('purchase_order_item_id').notNull().references(() => purchaseOrderItem.id, { onDelete: 'cascade' }),
  variantId: integer('variant_id').notNull().references(() => productVariant.id, { onDelete: 'restrict' }),
  quantity: qty('quantity').notNull(),
  purchasePrice: money('purchase_price').notNull(),
  purchaseUnit: varchar('purchase_unit', { length: 255 }),
  comments: text('comments'),
  ...timestamps,
}, (t) => [index('purchase_order_item_variant_item_idx').on(t.purchaseOrderItemId)]);

/** A goods receipt. Its stock effect is recorded in stock_movement with purchase_id. */
export const purchase = pgTable('purchase', {
  id: serial('id').primaryKey(),
  supplierId: integer('supplier_id').references(() => supplier.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  purchasedById: integer('purchased_by_id').notNull().references(() => userAccount.id),
  purchaseOrderId: integer('purchase_order_id').references(() => purchaseOrder.id, { onDelete: 'set null' }),
  purchaseNumber: varchar('purchase_number', { length: 255 }).notNull(),
  purchaseMode: varchar('purchase_mode', { length: 50 }).notNull(),
  paymentTypeId: integer('payment_type_id').references(() => paymentType.id, { onDelete: 'set null' }),
  updateStocks: boolean('update_stocks').notNull().default(true),
  updatePrice: boolean('update_price').notNull().default(true),
  total: money('total').notNull().default('0'),
  ...timestamps,
  ...uuidCol,
}, (t) => [
  uniqueIndex('purchase_number_uq').on(t.storeId, t.purchaseNumber),
  uniqueIndex('purchase_po_uq').on(t.purchaseOrderId),
  index('purchase_supplier_idx').on(t.supplierId),
]);

export const purchaseItem = pgTable('purchase_item', {
  id: serial('id').primaryKey(),
  purchaseId: integer('purchase_id').notNull().references(() => purchase.id, { onDelete: 'cascade' }),
  itemId: integer('item_id').notNull().references(() => product.id, { onDelete: 'restrict' }),
  quantity: qty('quantity').notNull(),
  quantityRequested: qty('quantity_requested'),
  purchasePrice: money('purchase_price').notNull(),
  purchaseUnit: varchar('purchase_unit', { length: 255 }),
  barcode: varchar('barcode', { length: 255 }),
  comments: text('comments'),
  ...timestamps,
}, (t) => [index('purchase_item_purchase_idx').on(t.purchaseId), index('purchase_item_item_idx').on(t.itemId)]);

export const purchaseItemVariant = pgTable('purchase_item_variant', {
  id: serial('id').primaryKey(),
  purchaseItemId: integer('purchase_item_id').notNull().references(() => purchaseItem.id, { onDelete: 'cascade' }),
  variantId: integer('variant_id').notNull().references(() => productVariant.id, { onDelete: 'restrict' }),
  quantity: qty('quantity').notNull(),
  quantityRequested: qty('quantity_requested'),
  purchasePrice: money('purchase_price').notNull(),
  purchaseUnit: varchar('purchase_unit', { length: 255 }),
  comments: text('comments'),
  ...timestamps,
}, (t) => [index('purchase_item_variant_item_idx').on(t.purchaseItemId)]);

export const supplierPayment = pgTable('supplier_payment', {
  id: serial('id').primaryKey(),
  amount: money('amount').notNull(),
  purchaseId: integer('purchase_id').references(() => purchase.id, { onDelete: 'set null' }),
  supplierId: integer('supplier_id').notNull().references(() => supplier.id, { onDelete: 'cascade' }),
  description: text('description'),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [index('supplier_payment_supplier_idx').on(t.supplierId)]);


