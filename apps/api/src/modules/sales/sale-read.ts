import { asc, eq, inArray, sql } from 'drizzle-orm';
import { validationError } from '@pos/domain/errors';
import { parseRate } from '@pos/domain/money';
import { type SaleInput } from '@pos/domain/schemas/sale';
import type { FactTaxAmount } from '@pos/domain/sale-facts';
import { preparedQuery, type Tx } from '../../db/client.ts';
import { order, orderDiscount, orderPayment, orderProduct, orderProductTax, orderTax, paymentType, product, productPrice, productVariant, tax } from '../../db/schema/index.ts';
import { callerColumns, callerOf, invalidCaller, type AuthInfo, type CallerRow } from '../../plugins/auth.ts';
import { opaque } from '../../db/raw.ts';
import { storeSettingsJson, type StoreSettingsJson } from '../../lib/present.ts';
import { type OrderRow, notFoundRef, parseJson, pgIntArray } from './sale-support.ts';

/** A tax of an original order's line, as stored (hundredths of a percent). */
export type LineTax = FactTaxAmount;

export interface OriginalOrder {
  row: OrderRow;
  lines: (typeof orderProduct.$inferSelect & { taxes: LineTax[] })[];
  discount: typeof orderDiscount.$inferSelect | null;
  tax: typeof orderTax.$inferSelect | null;
  payments: (typeof orderPayment.$inferSelect)[];
  /** What earlier returns of this order paid back, per payment type (stored totals, negative). */
  returnedPayments: { typeId: number | null; total: string }[];
}

