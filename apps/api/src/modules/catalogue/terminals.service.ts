import { and, asc, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { flag, ref, text } from '@pos/domain/wire-fields';
import { notFound, validationError } from '@pos/domain/errors';
import type { Db, Tx } from '../../db/client.ts';
import { closing, order, product, productCategory, productTerminal, store, terminal } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { dateObj, presentStoreBrief } from '../../lib/present.ts';
import { assertCallerStore } from '../../lib/scope.ts';
import { assertVisible, inIds, productVisible, scopes, optText, refsField } from './shared.ts';


/**
 * Terminal create/update body of /api/admin/terminal/*: {code, description, store, products,
 * categories, excludeProducts} (products may mix numeric ids and IRIs). /api/terminals accepts the
 * same fields (its `products` is the plain list of products to assign).
 */
export const terminalBody = z.object({
  code: text(),
  description: optText(),
  store: ref(),
  products: refsField(),
  categories: refsField(),
  excludeProducts: refsField(),
  isActive: flag().optional(),
});
export const terminalUpdateBody = terminalBody.partial();
export type TerminalInput = z.output<typeof terminalUpdateBody>;

/**
 * Product assignment (reference 4.9): when any of products (non-empty), categories (non-empty) or
 * excludeProducts (non-empty) is given, the terminal's products are replaced by every product of
 * the terminal's store matching ALL the given conditions: id in products, in one of categories,
 * not in excludeProducts. Only excludeProducts = everything else. One INSERT ... SELECT.
 */
async function assignProducts(tx: Tx, terminalId: number, storeId: number | null, input: TerminalInput, ctx: ResourceCtx) {
  const products = input.products?.length ? input.products : null;
  const categories = input.categories?.length ? input.categories : null;
  const exclude = input.excludeProducts?.length ? input.excludeProducts : null;
  if (!products && !categories && !exclude) {
    // An explicit empty product list clears the assignment.
    if (Array.isArray(input.products) && input.categories == null && input.excludeProducts == null) {
      await tx.delete(productTerminal).where(eq(productTerminal.otherId, terminalId));
    }
    return;
  }
  if (products) await assertVisible(tx, scopes.product, products, ctx, 'products', 'Product');
  if (categories) await assertVisible(tx, scopes.category, categories, ctx, 'categories', 'Category');
  if (exclude) await assertVisible(tx, scopes.product, exclude, ctx, 'excludeProducts', 'Product');
  const conds: SQL[] = [productVisible(product.id, storeId != null ? [storeId] : ctx.auth.storeIds)];
  if (products) conds.push(inIds(product.id, products));
  if (categories) conds.push(exists(sql`(select 1 from ${productCategory} where ${productCategory.productId} = ${product.id} and ${inArray(productCategory.otherId, categories)})`));
  if (exclude) conds.push(sql`not (${inIds(product.id, exclude)})`);
  await tx.delete(productTerminal).where(eq(productTerminal.otherId, terminalId));
  await tx.execute(sql`insert into ${productTerminal} (product_id, terminal_id) select ${product.id}, ${terminalId}::int from ${product} where ${and(...conds)}`);
}

export async function createTerminal(tx: Tx, input: z.output<typeof terminalBody>, ctx: ResourceCtx): Promise<number> {
  assertCallerStore(ctx.auth, input.store, 'store');
  const [row] = await tx.insert(terminal).values({
    code: input.code, description: input.description ?? null, storeId: input.store, isActive: input.isActive ?? true,
  }).returning({ id: terminal.id });
  await assignProducts(tx, row.id, input.store, input, ctx);
  return row.id;
}

/** Merge update; the id comes from the URL (the reference read it from the body). */
export async function updateTerminal(tx: Tx, id: number, input: TerminalInput, ctx: ResourceCtx) {
  const [current] = await tx.select().from(terminal).where(eq(terminal.id, id)).for('update');
  const set: Partial<typeof terminal.$inferInsert> = {};
  if (input.code !== undefined) set.code = input.code;
  if (input.description !== undefined) set.description = input.description;
  if (input.isActive !== undefined) set.isActive = input.isActive;
  if (input.store !== undefined) {
    assertCallerStore(ctx.auth, input.store, 'store');
    set.storeId = input.store;
  }
  await tx.update(terminal).set({ ...set, updatedAt: new Date() }).where(eq(terminal.id, id));
  await assignProducts(tx, id, set.storeId ?? current.storeId, input, ctx);
}

/** Hard delete, refused (422) while sales or day closings reference the terminal: deactivate it instead. */
export async function deleteTerminal(tx: Tx, id: number) {
  const [o] = await tx.select({ n: sql<number>`count(*)::int` }).from(order).where(eq(order.terminalId, id));
  const [c] = await tx.select({ n: sql<number>`count(*)::int` }).from(closing).where(eq(closing.terminalId, id));
  if (Number(o.n) + Number(c.n) > 0) {
    throw validationError([{ propertyPath: 'id', message: 'This terminal has sales or day closings; deactivate it instead.' }]);
  }
  await tx.delete(terminal).where(eq(terminal.id, id));
}

/** Assigned products of many terminals, limited to what the caller may see. */
export async function productsByTerminal(db: Db | Tx, ids: number[], ctx: ResourceCtx) {
  const out = new Map<number, { id: number; name: string; barcode: string | null }[]>();
  if (!ids.length) return out;
  const rows = await (db as Db).select({ t: productTerminal.otherId, id: product.id, name: product.name, barcode: product.barcode })
    .from(productTerminal).innerJoin(product, eq(product.id, productTerminal.productId))
    .where(and(inArray(productTerminal.otherId, ids), productVisible(product.id, ctx.auth.storeIds)))
    .orderBy(asc(product.id));
  for (const r of rows) {
    const list = out.get(r.t) ?? [];
    list.push({ id: r.id, name: r.name, barcode: r.barcode });
    out.set(r.t, list);
  }
  return out;
}

/**
 * TerminalDto of the custom endpoints: dates as {datetime}, store short (terminals: []),
 * products as [{label: name, value: id}].
 */
export async function presentTerminalDtos(db: Db | Tx, rows: (typeof terminal.$inferSelect)[], ctx: ResourceCtx) {
  const storeIds = [...new Set(rows.map((r) => r.storeId).filter((x): x is number => x != null))];
  const stores = storeIds.length ? await (db as Db).select().from(store).where(inArray(store.id, storeIds)) : [];
  const products = await productsByTerminal(db, rows.map((r) => r.id), ctx);
  return rows.map((t) => {
    const s = stores.find((x) => x.id === t.storeId);
    return {
      '@id': `/api/terminals/${t.id}`, id: t.id, code: t.code, description: t.description, isActive: t.isActive, uuid: t.uuid,
      createdAt: dateObj(t.createdAt), updatedAt: dateObj(t.updatedAt),
      store: s ? { ...presentStoreBrief(s), terminals: [] } : null,
      products: (products.get(t.id) ?? []).map((p) => ({ label: p.name, value: p.id })),
    };
  });
}

export async function getTerminalDto(db: Db, id: number, ctx: ResourceCtx) {
  const rows = await db.select().from(terminal).where(and(eq(terminal.id, id), scopes.terminal.scope(ctx)));
  if (!rows.length) throw notFound('Terminal not found');
  const [dto] = await presentTerminalDtos(db, rows, ctx);
  return dto;
}
