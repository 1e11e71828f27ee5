import { asc, eq, inArray } from 'drizzle-orm';
import { notFound } from '@pos/domain/errors';
import { minorToDecimal, parseMinor, parseQuantity, quantityToDecimal } from '@pos/domain/money';
import { currencyDigits } from '@pos/domain/currency';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import {
  customer, discount, order, orderDiscount, orderPayment, orderProduct, orderProductTax, orderTax, paymentType,
  product, productTax, productVariant, store, tax, terminal, userAccount,
} from '../../db/schema/index.ts';
import { isoDate, num, storeSettingsJson, type StoreSettingsJson } from '../../lib/present.ts';
import { loadCustomerFigures, presentCustomerFields } from '../customer-account/customer.figures.ts';

type OrderRow = typeof order.$inferSelect;

const byId = async <T extends { id: number }>(load: (ids: number[]) => Promise<T[]>, ids: (number | null | undefined)[]) => {
  const unique = [...new Set(ids.filter((x): x is number => x != null))];
  const rows = unique.length ? await load(unique) : [];
  return new Map(rows.map((r) => [r.id, r]));
};

const groupBy = <T, K>(rows: T[], key: (r: T) => K) => {
  const m = new Map<K, T[]>();
  for (const r of rows) {
    const k = key(r);
    const list = m.get(k);
    if (list) list.push(r); else m.set(k, [r]);
  }
  return m;
};

const taxBrief = (t: { id: number; name: string; rate: string }) => ({ '@id': `/api/taxes/${t.id}`, '@type': 'Tax', id: t.id, name: t.name, rate: num(t.rate) });

export interface PresentOptions {
  /** Embed the customer. Off inside a customer's own order list. */
  withCustomer?: boolean;
  /** Add the customer's sale/paid/outstanding/balance (single orders; lists leave them out). */
  customerFigures?: boolean;
}

/**
 * Orders as the reference OrderDto (reference-server 2.3), batch-loaded: embedded items with their
 * product, variant and taxes, order discount and tax with their types, payments with their type,
 * customer, user, store, terminal, returnedFrom; money as JSON numbers. Adds `subTotal`, `total`
 * (server-computed, without the adjustment), `grandTotal` (with it) and `customerName`.
 */
export async function presentOrders(db: Db | Tx, rows: OrderRow[], opts: PresentOptions = {}) {
  if (!rows.length) return [];
  const d = db as Db;
  const ids = rows.map((r) => r.id);
  // At once on the pool; one after the other inside a transaction (db/concurrent.ts).
  const [items, payments, discounts, taxes] = await allOn(db, [
    () => d.select().from(orderProduct).where(inArray(orderProduct.orderId, ids)).orderBy(asc(orderProduct.id)),
    () => d.select({ p: orderPayment, t: paymentType }).from(orderPayment).leftJoin(paymentType, eq(paymentType.id, orderPayment.typeId))
      .where(inArray(orderPayment.orderId, ids)).orderBy(asc(orderPayment.id)),
    () => d.select({ od: orderDiscount, t: discount }).from(orderDiscount).leftJoin(discount, eq(discount.id, orderDiscount.typeId))
      .where(inArray(orderDiscount.orderId, ids)),
    () => d.select({ ot: orderTax, t: tax }).from(orderTax).leftJoin(tax, eq(tax.id, orderTax.typeId)).where(inArray(orderTax.orderId, ids)),
  ]);
  const itemIds = items.map((i) => i.id);
  const productIds = [...new Set(items.map((i) => i.productId))];
  const [lineTaxes, products, productTaxes, variants, users, stores, terminals, customers, returnedFrom] = await allOn(db, [
    () => itemIds.length ? d.select({ lt: orderProductTax, t: tax }).from(orderProductTax).innerJoin(tax, eq(tax.id, orderProductTax.taxId))
      .where(inArray(orderProductTax.orderProductId, itemIds)) : Promise.resolve([]),
    () => byId((u) => d.select().from(product).where(inArray(product.id, u)), productIds),
    () => productIds.length ? d.select({ productId: productTax.productId, t: tax }).from(productTax).innerJoin(tax, eq(tax.id, productTax.otherId))
      .where(inArray(productTax.productId, productIds)).orderBy(asc(tax.id)) : Promise.resolve([]),
    () => byId((u) => d.select().from(productVariant).where(inArray(productVariant.id, u)), items.map((i) => i.variantId)),
    () => byId((u) => d.select().from(userAccount).where(inArray(userAccount.id, u)), rows.map((r) => r.userId)),
    () => byId((u) => d.select().from(store).where(inArray(store.id, u)), rows.map((r) => r.storeId)),
    () => byId((u) => d.select().from(terminal).where(inArray(terminal.id, u)), rows.map((r) => r.terminalId)),
    () => opts.withCustomer === false ? Promise.resolve(new Map<number, typeof customer.$inferSelect>())
      : byId((u) => d.select().from(customer).where(inArray(customer.id, u)), rows.map((r) => r.customerId)),
    () => byId((u) => d.select().from(order).where(inArray(order.id, u)), rows.map((r) => r.returnedFromId)),
  ]);
  const figures = opts.customerFigures && customers.size ? await loadCustomerFigures(d, [...customers.keys()]) : null;
  const parts: OrderParts = {
    itemsBy: groupBy(items, (i) => i.orderId),
    lineTaxesBy: groupBy(lineTaxes, (x) => x.lt.orderProductId),
    productTaxesBy: groupBy(productTaxes, (x) => x.productId),
    paymentsBy: groupBy(payments, (x) => x.p.orderId),
    discountBy: new Map(discounts.map((x) => [x.od.orderId, x])),
    taxBy: new Map(taxes.map((x) => [x.ot.orderId, x])),
    products, variants, users, stores, terminals, customers, returnedFrom, figures,
  };
  return rows.map((o) => orderDto(o, parts));
}

