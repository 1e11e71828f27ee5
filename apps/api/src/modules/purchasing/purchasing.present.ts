import { asc, eq, inArray } from 'drizzle-orm';
import { mulPriceQty, parseMoney, parseQuantity, quantityToString, toDecimal } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import {
  paymentType, product, productVariant, purchase, purchaseItem, purchaseItemVariant, purchaseOrder,
  purchaseOrderItem, purchaseOrderItemVariant, store, supplier, userAccount,
} from '../../db/schema/index.ts';
import { isoDate, moneyText, num, presentStoreBrief } from '../../lib/present.ts';

/**
 * Wire shapes of purchasing (reference client section 3): purchase and PO items embed the product
 * (`item`) and their variants embed the ProductVariant; quantities and prices of lines are strings,
 * totals are numbers.
 */
type Conn = Db | Tx;

const uniq = (ids: (number | null | undefined)[]) => [...new Set(ids.filter((x): x is number => x != null))];
/** numeric(20,3) "5.000" -> "5"; null stays null. */
export const qtyText = (v: string | null | undefined) => (v == null ? null : quantityToString(parseQuantity(v)));

export function presentVariant(v: typeof productVariant.$inferSelect) {
  return {
    '@id': `/api/product_variants/${v.id}`, '@type': 'ProductVariant', id: v.id, name: v.name,
    attributeName: v.attributeName, attributeValue: v.attributeValue, barcode: v.barcode, sku: v.sku,
    price: num(v.price), purchasePrice: num(v.purchasePrice), quantity: qtyText(v.quantity),
  };
}

/** Products (with their variants) by id, as purchase and PO lines embed them. */
export async function loadProducts(db: Conn, ids: number[]) {
  const out = new Map<number, Record<string, unknown>>();
  const unique = uniq(ids);
  if (!unique.length) return out;
  const rows = await (db as Db).select().from(product).where(inArray(product.id, unique));
  const variants = await (db as Db).select().from(productVariant).where(inArray(productVariant.productId, unique)).orderBy(asc(productVariant.id));
  for (const p of rows) {
    out.set(p.id, {
      '@id': `/api/products/${p.id}`, '@type': 'Product', id: p.id, name: p.name, sku: p.sku, barcode: p.barcode,
      basePrice: num(p.basePrice), cost: num(p.cost), purchaseUnit: p.purchaseUnit, saleUnit: p.saleUnit,
      manageInventory: p.manageInventory, isActive: p.isActive,
      variants: variants.filter((v) => v.productId === p.id).map(presentVariant),
    });
  }
  return out;
}

async function loadVariants(db: Conn, ids: number[]) {
  const unique = uniq(ids);
  const rows = unique.length ? await (db as Db).select().from(productVariant).where(inArray(productVariant.id, unique)) : [];
  return new Map(rows.map((v) => [v.id, presentVariant(v)]));
}

export function presentSupplierBrief(s: typeof supplier.$inferSelect) {
  return {
    '@id': `/api/suppliers/${s.id}`, '@type': 'Supplier', id: s.id, name: s.name, phone: s.phone, email: s.email,
    openingBalance: num(s.openingBalance), isActive: s.isActive,
  };
}

async function loadSuppliers(db: Conn, ids: (number | null)[]) {
  const unique = uniq(ids);
  const rows = unique.length ? await (db as Db).select().from(supplier).where(inArray(supplier.id, unique)) : [];
  return new Map(rows.map((s) => [s.id, presentSupplierBrief(s)]));
}

async function loadStores(db: Conn, ids: (number | null)[]) {
  const unique = uniq(ids);
  const rows = unique.length ? await (db as Db).select().from(store).where(inArray(store.id, unique)) : [];
  return new Map(rows.map((s) => [s.id, presentStoreBrief(s)]));
}

