/**
 * The till's catalogue sync (docs/api.md "Till catalogue sync"): the products the caller may sell,
 * in the compact format of @pos/domain/catalogue-sync (the product rows are built as JSON by
 * PostgreSQL), inside one read-only REPEATABLE READ snapshot so products, variants, prices, stock
 * and links agree.
 *
 * Full catalogue (issue 24): read in id-ordered batches of SYNC_BATCH products (keyset on the
 * product id; each batch's variants, prices, stock and links read by a range of their product_id
 * indexes), one batch ahead of what the client has taken, all inside the one snapshot: the API
 * holds about two batches whatever the catalogue size, and the first bytes leave after the first
 * batch instead of after the whole catalogue.
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
import { FLAG_ACTIVE, FLAG_AVAILABLE, FLAG_MANAGE_INVENTORY, SYNC_FORMAT, type SyncDictionaries, type SyncPayload } from '@pos/domain/catalogue-sync';
import { openTransaction, type Db, type OpenTransaction, type Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import { brand, category, department, product, stockMovement, store, supplier, tax, terminal } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { productVisible, scopes } from './shared.ts';
import { can } from '../../plugins/auth.ts';

/** Re-sent overlap behind the oldest running writer (clock skew between API and database, pg_stat_activity lag). */
export const CURSOR_MARGIN_MS = 10_000;

const toNum = (v: string | null | undefined): number | null => (v === null || v === undefined ? null : Number(v));

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
  // One after the other: a transaction is one connection (node-postgres would only queue them).
  const taxes = await tx.select().from(tax).where(scopes.tax.scope(ctx)).orderBy(asc(tax.id));
  const categories = await tx.select().from(category).where(scopes.category.scope(ctx)).orderBy(asc(category.id));
  const brands = await tx.select().from(brand).where(scopes.brand.scope(ctx)).orderBy(asc(brand.id));
  const suppliers = await tx.select().from(supplier).where(scopes.supplier.scope(ctx)).orderBy(asc(supplier.id));
  const terminals = await tx.select().from(terminal).where(scopes.terminal.scope(ctx)).orderBy(asc(terminal.id));
  // /api/products embeds a product's department whatever its store: the ones of sellable products, and the caller's.
  const departments = await tx.select().from(department).where(or(
    scopes.department.scope(ctx),
    exists(tx.select({ one: sql`1` }).from(product).where(and(eq(product.departmentId, department.id), sellable))),
  )).orderBy(asc(department.id));
  const stores = ctx.auth.storeIds.length ? await tx.select().from(store).where(inArray(store.id, ctx.auth.storeIds)).orderBy(asc(store.id)) : [];
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

/** A delta answer with its products still as JSON text, one row each. */
export interface SyncAnswer extends Omit<SyncPayload, 'products'> {
  /** JSON text of each ProductRow, in id order. */
  productJson: string[];
}

/** A literal int[] of ids we produced ourselves (dictionary ids, the caller's stores). */
const intArray = (ids: number[]) => sql.raw(`'{${ids.filter((n) => Number.isSafeInteger(n)).join(',')}}'::int[]`);

/** Products per batch of the full catalogue: about 0.6 MB of JSON each; small enough to hold, big enough that a round trip per batch costs nothing. */
export const SYNC_BATCH = 2000;

/**
 * The product rows of `target` (a select of product ids), built by PostgreSQL as JSON text
 * (ProductRow, @pos/domain/catalogue-sync), in id order: each table is read for the target's
 * products only, through its product_id index (a variant's stock rows through (variant_id,
 * store_id)), and grouped by product, instead of rows parsed into objects and re-serialised here. Links to entities outside the caller's dictionaries are left
 * out, as /api/products leaves them out; stock rows only for the caller's stores.
 * `costs`: the caller may see cost prices ('cost.view'); else they are sent as null.
 */