type PresentedProduct = Pick<typeof product.$inferSelect, 'id' | 'name' | 'sku' | 'barcode' | 'baseQuantity' | 'isAvailable' | 'basePrice'
  | 'cost' | 'saleUnit' | 'purchaseUnit' | 'manageInventory' | 'isActive' | 'uuid'>;

/** Everything an order's DTO is built from, by id (what presentOrders batch-loads). */
export interface OrderParts {
  itemsBy: Map<number, (typeof orderProduct.$inferSelect)[]>;
  lineTaxesBy: Map<number, { lt: Pick<typeof orderProductTax.$inferSelect, 'rate' | 'amount'>; t: Pick<typeof tax.$inferSelect, 'id' | 'name' | 'rate'> }[]>;
  productTaxesBy: Map<number, { t: Pick<typeof tax.$inferSelect, 'id' | 'name' | 'rate'> }[]>;
  paymentsBy: Map<number, { p: typeof orderPayment.$inferSelect; t: Pick<typeof paymentType.$inferSelect, 'id' | 'name' | 'type' | 'canHaveChangeDue'> | null }[]>;
  discountBy: Map<number, { od: typeof orderDiscount.$inferSelect; t: typeof discount.$inferSelect | null }>;
  taxBy: Map<number, { ot: typeof orderTax.$inferSelect; t: typeof tax.$inferSelect | null }>;
  products: Map<number, PresentedProduct>;
  variants: Map<number, Pick<typeof productVariant.$inferSelect, 'id' | 'name' | 'attributeName' | 'attributeValue' | 'barcode' | 'sku' | 'price'>>;
  users: Map<number, Pick<typeof userAccount.$inferSelect, 'id' | 'username' | 'displayName'>>;
  stores: Map<number, Pick<typeof store.$inferSelect, 'id' | 'name' | 'location'> & StoreSettingsJson>;
  terminals: Map<number, Pick<typeof terminal.$inferSelect, 'id' | 'code' | 'description'>>;
  customers: Map<number, typeof customer.$inferSelect>;
  returnedFrom: Map<number, OrderRow>;
  figures: Awaited<ReturnType<typeof loadCustomerFigures>> | null;
}

