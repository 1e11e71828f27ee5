import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { AppError, conflict, forbidden, notFound, validationError, type Violation } from '@pos/domain/errors';
import { computeOrderTotals, resolveOrderDiscount, type OrderDiscountInput, type OrderTotals } from '@pos/domain/cart';
import { divRoundHalfAway, parseMoney, parseQuantity, parseRate, quantityToString, toDecimalString, toSafeNumber } from '@pos/domain/money';
import { allocatePayments, changeDue, roundingAdjustment, validatePaymentAdd } from '@pos/domain/tender';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import { creditCheck } from '@pos/domain/ledger';
import { ORDER_STATUS, SALE_MESSAGES, type OrderStatus, type SaleInput } from '@pos/domain/schemas/sale';
import { preparedQuery, saleTransaction, type Db, type Tx } from '../../db/client.ts';
import {
  customer, discount, discountStore, order, orderDiscount, orderPayment, orderProduct, orderProductTax, orderTax,
  paymentType, product, productPrice, productVariant, stockMovement, tax, taxStore,
} from '../../db/schema/index.ts';
import { callerColumns, callerOf, invalidCaller, requireCaller, type AuthInfo, type CallerRow } from '../../plugins/auth.ts';
import { moveStocks, stockMoveCtes, stockMoveParams, type StockDelta } from '../../lib/stock.ts';
import { namedSql, opaque, pgArray, rowsOf } from '../../db/raw.ts';
import { orderDto, type OrderDto } from './order.presenter.ts';
import { storeSettingsJson, type StoreSettingsJson } from '../../lib/present.ts';
import { loadCustomerFigures } from '../customers/customer.figures.ts';

type OrderRow = typeof order.$inferSelect;
type Cents = number;

// ---------------------------------------------------------------------------------------------
// Small infrastructure: errors from either driver, retries, idempotency hash
// ---------------------------------------------------------------------------------------------

/** The SQLSTATE of a database error, looking through Drizzle's wrapper. */
export function pgCode(e: unknown): string | undefined {
  let cur: any = e;
  for (let i = 0; i < 4 && cur; i++) {
    if (typeof cur.code === 'string' && /^[0-9A-Z]{5}$/.test(cur.code)) return cur.code;
    cur = cur.cause;
  }
  return undefined;
}

function isUniqueViolation(e: unknown, constraint: string): boolean {
  if (pgCode(e) !== '23505') return false;
  let cur: any = e;
  for (let i = 0; i < 4 && cur; i++) {
    if (cur.constraint === constraint || String(cur.message ?? '').includes(constraint) || String(cur.detail ?? '').includes(constraint)) return true;
    cur = cur.cause;
  }
  return false;
}

/** Re-runs a transaction that lost a deadlock or a serialization race (PostgreSQL picks a victim). */
async function withRetry<T>(fn: () => Promise<T>, attempts = 5): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      const code = pgCode(e);
      if ((code === '40P01' || code === '40001') && i < attempts) {
        await new Promise((r) => setTimeout(r, 5 * i + Math.random() * 20));
        continue;
      }
      throw e;
    }
  }
}

/**
 * The body with its keys sorted, as JSON, in one pass (the hash of orders already stored must not
 * change: equal to the former JSON.stringify of a sorted copy, see sales.test.ts) (no intermediate objects): keys sorted,
 * undefined members left out, undefined array items as null. Bodies are parsed JSON, so only
 * plain objects, arrays, strings, numbers, booleans and null occur.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i) out += ',';
      const v = value[i];
      out += v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonicalJson(v);
    }
    return out + ']';
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    if (!first) out += ',';
    first = false;
    out += JSON.stringify(k) + ':' + canonicalJson(v);
  }
  return out + '}';
}

/** sha256 of the body with its keys sorted: the same submission always hashes the same. */
export function requestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');
}

/**
 * Linked to this store, or to no store at all (shared). Written out here because Drizzle's exists()
 * around raw SQL renders without parentheses.
 */
function linkedToStore(link: { ownerId: any; storeId: any } & object, ownerCol: any, storeId: number) {
  return sql`(exists (select 1 from ${link} where ${link.ownerId} = ${ownerCol} and ${link.storeId} = ${storeId})
    or not exists (select 1 from ${link} where ${link.ownerId} = ${ownerCol}))`;
}

const fail = (v: Violation[]) => { if (v.length) throw validationError(v); };
const notFoundRef = (label: string, id: number) => `'${label}' with ID '${id}' not found`;

// ---------------------------------------------------------------------------------------------
// Pricing: the server prices every sale with @pos/domain; the client's figures are only checked
// ---------------------------------------------------------------------------------------------

interface LineTax { taxId: number; rate: number /* hundredths of a percent */ }

interface PricedLine {
  productId: number;
  variantId: number | null;
  productName: string;
  manageInventory: boolean;
  qtyMilli: number;
  priceCents: Cents;
  /** Requested discount (the domain caps it). */
  discountCents: Cents;
  taxes: LineTax[];
  costCents: Cents;
}

interface StoredDiscount { typeId: number | null; rateType: 'fixed' | 'percent'; rate: number }

interface PaymentRow { typeId: number; totalCents: Cents; receivedCents: Cents; dueCents: Cents }

interface PricedSale {
  lines: PricedLine[];
  totals: OrderTotals;
  orderTax: { typeId: number | null; rate: number } | null;
  discount: StoredDiscount | null;
  payments: PaymentRow[];
  customerId: number | null;
  customerName: string | null;
  /** The catalogue rows the sale was priced from (the answer is built from them: see saleDto). */
  refs: {
    products: Map<number, PricingProduct>;
    variants: Map<number, PricingProduct['variants'][number]>;
    productTaxes: { productId: number; t: PricingProduct['taxes'][number] }[];
    paymentTypes: Map<number, PaymentTypeRef>;
    discountType: typeof discount.$inferSelect | null;
    taxType: typeof tax.$inferSelect | null;
  };
}

interface OriginalOrder {
  row: OrderRow;
  lines: (typeof orderProduct.$inferSelect & { taxes: LineTax[] })[];
  discount: typeof orderDiscount.$inferSelect | null;
  tax: typeof orderTax.$inferSelect | null;
  payments: (typeof orderPayment.$inferSelect)[];
}

interface PriceOptions {
  storeId: number;
  now: Date;
  status: OrderStatus;
  original: OriginalOrder | null;
  /** Skip the client-total comparison (server-built input). */
  skipTotalCheck?: boolean;
  /** What pricing reads, from the order's read (readOrder). */
  pricing: Pricing;
}

function ruleOf(r: PricingProduct['rules'][number]): PriceRuleInput {
  let date: string | Date | null = null;
  if (r.date != null) {
    // 1-31 is a day of month; anything larger is read as a unix timestamp (seconds).
    date = r.date >= 1 && r.date <= 31 ? `2000-01-${String(r.date).padStart(2, '0')}` : new Date(r.date * 1000);
  }
  return {
    basePriceCents: parseMoney(r.basePrice), date, time: r.time, timeTo: r.timeTo, day: r.day,
    week: r.week, month: r.month, quarter: r.quarter,
  };
}

function safe<T>(f: () => T, v: Violation[], propertyPath: string, message = 'This value should be a valid number.'): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) { v.push({ propertyPath, message }); return undefined; }
    throw e;
  }
}

async function loadOriginal(tx: Tx, id: number, lock: boolean): Promise<OriginalOrder | null> {
  const q = tx.select().from(order).where(eq(order.id, id));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) return null;
  const [lines, disc, tx2, payments] = await Promise.all([
    tx.select().from(orderProduct).where(eq(orderProduct.orderId, id)).orderBy(asc(orderProduct.id)),
    tx.select().from(orderDiscount).where(eq(orderDiscount.orderId, id)),
    tx.select().from(orderTax).where(eq(orderTax.orderId, id)),
    tx.select().from(orderPayment).where(eq(orderPayment.orderId, id)).orderBy(asc(orderPayment.id)),
  ]);
  const lineTaxes = lines.length
    ? await tx.select().from(orderProductTax).where(inArray(orderProductTax.orderProductId, lines.map((l) => l.id))).orderBy(asc(orderProductTax.taxId))
    : [];
  return {
    row,
    lines: lines.map((l) => ({ ...l, taxes: lineTaxes.filter((t) => t.orderProductId === l.id).map((t) => ({ taxId: t.taxId, rate: parseRate(t.rate) })) })),
    discount: disc[0] ?? null,
    tax: tx2[0] ?? null,
    payments,
  };
}