async function productRows(tx: Tx, target: SQL, dict: SyncDictionaries, storeIds: number[], costs: boolean,
  range?: { after: number; upTo: number }): Promise<Array<{ id: number; j: string }>> {
  const cost = sql.raw(costs ? 'p.cost' : 'null');
  const purchasePrice = sql.raw(costs ? 'purchase_price' : 'null');
  const ids = (d: Array<[number, ...unknown[]]>) => intArray(d.map((x) => x[0]));
  // Each table read for the target's products: by a range of its product_id index when the target
  // is a range of ids (a batch of the full catalogue), else through the index for each product.
  const of = range ? sql`product_id > ${range.after} and product_id <= ${range.upTo}` : sql`product_id in (select id from target)`;
  const inRange = range ? sql`p.id > ${range.after} and p.id <= ${range.upTo}` : sql`true`;
  const r = await tx.execute(sql`
    with target as (${target}),
    links as (
      select product_id,
        json_agg(other_id order by other_id) filter (where k = 0) as taxes,
        json_agg(other_id order by other_id) filter (where k = 1) as categories,
        json_agg(other_id order by other_id) filter (where k = 2) as brands,
        json_agg(other_id order by other_id) filter (where k = 3) as suppliers,
        json_agg(other_id order by other_id) filter (where k = 4) as terminals
      from (
        select 0 as k, product_id, tax_id as other_id from product_tax where ${of} and tax_id = any(${ids(dict.taxes)})
        union all select 1, product_id, category_id from product_category where ${of} and category_id = any(${ids(dict.categories)})
        union all select 2, product_id, brand_id from product_brand where ${of} and brand_id = any(${ids(dict.brands)})
        union all select 3, product_id, supplier_id from product_supplier where ${of} and supplier_id = any(${ids(dict.suppliers)})
        union all select 4, product_id, terminal_id from product_terminal where ${of} and terminal_id = any(${ids(dict.terminals)})
      ) l group by product_id),
    vars as (
      select product_id, json_agg(json_build_array(id, name, attribute_name, attribute_value, barcode, sku, price, ${purchasePrice}, quantity,
        coalesce((select json_agg(json_build_array(vs.store_id, trim_scale(vs.quantity)::text) order by vs.store_id) from product_variant_store vs
          where vs.variant_id = product_variant.id and vs.store_id = any(${intArray(storeIds)})), '[]'::json)) order by id) as a
      from product_variant where ${of} group by product_id),
    prices as (
      select product_id, json_agg(json_build_array(id, product_variant_id, date, to_char(time, 'HH24:MI'), to_char(time_to, 'HH24:MI'), day, week, month,
        quarter, rate, min_quantity, max_quantity, base_price, base_quantity) order by id) as a
      from product_price where ${of} group by product_id),
    stocks as (
      select product_id, json_agg(json_build_array(id, store_id, coalesce(trim_scale(quantity)::text, '0'), location, trim_scale(re_order_level)::text, trim_scale(re_order_quantity)::text) order by store_id) as a
      from product_store where store_id = any(${intArray(storeIds)}) and ${of} group by product_id)
    select p.id, json_build_array(p.id, p.name, p.barcode, p.sku, p.base_price, ${cost}, p.sale_unit, p.purchase_unit,
        (case when p.manage_inventory then ${FLAG_MANAGE_INVENTORY} else 0 end) + (case when p.is_active then ${FLAG_ACTIVE} else 0 end)
          + (case when p.is_available then ${FLAG_AVAILABLE} else 0 end),
        p.base_quantity, p.quantity, p.department_id,
        coalesce(l.taxes, '[]'::json), coalesce(l.categories, '[]'::json), coalesce(l.brands, '[]'::json), coalesce(l.suppliers, '[]'::json),
        coalesce(l.terminals, '[]'::json), coalesce(v.a, '[]'::json), coalesce(pr.a, '[]'::json), coalesce(s.a, '[]'::json))::text as j
    from product p join target t on t.id = p.id
      left join links l on l.product_id = p.id left join vars v on v.product_id = p.id
      left join prices pr on pr.product_id = p.id left join stocks s on s.product_id = p.id
    where ${inRange}
    order by p.id`);
  return rowsOf<{ id: number | string; j: string }>(r).map((x) => ({ id: Number(x.id), j: x.j }));
}

const SNAPSHOT = 'isolation level repeatable read read only';

/** What every answer starts with, read inside the snapshot right after its cursor. */
async function head(tx: Tx, ctx: ResourceCtx) {
  await tx.execute(sql`set local jit = off`);
  const sellable = and(eq(product.isActive, true), productVisible(product.id, ctx.auth.storeIds))!;
  const dict = await dictionaries(tx, ctx, sellable);
  return { sellable, dict, costs: can(ctx.auth, 'cost.view') };
}

