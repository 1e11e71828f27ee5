import { and, eq, sql } from 'drizzle-orm';
import { preparedQuery, type Tx } from '../db/client.ts';
import { productStore, productVariant, productVariantStore, stockMovement } from '../db/schema/index.ts';
import { namedSql, opaque, pgArray } from '../db/raw.ts';

/** Why stock moved; stored in stock_movement.reason. */
export type StockReason =
  | 'adjustment' // product create/update in the back office
  | 'import' // CSV import
  | 'sale' // a completed sale takes stock out (negative delta)
  | 'return' // a returned sale puts stock back
  | 'delete' // a deleted sale puts its stock back
  | 'restore' // a restored sale takes it out again
  | 'purchase' // a goods receipt
  | (string & {});

export interface StockMove {
  productId: number;
  /** Set for a variant: moves that variant's row in `storeId` (product_variant_store) and its total (product_variant.quantity). */
  variantId?: number | null;
  /**
   * The store whose stock moves, always required: a product's product_store row, or with
   * `variantId` the variant's product_variant_store row (both created when missing).
   */
  storeId: number;
  /** Signed quantity as a decimal string, e.g. '-2' for a sale of two, '1.250' for a weighed return. */
  delta: string;
  reason: StockReason;
  orderId?: number | null;
  purchaseId?: number | null;
  /** The stock document (transfer, count, adjustment) the row belongs to (migration 0014). */
  document?: StockDocument | null;
  userId?: number | null;
}

/** A stock document a ledger row belongs to (stock_movement.document_kind / document_id). */
export interface StockDocument { kind: 'transfer' | 'count' | 'adjustment'; id: number }

/**
 * Moves stock atomically and records it in the ledger, inside the caller's transaction. Stock is
 * per store, for products and variants alike (issue 25):
 *
 * - With `variantId`: upserts product_variant_store (variantId, storeId) with `quantity = quantity +
 *   delta`, `UPDATE product_variant SET quantity = quantity + delta` (the variant's total over the
 *   stores, still on the wire as its `quantity`), and a stock_movement row with that variant_id AND
 *   store_id. The product's own product_store row is NOT moved here: a caller moving a variant's
 *   stock (sales, returns, purchases, transfers, counts, adjustments) also moves the product's row
 *   in the same store by the same delta (variantMoves), so product_store is the product's whole
 *   stock in the store, variants included; only the catalogue's edits (product form, CSV import)
 *   set a variant's figure on its own, as they set the product's row on its own.
 * - Otherwise: upserts product_store (productId, storeId) and a stock_movement row with that store_id.
 *
 * Invariant kept by every caller that goes through here:
 *   SUM(stock_movement.quantity) per (product, store), variant_id NULL = product_store.quantity,
 *   SUM(stock_movement.quantity) per (variant, store)                 = product_variant_store.quantity,
 *   SUM(product_variant_store.quantity) per variant                  = product_variant.quantity.
 * Each update is a single SQL statement (no read-modify-write), so concurrent sales never lose a
 * decrement. A zero delta writes nothing. Returns the new quantity of the store's row (string) or
 * null when nothing was written. A move without a store is a programming error: it throws.
 */