export async function loadOriginal(tx: Tx, id: number, lock: boolean): Promise<OriginalOrder | null> {
  const q = tx.select().from(order).where(eq(order.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) return null;
  // One after the other: a transaction's statements share its connection.
  const lines = await tx.select().from(orderProduct).where(eq(orderProduct.orderId, id)).orderBy(asc(orderProduct.id));
  const disc = await tx.select().from(orderDiscount).where(eq(orderDiscount.orderId, id));
  const tx2 = await tx.select().from(orderTax).where(eq(orderTax.orderId, id));
  const payments = await tx.select().from(orderPayment).where(eq(orderPayment.orderId, id)).orderBy(asc(orderPayment.id));
  const returnedPayments = await tx.select({ typeId: orderPayment.typeId, total: sql<string>`sum(${orderPayment.total})::text` }).from(orderPayment)
    .innerJoin(order, eq(order.id, orderPayment.orderId)).where(eq(order.returnedFromId, id)).groupBy(orderPayment.typeId);
  const lineTaxes = lines.length
    ? await tx.select().from(orderProductTax).where(inArray(orderProductTax.orderProductId, lines.map((l) => l.id))).orderBy(asc(orderProductTax.taxId))
    : [];
  return {
    row,
    lines: lines.map((l) => ({ ...l, taxes: lineTaxes.filter((t) => t.orderProductId === l.id).map((t) => ({ taxId: t.taxId, rate: parseRate(t.rate), amount: t.amount })) })),
    discount: disc[0] ?? null,
    tax: tx2[0] ?? null,
    payments,
    returnedPayments,
  };
}

/** A product as priced (and presented in the answer), with what pricing needs about it. */
export type PricingProduct = Pick<typeof product.$inferSelect, 'id' | 'name' | 'sku' | 'barcode' | 'baseQuantity' | 'isAvailable' | 'basePrice'
  | 'cost' | 'saleUnit' | 'purchaseUnit' | 'manageInventory' | 'isActive' | 'uuid'> & {
  /** Stores with a product_store row (none = sold everywhere). */
  stores: number[];
  /** Every tax of the product, by id (only active ones price a sale; the answer lists them all). */
  taxes: Pick<typeof tax.$inferSelect, 'id' | 'name' | 'rate' | 'isActive'>[];
  /** Price rules, by id. */
  rules: Pick<typeof productPrice.$inferSelect, 'productVariantId' | 'date' | 'time' | 'timeTo' | 'day' | 'week' | 'month' | 'quarter' | 'basePrice'>[];
  /** Active barcode records (a weighed / price-embedded barcode may carry its own price). */
  codes: { variantId: number | null; price: string }[];
  /** The variants of this product among the ones asked for. */
  variants: Pick<typeof productVariant.$inferSelect, 'id' | 'productId' | 'name' | 'attributeName' | 'attributeValue' | 'barcode' | 'sku' | 'price' | 'purchasePrice'>[];
};
export type PaymentTypeRef = Pick<typeof paymentType.$inferSelect, 'id' | 'name' | 'type' | 'canHaveChangeDue'>;

export interface Pricing { products: PricingProduct[]; types: PaymentTypeRef[] }

/** $1-$3 of the pricing read: product ids, asked-for variant ids, payment type ids (as priceSale derives them). */
export const pricingParams = (input: SaleInput) => [
  pgIntArray([...new Set(input.items.map((l) => l.productId))]),
  pgIntArray([...new Set(input.items.map((l) => l.variantId).filter((x): x is number => x != null))]),
  pgIntArray([...new Set(input.payments.map((p) => p.typeId))]),
];

/**
 * The products of a sale as JSON ($1 product ids, $2 asked-for variant ids). The id arrays are
 * `opaque` (db/raw): with a plain `any($1::int[])` PostgreSQL re-planned the read at every sale run
 * outside a saleTransaction (0.3 ms of planning for 0.2-0.3 ms of work, EXPLAIN EXECUTE on the
 * bench catalogue); db/prepared-plans.test.ts checks that it keeps one plan.
 */
export const PRODUCTS_EXPR = `coalesce((select json_agg(json_build_object(
      'id', p.id, 'name', p.name, 'sku', p.sku, 'barcode', p.barcode, 'baseQuantity', p.base_quantity, 'isAvailable', p.is_available,
      'basePrice', p.base_price::text, 'cost', p.cost::text, 'saleUnit', p.sale_unit, 'purchaseUnit', p.purchase_unit,
      'manageInventory', p.manage_inventory, 'isActive', p.is_active, 'uuid', p.uuid,
      'stores', array(select ps.store_id from product_store ps where ps.product_id = p.id),
      'taxes', coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'rate', t.rate::text, 'isActive', t.is_active) order by t.id)
        from product_tax pt join tax t on t.id = pt.tax_id where pt.product_id = p.id), '[]'),
      'rules', coalesce((select json_agg(json_build_object('productVariantId', r.product_variant_id, 'date', r.date, 'time', r.time::text,
        'timeTo', r.time_to::text, 'day', r.day, 'week', r.week, 'month', r.month, 'quarter', r.quarter, 'basePrice', r.base_price::text) order by r.id)
        from product_price r where r.product_id = p.id), '[]'),
      'codes', coalesce((select json_agg(json_build_object('variantId', b.variant_id, 'price', b.price::text))
        from barcode b where b.item_id = p.id and b.is_active), '[]'),
      'variants', coalesce((select json_agg(json_build_object('id', v.id, 'productId', v.product_id, 'name', v.name, 'attributeName', v.attribute_name,
        'attributeValue', v.attribute_value, 'barcode', v.barcode, 'sku', v.sku, 'price', v.price::text, 'purchasePrice', v.purchase_price::text))
        from product_variant v where v.product_id = p.id and v.id = any(${opaque('$2', 'int[]')})), '[]')
    )) from product p where p.id = any(${opaque('$1', 'int[]')})), '[]')`;
/** The payment types as JSON ($3 ids), with a filter. */
export const typesExpr = (typesWhere: string) => `coalesce((select json_agg(json_build_object('id', y.id, 'name', y.name, 'type', y.type, 'canHaveChangeDue', y.can_have_change_due))
      from payment y where y.id = any(${opaque('$3', 'int[]')})${typesWhere}), '[]')`;
/** Payment types active and linked to the store $4 (or to none: shared). */
export const STORE_TYPES = ` and y.is_active
      and (exists (select 1 from payment_store l where l.payment_id = y.id and l.store_id = $4)
        or not exists (select 1 from payment_store l where l.payment_id = y.id))`;
/**
 * A new order's one read ($1-$3 as pricingParams, $4 store, $5 terminal, $6 user), always one row:
 * the caller's user row (plugins/auth callerColumns: the sale route leaves it to this statement),
 * the store (NULL: 422) and its terminal when it belongs to the store (else NULL: 422), both as the
 * answer shows them, and everything pricing reads.
 */
export const readSql = (typesWhere: string) => `select ${callerColumns('u')}, s.id as "storeId", t.id as "terminalId", t.code, t.description,
    s.name as "storeName", s.location as "storeLocation",
    s.currency, s.locale, s.time_zone as "timeZone", s.cash_rounding_step as "cashRoundingStep", s.prices_include_tax as "pricesIncludeTax",
    s.legacy_tax_base as "legacyTaxBase", s.max_discount_percent as "maxDiscountPercent", ${PRODUCTS_EXPR} as products, ${typesExpr(typesWhere)} as types
  from (select $6::int as id) k left join user_account u on u.id = k.id left join store s on s.id = $4::int
    left join terminal t on t.id = $5::int and t.store_id = s.id`;
export const READ_SQL = readSql(STORE_TYPES);
/** A full refund mirrors the original's payment types even if since deactivated. */
export const READ_SQL_TRUSTED = readSql('');

/** The store and terminal of an order, as the answer shows them. */
export interface Place {
  terminal: { id: number; code: string; description: string | null };
  store: { id: number; name: string; location: string | null } & StoreSettingsJson;
}

/**
 * An order's one read (READ_SQL), checked: the caller (401 when deactivated or gone), the store
 * (one of theirs, else 422) and its terminal (else 422), and what pricing reads.
 */
export async function readOrder(q: Tx, input: SaleInput, who: SaleCaller, trusted: boolean): Promise<{ actor: AuthInfo; place: Place; pricing: Pricing }> {
  const [r] = await preparedQuery<CallerRow & {
    storeId: number | null; terminalId: number | null; code: string; description: string | null; storeName: string; storeLocation: string | null;
  } & StoreSettingsJson & {
    products: PricingProduct[] | string; types: PaymentTypeRef[] | string;
  }>(q, trusted ? 'sale_read_trusted' : 'sale_read', trusted ? READ_SQL_TRUSTED : READ_SQL,
    [...pricingParams(input), input.storeId, input.terminalId, 'tokenUserId' in who ? who.tokenUserId : who.userId]);
  const actor = 'tokenUserId' in who ? callerOf(r) : who;
  if (!actor) throw invalidCaller();
  if (!actor.storeIds.includes(input.storeId) || r.storeId == null) throw validationError([{ propertyPath: 'store', message: notFoundRef('Store', input.storeId) }]);
  if (r.terminalId == null) throw validationError([{ propertyPath: 'terminal', message: notFoundRef('Terminal', input.terminalId) }]);
  return {
    actor,
    place: { terminal: { id: r.terminalId, code: r.code, description: r.description }, store: { id: input.storeId, name: r.storeName, location: r.storeLocation, ...storeSettingsJson(r) } },
    pricing: { products: parseJson(r.products), types: parseJson(r.types) },
  };
}

/**
 * Who records a sale: the caller, or only the verified token's user id when the route leaves the
 * user row to the sale's own read (plugins/auth `callerInQuery`): one round trip less.
 */
export type SaleCaller = AuthInfo | { tokenUserId: number };
