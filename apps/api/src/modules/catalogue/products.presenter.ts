import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import {
  brand, category, department, product, productBrand, productCategory, productPrice, productStore, productSupplier,
  productTax, productTerminal, productVariant, store, supplier, tax, terminal,
} from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { num } from '../../lib/present.ts';
import { ld, scopes, stamps, trimDecimal, type LinkTable } from './shared.ts';

type ProductRow = typeof product.$inferSelect;
type VariantRow = typeof productVariant.$inferSelect;
type PriceRow = typeof productPrice.$inferSelect;

const hhmm = (t: string | null) => (t ? t.slice(0, 5) : null);

export function presentPrice(p: PriceRow) {
  return {
    id: p.id, date: p.date, time: hhmm(p.time), timeTo: hhmm(p.timeTo), day: p.day, week: p.week, month: p.month, quarter: p.quarter,
    rate: num(p.rate), minQuantity: num(p.minQuantity), maxQuantity: num(p.maxQuantity), basePrice: num(p.basePrice), baseQuantity: num(p.baseQuantity),
    productVariant: p.productVariantId ? `/api/product_variants/${p.productVariantId}` : null,
  };
}

/** A variant as embedded in a product: price null = the product's price applies; quantity is global stock. */
export function presentVariant(v: VariantRow, prices: PriceRow[] = []) {
  return ld('product_variants', 'ProductVariant', {
    id: v.id, name: v.name, attributeName: v.attributeName, attributeValue: v.attributeValue, barcode: v.barcode, sku: v.sku,
    price: num(v.price), purchasePrice: num(v.purchasePrice), quantity: num(v.quantity) ?? 0,
    prices: prices.filter((p) => p.productVariantId === v.id).map(presentPrice),
    product: `/api/products/${v.productId}`, ...stamps(v),
  });
}

/** Loads the other side of a product link table for many products, limited to what the caller may see. */
async function linked<T extends { id: number }>(db: Db | Tx, link: LinkTable, other: any, ids: number[], scope: SQL | undefined): Promise<Map<number, T[]>> {
  const out = new Map<number, T[]>();
  if (!ids.length) return out;
  const where = scope ? and(inArray(link.productId, ids), scope) : inArray(link.productId, ids);
  const rows = await (db as Db).select({ productId: link.productId, o: other }).from(link as any)
    .innerJoin(other, eq(other.id as PgColumn, link.otherId)).where(where).orderBy(asc(other.id as PgColumn));
  for (const r of rows as any[]) {
    const list = out.get(r.productId) ?? [];
    list.push(r.o);
    out.set(r.productId, list);
  }
  return out;
}

/**
 * Presents a page of products with everything the clients read embedded, in a fixed number of
 * queries whatever the page size (no N+1): department, categories, brands, suppliers, taxes
 * {id,name,rate}, terminals, variants, prices (always an array) and the per-store stock rows of the
 * caller's stores ([{id, store:{id,name,location}, quantity: string, location, reOrderLevel: string}]).
 */
export async function presentProducts(rows: ProductRow[], ctx: ResourceCtx) {
  const db = ctx.db;
  const ids = rows.map((r) => r.id);
  if (!ids.length) return [];
  const depIds = [...new Set(rows.map((r) => r.departmentId).filter((x): x is number => x != null))];
  const [deps, cats, brs, sups, txs, terms, variants, prices, stocks] = await Promise.all([
    depIds.length ? db.select().from(department).where(inArray(department.id, depIds)) : Promise.resolve([]),
    linked<typeof category.$inferSelect>(db, productCategory, category, ids, scopes.category.scope(ctx)),
    linked<typeof brand.$inferSelect>(db, productBrand, brand, ids, scopes.brand.scope(ctx)),
    linked<typeof supplier.$inferSelect>(db, productSupplier, supplier, ids, scopes.supplier.scope(ctx)),
    linked<typeof tax.$inferSelect>(db, productTax, tax, ids, scopes.tax.scope(ctx)),
    linked<typeof terminal.$inferSelect>(db, productTerminal, terminal, ids, scopes.terminal.scope(ctx)),
    db.select().from(productVariant).where(inArray(productVariant.productId, ids)).orderBy(asc(productVariant.id)),
    db.select().from(productPrice).where(inArray(productPrice.productId, ids)).orderBy(asc(productPrice.id)),
    ctx.auth.storeIds.length
      ? db.select({ ps: productStore, s: store }).from(productStore).innerJoin(store, eq(store.id, productStore.storeId))
        .where(and(inArray(productStore.productId, ids), inArray(productStore.storeId, ctx.auth.storeIds))).orderBy(asc(productStore.storeId))
      : Promise.resolve([]),
  ]);
  const group = <T>(list: T[], key: (x: T) => number) => {
    const m = new Map<number, T[]>();
    for (const x of list) { const k = key(x); const l = m.get(k) ?? []; l.push(x); m.set(k, l); }
    return m;
  };
  const variantsBy = group(variants, (v) => v.productId);
  const pricesBy = group(prices, (p) => p.productId);
  const stocksBy = group(stocks, (r) => r.ps.productId);
  return rows.map((p) => {
    const dep = deps.find((d) => d.id === p.departmentId);
    const ownPrices = pricesBy.get(p.id) ?? [];
    return {
      id: p.id, name: p.name, sku: p.sku, barcode: p.barcode, baseQuantity: p.baseQuantity, isAvailable: p.isAvailable,
      basePrice: num(p.basePrice), cost: num(p.cost), quantity: num(p.quantity), purchaseUnit: p.purchaseUnit, saleUnit: p.saleUnit,
      manageInventory: p.manageInventory, isActive: p.isActive,
      department: dep ? ld('departments', 'Department', { id: dep.id, name: dep.name, description: dep.description }) : null,
      categories: (cats.get(p.id) ?? []).map((c) => ld('categories', 'Category', { id: c.id, name: c.name, type: c.type, isActive: c.isActive })),
      brands: (brs.get(p.id) ?? []).map((b) => ld('brands', 'Brand', { id: b.id, name: b.name, isActive: b.isActive })),
      suppliers: (sups.get(p.id) ?? []).map((s) => ld('suppliers', 'Supplier', { id: s.id, name: s.name, phone: s.phone, email: s.email, isActive: s.isActive })),
      taxes: (txs.get(p.id) ?? []).map((t) => ld('taxes', 'Tax', { id: t.id, name: t.name, rate: num(t.rate), isActive: t.isActive })),
      terminals: (terms.get(p.id) ?? []).map((t) => ld('terminals', 'Terminal', { id: t.id, code: t.code, description: t.description, isActive: t.isActive })),
      variants: (variantsBy.get(p.id) ?? []).map((v) => presentVariant(v, ownPrices)),
      prices: ownPrices.map(presentPrice),
      stores: (stocksBy.get(p.id) ?? []).map(({ ps, s }) => ({
        id: ps.id,
        store: ld('stores', 'Store', { id: s.id, name: s.name, location: s.location }),
        quantity: trimDecimal(ps.quantity) ?? '0',
        location: ps.location,
        reOrderLevel: trimDecimal(ps.reOrderLevel),
      })),
      ...stamps(p),
    };
  });
}