export async function moveStock(tx: Tx, move: StockMove): Promise<string | null> {
  const delta = String(move.delta).trim();
  if (!/^-?\d+(\.\d+)?$/.test(delta)) throw new Error(`moveStock: bad delta ${JSON.stringify(move.delta)}`);
  if (move.storeId == null) throw new Error(`moveStock: no store for product ${move.productId}${move.variantId != null ? ` variant ${move.variantId}` : ''}`);
  if (Number(delta) === 0) return null;
  let quantity: string | null = null;
  if (move.variantId != null) {
    // The store row first, then the total: the same lock order as moveStocks.
    const [own] = await tx.select({ id: productVariant.id }).from(productVariant)
      .where(and(eq(productVariant.id, move.variantId), eq(productVariant.productId, move.productId)));
    if (!own) throw new Error(`moveStock: variant ${move.variantId} of product ${move.productId} not found`);
    const stored = await tx.insert(productVariantStore)
      .values({ variantId: move.variantId, storeId: move.storeId, quantity: delta })
      .onConflictDoUpdate({
        target: [productVariantStore.variantId, productVariantStore.storeId],
        set: { quantity: sql`${productVariantStore.quantity} + ${delta}::numeric` },
      })
      .returning({ quantity: productVariantStore.quantity });
    quantity = stored[0].quantity;
    const rows = await tx.update(productVariant)
      .set({ quantity: sql`${productVariant.quantity} + ${delta}::numeric` })
      .where(and(eq(productVariant.id, move.variantId), eq(productVariant.productId, move.productId)))
      .returning({ quantity: productVariant.quantity });
    if (!rows.length) throw new Error(`moveStock: variant ${move.variantId} of product ${move.productId} not found`);
  } else {
    const rows = await tx.insert(productStore)
      .values({ productId: move.productId, storeId: move.storeId, quantity: delta })
      .onConflictDoUpdate({
        target: [productStore.productId, productStore.storeId],
        set: { quantity: sql`${productStore.quantity} + ${delta}::numeric` },
      })
      .returning({ quantity: productStore.quantity });
    quantity = rows[0].quantity;
  }
  await tx.insert(stockMovement).values({
    productId: move.productId,
    variantId: move.variantId ?? null,
    storeId: move.storeId,
    quantity: delta,
    reason: move.reason,
    orderId: move.orderId ?? null,
    purchaseId: move.purchaseId ?? null,
    documentKind: move.document?.kind ?? null,
    documentId: move.document?.id ?? null,
    userId: move.userId ?? null,
    unitCost: sql.raw(UNIT_COST_OF(String(move.productId), move.variantId != null ? String(move.variantId) : 'null::int', String(move.storeId))),
  });
  return quantity;
}

/** One stock row to move in a batch (see moveStocks). */
export interface StockDelta {
  productId: number;
  /** A variant's row in `storeId` (and its total)… */
  variantId?: number | null;
  /** …or the product's row in this store (created when missing). Required: no move is storeless. */
  storeId: number;
  /** Signed quantity as a decimal string. */
  delta: string;
}

/**
 * The moves of one line of a stock document or sale in `storeId`: the product's own row, and with
 * a variant also that variant's row, by the same delta (lib/stock.ts moveStock: product_store is
 * the product's whole stock in the store, variants included).
 */
export function variantMoves(productId: number, variantId: number | null | undefined, storeId: number, delta: string): StockDelta[] {
  const own: StockDelta = { productId, variantId: null, storeId, delta };
  return variantId != null ? [{ productId, variantId, storeId, delta }, own] : [own];
}

/**
 * moveStock for many rows at once, in ONE statement (what a delete or a restore does; a sale
 * embeds the same statement parts in its one write, see stockMoveCtes): the variant rows by one
 * `UPDATE product_variant … FROM unnest(…)`, fed in id order; the store rows by one `INSERT … SELECT
 * FROM unnest(…) ORDER BY product, store ON CONFLICT DO UPDATE` (an atomic upsert per row), the
 * variants' store rows likewise; the ledger rows by one insert. Each update is atomic (no
 * read-modify-write), so concurrent sales never lose a decrement; rows are locked in a fixed order
 * (variant store rows by (variant, store), variant totals by id, then store rows by product):
 * two batches wait for each other instead of deadlocking (the caller still retries a deadlock
 * against other writers).
 * Stock may go negative (selling what the system did not know was on the shelf), as with moveStock.
 * Same ledger invariant as moveStock. The same row twice is merged; zero deltas write nothing.
 */
export async function moveStocks(tx: Tx, moves: StockDelta[], meta: {
  reason: StockReason; orderId?: number | null; purchaseId?: number | null; document?: StockDocument | null; userId?: number | null;
}): Promise<void> {
  const params = stockMoveParams(moves);
  if (!params.count) return;
  const [row] = await preparedQuery<{ found: number[] | null }>(tx, 'stock_moves', MOVES.text, MOVES.bind({
    ...params.values, reason: meta.reason, order_id: meta.orderId ?? null, purchase_id: meta.purchaseId ?? null, user_id: meta.userId ?? null,
    document_kind: meta.document?.kind ?? null, document_id: meta.document?.id ?? null,
  }));
  const found = new Set((row.found ?? []).map(Number));
  const missing = params.variants.find((m) => !found.has(m.variantId));
  // Thrown inside the caller's transaction: nothing of this batch stays.
  if (missing) throw new Error(`moveStock: variant ${missing.variantId} of product ${missing.productId} not found`);
}

