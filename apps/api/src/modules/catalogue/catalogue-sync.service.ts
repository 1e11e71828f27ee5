/**
 * The till's catalogue sync (docs/api.md "Till catalogue sync"): the products the caller may sell,
 * in the compact format of @pos/domain/catalogue-sync, read with a fixed number of set-based
 * queries whatever the catalogue size, inside one read-only REPEATABLE READ snapshot so products,
 * variants, prices, stock and links agree with each other.
 *
 * Delta (`since`): products whose row changed (every product write bumps product.updated_at:
 * products.service.ts, the CSV import, purchases) or whose stock moved (stock_movement.created_at,
 * the ledger every stock change writes) at or after the cursor.
 *
 * Cursor: concurrent transactions commit out of timestamp order, so the cursor handed out is not
 * simply "now": it is the start of the oldest transaction that is still writing (pg_stat_activity;
 * its rows, stamped after it began, are invisible to this snapshot and must come in the next delta),
 * minus a safety margin for clock differences between the API process (which stamps updated_at) and
 * the database. The next delta therefore re-sends a few seconds of changes; the till replaces by id.
 */
import { and, asc, eq, exists, inArray, not, or, sql, type SQL } from 'drizzle-orm';
import {
  FLAG_ACTIVE, FLAG_AVAILABLE, FLAG_MANAGE_INVENTORY, SYNC_FORMAT, type PriceRow, type ProductRow, type StockRow,
  type SyncDictionaries, type SyncPayload, type VariantRow,
} from '@pos/domain/catalogue-sync';
import type { Db, Tx } from '../../db/client.ts';
import {
  brand, category, department, product, productBrand, productCategory, productPrice, productStore, productSupplier,
  productTax, productTerminal, productVariant, stockMovement, store, supplier, tax, terminal,
} from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { productVisible, scopes, trimDecimal } from './shared.ts';

/** Re-sent overlap behind the oldest running writer (clock skew between API and database, pg_stat_activity lag). */
export const CURSOR_MARGIN_MS = 10_000;

const toNum = (v: string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));
const hhmm = (t: string | null) => (t ? t.slice(0, 5) : null);
const rowsOf = <T>(r: unknown) => (Array.isArray(r) ? r : (r as { rows: T[] }).rows) as T[];

/** The cursor for a snapshot taken now: see the module comment. Must be the first statement of the snapshot. */
async function cursorNow(tx: Tx): Promise<number> {
  const r = await tx.execute(sql`
    select (extract(epoch from least(clock_timestamp(), coalesce(
      (select min(xact_start) from pg_stat_activity
        where datname = current_database() and backend_xid is not null and pid <> pg_backend_pid()),
      clock_timestamp()))) * 1000)::bigint as ms`);
  return Number(rowsOf<{ ms: string | number }>(r)[0].ms) - CURSOR_MARGIN_MS;
}

/** Products whose data or stock changed at or after `since`. */
function changedSince(since: Date): SQL {
  return sql`${product.id} in (
    select ${product.id} from ${product} where ${product.updatedAt} >= ${since}
    union
    select ${stockMovement.productId} from ${stockMovement} where ${stockMovement.createdAt} >= ${since})`;
}

async function dictionaries(tx: Tx, ctx: ResourceCtx, sellable: SQL): Promise<SyncDictionaries> {
  const [taxes, categories, brands, suppliers, terminals, departments, stores] = await Promise.all([
    tx.select().from(tax).where(scopes.tax.scope(ctx)).orderBy(asc(tax.id)),
    tx.select().from(category).where(scopes.category.scope(ctx)).orderBy(asc(category.id)),
    tx.select().from(brand).where(scopes.brand.scope(ctx)).orderBy(asc(brand.id)),
    tx.select().from(supplier).where(scopes.supplier.scope(ctx)).orderBy(asc(supplier.id)),
    tx.select().from(terminal).where(scopes.terminal.scope(ctx)).orderBy(asc(terminal.id)),
    // /api/products embeds a product's department whatever its store: the ones of sellable products, and the caller's.
    tx.select().from(department).where(or(
      scopes.department.scope(ctx),
      exists(tx.select({ one: sql`1` }).from(product).where(and(eq(product.departmentId, department.id), sellable))),
    )).orderBy(asc(department.id)),
    ctx.auth.storeIds.length ? tx.select().from(store).where(inArray(store.id, ctx.auth.storeIds)).orderBy(asc(store.id)) : Promise.resolve([]),
  ]);
  return {
    taxes: taxes.map((t) => [t.id, t.name, toNum(t.rate), t.isActive]),
    categories: categories.map((c) => [c.id, c.name, c.type, c.isActive]),
    brands: brands.map((b) => [b.id, b.name, b.isActive]),
    suppliers: suppliers.map((s) => [s.id, s.name, s.phone, s.email, s.isActive]),
    terminals: terminals.map((t) => [t.id, t.code, t.description, t.isActive]),
    departments: departments.map((d) => [d.id, d.name, d.description]),
    stores: stores.map((s) => [s.id, s.name, s.location]),
  };
}

export interface SyncOptions {
  /** Epoch ms of a previous answer's cursor: only what changed since (a delta). */
  since?: number;
}