/** A product as priced (and presented in the answer), with what pricing needs about it. */
type PricingProduct = Pick<typeof product.$inferSelect, 'id' | 'name' | 'sku' | 'barcode' | 'baseQuantity' | 'isAvailable' | 'basePrice'
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
type PaymentTypeRef = Pick<typeof paymentType.$inferSelect, 'id' | 'name' | 'type' | 'canHaveChangeDue'>;

interface Pricing { products: PricingProduct[]; types: PaymentTypeRef[] }

/** Both drivers parse json; a string is parsed here just in case. */
const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) : v);

/** $1-$3 of the pricing read: product ids, asked-for variant ids, payment type ids (as priceSale derives them). */
const pricingParams = (input: SaleInput) => [
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
const PRODUCTS_EXPR = `coalesce((select json_agg(json_build_object(
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
const typesExpr = (typesWhere: string) => `coalesce((select json_agg(json_build_object('id', y.id, 'name', y.name, 'type', y.type, 'canHaveChangeDue', y.can_have_change_due))
      from payment y where y.id = any(${opaque('$3', 'int[]')})${typesWhere}), '[]')`;
/** Payment types active and linked to the store $4 (or to none: shared). */
const STORE_TYPES = ` and y.is_active
      and (exists (select 1 from payment_store l where l.payment_id = y.id and l.store_id = $4)
        or not exists (select 1 from payment_store l where l.payment_id = y.id))`;
/**
 * A new order's one read ($1-$3 as pricingParams, $4 store, $5 terminal, $6 user), always one row:
 * the caller's user row (plugins/auth callerColumns: the sale route leaves it to this statement),
 * the store (NULL: 422) and its terminal when it belongs to the store (else NULL: 422), both as the
 * answer shows them, and everything pricing reads.
 */
const readSql = (typesWhere: string) => `select ${callerColumns('u')}, s.id as "storeId", t.id as "terminalId", t.code, t.description,
    s.name as "storeName", s.location as "storeLocation",
    s.currency, s.locale, s.time_zone as "timeZone", s.cash_rounding_step as "cashRoundingStep", s.prices_include_tax as "pricesIncludeTax",
    s.legacy_tax_base as "legacyTaxBase", ${PRODUCTS_EXPR} as products, ${typesExpr(typesWhere)} as types
  from (select $6::int as id) k left join user_account u on u.id = k.id left join store s on s.id = $4::int
    left join terminal t on t.id = $5::int and t.store_id = s.id`;
const READ_SQL = readSql(STORE_TYPES);
/** A full refund mirrors the original's payment types even if since deactivated. */
const READ_SQL_TRUSTED = readSql('');

const pgIntArray = (ids: number[]) => {
  if (!ids.every((n) => Number.isInteger(n))) throw new Error('pgIntArray: not an integer');
  return pgArray(ids);
};

/** A fraction of an amount, rounded once half away from zero (pro-rata discounts of a partial return). */
function proRata(amount: Cents, part: number, whole: number): Cents {
  if (whole === 0) return 0;
  return toSafeNumber(divRoundHalfAway(BigInt(amount) * BigInt(Math.abs(part)), BigInt(Math.abs(whole))));
}

/**
 * Prices a sale: lines from the catalogue (product, variant or matching price rule, a barcode
 * price only when it is a barcode record of that product), return lines from the original order,
 * order tax and discount from their entities, then totals with @pos/domain/cart and payments with
 * @pos/domain/tender. Throws a 422 naming each faulty field.
 */
async function priceSale(tx: Tx, input: SaleInput, opt: PriceOptions): Promise<PricedSale> {
  const v: Violation[] = [];
  const { storeId, original } = opt;
  const { products, types } = opt.pricing;
  const variants = products.flatMap((p) => p.variants);
  const pTaxes = products.flatMap((p) => p.taxes.map((t) => ({ productId: p.id, t })));
  const productBy = new Map(products.map((p) => [p.id, p]));
  const variantBy = new Map(variants.map((x) => [x.id, x]));

  // Return lines consume the original's lines.
  const remaining = original ? original.lines.map((l) => parseQuantity(l.quantity)) : [];

  const lines: PricedLine[] = [];
  input.items.forEach((l, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const qtyMilli = safe(() => parseQuantity(l.quantity), v, at('quantity'));
    if (qtyMilli === undefined) return;
    if (qtyMilli === 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.quantityZero }); return; }
    const p = productBy.get(l.productId);
    if (!p) { v.push({ propertyPath: at('item'), message: notFoundRef('Product', l.productId) }); return; }
    const variant = l.variantId != null ? variantBy.get(l.variantId) : undefined;
    if (l.variantId != null && (!variant || variant.productId !== p.id)) {
      v.push({ propertyPath: at('variant'), message: notFoundRef('Product variant', l.variantId) });
      return;
    }
    if (qtyMilli > 0) {
      if (original) { v.push({ propertyPath: at('quantity'), message: 'A return can only contain returned items (negative quantities)' }); return; }
      if (!p.isActive) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not for sale` }); return; }
      const sold = p.stores;
      if (sold.length && !sold.includes(storeId)) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not sold in this store` }); return; }
      const productRules = p.rules.filter((r) => r.productVariantId == null).map(ruleOf);
      const base = parseMoney(p.basePrice);
      let priceCents: Cents;
      if (variant) {
        const own = p.rules.filter((r) => r.productVariantId === variant.id).map(ruleOf);
        priceCents = variant.price != null
          ? variantPrice(parseMoney(variant.price), base, productRules, opt.now)
          : effectivePrice(base, [...own, ...productRules], opt.now);
      } else {
        priceCents = effectivePrice(base, productRules, opt.now);
      }
      // A weighed / price-embedded barcode of this very product (and variant) may carry its own price.
      if (l.price != null) {
        const asked = safe(() => parseMoney(l.price), v, at('price'));
        if (asked !== undefined && asked !== priceCents
          && p.codes.some((c) => (c.variantId ?? null) === (l.variantId ?? null) && parseMoney(c.price) === asked)) {
          priceCents = asked;
        }
      }
      const discountCents = safe(() => parseMoney(l.discount), v, at('discount'));
      if (discountCents === undefined) return;
      const taxIncluded = l.taxIncluded ?? true;
      lines.push({
        productId: p.id, variantId: variant?.id ?? null, productName: p.name, manageInventory: p.manageInventory,
        qtyMilli, priceCents, discountCents,
        taxes: taxIncluded ? pTaxes.filter((x) => x.productId === p.id && x.t.isActive).map((x) => ({ taxId: x.t.id, rate: parseRate(x.t.rate) })) : [],
        costCents: variant?.purchasePrice != null ? parseMoney(variant.purchasePrice) : parseMoney(p.cost),
      });
      return;
    }
    // A return line: priced exactly as it was sold.
    if (!original) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.negativeWithoutReturn }); return; }
    const want = -qtyMilli;
    const key = (x: { productId: number; variantId: number | null }) => `${x.productId}:${x.variantId ?? ''}`;
    const candidates = original.lines.map((ol, k) => ({ ol, k })).filter(({ ol, k }) => key(ol) === key({ productId: p.id, variantId: l.variantId }) && remaining[k] >= want);
    const askedPrice = l.price != null ? (() => { try { return parseMoney(l.price); } catch { return null; } })() : null;
    const hit = candidates.find(({ ol }) => askedPrice !== null && parseMoney(ol.price) === askedPrice) ?? candidates[0];
    if (!hit) {
      const left = original.lines.reduce((s, ol, k) => (key(ol) === key({ productId: p.id, variantId: l.variantId }) ? s + remaining[k] : s), 0);
      v.push({
        propertyPath: at('quantity'),
        message: left > 0 ? `Cannot return more than ${quantityToString(left)} of '${p.name}'` : `'${p.name}' is not in order #${original.row.orderId}`,
      });
      return;
    }
    remaining[hit.k] -= want;
    const soldQty = parseQuantity(hit.ol.quantity);
    lines.push({
      productId: p.id, variantId: hit.ol.variantId, productName: p.name, manageInventory: p.manageInventory,
      qtyMilli, priceCents: parseMoney(hit.ol.price),
      // The stored discount is the line's effective discount; a partial return gets its share.
      discountCents: proRata(Math.abs(parseMoney(hit.ol.discount)), want, soldQty),
      taxes: hit.ol.taxes,
      costCents: parseMoney(hit.ol.cost),
    });
  });
  fail(v);

  // Order tax.
  let orderTaxInfo: PricedSale['orderTax'] = null;
  let taxType: typeof tax.$inferSelect | null = null;
  if (original) {
    if (original.tax) orderTaxInfo = { typeId: original.tax.typeId, rate: parseRate(original.tax.rate) };
  } else if (input.taxId != null) {
    const [t] = await tx.select().from(tax).where(and(eq(tax.id, input.taxId), eq(tax.isActive, true), linkedToStore(taxStore, tax.id, storeId)));
    if (!t) v.push({ propertyPath: 'tax', message: notFoundRef('Tax', input.taxId) });
    else { orderTaxInfo = { typeId: t.id, rate: parseRate(t.rate) }; taxType = t; }
  }

  // Order discount.
  let discountInput: OrderDiscountInput = { kind: 'none' };
  let stored: StoredDiscount | null = null;
  let alternative: { input: OrderDiscountInput; stored: StoredDiscount } | null = null;
  let discountType: typeof discount.$inferSelect | null = null;
  if (original) {
    // A return takes back the original's discount: the same percent, or its share of a fixed amount.
    const od = original.discount;
    if (od) {
      if (od.rateType === 'percent') {
        discountInput = { kind: 'percent', rate: parseRate(od.rate) };
        stored = { typeId: od.typeId, rateType: 'percent', rate: parseRate(od.rate) };
      } else {
        stored = { typeId: od.typeId, rateType: 'fixed', rate: 0 };
      }
    }
  } else if (input.discountId != null) {
    const [d] = await tx.select().from(discount)
      .where(and(eq(discount.id, input.discountId), eq(discount.isActive, true), linkedToStore(discountStore, discount.id, storeId)));
    if (d) discountType = d;
    if (!d) v.push({ propertyPath: 'discount', message: notFoundRef('Discount', input.discountId) });
    else if (d.scope === 'open' || d.rate == null) {
      // Open scope: the cashier's figure. `discountAmount` is a currency amount, except with
      // discountRateType 'percent', where our till sends the typed percent while the reference
      // client sends the discount total it computed: both readings are tried, and the one whose
      // total matches the till's `total` wins (the percent reading when no total is sent).
      const amount = safe(() => parseMoney(input.discountAmount), v, 'discountAmount');
      if (amount !== undefined && amount < 0) v.push({ propertyPath: 'discountAmount', message: 'This value should be either positive or zero.' });
      else if (amount) {
        discountInput = { kind: 'fixed', amountCents: amount };
        stored = { typeId: d.id, rateType: 'fixed', rate: amount };
        if (input.discountRateType === 'percent') {
          const rate = parseRate(input.discountAmount);
          alternative = { input: discountInput, stored };
          discountInput = { kind: 'percent', rate };
          stored = { typeId: d.id, rateType: 'percent', rate };
        }
      } else stored = { typeId: d.id, rateType: 'fixed', rate: 0 };
    } else {
      discountInput = safe(() => resolveOrderDiscount({ discount: { rateType: d.rateType, scope: d.scope, rate: d.rate } }), v, 'discount') ?? { kind: 'none' };
      stored = discountInput.kind === 'percent' ? { typeId: d.id, rateType: 'percent', rate: discountInput.rate }
        : { typeId: d.id, rateType: 'fixed', rate: discountInput.kind === 'fixed' ? discountInput.amountCents : 0 };
    }
  }
  const adjustmentCents = safe(() => parseMoney(input.adjustment), v, 'adjustment') ?? 0;
  fail(v);

  const cartLines = lines.map((l) => ({
    priceCents: l.priceCents, qtyMilli: l.qtyMilli, discountCents: l.discountCents, taxIncluded: true, taxRates: l.taxes.map((t) => t.rate),
  }));
  const compute = (d: OrderDiscountInput, adj: number) => computeOrderTotals({ lines: cartLines, orderTaxRate: orderTaxInfo?.rate ?? null, discount: d, adjustmentCents: adj });
  let totals = safe(() => compute(discountInput, adjustmentCents), v, 'items', 'The amounts are out of range.');
  fail(v);
  if (original?.discount && original.discount.rateType !== 'percent') {
    const share = proRata(parseMoney(original.discount.amount),
      totals!.subTotalCents + totals!.orderTaxCents,
      parseMoney(original.row.subTotal) + (original.tax ? parseMoney(original.tax.amount) : 0));
    discountInput = { kind: 'fixed', amountCents: share };
    stored = { typeId: original.discount.typeId, rateType: 'fixed', rate: share };
    totals = compute(discountInput, adjustmentCents);
  }
  let t = totals!;
  const tolerance = 1 + lines.length; // clients that do not round per line may drift by a cent per line
  const sentTotal = input.total == null ? null : (() => { try { return parseMoney(input.total); } catch { return null; } })();
  if (alternative && sentTotal !== null && Math.abs(sentTotal - t.totalCents) > tolerance) {
    const other = compute(alternative.input, adjustmentCents);
    if (Math.abs(sentTotal - other.totalCents) <= tolerance) {
      discountInput = alternative.input;
      stored = alternative.stored;
      t = other;
    }
  }

  // The adjustment may only round the total to a multiple of 10 (tender.roundingAdjustment).
  if (adjustmentCents !== 0 && adjustmentCents !== roundingAdjustment(t.totalCents)) {
    if (opt.status === ORDER_STATUS.ON_HOLD) t = compute(discountInput, 0); // re-checked when the held order is completed
    else v.push({ propertyPath: 'adjustment', message: `The adjustment can only round the total to a multiple of 10 (${toDecimalString(roundingAdjustment(t.totalCents))})` });
  }
  // What the client sent as a total is checked, never stored.
  if (input.total != null && !opt.skipTotalCheck && opt.status !== ORDER_STATUS.ON_HOLD) {
    const sent = safe(() => parseMoney(input.total), v, 'total');
    if (sent !== undefined && Math.abs(sent - t.totalCents) > tolerance) {
      v.push({
        propertyPath: 'total',
        message: `Total mismatch: the order comes to ${toDecimalString(t.totalCents)}, not ${toDecimalString(sent)}. Prices may have changed: reload the items.`,
      });
    }
  }
  fail(v);

  // Customer.
  let customerId = input.customerId;
  let customerName = input.customerName;
  if (original) {
    customerId = original.row.customerId;
    customerName = original.row.customerName;
  } else if (customerId != null) {
    const [c] = await tx.select({ id: customer.id }).from(customer).where(eq(customer.id, customerId));
    if (!c) v.push({ propertyPath: 'customerId', message: notFoundRef('Customer', customerId) });
  }

  // Payments.
  const typeBy = new Map(types.map((x) => [x.id, x]));
  const tendered: { index: number; receivedCents: Cents; type: PaymentTypeRef }[] = [];
  input.payments.forEach((p, i) => {
    const type = typeBy.get(p.typeId);
    if (!type) { v.push({ propertyPath: `payments[${i}].type`, message: notFoundRef('Payment', p.typeId) }); return; }
    const receivedCents = safe(() => parseMoney(p.received), v, `payments[${i}].received`);
    if (receivedCents === undefined) return;
    tendered.push({ index: i, receivedCents, type });
  });
  fail(v);
  const grand = t.grandTotalCents;
  const settling = opt.status === ORDER_STATUS.COMPLETED;
  // A zero payment is meaningless; for a zero total (everything discounted) the till sends one anyway.
  const kept = tendered.filter((p) => p.receivedCents !== 0 || (settling && grand !== 0));
  if (settling) {
    if (kept.length === 0 && grand !== 0) v.push({ propertyPath: 'payments', message: SALE_MESSAGES.noPayments });
    let already = 0;
    for (const p of kept) {
      const msg = validatePaymentAdd({ amountCents: p.receivedCents, paymentType: { name: p.type.name, canHaveChangeDue: p.type.canHaveChangeDue }, alreadyReceivedCents: already, totalCents: grand });
      if (msg) v.push({ propertyPath: `payments[${p.index}].received`, message: msg });
      already += p.receivedCents;
    }
    if (kept.length && !v.length) {
      const change = changeDue(grand, kept);
      if (grand >= 0 ? change < 0 : change > 0) {
        v.push({ propertyPath: 'payments', message: `The payments do not cover the total: ${toDecimalString(Math.abs(change))} still to ${grand >= 0 ? 'receive' : 'pay back'}` });
      }
    }
    kept.forEach((p) => {
      if (p.type.type === 'credit' && customerId == null) v.push({ propertyPath: `payments[${p.index}].type`, message: 'A customer is required for credit payments' });
    });
  }
  fail(v);
  const allocated = allocatePayments(grand, kept.map((p) => ({ receivedCents: p.receivedCents, canHaveChangeDue: p.type.canHaveChangeDue, type: p.type })));

  if (settling && customerId != null) {
    const newCredit = allocated.filter((p) => p.type.type === 'credit').reduce((s, p) => s + p.totalCents, 0);
    if (newCredit > 0) {
      // Lock the customer: two tills cannot both spend the same credit headroom.
      const [c] = await tx.select().from(customer).where(eq(customer.id, customerId)).for('update');
      const fig = (await loadCustomerFigures(tx, [customerId])).get(customerId);
      const msg = creditCheck({
        limitCents: c.creditLimit == null ? null : parseMoney(c.creditLimit),
        balanceCents: fig?.balance ?? 0,
        newCreditCents: newCredit,
        allowCredit: c.allowCreditSale,
      });
      if (msg) v.push({ propertyPath: 'payments', message: msg });
    }
  }
  fail(v);

  return {
    lines,
    totals: t,
    orderTax: orderTaxInfo,
    discount: stored,
    payments: allocated.map((p) => ({ typeId: p.type.id, totalCents: p.totalCents, receivedCents: p.receivedCents, dueCents: p.dueCents })),
    customerId,
    customerName,
    refs: { products: productBy, variants: variantBy, productTaxes: pTaxes, paymentTypes: typeBy, discountType, taxType },
  };
}

