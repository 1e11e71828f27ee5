import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Violation } from '@pos/domain/errors';
import { mulPriceQty, parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { product, productVariant, stockAdjustment, stockAdjustmentLine } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import { moveStocks, variantMoves, type StockDelta } from '../../lib/stock.ts';
import { costsInStore } from '../../lib/stock-cost.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { IN_REASONS, OUT_REASONS, type AdjustmentCreateBody, type AdjustmentReason } from './stock.schemas.ts';
import { assertVisible, costCents, iso, moneyOut, namesOf, nextNumber, paging, qtyOut, resolveProducts, storeFilter, throwIf, write } from './stock-ops.common.ts';

/**
 * Stock adjustments of one store: lines with a reason each (damage, theft, expiry, own_use take
 * stock out: negative quantities; found puts it in: positive; correction either way). Each line is
 * a ledger row whose reason is the line's reason, with the caller and the time; the note is on
 * the document line. A variant line moves the variant's row in the store and the product's store
 * row, as a sale does (lib/stock variantMoves). Stock may go negative, as with sales (the ledger follows the shelf).
 * The ledger rows carry the adjustment as their document; the audit entry `stock.adjusted`
 * (entity 'stock_adjustment') is written in the same transaction.
 */

export const ADJUSTMENT_MESSAGES = {
  mustBeNegative: (r: string) => `A ${r.replace('_', ' ')} takes stock out: the quantity should be negative.`,
  mustBePositive: (r: string) => `A ${r} puts stock in: the quantity should be positive.`,
};

export async function createAdjustment(db: Db, input: AdjustmentCreateBody, actor: AuthInfo): Promise<number> {
  assertCallerStore(actor, input.store, 'store');
  const v: Violation[] = [];
  input.lines.forEach((l, i) => {
    if (OUT_REASONS.includes(l.reason) && l.quantity > 0) v.push({ propertyPath: `lines[${i}].quantity`, message: ADJUSTMENT_MESSAGES.mustBeNegative(l.reason) });
    if (IN_REASONS.includes(l.reason) && l.quantity < 0) v.push({ propertyPath: `lines[${i}].quantity`, message: ADJUSTMENT_MESSAGES.mustBePositive(l.reason) });
  });
  throwIf(v);
  return write(db, async (tx) => {
    const { products } = await resolveProducts(tx, input.lines);
    const number = await nextNumber(tx, input.store, 'adjustment');
    const costs = await costsInStore(tx, input.store, input.lines.map((l) => l.product));
    const [row] = await tx.insert(stockAdjustment).values({ number, storeId: input.store, note: input.note ?? null, createdById: actor.userId })
      .returning({ id: stockAdjustment.id });
    await tx.insert(stockAdjustmentLine).values(input.lines.map((l) => ({
      adjustmentId: row.id, productId: l.product, variantId: l.variant ?? null, quantity: quantityToString(l.quantity), reason: l.reason,
      note: l.note ?? null, cost: costs.get(l.product) ?? products.get(l.product)!.cost,
    })));
    const byReason = new Map<AdjustmentReason, StockDelta[]>();
    for (const l of input.lines) {
      const moves = byReason.get(l.reason) ?? [];
      moves.push(...variantMoves(l.product, l.variant, input.store, quantityToString(l.quantity)));
      byReason.set(l.reason, moves);
    }
    for (const [reason, moves] of [...byReason].sort(([a], [b]) => a.localeCompare(b))) {
      await moveStocks(tx, moves, { reason, userId: actor.userId, document: { kind: 'adjustment', id: row.id } });
    }
    await audit(tx, {
      action: 'stock.adjusted', actor, storeId: input.store, entity: 'stock_adjustment', entityId: row.id,
      details: {
        number, note: input.note ?? null,
        lines: input.lines.map((l) => ({ product: l.product, variant: l.variant ?? null, quantity: quantityToString(l.quantity), reason: l.reason })),
      },
    });
    return row.id;
  });
}

export async function getAdjustment(db: Db, id: number, actor: AuthInfo) {
  const [a] = await db.select().from(stockAdjustment).where(eq(stockAdjustment.id, id));
  assertVisible(a, (r) => actor.storeIds.includes(r.storeId), 'Stock adjustment');
  const rows = await db.select({
    line: stockAdjustmentLine, product: { id: product.id, name: product.name, sku: product.sku, barcode: product.barcode },
    variant: { id: productVariant.id, name: productVariant.name, attributeValue: productVariant.attributeValue },
  }).from(stockAdjustmentLine).innerJoin(product, eq(product.id, stockAdjustmentLine.productId))
    .leftJoin(productVariant, eq(productVariant.id, stockAdjustmentLine.variantId))
    .where(eq(stockAdjustmentLine.adjustmentId, id)).orderBy(asc(stockAdjustmentLine.id));
  const n = await namesOf(db, [a.createdById], [a.storeId]);
  let totalCents = 0;
  const lines = rows.map(({ line, product: p, variant }) => {
    const q = parseQuantity(line.quantity);
    const value = mulPriceQty(costCents(line.cost), q);
    totalCents += value;
    return {
      id: line.id, product: p, variant: variant?.id == null ? null : variant, quantity: qtyOut(q), reason: line.reason, note: line.note,
      cost: moneyOut(costCents(line.cost)), value: moneyOut(value),
    };
  });
  return {
    '@id': `/api/admin/stock/adjustment/${a.id}`, id: a.id, number: a.number, store: n.store(a.storeId), note: a.note,
    createdBy: n.user(a.createdById), createdAt: iso(a.createdAt), lines, totals: { value: moneyOut(totalCents) },
  };
}

export async function listAdjustments(db: Db, query: Record<string, unknown>, actor: AuthInfo) {
  const { limit, offset } = paging(query);
  const stores = storeFilter(query, actor.storeIds);
  const where = and(stores.length ? inArray(stockAdjustment.storeId, stores) : sql`false`);
  const [{ total }] = await db.select({ total: sql<number>`count(*)::int` }).from(stockAdjustment).where(where);
  const rows = await db.select().from(stockAdjustment).where(where).orderBy(desc(stockAdjustment.id)).limit(limit).offset(offset);
  const n = await namesOf(db, rows.map((a) => a.createdById), rows.map((a) => a.storeId));
  const list = rows.map((a) => ({
    '@id': `/api/admin/stock/adjustment/${a.id}`, id: a.id, number: a.number, store: n.store(a.storeId), note: a.note,
    createdBy: n.user(a.createdById), createdAt: iso(a.createdAt),
  }));
  return { list, total: Number(total), count: list.length };
}