/** One order as the reference OrderDto, from its parts (no database access). */
export function orderDto(o: OrderRow, x: OrderParts) {
  const { products, variants, users, stores, terminals, customers, returnedFrom, figures } = x;
  const presentProduct = (p: PresentedProduct) => ({
    '@id': `/api/products/${p.id}`, '@type': 'Product',
    id: p.id, name: p.name, sku: p.sku, barcode: p.barcode, baseQuantity: p.baseQuantity, isAvailable: p.isAvailable,
    basePrice: num(p.basePrice), cost: num(p.cost), saleUnit: p.saleUnit, purchaseUnit: p.purchaseUnit,
    manageInventory: p.manageInventory, isActive: p.isActive, uuid: p.uuid,
    taxes: (x.productTaxesBy.get(p.id) ?? []).map((pt) => taxBrief(pt.t)),
    // Always arrays: the reference client maps over them without checking.
    variants: [], prices: [], categories: [], brands: [], suppliers: [], stores: [], terminals: [],
  });
  const od = x.discountBy.get(o.id);
  const ot = x.taxBy.get(o.id);
  const u = o.userId != null ? users.get(o.userId) : undefined;
  const s = stores.get(o.storeId);
  const t = o.terminalId != null ? terminals.get(o.terminalId) : undefined;
  const c = o.customerId != null ? customers.get(o.customerId) : undefined;
  const rf = o.returnedFromId != null ? returnedFrom.get(o.returnedFromId) : undefined;
  const discountAmount = od ? num(od.od.amount) ?? 0 : 0;
  const digits = s ? currencyDigits(s.currency) : 2;
  const isReturn = o.returnedFromId != null;
  const taxAmount = ot ? num(ot.ot.amount) ?? 0 : 0;
  return {
    '@id': `/api/orders/${o.id}`,
    '@type': 'Order',
    id: o.id,
    orderId: o.orderId,
    customer: c ? presentCustomerFields(c, figures ? figures.get(c.id) : null)
      : o.customerName ? { id: null, name: o.customerName } : null,
    customerName: o.customerName,
    isSuspended: o.isSuspended,
    isDeleted: o.isDeleted,
    isReturned: o.isReturned,
    isDispatched: o.isDispatched,
    user: u ? { '@id': `/api/users/${u.id}`, id: u.id, username: u.username, displayName: u.displayName } : null,
    items: (x.itemsBy.get(o.id) ?? []).map((i) => {
      const p = products.get(i.productId)!;
      const v = i.variantId != null ? variants.get(i.variantId) : undefined;
      return {
        '@id': `/api/order_products/${i.id}`,
        '@type': 'OrderProduct',
        id: i.id,
        product: p ? presentProduct(p) : null,
        variant: v ? {
          '@id': `/api/product_variants/${v.id}`, '@type': 'ProductVariant', id: v.id, name: v.name,
          attributeName: v.attributeName, attributeValue: v.attributeValue, barcode: v.barcode, sku: v.sku, price: num(v.price),
        } : null,
        quantity: num(i.quantity),
        price: num(i.price),
        discount: num(i.discount),
        cost: num(i.cost),
        // `amount`: this line's tax at that rate as stored (a partial refund takes its share of it, issue 19).
        taxes: (x.lineTaxesBy.get(i.id) ?? []).map((lt) => ({ ...taxBrief(lt.t), rate: num(lt.lt.rate), amount: num(lt.lt.amount) })),
        taxesTotal: num(i.taxesTotal),
        /** Net of every discount and of tax: what the line's taxes were computed on. */
        taxable: num(i.taxable),
        orderDiscount: num(i.orderDiscount),
        returnedQuantity: num(i.returnedQuantity),
        refundableQuantity: isReturn ? 0 : quantityToDecimal(Math.max(parseQuantity(i.quantity) - parseQuantity(i.returnedQuantity), 0)),
        // Taxes listed on a line are the ones applied to it.
        taxIncluded: true,
        isSuspended: i.isSuspended,
        isDeleted: i.isDeleted,
        isReturned: i.isReturned,
        createdAt: isoDate(i.createdAt),
        updatedAt: isoDate(i.updatedAt),
      };
    }),
    discount: od ? {
      id: od.od.id, rate: num(od.od.rate), rateType: od.od.rateType, amount: discountAmount,
      type: od.t ? { '@id': `/api/discounts/${od.t.id}`, '@type': 'Discount', id: od.t.id, name: od.t.name, rate: num(od.t.rate), rateType: od.t.rateType, scope: od.t.scope } : null,
    } : null,
    tax: ot ? {
      id: ot.ot.id, rate: num(ot.ot.rate), amount: taxAmount,
      type: ot.t ? taxBrief(ot.t) : null,
    } : null,
    itemTaxes: num(o.itemTaxes),
    payments: (x.paymentsBy.get(o.id) ?? []).map(({ p, t: pt }) => ({
      id: p.id, total: num(p.total), received: num(p.received), due: num(p.due),
      // A cash-like tender: what the customer handed over and the change given back (issue 19).
      ...(pt?.canHaveChangeDue ? { tendered: num(p.received), change: num(p.due) } : {}),
      type: pt ? { '@id': `/api/payments/${pt.id}`, '@type': 'Payment', id: pt.id, name: pt.name, type: pt.type, canHaveChangeDue: pt.canHaveChangeDue } : null,
    })),
    createdAt: isoDate(o.createdAt),
    updatedAt: isoDate(o.updatedAt),
    status: o.status,
    returnedFrom: rf ? { '@id': `/api/orders/${rf.id}`, id: rf.id, orderId: rf.orderId, createdAt: isoDate(rf.createdAt) } : null,
    notes: o.description,
    description: o.description,
    store: s ? { '@id': `/api/stores/${s.id}`, '@type': 'Store', id: s.id, name: s.name, location: s.location, ...storeSettingsJson(s) } : null,
    terminal: t ? { '@id': `/api/terminals/${t.id}`, '@type': 'Terminal', id: t.id, code: t.code, description: t.description } : null,
    adjustment: num(o.adjustment),
    subTotal: num(o.subTotal),
    total: num(o.total),
    rounding: num(o.rounding),
    grandTotal: minorToDecimal(parseMinor(o.total, digits) + parseMinor(o.adjustment, digits) + parseMinor(o.rounding, digits), digits),
    taxMode: o.taxMode,
    taxBreakdown: taxBreakdownOf(x.itemsBy.get(o.id) ?? [], x.lineTaxesBy, ot ? { rate: ot.ot.rate, amount: ot.ot.amount, name: ot.t?.name ?? null } : null, digits),
    uuid: o.uuid,
  };
}