// ---------------------------------------------------------------------------------------------
// Writing: numbers, stock, content
// ---------------------------------------------------------------------------------------------

/**
 * Next number of a store, inside the sale's transaction: the counter row lock makes numbers unique
 * and gap-free (a rolled-back sale rolls its number back too). Take it as late as possible: the
 * lock is held until the commit.
 */
async function nextOrderNumber(tx: Tx, storeId: number): Promise<number> {
  const [row] = rowsOf<{ last_order_id: number }>(await tx.execute(counterBump(storeId)));
  return Number(row.last_order_id);
}

const counterBump = (storeId: number) => sql`insert into store_counter (store_id, last_order_id) values (${storeId}, 1)
  on conflict (store_id) do update set last_order_id = store_counter.last_order_id + 1 returning last_order_id`;

interface Move { productId: number; variantId: number | null; storeId: number | null; qtyMilli: number }

/**
 * Applies stock moves through lib/stock moveStocks: atomic set-based updates + ledger rows, the rows
 * locked in one fixed order (variants by id, then store rows by product), so concurrent sales queue
 * instead of deadlocking (a deadlock against another writer is retried by withRetry).
 */
async function applyMoves(tx: Tx, moves: Move[], meta: { orderId: number; reason: string; userId: number }) {
  await moveStocks(tx, moves.map(stockDelta), meta);
}