/**
 * The bind values of a batch of stock moves for STOCK_MOVE_CTES (`count` rows to move; 0 when
 * every delta nets to zero). The same row twice is merged; rows are sorted so that they are
 * locked in one fixed order.
 */
export function stockMoveParams(moves: StockDelta[]) {
  const merged = new Map<string, { productId: number; variantId: number | null; storeId: number; milli: bigint }>();
  for (const m of moves) {
    const delta = String(m.delta).trim();
    if (!/^-?\d+(\.\d+)?$/.test(delta)) throw new Error(`moveStocks: bad delta ${JSON.stringify(m.delta)}`);
    if (m.storeId == null) throw new Error(`moveStocks: no store for product ${m.productId}${m.variantId != null ? ` variant ${m.variantId}` : ''}`);
    const variantId = m.variantId ?? null;
    const storeId = m.storeId;
    const key = `${m.productId}:${variantId ?? ''}:${storeId ?? ''}`;
    // Exact decimal sum in units of 10^-6 (quantities have at most 3 decimals in the schema).
    const [int, frac = ''] = delta.replace('-', '').split('.');
    if (frac.length > 6) throw new Error(`moveStocks: bad delta ${JSON.stringify(m.delta)}`);
    const units = (BigInt(int) * 1_000_000n + BigInt((frac + '000000').slice(0, 6))) * (delta.startsWith('-') ? -1n : 1n);
    const prev = merged.get(key);
    if (prev) prev.milli += units; else merged.set(key, { productId: m.productId, variantId, storeId, milli: units });
  }
  const list = [...merged.values()].filter((m) => m.milli !== 0n)
    .sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0) || a.storeId - b.storeId);
  const dec = (u: bigint) => {
    const neg = u < 0n; const a = neg ? -u : u;
    const s = `${a / 1_000_000n}.${String(a % 1_000_000n).padStart(6, '0')}`.replace(/\.?0+$/, '');
    return (neg ? '-' : '') + s;
  };
  const variants = list.filter((m) => m.variantId != null).sort((a, b) => a.variantId! - b.variantId! || a.storeId - b.storeId);
  // A variant's total moves by the sum over its stores in this batch (one row per variant).
  const totals = new Map<number, { productId: number; variantId: number; milli: bigint }>();
  for (const m of variants) {
    const t = totals.get(m.variantId!);
    if (t) t.milli += m.milli; else totals.set(m.variantId!, { productId: m.productId, variantId: m.variantId!, milli: m.milli });
  }
  const vTotals = [...totals.values()];
  const stores = list.filter((m) => m.variantId == null);
  return {
    count: list.length,
    variants: vTotals.map((m) => ({ productId: m.productId, variantId: m.variantId })),
    values: {
      m_products: pgArray(list.map((m) => m.productId)), m_variants: pgArray(list.map((m) => m.variantId)),
      m_stores: pgArray(list.map((m) => m.storeId)), m_deltas: pgArray(list.map((m) => dec(m.milli))),
      vs_ids: pgArray(variants.map((m) => m.variantId!)), vs_products: pgArray(variants.map((m) => m.productId)),
      vs_stores: pgArray(variants.map((m) => m.storeId)), vs_deltas: pgArray(variants.map((m) => dec(m.milli))),
      v_ids: pgArray(vTotals.map((m) => m.variantId)), v_products: pgArray(vTotals.map((m) => m.productId)), v_deltas: pgArray(vTotals.map((m) => dec(m.milli))),
      s_products: pgArray(stores.map((m) => m.productId)), s_stores: pgArray(stores.map((m) => m.storeId!)), s_deltas: pgArray(stores.map((m) => dec(m.milli))),
    },
  };
}