/**
 * The order's tax per rate, from the stored lines: for each tax, `net` = the sum of the taxable
 * amounts of the lines it applies to, `tax` = its amounts, `gross` = net + tax; the order tax
 * (rate on every line's taxable amount) is its own row. Untaxed lines appear in no row.
 */
function taxBreakdownOf(items: (typeof orderProduct.$inferSelect)[], lineTaxesBy: OrderParts['lineTaxesBy'],
  orderTaxRow: { rate: string; amount: string; name: string | null } | null, digits: number) {
  const rows = new Map<number | 'order', { rate: number | null; name: string | null; net: number; tax: number }>();
  for (const i of items) {
    const taxable = parseMinor(i.taxable, digits);
    for (const { lt, t } of lineTaxesBy.get(i.id) ?? []) {
      const row = rows.get(t.id) ?? { rate: num(lt.rate), name: t.name, net: 0, tax: 0 };
      row.net += taxable;
      row.tax += parseMinor(lt.amount, digits);
      rows.set(t.id, row);
    }
  }
  if (orderTaxRow) {
    const net = items.reduce((a, i) => a + parseMinor(i.taxable, digits), 0);
    rows.set('order', { rate: num(orderTaxRow.rate), name: orderTaxRow.name, net, tax: parseMinor(orderTaxRow.amount, digits) });
  }
  return [...rows.values()].map((r) => ({
    rate: r.rate, name: r.name, net: minorToDecimal(r.net, digits), tax: minorToDecimal(r.tax, digits), gross: minorToDecimal(r.net + r.tax, digits),
  }));
}

export type OrderDto = Awaited<ReturnType<typeof presentOrders>>[number];

/** One order as presented; 404 when it does not exist. (Store scoping is the caller's job.) */
export async function presentOrderById(db: Db | Tx, id: number, opts: PresentOptions = { customerFigures: true }): Promise<OrderDto> {
  const rows = await (db as Db).select().from(order).where(eq(order.id, id)).limit(1);
  if (!rows.length) throw notFound('Order not found');
  const [dto] = await presentOrders(db, rows, opts);
  return dto;
}