const stockDelta = (m: Move): StockDelta => ({ productId: m.productId, variantId: m.variantId, storeId: m.storeId, delta: quantityToString(m.qtyMilli) });

/** What a completed order takes off the shelves (a return line puts it back). */
function saleMoves(storeId: number, lines: PricedLine[]): StockDelta[] {
  const moves: Move[] = [];
  for (const l of lines) {
    if (!l.manageInventory) continue;
    // Variant stock is global (reference model); the store's product row moves too.
    if (l.variantId != null) moves.push({ productId: l.productId, variantId: l.variantId, storeId: null, qtyMilli: -l.qtyMilli });
    moves.push({ productId: l.productId, variantId: null, storeId, qtyMilli: -l.qtyMilli });
  }
  return moves.map(stockDelta);
}

/** Sum of an order's ledger rows per stock row (optionally only some reasons). */
async function ledgerOf(tx: Tx, orderId: number, reasons?: string[]): Promise<Move[]> {
  const rows = await tx.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    qty: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement)
    .where(reasons ? and(eq(stockMovement.orderId, orderId), inArray(stockMovement.reason, reasons)) : eq(stockMovement.orderId, orderId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);
  return rows.map((r) => ({ productId: r.productId, variantId: r.variantId, storeId: r.storeId, qtyMilli: parseQuantity(r.qty) }));
}

/** What the content statement wrote, as stored (the sale's answer is built from it). */
interface Written {
  lines: (typeof orderProduct.$inferSelect)[];
  lineTaxes: (typeof orderProductTax.$inferSelect)[];
  payments: (typeof orderPayment.$inferSelect)[];
  discount: typeof orderDiscount.$inferSelect | null;
  tax: typeof orderTax.$inferSelect | null;
}

type Stamped = { id: number; createdAt: string; updatedAt: string };
/** The content statement's answer (CONTENT_COLUMNS). */
interface ContentRow {
  lines: (Stamped & { n: number })[] | string | null;
  payments: (Stamped & { n: number })[] | string | null;
  discount: (Stamped & { typeId: number | null; rateType: string | null; rate: string | null; amount: string }) | string | null;
  tax: (Stamped & { typeId: number | null; rate: string; amount: string }) | string | null;
}

/** A new order's header as SALE_WRITE returns it. */
interface SaleHeader { id: number; orderId: number | null; createdAt: string; updatedAt: string; uuid: string }

/** The named values of contentCtes for a priced order. */
function contentParams(priced: PricedSale) {
  const { lines, totals } = priced;
  const num = (xs: string[]) => pgArray(xs);
  const ints = (xs: (number | null)[]) => pgArray(xs.map((x) => (x == null ? null : Math.trunc(x))));
  const taxRows = lines.flatMap((l, i) => l.taxes.map((t) => ({ n: i + 1, taxId: t.taxId, rate: toDecimalString(t.rate) })));
  const d = priced.discount;
  const x = priced.orderTax;
  return {
    l_products: ints(lines.map((l) => l.productId)), l_variants: ints(lines.map((l) => l.variantId)),
    l_quantities: num(lines.map((l) => quantityToString(l.qtyMilli))), l_prices: num(lines.map((l) => toDecimalString(l.priceCents))),
    l_discounts: num(lines.map((_, i) => toDecimalString(totals.lines[i].discountCents))),
    l_taxes_totals: num(lines.map((_, i) => toDecimalString(totals.lines[i].taxesTotalCents))), l_costs: num(lines.map((l) => toDecimalString(l.costCents))),
    t_lines: ints(taxRows.map((t) => t.n)), t_taxes: ints(taxRows.map((t) => t.taxId)), t_rates: num(taxRows.map((t) => t.rate)),
    p_types: ints(priced.payments.map((p) => p.typeId)), p_totals: num(priced.payments.map((p) => toDecimalString(p.totalCents))),
    p_received: num(priced.payments.map((p) => toDecimalString(p.receivedCents))), p_due: num(priced.payments.map((p) => toDecimalString(p.dueCents))),
    d_present: d != null, d_type: d?.typeId ?? null, d_rate_type: d?.rateType ?? null, d_rate: d ? toDecimalString(d.rate) : null,
    d_amount: toDecimalString(totals.discountTotalCents),
    x_present: x != null, x_type: x?.typeId ?? null, x_rate: x ? toDecimalString(x.rate) : null, x_amount: toDecimalString(totals.orderTaxCents),
  };
}

