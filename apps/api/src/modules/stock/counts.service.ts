import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { conflict, validationError, type Violation } from '@pos/domain/errors';
import { mulPriceQty, parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import {
  barcode, brand, category, product, productBrand, productStore, productCategory, productSupplier, productVariant, productVariantStore, stockCount, stockCountLine, supplier,
} from '../../db/schema/index.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import { audit } from '../../lib/audit.ts';
import { moveStocks, variantMoves } from '../../lib/stock.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { CountCreateBody, CountLinesBody } from './stock.schemas.ts';
import {
  assertVisible, costCents, iso, moneyOut, namesOf, nextNumber, paging, qtyOut, storeFilter, storeQuantities, throwIf, variantStoreQuantities, write,
} from './stock-ops.common.ts';

/**
 * Stock counts of one store, full or partial (one category, brand or supplier). Lines are
 * scanned (barcode or product) by several people at once: each request ADDS its quantities to the
 * product's line in one upsert, so concurrent scans never lose one. The first scan of a product
 * records `expected` = the store's stock at that moment (read with the row share-locked, so a
 * sale in flight is either in it or after it). Approval books `counted - expected` per product as
 * a `count` ledger row: a delta on the stock of the moment of approval, so a sale made after the
 * product was counted is not a variance (it left the shelf and the ledger alike).
 * Variants (issue 25) are counted per store like products: a variant's barcode (or a product and
 * variant) counts that variant, `expected` is the variant's row in the store, and approval moves
 * the variant's row and the product's row by the variance (lib/stock variantMoves). A product's
 * own line (its barcode) counts the product's row, which holds its variants' stock too: for a
 * product with variants, count the variants.
 * Approval and cancellation write their audit entries (stock.countApproved / stock.countCancelled,
 * entity 'stock_count') in their transaction; the ledger rows carry the count as their document.
 */

export const COUNT_MESSAGES = {
  notOpen: (status: string) => (status === 'approved' ? 'This count is already approved.' : `This count is ${status}.`),
  scopeId: 'Please choose what to count.',
  noScopeId: 'A full count has no scope.',
  location: 'Please give the shelf location to count (for example A3).',
  noLocation: 'Only a location count has a location.',
  oneOf: 'Please give a barcode or a product.',
  notVariant: (v: number) => `'Product variant' with ID '${v}' not found`,
  unknownBarcode: 'No product has this barcode.',
  outOfScope: 'This product is not in the scope of this count.',
};

type CountRow = typeof stockCount.$inferSelect;

export async function createCount(db: Db, input: CountCreateBody, actor: AuthInfo): Promise<number> {
  assertCallerStore(actor, input.store, 'store');
  const location = input.location?.trim() ?? '';
  if ((input.scope === 'full' || input.scope === 'location') && input.scopeId != null) throw validationError([{ propertyPath: 'scopeId', message: COUNT_MESSAGES.noScopeId }]);
  if (input.scope !== 'location' && location) throw validationError([{ propertyPath: 'location', message: COUNT_MESSAGES.noLocation }]);
  if (input.scope === 'location' && !location) throw validationError([{ propertyPath: 'location', message: COUNT_MESSAGES.location }]);
  if (input.scope !== 'full' && input.scope !== 'location') {
    if (input.scopeId == null) throw validationError([{ propertyPath: 'scopeId', message: COUNT_MESSAGES.scopeId }]);
    const table = { category, brand, supplier }[input.scope];
    const [row] = await db.select({ id: table.id }).from(table).where(eq(table.id, input.scopeId));
    if (!row) throw validationError([{ propertyPath: 'scopeId', message: `'${input.scope[0].toUpperCase()}${input.scope.slice(1)}' with ID '${input.scopeId}' not found` }]);
  }
  return write(db, async (tx) => {
    const number = await nextNumber(tx, input.store, 'count');
    const [row] = await tx.insert(stockCount).values({
      number, storeId: input.store, scope: input.scope, scopeId: input.scopeId ?? null, scopeLocation: input.scope === 'location' ? location : null, status: 'open', note: input.note ?? null, createdById: actor.userId,
    }).returning({ id: stockCount.id });
    return row.id;
  });
}

async function lockCount(tx: Tx, id: number, actor: AuthInfo, mode: 'update' | 'share'): Promise<CountRow> {
  const [row] = await tx.select().from(stockCount).where(eq(stockCount.id, id)).for(mode);
  const c = assertVisible(row, (r) => actor.storeIds.includes(r.storeId), 'Stock count');
  if (c.status !== 'open') throw conflict(COUNT_MESSAGES.notOpen(c.status));
  return c;
}

/** What a scanned line counts: a product, or a variant of it. */
interface Counted { product: number; variant: number | null }

/** The product (and variant) of each scanned line (product barcode, extra barcode -> the product; variant barcode -> the variant). */
async function productsOfScans(tx: Tx, lines: CountLinesBody['lines']): Promise<Counted[]> {
  const codes = [...new Set(lines.map((l) => l.barcode).filter((b): b is string => !!b))];
  const byCode = new Map<string, Counted>();
  if (codes.length) {
    for (const r of await tx.select({ code: productVariant.barcode, id: productVariant.productId, v: productVariant.id }).from(productVariant).where(inArray(productVariant.barcode, codes))) byCode.set(r.code!, { product: r.id, variant: r.v });
    for (const r of await tx.select({ code: barcode.barcode, id: barcode.itemId, v: barcode.variantId }).from(barcode).where(and(inArray(barcode.barcode, codes), eq(barcode.isActive, true)))) if (r.id != null) byCode.set(r.code, { product: r.id, variant: r.v });
    for (const r of await tx.select({ code: product.barcode, id: product.id }).from(product).where(inArray(product.barcode, codes))) byCode.set(r.code!, { product: r.id, variant: null });
  }
  const asked = [...new Set(lines.map((l) => l.variant).filter((v): v is number => v != null))];
  const owner = new Map((asked.length ? await tx.select({ id: productVariant.id, p: productVariant.productId }).from(productVariant).where(inArray(productVariant.id, asked)) : []).map((r) => [r.id, r.p]));
  const v: Violation[] = [];
  const out = lines.map((l, i): Counted => {
    if ((l.barcode ? 1 : 0) + (l.product != null ? 1 : 0) !== 1) { v.push({ propertyPath: `lines[${i}].barcode`, message: COUNT_MESSAGES.oneOf }); return { product: 0, variant: null }; }
    if (l.product != null) {
      if (l.variant != null && owner.get(l.variant) !== l.product) v.push({ propertyPath: `lines[${i}].variant`, message: COUNT_MESSAGES.notVariant(l.variant) });
      return { product: l.product, variant: l.variant ?? null };
    }
    const hit = byCode.get(l.barcode!);
    if (hit == null) v.push({ propertyPath: `lines[${i}].barcode`, message: COUNT_MESSAGES.unknownBarcode });
    return hit ?? { product: 0, variant: null };
  });
  throwIf(v);
  return out;
}

/** A shelf location in a location count's scope: it starts with the count's location, any case (% and _ taken literally). */
function atLocation(column: SQL, c: CountRow): SQL {
  const prefix = (c.scopeLocation ?? '').replace(/[\\%_]/g, '\\$&');
  return sql`${column} ilike ${`${prefix}%`}`;
}

/** Products (of `ids`) that exist, track stock and are in the count's scope. */
async function inScope(tx: Tx, c: CountRow, ids: number[]) {
  const link = c.scope === 'category' ? productCategory : c.scope === 'brand' ? productBrand : c.scope === 'supplier' ? productSupplier : null;
  const rows = await tx.select({
    id: product.id,
    cost: sql<string>`coalesce((select ps.avg_cost from product_store ps where ps.product_id = ${product.id} and ps.store_id = ${c.storeId}), ${product.cost})::text`,
  }).from(product).where(and(
    inArray(product.id, ids), eq(product.manageInventory, true),
    link ? sql`exists (select 1 from ${link} l where l.product_id = ${product.id} and l.${sql.raw(c.scope === 'category' ? 'category_id' : c.scope === 'brand' ? 'brand_id' : 'supplier_id')} = ${c.scopeId})` : undefined,
    c.scope === 'location' ? sql`exists (select 1 from product_store ps where ps.product_id = ${product.id} and ps.store_id = ${c.storeId} and ${atLocation(sql`ps.location`, c)})` : undefined,
  ));
  return new Map(rows.map((r) => [r.id, r.cost]));
}

/** Adds scanned quantities to a count (one upsert; concurrent scans add up). Answers the touched lines. */
export async function addCountLines(db: Db, id: number, input: CountLinesBody, actor: AuthInfo) {
  return write(db, async (tx) => {
    const c = await lockCount(tx, id, actor, 'share');
    const scans = await productsOfScans(tx, input.lines);
    const ok = await inScope(tx, c, [...new Set(scans.map((x) => x.product))]);
    const v: Violation[] = [];
    scans.forEach((x, i) => {
      if (!ok.has(x.product)) v.push({ propertyPath: `lines[${i}].${input.lines[i].product != null ? 'product' : 'barcode'}`, message: COUNT_MESSAGES.outOfScope });
    });
    throwIf(v);
    const sum = new Map<string, Counted & { milli: number }>();
    scans.forEach((x, i) => {
      const k = `${x.product}:${x.variant ?? 0}`;
      const e = sum.get(k) ?? { ...x, milli: 0 };
      e.milli += input.lines[i].quantity;
      sum.set(k, e);
    });
    const counted = [...sum.values()].sort((a, b) => a.product - b.product || (a.variant ?? 0) - (b.variant ?? 0));
    // Share-locks the stock rows (variants' first, as lib/stock.ts locks them): a sale updating one
    // is waited for, so `expected` has it or it comes after.
    const haveVariant = await variantStoreQuantities(tx, c.storeId, counted.flatMap((x) => (x.variant != null ? [x.variant] : [])), 'share');
    const have = await storeQuantities(tx, c.storeId, counted.filter((x) => x.variant == null).map((x) => x.product), 'share');
    const expected = (x: Counted) => (x.variant != null ? haveVariant.get(x.variant) ?? 0 : have.get(x.product)?.quantity ?? 0);
    await tx.execute(sql`insert into stock_count_line (count_id, product_id, variant_id, counted, expected, cost, first_counted_by_id, last_counted_by_id)
      select ${c.id}, p, v, q, e, k, ${actor.userId}, ${actor.userId}
      from unnest(${pgArray(counted.map((x) => x.product))}::int[], ${pgArray(counted.map((x) => x.variant))}::int[], ${pgArray(counted.map((x) => quantityToString(x.milli)))}::numeric[],
                  ${pgArray(counted.map((x) => quantityToString(expected(x))))}::numeric[], ${pgArray(counted.map((x) => ok.get(x.product)!))}::numeric[]) as u(p, v, q, e, k)
      order by p, coalesce(v, 0)
      on conflict (count_id, product_id, (coalesce(variant_id, 0))) do update set counted = stock_count_line.counted + excluded.counted, scans = stock_count_line.scans + 1,
        last_counted_by_id = excluded.last_counted_by_id, last_counted_at = now()`);
    return [...new Set(counted.map((x) => x.product))];
  });
}

/**
 * Approves an open count once: one `count` ledger row per product whose counted quantity differs
 * from the expected one (delta counted - expected), all in one transaction.
 */
export async function approveCount(db: Db, id: number, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const c = await lockCount(tx, id, actor, 'update');
    const lines = await tx.select({ productId: stockCountLine.productId, variantId: stockCountLine.variantId, counted: stockCountLine.counted, expected: stockCountLine.expected })
      .from(stockCountLine).where(eq(stockCountLine.countId, id));
    const deltas = lines.map((l) => ({ productId: l.productId, variantId: l.variantId, milli: parseQuantity(l.counted) - parseQuantity(l.expected) }));
    await moveStocks(tx, deltas.flatMap((d) => variantMoves(d.productId, d.variantId, c.storeId, quantityToString(d.milli))),
      { reason: 'count', userId: actor.userId, document: { kind: 'count', id } });
    await tx.update(stockCount).set({ status: 'approved', approvedById: actor.userId, approvedAt: sql`now()` }).where(eq(stockCount.id, id));
    await audit(tx, {
      action: 'stock.countApproved', actor, storeId: c.storeId, entity: 'stock_count', entityId: id, before: { status: c.status }, after: { status: 'approved' },
      details: {
        number: c.number, scope: c.scope, lines: lines.length,
        variances: deltas.filter((d) => d.milli !== 0).sort((a, b) => a.productId - b.productId || (a.variantId ?? 0) - (b.variantId ?? 0))
          .map((d) => ({ product: d.productId, ...(d.variantId != null ? { variant: d.variantId } : {}), delta: quantityToString(d.milli) })),
      },
    });
  });
}