/**
 * The unit cost in effect for a ledger row (issue 25.5): a product row's weighted-average cost in
 * that store, else the product's cost; a variant row's purchase price, else the product's cost.
 * Read in the ledger insert itself (a receipt updates the average first, lib/stock-cost.ts); the
 * trigger of migration 0011 fills it for any other writer that leaves it empty.
 */
const UNIT_COST_OF = (p: string, v: string, s: string) => `(select case when ${v} is null then coalesce(ps.avg_cost, pr.cost) else coalesce(pv.purchase_price, pr.cost) end
      from product pr left join product_store ps on ps.product_id = pr.id and ps.store_id = ${s} left join product_variant pv on pv.id = ${v} where pr.id = ${p})`;

/**
 * Every stock row of a batch and its ledger rows, as WITH items of one statement (named
 * parameters, see db/raw namedSql; the values from stockMoveParams):
 *   svs: the variants' store rows (:vs_ids, :vs_products, :vs_stores, :vs_deltas), upserted in
 *       (variant, store) order, only for a variant of that product (sv then misses a stranger);
 *   sv: the variant totals (:v_ids, their :v_products, :v_deltas: the sum over the batch's stores),
 *       fed in id order, after svs (it reads svs); the statement must read it first
 *       (`array(select id from sv)`), so both run to completion first;
 *   ss: then the store rows (:s_products, :s_stores, :s_deltas), upserted in (product, store) order;
 *   sl: the ledger rows (:m_products, :m_variants, :m_stores, :m_deltas; :reason, :purchase_id,
 *       :user_id; the order id is `orderExpr`, a parameter or the sale's own header row; the stock
 *       document `docExpr` (kind, id), parameters of moveStocks, nulls for a sale).
 * Rows are therefore locked in one fixed order (variant store rows, variants by id, then store rows by product). The
 * arrays are read through `opaque`, so a prepared statement made of these keeps one generic plan.
 */
export const stockMoveCtes = (orderExpr: string, docExpr = 'null, null') => `svs as (insert into product_variant_store (variant_id, store_id, quantity)
    select u.v, u.s, u.q from unnest(${opaque(':vs_ids', 'int[]')}, ${opaque(':vs_products', 'int[]')}, ${opaque(':vs_stores', 'int[]')}, ${opaque(':vs_deltas', 'numeric[]')}) as u(v, p, s, q)
    join product_variant own on own.id = u.v and own.product_id = u.p
    order by u.v, u.s
    on conflict (variant_id, store_id) do update set quantity = product_variant_store.quantity + excluded.quantity
    returning variant_id),
  sv as (
    update product_variant pv set quantity = pv.quantity + m.q
    from (select * from unnest(${opaque(':v_ids', 'int[]')}, ${opaque(':v_products', 'int[]')}, ${opaque(':v_deltas', 'numeric[]')}) as u(id, p, q)
      where exists (select 1 from svs where svs.variant_id = u.id) order by id) as m
    where pv.id = m.id and pv.product_id = m.p
    returning pv.id),
  ss as (insert into product_store (product_id, store_id, quantity)
    select p, s, q from unnest(${opaque(':s_products', 'int[]')}, ${opaque(':s_stores', 'int[]')}, ${opaque(':s_deltas', 'numeric[]')}) as u(p, s, q) order by p, s
    on conflict (product_id, store_id) do update set quantity = product_store.quantity + excluded.quantity
    returning 1),
  sl as (insert into stock_movement (product_id, variant_id, store_id, quantity, reason, order_id, purchase_id, document_kind, document_id, user_id, unit_cost)
    select p, v, s, q, :reason, ${orderExpr}, :purchase_id::int, ${docExpr}, :user_id::int, ${UNIT_COST_OF('u.p', 'u.v', 'u.s')}
    from unnest(${opaque(':m_products', 'int[]')}, ${opaque(':m_variants', 'int[]')}, ${opaque(':m_stores', 'int[]')}, ${opaque(':m_deltas', 'numeric[]')}) as u(p, v, s, q)
    returning 1)`;

const MOVES = namedSql(`with ${stockMoveCtes(':order_id::int', ':document_kind::varchar, :document_id::int')}
  select array(select id from sv) as found, (select count(*) from ss)::int as stores, (select count(*) from sl)::int as ledger`);