/** The rows of an order's content as stored, from what contentParams sent and the statement returned. */
function writtenOf(orderId: number, priced: PricedSale, row: ContentRow): Written {
  const { lines, totals } = priced;
  const stampedLines = (parseJson(row.lines) ?? []).sort((a, b) => a.n - b.n);
  const stampedPays = (parseJson(row.payments) ?? []).sort((a, b) => a.n - b.n);
  const stamps = (s: Stamped) => ({ id: s.id, orderId, createdAt: new Date(s.createdAt), updatedAt: new Date(s.updatedAt) });
  const written: Written = {
    lines: lines.map((l, i) => ({
      productId: l.productId, variantId: l.variantId, quantity: quantityToString(l.qtyMilli), price: toDecimalString(l.priceCents),
      discount: toDecimalString(totals.lines[i].discountCents), taxesTotal: toDecimalString(totals.lines[i].taxesTotalCents), cost: toDecimalString(l.costCents),
      ...stamps(stampedLines[i]), isSuspended: false, isDeleted: false, isReturned: false,
    })),
    lineTaxes: [],
    payments: priced.payments.map((p, i) => ({
      typeId: p.typeId, total: toDecimalString(p.totalCents), received: toDecimalString(p.receivedCents), due: toDecimalString(p.dueCents),
      ...stamps(stampedPays[i]),
    })),
    discount: null,
    tax: null,
  };
  written.lineTaxes = lines.flatMap((l, i) => l.taxes.map((t) => ({ orderProductId: written.lines[i].id, taxId: t.taxId, rate: toDecimalString(t.rate) })));
  const d = parseJson(row.discount);
  if (d) written.discount = { ...stamps(d), typeId: d.typeId, rateType: d.rateType, rate: d.rate, amount: d.amount };
  const x = parseJson(row.tax);
  if (x) written.tax = { ...stamps(x), typeId: x.typeId, rate: x.rate, amount: x.amount };
  return written;
}

/**
 * An order's content as WITH items (named parameters, values from contentParams; the order id is
 * `orderExpr`): the lines (:l_*), their tax rows (:t_* as line number, tax, rate), the payments
 * (:p_*), the order discount (:d_*, when :d_present) and the order tax (:x_*, when :x_present).
 * Line and payment ids are drawn first, one per input row in order (ids ascending), so the tax rows
 * can point at their line. Arrays and flags are `opaque`: one generic plan per connection.
 */
const contentCtes = (orderExpr: string) => `ids as materialized (
    select n, nextval(pg_get_serial_sequence('order_product', 'id'))::int as id from generate_series(1, cardinality(${opaque(':l_products', 'int[]')})) as n order by n),
  ol as (insert into order_product (id, "orderId", product_id, variant_id, quantity, price, discount, taxes_total, cost)
    select ids.id, ${orderExpr}, u.p, u.v, u.q, u.pr, u.d, u.tt, u.c
    from unnest(${opaque(':l_products', 'int[]')}, ${opaque(':l_variants', 'int[]')}, ${opaque(':l_quantities', 'numeric[]')}, ${opaque(':l_prices', 'numeric[]')}, ${opaque(':l_discounts', 'numeric[]')},
      ${opaque(':l_taxes_totals', 'numeric[]')}, ${opaque(':l_costs', 'numeric[]')}) with ordinality as u(p, v, q, pr, d, tt, c, n)
    join ids on ids.n = u.n order by u.n
    returning id, created_at, updated_at),
  olt as (insert into order_product_tax (order_product_id, tax_id, rate)
    select ids.id, x.t, x.r from unnest(${opaque(':t_lines', 'int[]')}, ${opaque(':t_taxes', 'int[]')}, ${opaque(':t_rates', 'numeric[]')}) as x(n, t, r) join ids on ids.n = x.n
    returning 1),
  pids as materialized (
    select n, nextval(pg_get_serial_sequence('order_payment', 'id'))::int as id from generate_series(1, cardinality(${opaque(':p_types', 'int[]')})) as n order by n),
  opy as (insert into order_payment (id, order_id, type_id, total, received, due)
    select pids.id, ${orderExpr}, y.t, y.tot, y.rec, y.due
    from unnest(${opaque(':p_types', 'int[]')}, ${opaque(':p_totals', 'numeric[]')}, ${opaque(':p_received', 'numeric[]')}, ${opaque(':p_due', 'numeric[]')}) with ordinality as y(t, tot, rec, due, n)
    join pids on pids.n = y.n order by y.n
    returning id, created_at, updated_at),
  odi as (insert into order_discount ("orderId", type_id, rate_type, rate, amount)
    select ${orderExpr}, :d_type::int, :d_rate_type::text, :d_rate::numeric, :d_amount::numeric where ${opaque(':d_present', 'boolean')}
    returning id, type_id, rate_type, rate, amount, created_at, updated_at),
  otx as (insert into order_tax ("orderId", type_id, rate, amount)
    select ${orderExpr}, :x_type::int, :x_rate::numeric, :x_amount::numeric where ${opaque(':x_present', 'boolean')}
    returning id, type_id, rate, amount, created_at, updated_at)`;
/** What contentCtes wrote, as ContentRow columns. */
const CONTENT_COLUMNS = `(select json_agg(json_build_object('n', ids.n, 'id', ol.id, 'createdAt', ol.created_at::text, 'updatedAt', ol.updated_at::text))
      from ol join ids on ids.id = ol.id) as lines,
    (select json_agg(json_build_object('n', pids.n, 'id', opy.id, 'createdAt', opy.created_at::text, 'updatedAt', opy.updated_at::text))
      from opy join pids on pids.id = opy.id) as payments,
    (select count(*) from olt)::int as taxes,
    (select json_build_object('id', id, 'typeId', type_id, 'rateType', rate_type, 'rate', rate::text, 'amount', amount::text,
      'createdAt', created_at::text, 'updatedAt', updated_at::text) from odi) as discount,
    (select json_build_object('id', id, 'typeId', type_id, 'rate', rate::text, 'amount', amount::text,
      'createdAt', created_at::text, 'updatedAt', updated_at::text) from otx) as tax`;
/** An order's content in ONE statement (an edited order's, after clearContent). */
const CONTENT = namedSql(`with ${contentCtes(':order_id::int')} select ${CONTENT_COLUMNS}`);

async function writeContent(tx: Tx, orderId: number, priced: PricedSale): Promise<Written> {
  const [row] = await preparedQuery<ContentRow>(tx, 'sale_content', CONTENT.text, CONTENT.bind({ ...contentParams(priced), order_id: orderId }));
  return writtenOf(orderId, priced, row);
}

/**
 * A new order in ONE statement, its own transaction when run outside one (a plain sale): the stock
 * moves and their ledger rows (lib/stock stockMoveCtes), the content (contentCtes), for a return
 * the original marked Returned (:returned_from), then the store's next number (:numbered) and the
 * header with its figures. Everything or nothing is written. The order's id is drawn first (`o`)
 * and the header row goes in last: foreign keys are checked at the end of the statement, when it
 * is there. The WITH items run in the order the answer reads them, so every sale takes its locks in
 * the same order: variant rows by id, store rows by product, and the store's counter row LAST. The
 * counter is what the sales of one store queue on (until the commit's WAL flush): taking it last
 * keeps that queue to the flush itself.
 * A stored client id fails the header on order_client_id_uq (createSale answers the first order);
 * a variant or product deleted since the pricing read fails the line's foreign key, so a variant
 * row the stock update did not find can never be committed with its sale.
 */
