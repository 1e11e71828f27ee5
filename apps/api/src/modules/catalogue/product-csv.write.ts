import { and, eq, inArray } from 'drizzle-orm';
import { validationError } from '@pos/domain/errors';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import type { Tx } from '../../db/client.ts';
import { product, productBrand, productCategory, productStore, productSupplier, productTax, productVariant } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { moveStock } from '../../lib/stock.ts';
import { canonicalDecimal } from './shared.ts';
import { variantsInUse } from './products.service.ts';
import { setVariantStock } from './variant-stock.ts';
import { BATCH, linksOf, type Lookups } from './product-csv.common.ts';
import type { ImportRow, VariantRow } from './product-csv.rows.ts';

export interface ImportResult { created: number; updated: number; unchanged: number; total: number }

type ProductRow = typeof product.$inferSelect;
type Variant = typeof productVariant.$inferSelect;

const sameMoney = (a: string | null, b: string | null) => (a == null || b == null ? a === b : canonicalDecimal(a) === canonicalDecimal(b));
/** An empty text and no text are the same in a file (an empty cell is read as null; a form may have stored ''). */
const sameText = (a: unknown, b: unknown) => (a === '' ? null : a) === (b === '' ? null : b);

/** Brings one product's variants to what the file lists (updates, creates, removes); true when something changed. */
async function writeVariants(tx: Tx, productId: number, rows: VariantRow[], current: Variant[], ctx: ResourceCtx, at: { rowNo: number; line: number }): Promise<boolean> {
  let changed = false;
  const keep = new Set(rows.map((r) => r.id).filter((x): x is number => x != null));
  const removed = current.filter((v) => !keep.has(v.id)).map((v) => v.id);
  if (removed.length) {
    if (await variantsInUse(tx, removed)) {
      const message = `Error while removing variants! A variant of this product missing from the file (ID ${removed.join(', ')}) is used by sales or purchases.`;
      throw validationError([{ propertyPath: `row ${at.rowNo}.Variant of`, message, line: at.line } as { propertyPath: string; message: string }], 'Error while removing variants!');
    }
    await tx.delete(productVariant).where(and(eq(productVariant.productId, productId), inArray(productVariant.id, removed)));
    changed = true;
  }
  for (const r of rows) {
    const old = r.id != null ? current.find((v) => v.id === r.id) : undefined;
    const fields = { name: r.name, attributeName: r.attributeName, attributeValue: r.attributeValue, barcode: r.barcode, sku: r.sku, price: r.price, purchasePrice: r.purchasePrice };
    let variantId: number;
    if (old) {
      variantId = old.id;
      const diff: Partial<typeof productVariant.$inferInsert> = {};
      for (const [k, v] of Object.entries(fields)) {
        const now = (old as any)[k];
        if (k === 'price' || k === 'purchasePrice' ? !sameMoney(now, v) : !sameText(now, v)) (diff as any)[k] = v;
      }
      if (Object.keys(diff).length) { await tx.update(productVariant).set({ ...diff, updatedAt: new Date() }).where(eq(productVariant.id, old.id)); changed = true; }
    } else {
      const [row] = await tx.insert(productVariant).values({ productId, ...fields, quantity: '0' }).returning({ id: productVariant.id });
      variantId = row.id;
      changed = true;
    }
    // The file's quantity is the variant's total over the stores: a difference goes to its home store (variant-stock.ts).
    if (await setVariantStock(tx, {
      productId, variantId, currentTotal: old?.quantity ?? null, quantity: r.quantity, storeIds: ctx.auth.storeIds, reason: 'import', userId: ctx.auth.userId, path: `row ${at.rowNo}.Variant quantity`,
    })) changed = true;
  }
  return changed;
}