export async function cancelCount(db: Db, id: number, actor: AuthInfo): Promise<void> {
  await write(db, async (tx) => {
    const c = await lockCount(tx, id, actor, 'update');
    await tx.update(stockCount).set({ status: 'cancelled', cancelledById: actor.userId, cancelledAt: sql`now()` }).where(eq(stockCount.id, id));
    await audit(tx, {
      action: 'stock.countCancelled', actor, storeId: c.storeId, entity: 'stock_count', entityId: id, before: { status: c.status }, after: { status: 'cancelled' },
      details: { number: c.number },
    });
  });
}

/**
 * A count with its lines and variances: `variance = counted - expected` (expected = stock at the
 * first scan), its value at the unit cost of that moment, and while open the stock now and what
 * moved since the first scan (sales during the count: not variance). `uncounted` = products in
 * scope stocked in the store (non-zero) not scanned yet; approval leaves their stock as it is.
 */
export async function getCount(db: Db, id: number, actor: AuthInfo, only?: number[]) {
  const [c] = await db.select().from(stockCount).where(eq(stockCount.id, id));
  assertVisible(c, (r) => actor.storeIds.includes(r.storeId), 'Stock count');
  const rows = await db.select({
    line: stockCountLine, name: product.name, sku: product.sku, barcode: product.barcode,
    variant: { id: productVariant.id, name: productVariant.name, attributeValue: productVariant.attributeValue, barcode: productVariant.barcode },
    // A variant line's stock now is the variant's row in the store; a product line's, the product's row.
    now: sql<string | null>`(case when ${stockCountLine.variantId} is null then ${productStore.quantity} else ${productVariantStore.quantity} end)::text`,
  }).from(stockCountLine).innerJoin(product, eq(product.id, stockCountLine.productId))
    .leftJoin(productStore, and(eq(productStore.productId, stockCountLine.productId), eq(productStore.storeId, c.storeId)))
    .leftJoin(productVariant, eq(productVariant.id, stockCountLine.variantId))
    .leftJoin(productVariantStore, and(eq(productVariantStore.variantId, stockCountLine.variantId), eq(productVariantStore.storeId, c.storeId)))
    .where(and(eq(stockCountLine.countId, id), only ? inArray(stockCountLine.productId, only.length ? only : [0]) : undefined))
    .orderBy(asc(stockCountLine.productId), sql`${stockCountLine.variantId} nulls first`);
  const n = await namesOf(db, [c.createdById, c.approvedById, c.cancelledById, ...rows.flatMap((r) => [r.line.firstCountedById, r.line.lastCountedById])], [c.storeId]);
  const open = c.status === 'open';
  let varianceQty = 0; let varianceCents = 0;
  const lines = rows.map(({ line, name, sku, barcode: code, variant, now }) => {
    const counted = parseQuantity(line.counted); const expected = parseQuantity(line.expected);
    const variance = counted - expected; const value = mulPriceQty(costCents(line.cost), variance);
    varianceQty += variance; varianceCents += value;
    const current = parseQuantity(now ?? '0');
    return {
      id: line.id, product: { id: line.productId, name, sku, barcode: code }, variant: variant?.id == null ? null : variant, counted: qtyOut(counted), expected: qtyOut(expected),
      variance: qtyOut(variance), cost: moneyOut(costCents(line.cost)), varianceValue: moneyOut(value), scans: line.scans,
      current: open ? qtyOut(current) : null, movedSinceFirstCount: open ? qtyOut(current - expected) : null,
      firstCountedBy: n.user(line.firstCountedById), firstCountedAt: iso(line.firstCountedAt), lastCountedBy: n.user(line.lastCountedById), lastCountedAt: iso(line.lastCountedAt),
    };
  });
  const scopeLink = c.scope === 'category' ? sql`exists (select 1 from product_category l where l.product_id = ps.product_id and l.category_id = ${c.scopeId})`
    : c.scope === 'brand' ? sql`exists (select 1 from product_brand l where l.product_id = ps.product_id and l.brand_id = ${c.scopeId})`
      : c.scope === 'supplier' ? sql`exists (select 1 from product_supplier l where l.product_id = ps.product_id and l.supplier_id = ${c.scopeId})`
        : c.scope === 'location' ? atLocation(sql`ps.location`, c) : sql`true`;
  const [{ uncounted }] = rowsOf<{ uncounted: number }>(await db.execute(sql`select count(*)::int as uncounted from product_store ps join product p on p.id = ps.product_id
    where ps.store_id = ${c.storeId} and p.manage_inventory and ps.quantity <> 0 and ${scopeLink}
      and not exists (select 1 from stock_count_line l where l.count_id = ${c.id} and l.product_id = ps.product_id)`));
  return {
    '@id': `/api/admin/stock/count/${c.id}`, id: c.id, number: c.number, status: c.status, store: n.store(c.storeId), scope: c.scope, scopeId: c.scopeId, location: c.scopeLocation, note: c.note,
    createdBy: n.user(c.createdById), createdAt: iso(c.createdAt), approvedBy: n.user(c.approvedById), approvedAt: iso(c.approvedAt),
    cancelledBy: n.user(c.cancelledById), cancelledAt: iso(c.cancelledAt),
    lines, totals: { lines: lines.length, variance: qtyOut(varianceQty), varianceValue: moneyOut(varianceCents), uncounted: Number(uncounted) },
  };
}

export async function listCounts(db: Db, query: Record<string, unknown>, actor: AuthInfo) {
  const { limit, offset } = paging(query);
  const stores = storeFilter(query, actor.storeIds);
  const where = and(stores.length ? inArray(stockCount.storeId, stores) : sql`false`, typeof query.status === 'string' && query.status ? eq(stockCount.status, query.status) : undefined);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(stockCount).where(where);
  const rows = await db.select().from(stockCount).where(where).orderBy(desc(stockCount.id)).limit(limit).offset(offset);
  const n = await namesOf(db, rows.flatMap((c) => [c.createdById, c.approvedById]), rows.map((c) => c.storeId));
  const list = rows.map((c) => ({
    '@id': `/api/admin/stock/count/${c.id}`, id: c.id, number: c.number, status: c.status, store: n.store(c.storeId), scope: c.scope, scopeId: c.scopeId,
    createdBy: n.user(c.createdById), createdAt: iso(c.createdAt), approvedBy: n.user(c.approvedById), approvedAt: iso(c.approvedAt),
  }));
  return { list, total: Number(total), count: list.length };
}