const SALE_WRITE = namedSql(`with o as materialized (select nextval(pg_get_serial_sequence('"order"', 'id'))::int as id),
  ${stockMoveCtes('(select id from o)')},
  ${contentCtes('(select id from o)')},
  rf as (update "order" set is_returned = true, status = :returned_status::text, updated_at = now() where id = ${opaque(':returned_from', 'int')} returning 1),
  n as (insert into store_counter (store_id, last_order_id) select :store_id::int, 1 where ${opaque(':numbered', 'boolean')}
    on conflict (store_id) do update set last_order_id = store_counter.last_order_id + 1 returning last_order_id),
  h as (insert into "order" (id, store_id, terminal_id, user_id, status, is_suspended, client_id, request_hash, returned_from_id, order_id,
      customer_id, customer_name, description, adjustment, sub_total, item_taxes, total, stock_applied)
    values ((select id from o), :store_id::int, :terminal_id::int, :user_id::int, :status::text, :held::boolean, :client_id::text, :request_hash::text,
      :returned_from::int, (select last_order_id from n), :customer_id::int, :customer_name::text, :notes::text, :adjustment::numeric,
      :sub_total::numeric, :item_taxes::numeric, :total::numeric, :stock_applied::boolean)
    returning id, order_id, created_at, updated_at, uuid)
  select array(select id from sv) as found, (select count(*) from ss)::int as stores, (select count(*) from sl)::int as ledger,
    ${CONTENT_COLUMNS}, (select count(*) from rf)::int as returned,
    (select json_build_object('id', id, 'orderId', order_id, 'createdAt', created_at::text, 'updatedAt', updated_at::text, 'uuid', uuid) from h) as header`);

async function clearContent(tx: Tx, orderId: number) {
  await tx.delete(orderProduct).where(eq(orderProduct.orderId, orderId));
  await tx.delete(orderPayment).where(eq(orderPayment.orderId, orderId));
  await tx.delete(orderDiscount).where(eq(orderDiscount.orderId, orderId));
  await tx.delete(orderTax).where(eq(orderTax.orderId, orderId));
}

/**
 * The answer to a new sale, built by the presenter's own orderDto from the rows this transaction
 * wrote (RETURNING) and the catalogue rows it priced from: the same DTO presentOrderById would
 * read back (sales.test.ts compares the two), without a dozen more queries.
 */
/** The store and terminal of an order, as the answer shows them. */
interface Place {
  terminal: { id: number; code: string; description: string | null };
  store: { id: number; name: string; location: string | null } & StoreSettingsJson;
}

function saleDto(row: OrderRow, priced: PricedSale, written: Written, place: Place, actor: AuthInfo): OrderDto {
  const { refs } = priced;
  const taxBy = new Map(refs.productTaxes.map((x) => [x.t.id, x.t]));
  if (refs.taxType) taxBy.set(refs.taxType.id, refs.taxType);
  const group = <T, K>(rows: T[], key: (r: T) => K) => {
    const m = new Map<K, T[]>();
    for (const r of rows) { const k = key(r); const l = m.get(k); if (l) l.push(r); else m.set(k, [r]); }
    return m;
  };
  return orderDto(row, {
    itemsBy: new Map([[row.id, written.lines]]),
    lineTaxesBy: group(written.lineTaxes.map((lt) => ({ lt, t: taxBy.get(lt.taxId)! })), (x) => x.lt.orderProductId),
    productTaxesBy: group(refs.productTaxes, (x) => x.productId),
    paymentsBy: new Map([[row.id, written.payments.map((p) => ({ p, t: p.typeId != null ? refs.paymentTypes.get(p.typeId) ?? null : null }))]]),
    discountBy: written.discount ? new Map([[row.id, { od: written.discount, t: refs.discountType }]]) : new Map(),
    taxBy: written.tax ? new Map([[row.id, { ot: written.tax, t: refs.taxType }]]) : new Map(),
    products: refs.products,
    variants: refs.variants,
    users: new Map([[actor.userId, { id: actor.userId, username: actor.username, displayName: actor.displayName }]]),
    stores: new Map([[place.store.id, place.store]]),
    terminals: new Map([[place.terminal.id, place.terminal]]),
    customers: new Map(),
    returnedFrom: new Map(),
    figures: null,
  });
}

// ---------------------------------------------------------------------------------------------
// Idempotency
// ---------------------------------------------------------------------------------------------

export interface SaleResult {
  id: number;
  replayed: boolean;
  /** The presented order when it was built from what the sale wrote (else the route reads it back). */
  order?: OrderDto;
}

class Replay extends Error {
  constructor(readonly id: number) { super('replay'); }
}

async function findByClientId(db: Db | Tx, clientId: string) {
  const [row] = await preparedQuery<{ id: number; storeId: number; requestHash: string | null }>(db, 'sale_by_client',
    'select id, store_id as "storeId", request_hash as "requestHash" from "order" where client_id = $1', [clientId]);
  return row;
}

function replay(prior: { id: number; storeId: number; requestHash: string | null }, hash: string, actor: AuthInfo): SaleResult {
  if (prior.requestHash !== hash || !actor.storeIds.includes(prior.storeId)) {
    throw conflict('This Idempotency-Key was already used for a different sale');
  }
  return { id: prior.id, replayed: true };
}

/** The lines of a return, as a comparable multiset. */
const lineSignature = (lines: { productId: number; variantId: number | null; qtyMilli: number }[]) =>
  lines.map((l) => `${l.productId}:${l.variantId ?? ''}:${l.qtyMilli}`).sort().join('|');

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/**
 * Who records a sale: the caller, or only the verified token's user id when the route leaves the
 * user row to the sale's own read (plugins/auth `callerInQuery`): one round trip less.
 */
export type SaleCaller = AuthInfo | { tokenUserId: number };

const resolveCaller = (db: Db, who: SaleCaller) => ('tokenUserId' in who ? requireCaller(db, who.tokenUserId) : Promise.resolve(who));

export interface SaleOptions {
  /** Idempotency-Key header (wins over the body's uuid / clientId). */
  clientId?: string | null;
  requestHash: string;
  now?: Date;
}

async function lockOrder(tx: Tx, id: number, actor: AuthInfo): Promise<OrderRow> {
  const [row] = await tx.select().from(order).where(eq(order.id, id)).for('update');
  if (!row || !actor.storeIds.includes(row.storeId)) throw notFound('Order not found');
  return row;
}

/**
 * An order's one read (READ_SQL), checked: the caller (401 when deactivated or gone), the store
 * (one of theirs, else 422) and its terminal (else 422), and what pricing reads.
 */