/** Writes the checked rows; unchanged rows are not written at all. Runs inside the caller's transaction. */
export async function writeRows(tx: Tx, parsed: ImportRow[], existing: Map<number, ProductRow>, variantsOf: Map<number, Variant[]>, lk: Lookups, ctx: ResourceCtx): Promise<ImportResult> {
  const result: ImportResult = { created: 0, updated: 0, unchanged: 0, total: parsed.length };
  const updateIds = parsed.filter((r) => r.id != null).map((r) => r.id!);
  // One connection: one after the other (node-postgres would queue them anyway).
  const cats = await linksOf(tx, productCategory, updateIds);
  const brs = await linksOf(tx, productBrand, updateIds);
  const sups = await linksOf(tx, productSupplier, updateIds);
  const txs = await linksOf(tx, productTax, updateIds);
  const linkSpecs = [
    { key: 'categories' as const, table: productCategory, idx: lk.category, current: cats },
    { key: 'brands' as const, table: productBrand, idx: lk.brand, current: brs },
    { key: 'suppliers' as const, table: productSupplier, idx: lk.supplier, current: sups },
    { key: 'taxes' as const, table: productTax, idx: lk.tax, current: txs },
  ];
  // Current per-store rows, locked: stock differences are computed against what is really there.
  const stock = new Map<string, typeof productStore.$inferSelect>();
  for (let i = 0; i < updateIds.length && lk.stores.length; i += BATCH) {
    const rowsNow = await tx.select().from(productStore)
      .where(and(inArray(productStore.productId, updateIds.slice(i, i + BATCH)), inArray(productStore.storeId, lk.stores.map((s) => s.id)))).for('update');
    for (const s of rowsNow) stock.set(`${s.productId}:${s.storeId}`, s);
  }
  // New products are inserted in batches (a big file of new products is mostly this).
  const fieldsOf = (row: ImportRow) => {
    const fields: Partial<typeof product.$inferInsert> = {
      name: row.name, barcode: row.barcode, isAvailable: row.isAvailable, cost: row.cost, basePrice: row.basePrice,
      purchaseUnit: row.purchaseUnit, saleUnit: row.saleUnit,
    };
    if (row.sku !== undefined) fields.sku = row.sku;
    if (row.departmentId !== undefined) fields.departmentId = row.departmentId;
    if (row.manageInventory !== undefined) fields.manageInventory = row.manageInventory;
    if (row.isActive !== undefined) fields.isActive = row.isActive;
    return fields;
  };
  const newIds = new Map<ImportRow, number>();
  const creates = parsed.filter((r) => r.id == null);
  for (let i = 0; i < creates.length; i += 500) {
    const part = creates.slice(i, i + 500);
    const ids = await tx.insert(product).values(part.map((row) => ({ ...fieldsOf(row), name: row.name, isActive: row.isActive ?? true }))).returning({ id: product.id });
    part.forEach((row, k) => newIds.set(row, ids[k].id));
  }
  for (const row of parsed) {
    let productId: number;
    let changed = false;
    const fields = fieldsOf(row);
    if (row.id == null) {
      productId = newIds.get(row)!;
      for (const spec of linkSpecs) {
        const next = row[spec.key];
        if (next?.length) await tx.insert(spec.table).values(next.map((otherId) => ({ productId, otherId })));
      }
      result.created++;
    } else {
      productId = row.id;
      const cur = existing.get(productId)!;
      const diff: Partial<typeof product.$inferInsert> = {};
      // A department the caller cannot see was exported as an empty cell: keep it.
      if (fields.departmentId === null && cur.departmentId != null && !lk.department.byId.has(cur.departmentId)) delete fields.departmentId;
      for (const [k, v] of Object.entries(fields)) {
        const now = (cur as any)[k];
        const same = k === 'cost' || k === 'basePrice' ? canonicalDecimal(now) === canonicalDecimal(v as string) : sameText(now, v);
        if (!same) (diff as any)[k] = v;
      }
      if (Object.keys(diff).length) { await tx.update(product).set(diff).where(eq(product.id, productId)); changed = true; }
      for (const spec of linkSpecs) {
        const next = row[spec.key];
        if (!next) continue;
        const visibleNow = (spec.current.get(productId) ?? []).filter((id) => spec.idx.byId.has(id));
        if (visibleNow.length === next.length && next.every((id) => visibleNow.includes(id))) continue;
        const drop = visibleNow.filter((id) => !next.includes(id));
        const addIds = next.filter((id) => !(spec.current.get(productId) ?? []).includes(id));
        if (drop.length) await tx.delete(spec.table).where(and(eq(spec.table.productId, productId), inArray(spec.table.otherId, drop)));
        if (addIds.length) await tx.insert(spec.table).values(addIds.map((otherId) => ({ productId, otherId })));
        changed = true;
      }
    }
    for (const sc of row.stores) {
      if (!sc.touched) continue;
      const cur = stock.get(`${productId}:${sc.storeId}`);
      if (!cur) {
        await tx.insert(productStore).values({ productId, storeId: sc.storeId, quantity: '0', location: sc.location ?? null, reOrderLevel: sc.reOrderLevel ?? null });
        changed = true;
      } else {
        const set: Partial<typeof productStore.$inferInsert> = {};
        if (sc.location !== undefined && !sameText(sc.location, cur.location)) set.location = sc.location;
        if (sc.reOrderLevel !== undefined && canonicalDecimal(sc.reOrderLevel) !== canonicalDecimal(cur.reOrderLevel)) set.reOrderLevel = sc.reOrderLevel;
        if (Object.keys(set).length) { await tx.update(productStore).set(set).where(eq(productStore.id, cur.id)); changed = true; }
      }
      if (sc.quantity != null) {
        const d = parseQuantity(sc.quantity) - parseQuantity(cur?.quantity ?? '0');
        if (d !== 0) {
          await moveStock(tx, { productId, storeId: sc.storeId, delta: quantityToString(d), reason: 'import', userId: ctx.auth.userId });
          changed = true;
        }
      }
    }
    if (row.variants && (row.variants.length || (variantsOf.get(productId) ?? []).length)) {
      if (await writeVariants(tx, productId, row.variants, variantsOf.get(productId) ?? [], ctx, row)) changed = true;
    }
    if (row.id != null) {
      if (changed) { await tx.update(product).set({ updatedAt: new Date() }).where(eq(product.id, productId)); result.updated++; } else result.unchanged++;
    }
  }
  return result;
}