/** Reads the caller's sellable catalogue (or what changed in it since the cursor). */
export async function readCatalogueSync(db: Db, ctx: ResourceCtx, opts: SyncOptions = {}): Promise<SyncPayload> {
  return db.transaction(async (tx) => {
    const cursor = await cursorNow(tx);
    const visible = productVisible(product.id, ctx.auth.storeIds);
    const sellable = and(eq(product.isActive, true), visible)!;
    const changed = opts.since !== undefined ? changedSince(new Date(opts.since)) : undefined;
    const target = changed ? and(changed, sellable)! : sellable;
    const targetIds = tx.select({ id: product.id }).from(product).where(target);

    const [products, variants, prices, stocks, links, removed, dict] = await Promise.all([
      tx.select().from(product).where(target).orderBy(asc(product.id)),
      tx.select().from(productVariant).where(inArray(productVariant.productId, targetIds)).orderBy(asc(productVariant.id)),
      tx.select().from(productPrice).where(inArray(productPrice.productId, targetIds)).orderBy(asc(productPrice.id)),
      ctx.auth.storeIds.length
        ? tx.select().from(productStore).where(and(inArray(productStore.storeId, ctx.auth.storeIds), inArray(productStore.productId, targetIds))).orderBy(asc(productStore.storeId))
        : Promise.resolve([]),
      // Every link of the target products in one pass: k = which link table.
      tx.execute(sql`
        select 0 as k, ${productTax.productId} as p, ${productTax.otherId} as o from ${productTax} where ${productTax.productId} in (${targetIds})
        union all select 1, ${productCategory.productId}, ${productCategory.otherId} from ${productCategory} where ${productCategory.productId} in (${targetIds})
        union all select 2, ${productBrand.productId}, ${productBrand.otherId} from ${productBrand} where ${productBrand.productId} in (${targetIds})
        union all select 3, ${productSupplier.productId}, ${productSupplier.otherId} from ${productSupplier} where ${productSupplier.productId} in (${targetIds})
        union all select 4, ${productTerminal.productId}, ${productTerminal.otherId} from ${productTerminal} where ${productTerminal.productId} in (${targetIds})`),
      changed
        ? tx.select({ id: product.id }).from(product).where(and(changed, not(sellable))).orderBy(asc(product.id))
        : Promise.resolve([]),
      dictionaries(tx, ctx, sellable),
    ]);

    // Links to entities the caller may not see are left out, as /api/products leaves them out.
    const allowed = [dict.taxes, dict.categories, dict.brands, dict.suppliers, dict.terminals].map((d) => new Set(d.map((x) => x[0])));
    const linkLists = new Map<number, number[][]>();
    for (const l of rowsOf<{ k: number | string; p: number | string; o: number | string }>(links)) {
      const k = Number(l.k);
      const o = Number(l.o);
      if (!allowed[k].has(o)) continue;
      const p = Number(l.p);
      let lists = linkLists.get(p);
      if (!lists) linkLists.set(p, (lists = [[], [], [], [], []]));
      lists[k].push(o);
    }

    const group = <T>(list: T[], key: (x: T) => number) => {
      const m = new Map<number, T[]>();
      for (const x of list) { const k = key(x); const l = m.get(k); if (l) l.push(x); else m.set(k, [x]); }
      return m;
    };
    const pricesBy = group(prices.map((p): [number, PriceRow] => [p.productId, [
      p.id, p.productVariantId, p.date, hhmm(p.time), hhmm(p.timeTo), p.day, p.week, p.month, p.quarter,
      toNum(p.rate), toNum(p.minQuantity), toNum(p.maxQuantity), toNum(p.basePrice), toNum(p.baseQuantity),
    ]]), (x) => x[0]);
    const variantsBy = group(variants.map((v): [number, VariantRow] => [v.productId, [
      v.id, v.name, v.attributeName, v.attributeValue, v.barcode, v.sku, toNum(v.price), toNum(v.purchasePrice), toNum(v.quantity) ?? 0,
    ]]), (x) => x[0]);
    const stocksBy = group(stocks.map((s): [number, StockRow] => [s.productId, [s.id, s.storeId, trimDecimal(s.quantity) ?? '0', s.location, trimDecimal(s.reOrderLevel)]]), (x) => x[0]);
    const none: never[] = [];
    const sorted = (ids: number[] | undefined) => (ids ? ids.sort((a, b) => a - b) : none);

    const rows: ProductRow[] = products.map((p) => {
      const lists = linkLists.get(p.id);
      return [
        p.id, p.name, p.barcode, p.sku, toNum(p.basePrice), toNum(p.cost), p.saleUnit, p.purchaseUnit,
        (p.manageInventory ? FLAG_MANAGE_INVENTORY : 0) | (p.isActive ? FLAG_ACTIVE : 0) | (p.isAvailable ? FLAG_AVAILABLE : 0),
        p.baseQuantity, toNum(p.quantity), p.departmentId,
        sorted(lists?.[0]), sorted(lists?.[1]), sorted(lists?.[2]), sorted(lists?.[3]), sorted(lists?.[4]),
        (variantsBy.get(p.id) ?? none).map((x) => x[1]),
        (pricesBy.get(p.id) ?? none).map((x) => x[1]),
        (stocksBy.get(p.id) ?? none).map((x) => x[1]),
      ];
    });
    return {
      format: SYNC_FORMAT,
      full: !changed,
      cursor: String(cursor),
      userId: ctx.auth.userId,
      dict,
      products: rows,
      removed: removed.map((r) => r.id),
    };
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