async function readOrder(q: Tx, input: SaleInput, who: SaleCaller, trusted: boolean): Promise<{ actor: AuthInfo; place: Place; pricing: Pricing }> {
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
 * A new order (a sale, or a return when refundingFrom is set) on `q`: the pool for a plain sale
 * (each statement its own transaction: one read, one write), a saleTransaction when the order needs
 * row locks (a return locks its original; a customer's credit is checked under a lock on them).
 */
async function createOrderOn(q: Tx, input: SaleInput, who: SaleCaller, clientId: string | null,
  opts: SaleOptions & { trustPaymentTypes?: boolean; skipTotalCheck?: boolean }, seen: { actor?: AuthInfo }): Promise<SaleResult> {
  const now = opts.now ?? new Date();
  const { actor, place, pricing } = await readOrder(q, input, who, Boolean(opts.trustPaymentTypes));
  seen.actor = actor;
  if (input.refundingFrom == null) return writeOrder(q, input, actor, clientId, opts, now, null, place, pricing);

  const v: Violation[] = [];
  const id = input.refundingFrom;
  const original = await loadOriginal(q, id, true);
  if (!original || !actor.storeIds.includes(original.row.storeId)) throw validationError([{ propertyPath: 'refundingFrom', message: notFoundRef('Order', id) }]);
  const o = original.row;
  if (input.status !== ORDER_STATUS.COMPLETED) v.push({ propertyPath: 'status', message: 'A return is completed at once: it cannot be held or pending' });
  if (o.storeId !== input.storeId) v.push({ propertyPath: 'store', message: `Order #${o.orderId} was sold in another store: return it there` });
  if (o.returnedFromId != null) v.push({ propertyPath: 'refundingFrom', message: 'A return cannot be refunded' });
  fail(v);
  if (o.isReturned) {
    // The same return submitted again (a retry, or the old client after POST refund/{id}): answer with it.
    const [existing] = await q.select({ id: order.id }).from(order).where(eq(order.returnedFromId, o.id));
    if (existing) {
      const lines = await q.select().from(orderProduct).where(eq(orderProduct.orderId, existing.id));
      const asked = input.items.map((l) => ({ productId: l.productId, variantId: l.variantId, qtyMilli: (() => { try { return parseQuantity(l.quantity); } catch { return NaN; } })() }));
      const have = lines.map((l) => ({ productId: l.productId, variantId: l.variantId, qtyMilli: parseQuantity(l.quantity) }));
      if (lineSignature(asked) === lineSignature(have)) throw new Replay(existing.id);
    }
    throw validationError([{ propertyPath: 'refundingFrom', message: `Order #${o.orderId} has already been returned` }]);
  }
  if (o.status !== ORDER_STATUS.COMPLETED && o.status !== ORDER_STATUS.DISPATCHED) {
    throw validationError([{ propertyPath: 'refundingFrom', message: `Order #${o.orderId ?? o.id} is ${o.status}: only completed orders can be refunded` }]);
  }
  return writeOrder(q, input, actor, clientId, opts, now, original, place, pricing);
}

/** Prices the order, then writes all of it (SALE_WRITE: one statement) and answers it. */
async function writeOrder(q: Tx, input: SaleInput, actor: AuthInfo, clientId: string | null, opts: SaleOptions & { trustPaymentTypes?: boolean; skipTotalCheck?: boolean },
  now: Date, original: OriginalOrder | null, place: Place, pricing: Pricing): Promise<SaleResult> {
  const held = input.status === ORDER_STATUS.ON_HOLD;
  const completed = input.status === ORDER_STATUS.COMPLETED;
  const priced = await priceSale(q, input, {
    storeId: input.storeId, now, status: input.status, original,
    skipTotalCheck: opts.skipTotalCheck, pricing,
  });
  const t = priced.totals;
  const figures = {
    customerId: priced.customerId, customerName: priced.customerName ?? null, description: input.notes ?? null,
    adjustment: toDecimalString(t.adjustmentCents), subTotal: toDecimalString(t.subTotalCents),
    itemTaxes: toDecimalString(t.itemTaxesCents), total: toDecimalString(t.totalCents),
  };
  const stock = stockMoveParams(completed ? saleMoves(input.storeId, priced.lines) : []);
  const [written] = await preparedQuery<ContentRow & { header: SaleHeader | string }>(q, 'sale_write', SALE_WRITE.text, SALE_WRITE.bind({
    ...stock.values, ...contentParams(priced),
    numbered: !held, store_id: input.storeId, terminal_id: input.terminalId, user_id: actor.userId, status: input.status, held,
    client_id: clientId, request_hash: opts.requestHash, returned_from: original?.row.id ?? null, returned_status: ORDER_STATUS.RETURNED,
    customer_id: figures.customerId, customer_name: figures.customerName, notes: figures.description, adjustment: figures.adjustment,
    sub_total: figures.subTotal, item_taxes: figures.itemTaxes, total: figures.total, stock_applied: completed,
    reason: original ? 'return' : 'sale', purchase_id: null,
  }));
  const w = parseJson(written.header);
  // An order with a customer (their balance figures) or a return (its original) is presented by
  // the route from the database; any other from what was just written (no second read).
  if (original || priced.customerId != null) return { id: w.id, replayed: false };
  const row: OrderRow = {
    id: w.id, orderId: w.orderId == null ? null : Number(w.orderId), userId: actor.userId, storeId: input.storeId, terminalId: input.terminalId,
    isSuspended: held, isDeleted: false, isReturned: false, isDispatched: false, status: input.status, previousStatus: null,
    ...figures, returnedFromId: null, stockApplied: completed, clientId, requestHash: opts.requestHash,
    // As Drizzle maps a timestamptz: the driver's text through new Date().
    createdAt: new Date(w.createdAt), updatedAt: new Date(w.updatedAt), uuid: w.uuid,
  };
  return { id: w.id, replayed: false, order: saleDto(row, priced, writtenOf(w.id, priced, written), place, actor) };
}

/**
 * Records a sale (POST /api/admin/order/create). Guarantees, in ONE transaction: the order, its
 * lines, payments, discount and tax, priced by the server (@pos/domain) — the client's total is
 * compared, never stored; a per-store order number that is unique and gap-free (none while on
 * hold); stock moved through the ledger for products that manage inventory, only for a completed
 * order; payment rules (no zero payment, exact amount for types without change, covered total,
 * credit only for a customer allowed credit within the limit, checked under a row lock). A return
 * (refundingFrom) prices its lines from the original, gives the stock back and marks the original
 * Returned; an order is returned at most once. A client id (Idempotency-Key / uuid) makes a retry
 * return the first result; the same id with a different body is a 409.
 */
export async function createSale(db: Db, input: SaleInput, who: SaleCaller, opts: SaleOptions): Promise<SaleResult> {
  const clientId = opts.clientId ?? input.clientId ?? null;
  // A sale's write claims the key (a stored key fails it); a return checks the key first, before
  // its checks on the original.
  if (clientId && input.refundingFrom != null) {
    const actor = await resolveCaller(db, who);
    const prior = await findByClientId(db, clientId);
    if (prior) return replay(prior, opts.requestHash, actor);
  }
  const seen: { actor?: AuthInfo } = {};
  try {
    // A plain sale needs no row lock: its read and its one write are each a transaction of their
    // own (READ COMMITTED reads nothing more inside one). Returns and customers' sales take locks.
    const locks = input.refundingFrom != null || input.customerId != null;
    return await withRetry(() => (locks
      ? saleTransaction(db, (tx) => createOrderOn(tx, input, who, clientId, opts, seen))
      : createOrderOn(db as unknown as Tx, input, who, clientId, opts, seen)));
  } catch (e) {
    if (e instanceof Replay) return { id: e.id, replayed: true };
    if (e instanceof AppError && e.status === 401) throw e;
    // A key already stored answers with its order, whatever this submission's own faults (a
    // retry must not turn into a 422 because, say, the credit headroom was used by the first).
    if (clientId && (isUniqueViolation(e, 'order_client_id_uq') || e instanceof AppError)) {
      const prior = await findByClientId(db, clientId);
      if (prior) return replay(prior, opts.requestHash, seen.actor ?? await resolveCaller(db, who));
    }
    if (isUniqueViolation(e, 'order_returned_from_uq')) {
      throw validationError([{ propertyPath: 'refundingFrom', message: 'This order has already been returned' }]);
    }
    throw e;
  }
}

/**
 * Edits a pending or held order (PUT /api/admin/order/edit/{id}), replacing its lines, payments,
 * discount, tax, customer and notes, repriced now. Completing it (status Completed, not suspended)
 * validates the payments, gives it a number if it has none and moves the stock, all in one
 * transaction under a lock on the order (two tills cannot complete it twice). A completed,
 * deleted, returned or dispatched order is not editable: it changes only through its actions.
 * The same edit body sent again answers the order as that edit left it (a retried settle).
 */
export async function updateSale(db: Db, id: number, input: SaleInput, actor: AuthInfo, opts: { now?: Date; requestHash?: string } = {}): Promise<SaleResult> {
  return withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    // The same edit sent again (a retried "Done" in payment mode) answers the order as it left it.
    if (opts.requestHash && row.requestHash === opts.requestHash) return { id: row.id, replayed: true };
    if (row.status !== ORDER_STATUS.PENDING && row.status !== ORDER_STATUS.ON_HOLD) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.status}: only pending and held orders can be edited` }]);
    }
    if (input.refundingFrom != null) throw validationError([{ propertyPath: 'refundingFrom', message: 'A return cannot be edited into an order: create the return instead' }]);
    if (input.storeId !== row.storeId) throw validationError([{ propertyPath: 'store', message: 'An order cannot move to another store' }]);
    const { pricing } = await readOrder(tx, input, actor, false);
    const priced = await priceSale(tx, input, { storeId: row.storeId, now: opts.now ?? new Date(), status: input.status, original: null, pricing });
    const held = input.status === ORDER_STATUS.ON_HOLD;
    const completed = input.status === ORDER_STATUS.COMPLETED;
    if (completed) await moveStocks(tx, saleMoves(row.storeId, priced.lines), { orderId: row.id, reason: 'sale', userId: actor.userId });
    await clearContent(tx, row.id);
    await writeContent(tx, row.id, priced);
    // The number last: the store's counter row stays locked only until the commit.
    const number = row.orderId ?? (held ? null : await nextOrderNumber(tx, row.storeId));
    await tx.update(order).set({
      orderId: number,
      status: input.status,
      isSuspended: held,
      terminalId: input.terminalId,
      customerId: priced.customerId,
      customerName: priced.customerName,
      description: input.notes,
      adjustment: toDecimalString(priced.totals.adjustmentCents),
      subTotal: toDecimalString(priced.totals.subTotalCents),
      itemTaxes: toDecimalString(priced.totals.itemTaxesCents),
      total: toDecimalString(priced.totals.totalCents),
      stockApplied: completed,
      requestHash: opts.requestHash ?? null,
      updatedAt: new Date(),
    }).where(eq(order.id, row.id));
    return { id: row.id, replayed: false };
  }));
}

/**
 * Refunds a whole order in one call (POST /api/admin/order/refund/{id}): creates the return order
 * (every line negated at its sold price, discount, taxes, adjustment and payments mirrored, same
 * payment types), gives the stock back, marks the original Returned. Once per order: a second
 * refund is a 422. Answers the return order.
 */
export async function refundSale(db: Db, id: number, actor: AuthInfo): Promise<SaleResult> {
  const snapshot = await db.transaction((tx) => loadOriginal(tx, id, false));
  if (!snapshot || !actor.storeIds.includes(snapshot.row.storeId)) throw notFound('Order not found');
  const o = snapshot.row;
  if (o.isReturned) throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
  if (o.returnedFromId != null) throw validationError([{ propertyPath: 'id', message: 'A return cannot be refunded' }]);
  if (o.status !== ORDER_STATUS.COMPLETED && o.status !== ORDER_STATUS.DISPATCHED) {
    throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId ?? o.id} is ${o.status}: only completed orders can be refunded` }]);
  }
  if (o.terminalId == null) throw validationError([{ propertyPath: 'terminal', message: 'The order has no terminal' }]);
  const input: SaleInput = {
    items: snapshot.lines.map((l) => ({
      productId: l.productId, variantId: l.variantId, quantity: quantityToString(-parseQuantity(l.quantity)),
      price: l.price, discount: null, taxIncluded: true,
    })),
    discountId: null, discountAmount: null, discountRateType: null, taxId: null,
    payments: snapshot.payments.filter((p) => p.typeId != null && parseMoney(p.total) !== 0)
      .map((p) => ({ received: toDecimalString(-parseMoney(p.total)), typeId: p.typeId! })),
    customerId: o.customerId, customerName: o.customerName, refundingFrom: o.id,
    notes: `Refund of order #${o.orderId}`, storeId: o.storeId, terminalId: o.terminalId,
    total: null, adjustment: toDecimalString(-parseMoney(o.adjustment)), isSuspended: false, status: ORDER_STATUS.COMPLETED, clientId: null,
  };
  try {
    return await withRetry(() => saleTransaction(db, (tx) => createOrderOn(tx, input, actor, `refund:${o.id}`, {
      requestHash: requestHash({ refund: o.id }), trustPaymentTypes: true, skipTotalCheck: true,
    }, {})));
  } catch (e) {
    if (e instanceof Replay) throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
    if (isUniqueViolation(e, 'order_client_id_uq') || isUniqueViolation(e, 'order_returned_from_uq')) {
      throw validationError([{ propertyPath: 'id', message: `Order #${o.orderId} has already been returned` }]);
    }
    throw e;
  }
}

