import { bigint, boolean, integer, pgTable, primaryKey, serial, text, timestamp, varchar, index, uniqueIndex, time } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { active, money, qty, rate, timestamps, uuidCol } from './common.ts';
import { store, terminal } from './stores.ts';

/** A many-to-many link table between an entity and the stores it is offered in. */
function storeLink(name: string, ownerColumn: string, owner: () => any) {
  return pgTable(name, {
    ownerId: integer(ownerColumn).notNull().references(owner as any, { onDelete: 'cascade' }),
    storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  }, (t) => [primaryKey({ columns: [t.ownerId, t.storeId] }), index(`${name}_store_idx`).on(t.storeId)]);
}

export const department = pgTable('department', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  description: varchar('description', { length: 255 }),
  storeId: integer('store_id').references(() => store.id, { onDelete: 'set null' }),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [index('department_store_idx').on(t.storeId)]);

export const category = pgTable('category', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  type: varchar('type', { length: 255 }).default('product'),
  parentId: integer('parent_id'),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const categoryStore = storeLink('category_store', 'category_id', () => category.id);

export const brand = pgTable('brand', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const brandStore = storeLink('brand_store', 'brand_id', () => brand.id);

export const tax = pgTable('tax', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  rate: rate('rate').notNull(),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const taxStore = storeLink('tax_store', 'tax_id', () => tax.id);

export const discount = pgTable('discount', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  rate: money('rate'),
  rateType: varchar('rate_type', { length: 20 }),
  scope: varchar('scope', { length: 20 }),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const discountStore = storeLink('discount_store', 'discount_id', () => discount.id);

/** Payment types (cash, credit card, credit); the API path is /api/payments. */
export const paymentType = pgTable('payment', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  type: varchar('type', { length: 50 }).notNull(),
  canHaveChangeDue: boolean('can_have_change_due').notNull().default(false),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const paymentStore = storeLink('payment_store', 'payment_id', () => paymentType.id);

export const supplier = pgTable('supplier', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  phone: varchar('phone', { length: 50 }),
  email: varchar('email', { length: 255 }),
  whatsApp: varchar('whats_app', { length: 50 }),
  fax: varchar('fax', { length: 50 }),
  address: varchar('address', { length: 255 }),
  openingBalance: money('opening_balance').notNull().default('0'),
  ...active,
  ...timestamps,
  ...uuidCol,
});
export const supplierStore = storeLink('supplier_store', 'supplier_id', () => supplier.id);

export const product = pgTable('product', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  sku: varchar('sku', { length: 255 }),
  barcode: varchar('barcode', { length: 255 }),
  /** ean13 | ean8 | upca | upce: the barcode's GS1 check digit is validated (issue 26); null: any code. */
  barcodeType: varchar('barcode_type', { length: 10 }),
  /** When the sale price last changed (a trigger, migration 0009): labels for price changes (issue 26). */
  priceChangedAt: timestamp('price_changed_at', { withTimezone: true, mode: 'date' }),
  baseQuantity: integer('base_quantity').default(1),
  isAvailable: boolean('is_available').notNull().default(true),
  basePrice: money('base_price').notNull().default('0'),
  cost: money('cost').notNull().default('0'),
  /** Legacy global quantity of the old model; stock lives in product_store. */
  quantity: qty('quantity'),
  purchaseUnit: varchar('purchase_unit', { length: 20 }),
  saleUnit: varchar('sale_unit', { length: 20 }),
  departmentId: integer('department_id').references(() => department.id, { onDelete: 'set null' }),
  manageInventory: boolean('manage_inventory').notNull().default(false),
  /**
   * The stores this product has a product_store row in, sorted; empty = catalogue-wide. A copy kept
   * by triggers on product_store (migration 0002) so store scoping is a test on the product row
   * itself (no probe per row): a till's product page is then an index-only scan of
   * product_list_idx (id) INCLUDE (is_active, store_ids, name_fold) (migrations 0002, 0019).
   */
  storeIds: integer('store_ids').array().notNull().default(sql`'{}'::integer[]`),
  /**
   * The name as a search compares it (resources/search.ts; migration 0017, issue 30.1): kept by
   * PostgreSQL, so a search's recheck of a trigram candidate reads it instead of recomputing
   * `pos_search_fold` (unaccent, ~10 µs a row). Never on the wire.
   */
  nameFold: text('name_fold').generatedAlwaysAs(sql`pos_search_fold(name)`),
  /** The fold's UTF-8 bytes spelled in ASCII letters and digits (pos_search_key): non-ASCII searches (see search.ts). */
  nameKey: text('name_key').generatedAlwaysAs(sql`pos_search_key(name)`),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [
  uniqueIndex('product_barcode_uq').on(t.barcode),
  // (name, id) INCLUDE (is_active, store_ids) in SQL (migration 0004): a page of the list sorted by name is an index-only scan.
  index('product_name_idx').on(t.name, t.id),
  index('product_updated_idx').on(t.updatedAt),
  index('product_department_idx').on(t.departmentId),
]);

function productLink(name: string, otherColumn: string, other: () => any) {
  return pgTable(name, {
    productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
    otherId: integer(otherColumn).notNull().references(other, { onDelete: 'cascade' }),
  }, (t) => [primaryKey({ columns: [t.productId, t.otherId] }), index(`${name}_other_idx`).on(t.otherId)]);
}
export const productCategory = productLink('product_category', 'category_id', () => category.id);
export const productBrand = productLink('product_brand', 'brand_id', () => brand.id);
export const productSupplier = productLink('product_supplier', 'supplier_id', () => supplier.id);
export const productTax = productLink('product_tax', 'tax_id', () => tax.id);
export const productTerminal = productLink('product_terminal', 'terminal_id', () => terminal.id);

export const productVariant = pgTable('product_variant', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 255 }),
  attributeName: varchar('attribute_name', { length: 255 }),
  attributeValue: varchar('attribute_value', { length: 255 }),
  barcode: varchar('barcode', { length: 255 }),
  sku: varchar('sku', { length: 255 }),
  /** Sale price; null means the product's price applies. */
  price: money('price'),
  /** Purchase price of the variant (set by purchases with updatePrice). */
  purchasePrice: money('purchase_price'),
  /**
   * The variant's stock over all stores: the sum of its product_variant_store rows (issue 25),
   * kept in the same transaction by lib/stock.ts. Still on the wire as the variant's `quantity`.
   */
  quantity: qty('quantity').notNull().default('0'),
  ...timestamps,
  ...uuidCol,
}, (t) => [index('product_variant_product_idx').on(t.productId), uniqueIndex('product_variant_barcode_uq').on(t.barcode)]);

/** Per-store stock row: quantity, shelf location, re-order level and quantity, weighted-average cost. */
export const productStore = pgTable('product_store', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  quantity: qty('quantity').notNull().default('0'),
  location: varchar('location', { length: 255 }),
  /** At or below this stock the product is on the store's "to order" list (issue 25.4); null: never. */
  reOrderLevel: qty('re_order_level'),
  /** What to order then (null: enough to bring the stock up to the level). */
  reOrderQuantity: qty('re_order_quantity'),
  /**
   * Weighted-average unit cost in this store, in the store's currency (issue 25.5), moved by
   * receipts (purchases, transfers in); null: nothing received yet, product.cost applies.
   * ARCHITECTURE.md "Stock valuation".
   */
  avgCost: money('avg_cost'),
}, (t) => [uniqueIndex('product_store_uq').on(t.productId, t.storeId), index('product_store_store_idx').on(t.storeId)]);