/** Purchase orders with supplier, store and items (item and variants embedded). */
export async function presentPurchaseOrders(db: Conn, rows: (typeof purchaseOrder.$inferSelect)[]) {
  const ids = rows.map((r) => r.id);
  const items = ids.length ? await (db as Db).select().from(purchaseOrderItem).where(inArray(purchaseOrderItem.purchaseOrderId, ids)).orderBy(asc(purchaseOrderItem.id)) : [];
  const itemIds = items.map((i) => i.id);
  const variants = itemIds.length ? await (db as Db).select().from(purchaseOrderItemVariant).where(inArray(purchaseOrderItemVariant.purchaseOrderItemId, itemIds)).orderBy(asc(purchaseOrderItemVariant.id)) : [];
  const [products, variantMap, suppliers, stores] = await allOn(db, [
    () => loadProducts(db, items.map((i) => i.itemId)),
    () => loadVariants(db, variants.map((v) => v.variantId)),
    () => loadSuppliers(db, rows.map((r) => r.supplierId)),
    () => loadStores(db, rows.map((r) => r.storeId)),
  ]);
  return rows.map((po) => ({
    id: po.id, poNumber: po.poNumber, isUsed: po.isUsed,
    supplier: suppliers.get(po.supplierId) ?? null,
    store: stores.get(po.storeId) ?? null,
    items: items.filter((i) => i.purchaseOrderId === po.id).map((i) => ({
      '@id': `/api/purchase_order_items/${i.id}`, '@type': 'PurchaseOrderItem', id: i.id,
      item: products.get(i.itemId) ?? null, quantity: qtyText(i.quantity), price: moneyText(i.price), unit: i.unit, comments: i.comments,
      variants: variants.filter((v) => v.purchaseOrderItemId === i.id).map((v) => ({
        '@id': `/api/purchase_order_item_variants/${v.id}`, '@type': 'PurchaseOrderItemVariant', id: v.id,
        variant: variantMap.get(v.variantId) ?? null, quantity: qtyText(v.quantity), purchasePrice: moneyText(v.purchasePrice),
        purchaseUnit: v.purchaseUnit, comments: v.comments,
      })),
    })),
    createdAt: isoDate(po.createdAt), updatedAt: isoDate(po.updatedAt), uuid: po.uuid,
  }));
}

/** Purchase lines (item and variants embedded), in the given order. */
async function presentItems(db: Conn, items: (typeof purchaseItem.$inferSelect)[]) {
  const itemIds = items.map((i) => i.id);
  const variants = itemIds.length ? await (db as Db).select().from(purchaseItemVariant).where(inArray(purchaseItemVariant.purchaseItemId, itemIds)).orderBy(asc(purchaseItemVariant.id)) : [];
  const [products, variantMap] = await allOn(db, [() => loadProducts(db, items.map((i) => i.itemId)), () => loadVariants(db, variants.map((v) => v.variantId))]);
  return items.map((i) => ({
    '@id': `/api/purchase_items/${i.id}`, '@type': 'PurchaseItem', id: i.id,
    item: products.get(i.itemId) ?? null, quantity: qtyText(i.quantity), quantityRequested: qtyText(i.quantityRequested),
    purchasePrice: moneyText(i.purchasePrice), purchaseUnit: i.purchaseUnit, barcode: i.barcode, comments: i.comments,
    variants: variants.filter((v) => v.purchaseItemId === i.id).map((v) => ({
      '@id': `/api/purchase_item_variants/${v.id}`, '@type': 'PurchaseItemVariant', id: v.id,
      variant: variantMap.get(v.variantId) ?? null, quantity: qtyText(v.quantity), quantityRequested: qtyText(v.quantityRequested),
      purchasePrice: moneyText(v.purchasePrice), purchaseUnit: v.purchaseUnit, comments: v.comments,
    })),
    createdAt: isoDate(i.createdAt),
  }));
}

/** Purchase lines of many purchases, keyed by purchase id. */
async function presentPurchaseLines(db: Conn, purchaseIds: number[]) {
  const out = new Map<number, Record<string, unknown>[]>();
  if (!purchaseIds.length) return out;
  const items = await (db as Db).select().from(purchaseItem).where(inArray(purchaseItem.purchaseId, purchaseIds)).orderBy(asc(purchaseItem.id));
  const presented = await presentItems(db, items);
  items.forEach((i, k) => {
    const list = out.get(i.purchaseId) ?? [];
    list.push(presented[k]);
    out.set(i.purchaseId, list);
  });
  return out;
}

/** /api/purchase_items rows: the line plus its purchase {@id, purchaseNumber, createdAt} and line total. */
export async function presentPurchaseItemRows(db: Conn, items: (typeof purchaseItem.$inferSelect)[]) {
  const [presented, purchases] = await allOn(db, [() => presentItems(db, items), () => purchaseBriefs(db, items.map((i) => i.purchaseId))]);
  return items.map((i, k) => {
    const { '@id': _id, '@type': _type, ...rest } = presented[k];
    void _id; void _type;
    return { ...rest, purchase: purchases.get(i.purchaseId) ?? null, total: toDecimal(mulPriceQty(parseMoney(i.purchasePrice), parseQuantity(i.quantity))) };
  });
}