/** The full catalogue, opened: its head read, its products still to read batch by batch (`batches`). */
export interface FullSync extends Omit<SyncPayload, 'products'> {
  /**
   * The products' JSON text, batch by batch in id order, each batch read when asked for (the
   * caller writes one out before asking for the next). Ends the snapshot when done, on error, or
   * when the caller stops (`return`).
   */
  batches(): AsyncGenerator<string[]>;
  /** Ends the snapshot and gives its connection back (idempotent, never rejects): call it when the answer is over, however it ended. */
  close(): Promise<void>;
}

/**
 * Opens the caller's full sellable catalogue: the cursor (the snapshot's first statement) and the
 * dictionaries are read now; the products by `batches()`, in the same snapshot (REPEATABLE READ:
 * every batch sees the database as it was at the cursor, whatever is written meanwhile).
 * `batchSize`: products per batch (tests use a small one).
 */
export async function openFullSync(db: Db, ctx: ResourceCtx, batchSize = SYNC_BATCH): Promise<FullSync> {
  const snap: OpenTransaction = await openTransaction(db, SNAPSHOT);
  try {
    const { cursor, sellable, dict, costs } = await snap.use(async (tx) => ({ cursor: await cursorNow(tx), ...await head(tx, ctx) }));
    return {
      format: SYNC_FORMAT,
      full: true,
      cursor: String(cursor),
      userId: ctx.auth.userId,
      dict,
      removed: [],
      async* batches() {
        // A batch: the next `batchSize` sellable ids (an index-only scan of the product list index),
        // then their rows with every table read by one range scan of its product_id index between
        // the batch's first and last id (literal bounds the planner sees: no whole-table plan).
        const read = (after: number) => snap.use(async (tx) => {
          const [b] = rowsOf<{ hi: number | string | null; n: number | string }>(await tx.execute(sql`select max(id) as hi, count(*) as n
            from (select ${product.id} as id from ${product} where ${product.id} > ${after} and ${sellable} order by ${product.id} limit ${batchSize}) b`));
          if (!Number(b.n)) return [];
          const hi = Number(b.hi);
          return productRows(tx, sql`select ${product.id} as id from ${product} where ${product.id} > ${after} and ${product.id} <= ${hi} and ${sellable}`,
            dict, ctx.auth.storeIds, costs, { after, upTo: hi });
        });
        try {
          let next = read(0);
          for (;;) {
            const rows = await next;
            const more = rows.length === batchSize;
            // The next batch is read by PostgreSQL while this one is compressed and written out: one
            // batch ahead, never more (the one after is asked for only when this one was taken).
            if (more) {
              next = read(rows[rows.length - 1].id);
              next.catch(() => {}); // its error, if any, is thrown by the await above on the next turn
            }
            if (rows.length) yield rows.map((x) => x.j);
            if (!more) return;
          }
        } finally {
          await snap.end();
        }
      },
      close: () => snap.end(),
    };
  } catch (e) {
    await snap.end();
    throw e;
  }
}

/** Reads what changed in the caller's sellable catalogue since the cursor (a delta: a few products, read at once). */
export async function readCatalogueDelta(db: Db, ctx: ResourceCtx, since: number): Promise<SyncAnswer> {
  return db.transaction(async (tx) => {
    const cursor = await cursorNow(tx);
    // A delta after a big CSV import is most of the catalogue in one statement: hash tables in memory.
    await tx.execute(sql`set local work_mem = '64MB'`);
    const { sellable, dict, costs } = await head(tx, ctx);
    const changed = changedSince(new Date(since));
    const rows = await productRows(tx, sql`select ${product.id} as id from ${product} where ${and(changed, sellable)}`, dict, ctx.auth.storeIds, costs);
    const removed = await tx.select({ id: product.id }).from(product).where(and(changed, not(sellable))).orderBy(asc(product.id));
    return {
      format: SYNC_FORMAT,
      full: false,
      cursor: String(cursor),
      userId: ctx.auth.userId,
      dict,
      productJson: rows.map((x) => x.j),
      removed: removed.map((r) => r.id),
    };
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