/**
 * A variant's stock in one store (issue 25, migration 0015), moved only by lib/stock.ts (an atomic
 * upsert + a ledger row with this store): SUM(stock_movement.quantity) per (variant, store) = quantity.
 */
export const productVariantStore = pgTable('product_variant_store', {
  id: serial('id').primaryKey(),
  variantId: integer('variant_id').notNull().references(() => productVariant.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').notNull().references(() => store.id, { onDelete: 'cascade' }),
  quantity: qty('quantity').notNull().default('0'),
}, (t) => [uniqueIndex('product_variant_store_uq').on(t.variantId, t.storeId), index('product_variant_store_store_idx').on(t.storeId)]);

export const productPrice = pgTable('product_price', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  productVariantId: integer('product_variant_id').references(() => productVariant.id, { onDelete: 'cascade' }),
  date: integer('date'),
  time: time('time'),
  timeTo: time('time_to'),
  day: varchar('day', { length: 20 }),
  week: integer('week'),
  month: integer('month'),
  quarter: integer('quarter'),
  rate: money('rate'),
  minQuantity: qty('min_quantity'),
  maxQuantity: qty('max_quantity'),
  basePrice: money('base_price').notNull(),
  baseQuantity: qty('base_quantity'),
  ...timestamps,
}, (t) => [index('product_price_product_idx').on(t.productId)]);