/** Purchases with supplier, store, purchasedBy, purchaseOrder, paymentType and items embedded. */
export async function presentPurchases(db: Conn, rows: (typeof purchase.$inferSelect)[]) {
  const poIds = uniq(rows.map((r) => r.purchaseOrderId));
  const poRows = poIds.length ? await (db as Db).select().from(purchaseOrder).where(inArray(purchaseOrder.id, poIds)) : [];
  const typeIds = uniq(rows.map((r) => r.paymentTypeId));
  const userIds = uniq(rows.map((r) => r.purchasedById));
  const [lines, suppliers, stores, pos, types, users] = await allOn(db, [
    () => presentPurchaseLines(db, rows.map((r) => r.id)),
    () => loadSuppliers(db, rows.map((r) => r.supplierId)),
    () => loadStores(db, rows.map((r) => r.storeId)),
    () => presentPurchaseOrders(db, poRows),
    () => typeIds.length ? (db as Db).select().from(paymentType).where(inArray(paymentType.id, typeIds)) : Promise.resolve([]),
    () => userIds.length ? (db as Db).select({ id: userAccount.id, username: userAccount.username, displayName: userAccount.displayName }).from(userAccount).where(inArray(userAccount.id, userIds)) : Promise.resolve([]),
  ]);
  const poById = new Map(pos.map((p) => [p.id, { '@id': `/api/purchase_orders/${p.id}`, '@type': 'PurchaseOrder', ...p }]));
  return rows.map((p) => {
    const t = types.find((x) => x.id === p.paymentTypeId);
    const u = users.find((x) => x.id === p.purchasedById);
    return {
      id: p.id, purchaseNumber: p.purchaseNumber, purchaseMode: p.purchaseMode,
      purchaseOrder: p.purchaseOrderId ? (poById.get(p.purchaseOrderId) ?? null) : null,
      supplier: p.supplierId ? (suppliers.get(p.supplierId) ?? null) : null,
      paymentType: t ? { '@id': `/api/payments/${t.id}`, '@type': 'Payment', id: t.id, name: t.name, type: t.type } : null,
      store: stores.get(p.storeId) ?? null,
      purchasedBy: u ? { '@id': `/api/users/${u.id}`, '@type': 'User', id: u.id, username: u.username, displayName: u.displayName } : null,
      updateStocks: p.updateStocks, updatePrice: p.updatePrice, total: num(p.total),
      items: lines.get(p.id) ?? [],
      createdAt: isoDate(p.createdAt), updatedAt: isoDate(p.updatedAt), uuid: p.uuid,
    };
  });
}

/** Purchase brief for payments and purchase-item rows. */
export async function purchaseBriefs(db: Conn, ids: (number | null)[]) {
  const unique = uniq(ids);
  const rows = unique.length ? await (db as Db).select({ id: purchase.id, purchaseNumber: purchase.purchaseNumber, createdAt: purchase.createdAt, total: purchase.total })
    .from(purchase).where(inArray(purchase.id, unique)) : [];
  return new Map(rows.map((p) => [p.id, {
    '@id': `/api/purchases/${p.id}`, '@type': 'Purchase', id: p.id, purchaseNumber: p.purchaseNumber,
    createdAt: isoDate(p.createdAt), total: num(p.total),
  }]));
}

export async function presentSupplierPayment(db: Conn, rows: { id: number; amount: string; description: string | null; purchaseId: number | null; supplierId: number; isActive: boolean; createdAt: Date; updatedAt: Date; uuid: string }[]) {
  const purchases = await purchaseBriefs(db, rows.map((r) => r.purchaseId));
  return rows.map((p) => ({
    id: p.id, amount: num(p.amount), description: p.description,
    purchase: p.purchaseId ? (purchases.get(p.purchaseId) ?? null) : null,
    supplier: `/api/suppliers/${p.supplierId}`, isActive: p.isActive,
    createdAt: isoDate(p.createdAt), updatedAt: isoDate(p.updatedAt), uuid: p.uuid,
  }));
}

export async function loadPurchase(db: Conn, id: number) {
  const [row] = await (db as Db).select().from(purchase).where(eq(purchase.id, id));
  return row;
}