/**
 * Deletes an order (DELETE /api/admin/order/{id}). A held order is removed outright (unsuspend:
 * the till reloads its lines). Otherwise the order is kept as Deleted (status remembered for
 * restore) and, if its stock was taken, the ledger gives it back. Cashiers may delete held and
 * pending orders; completed and dispatched ones need an admin. Returns and returned orders are
 * not deletable (their stock is already accounted for by the return).
 */
export async function deleteOrder(db: Db, id: number, actor: AuthInfo): Promise<{ removed: boolean }> {
  return withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    const label = `Order #${row.orderId ?? row.id}`;
    if (row.status === ORDER_STATUS.ON_HOLD) {
      await tx.delete(order).where(eq(order.id, row.id));
      return { removed: true };
    }
    if (row.status === ORDER_STATUS.DELETED) throw validationError([{ propertyPath: 'status', message: `${label} is already deleted` }]);
    if (row.status === ORDER_STATUS.RETURNED) throw validationError([{ propertyPath: 'status', message: `${label} has been returned and cannot be deleted` }]);
    if (row.returnedFromId != null) throw validationError([{ propertyPath: 'status', message: 'A return cannot be deleted' }]);
    if (row.status !== ORDER_STATUS.PENDING && !actor.isAdmin) throw forbidden('Only an administrator can delete a completed order');
    if (row.stockApplied) {
      const net = await ledgerOf(tx, row.id);
      await applyMoves(tx, net.map((m) => ({ ...m, qtyMilli: -m.qtyMilli })), { orderId: row.id, reason: 'delete', userId: actor.userId });
    }
    await tx.update(order).set({
      status: ORDER_STATUS.DELETED, previousStatus: row.status, isDeleted: true, stockApplied: false, updatedAt: new Date(),
    }).where(eq(order.id, row.id));
    return { removed: false };
  }));
}

/** Restores a deleted order to its previous status (admin); a completed or dispatched one takes its stock again. */
export async function restoreOrder(db: Db, id: number, actor: AuthInfo): Promise<void> {
  if (!actor.isAdmin) throw forbidden('Only an administrator can restore an order');
  await withRetry(() => db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    if (row.status !== ORDER_STATUS.DELETED) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.status}: only deleted orders can be restored` }]);
    }
    const status = (row.previousStatus as OrderStatus | null) ?? ORDER_STATUS.COMPLETED;
    const takesStock = status === ORDER_STATUS.COMPLETED || status === ORDER_STATUS.DISPATCHED;
    if (takesStock) {
      const applied = await ledgerOf(tx, row.id, ['sale', 'return']);
      await applyMoves(tx, applied, { orderId: row.id, reason: 'restore', userId: actor.userId });
    }
    await tx.update(order).set({
      status, previousStatus: null, isDeleted: false, stockApplied: takesStock, updatedAt: new Date(),
    }).where(eq(order.id, row.id));
  }));
}

/** Marks a completed sale as dispatched (goods handed over / shipped). */
export async function dispatchOrder(db: Db, id: number, actor: AuthInfo): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await lockOrder(tx, id, actor);
    if (row.status !== ORDER_STATUS.COMPLETED || row.returnedFromId != null) {
      throw validationError([{ propertyPath: 'status', message: `Order #${row.orderId ?? row.id} is ${row.returnedFromId != null ? 'a return' : row.status}: only completed sales can be dispatched` }]);
    }
    await tx.update(order).set({ status: ORDER_STATUS.DISPATCHED, isDispatched: true, updatedAt: new Date() }).where(eq(order.id, row.id));
  });
}

/** 404 unless the order exists in one of the caller's stores. */
export async function assertOrderVisible(db: Db, id: number, actor: AuthInfo): Promise<void> {
  const [row] = await db.select({ storeId: order.storeId }).from(order).where(eq(order.id, id));
  if (!row || !actor.storeIds.includes(row.storeId)) throw notFound('Order not found');
}