/** Extra barcodes, including weighed/price-embedded ones with measurement and price. */
export const barcode = pgTable('barcode', {
  id: serial('id').primaryKey(),
  barcode: varchar('barcode', { length: 255 }).notNull(),
  itemId: integer('item_id').references(() => product.id, { onDelete: 'cascade' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'cascade' }),
  price: money('price').notNull().default('0'),
  measurement: varchar('measurement', { length: 255 }),
  unit: varchar('unit', { length: 255 }),
  usages: integer('usages'),
  used: integer('used'),
  ...active,
  ...timestamps,
  ...uuidCol,
}, (t) => [uniqueIndex('barcode_barcode_uq').on(t.barcode), index('barcode_item_idx').on(t.itemId)]);

/**
 * The stock ledger: every stock change is one signed row here, written in the same transaction
 * as the atomic update of product_store / product_variant, so the ledger always sums to the stock.
 */
export const stockMovement = pgTable('stock_movement', {
  id: serial('id').primaryKey(),
  productId: integer('product_id').notNull().references(() => product.id, { onDelete: 'cascade' }),
  variantId: integer('variant_id').references(() => productVariant.id, { onDelete: 'cascade' }),
  storeId: integer('store_id').references(() => store.id, { onDelete: 'cascade' }),
  quantity: qty('quantity').notNull(),
  reason: varchar('reason', { length: 40 }).notNull(),
  /**
   * The unit cost in effect for this (product, store) after this movement: the store's average
   * (coalesce(product_store.avg_cost, product.cost)), filled by a trigger for every writer
   * (migration 0011). Valuation at a past date reads the last row's cost (modules/stock/valuation.service.ts).
   */
  unitCost: money('unit_cost'),
  orderId: integer('order_id'),
  purchaseId: integer('purchase_id'),
  /**
   * The stock document a row belongs to when it is not a sale or purchase (migration 0014):
   * 'transfer' | 'count' | 'adjustment' and that document's id (stock_transfer / stock_count /
   * stock_adjustment). The movement history names and links it (modules/stock/movements.service.ts).
   */
  documentKind: varchar('document_kind', { length: 20 }),
  documentId: integer('document_id'),
  userId: integer('user_id'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
}, (t) => [
  index('stock_movement_product_idx').on(t.productId, t.storeId), index('stock_movement_order_idx').on(t.orderId), index('stock_movement_purchase_idx').on(t.purchaseId),
  // The till's catalogue delta finds the products whose stock moved since its cursor (catalogue-sync.service.ts).
  index('stock_movement_created_idx').on(t.createdAt),
  // One product's movement history, newest first, paged by index (movements.service.ts, issue 25.6).
  index('stock_movement_product_time_idx').on(t.productId, t.createdAt, t.id),
]);

export const setting = pgTable('setting', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  value: text('value'),
  description: varchar('description', { length: 255 }),
  type: varchar('type', { length: 255 }),
  userId: integer('user_id'),
  ...timestamps,
});

/** Receipt printers. */
export const device = pgTable('device', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 255 }).notNull(),
  ipAddress: varchar('ip_address', { length: 255 }).notNull(),
  port: integer('port').notNull(),
  prints: integer('prints').notNull().default(1),
  /** Paper width in millimetres: 80 (48 columns) or 58 (32 columns). */
  paperWidth: integer('paper_width').notNull().default(80),
  /** 'server': the server sends jobs to ipAddress:port; 'agent': a print agent on the shop's network fetches them (issue 26). */
  deliveredBy: varchar('delivered_by', { length: 10 }).notNull().default('server'),
  /** SHA-256 of the print agent's key (hex); null: no agent. */
  agentKeyHash: varchar('agent_key_hash', { length: 64 }),
  ...active,
  ...timestamps,
  ...uuidCol,
});

/**
 * Change counter of what the product list's positions depend on (product rows coming and going,
 * is_active / is_available / manage_inventory / store_ids / name changing, stores coming and going), bumped
 * by triggers (migration 0003). One row; a writer holds it only for those (rare, back-office) changes.
 */
export const listVersion = pgTable('list_version', {
  id: integer('id').primaryKey(),
  version: bigint('v', { mode: 'number' }).notNull(),
});

/**
 * Positions of a product list (filtered on the flags above and scoped to a set of stores, in id
 * order) at a list_version: the total and the id at every 100th position. A page at any depth then
 * starts from a known id instead of counting and skipping from the start; an entry of an older
 * version is never used (resources/engine.ts, "position index").
 */
export const listIndex = pgTable('list_index', {
  key: text('key').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
  total: integer('total').notNull(),
  marks: integer('marks').array().notNull(),
  /** For lists sorted by a text column: that column's value at each mark (the mark is the pair). */
  markTexts: text('mark_texts').array(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
