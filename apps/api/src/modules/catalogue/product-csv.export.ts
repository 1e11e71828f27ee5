import { moneyText } from '../../lib/present.ts';
import { and, asc, gt, inArray, lte } from 'drizzle-orm';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { allOn } from '../../db/concurrent.ts';
import { product, productVariant, productBrand, productCategory, productStore, productSupplier, productTax } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { formatRow } from '../../lib/csv.ts';
import { scopes, trimDecimal } from './shared.ts';
import { EXPORT_BATCH, LIST_SEPARATOR, NameIndex, exportHeader, flag, linksInRange, loadLookups } from './product-csv.common.ts';

/** Streams the CSV of every product the caller sees (inactive included), in id order, in batches. */
export async function* exportProducts(db: Db, ctx: ResourceCtx): AsyncGenerator<string> {
  const lk = await loadLookups(db, ctx);
  yield '\uFEFF' + formatRow(exportHeader(lk.stores));
  let after = 0;
  for (;;) {
    const rows = await db.select().from(product).where(and(gt(product.id, after), scopes.product.scope(ctx))).orderBy(asc(product.id)).limit(EXPORT_BATCH);
    if (!rows.length) break;
    const first = after;
    after = rows[rows.length - 1].id;
    const [cats, brs, sups, txs] = await allOn(db, [
      () => linksInRange(db, productCategory, first, after), () => linksInRange(db, productBrand, first, after),
      () => linksInRange(db, productSupplier, first, after), () => linksInRange(db, productTax, first, after),
    ]);
    const stocks = lk.stores.length
      ? await db.select().from(productStore).where(and(gt(productStore.productId, first), lte(productStore.productId, after), inArray(productStore.storeId, lk.stores.map((s) => s.id))))
      : [];
    const variants = await db.select().from(productVariant).where(and(gt(productVariant.productId, first), lte(productVariant.productId, after))).orderBy(asc(productVariant.productId), asc(productVariant.id));
    const variantsBy = new Map<number, (typeof variants)[number][]>();
    for (const v of variants) variantsBy.set(v.productId, [...(variantsBy.get(v.productId) ?? []), v]);
    const stockBy = new Map<number, (typeof stocks)[number][]>();
    for (const s of stocks) stockBy.set(s.productId, [...(stockBy.get(s.productId) ?? []), s]);
    let chunk = '';
    for (const p of rows) {
      const mine = stockBy.get(p.id) ?? [];
      const names = (idx: NameIndex, list: number[] | undefined) => (list ?? []).filter((id) => idx.byId.has(id)).map((id) => idx.token(id)).join(LIST_SEPARATOR);
      const total = mine.reduce((sum, s) => sum + parseQuantity(s.quantity), 0);
      chunk += formatRow([
        p.id, p.name, p.barcode, flag(p.isAvailable), moneyText(p.cost), moneyText(p.basePrice), mine.length ? quantityToString(total) : '', p.purchaseUnit, p.saleUnit,
        p.sku, p.departmentId != null && lk.department.byId.has(p.departmentId) ? lk.department.token(p.departmentId) : '',
        names(lk.category, cats.get(p.id)), names(lk.brand, brs.get(p.id)), names(lk.supplier, sups.get(p.id)), names(lk.tax, txs.get(p.id)),
        flag(p.manageInventory), flag(p.isActive),
        ...lk.stores.flatMap((s) => {
          const row = mine.find((x) => x.storeId === s.id);
          return row ? [trimDecimal(row.quantity), row.location, trimDecimal(row.reOrderLevel)] : ['', '', ''];
        }),
        '', '', '',
      ]);
      // Each variant is one more row under its product (columns: product-csv.common.ts).
      for (const v of variantsBy.get(p.id) ?? []) {
        chunk += formatRow([
          v.id, v.name, v.barcode, '', v.purchasePrice == null ? '' : moneyText(v.purchasePrice), v.price == null ? '' : moneyText(v.price), trimDecimal(v.quantity), '', '',
          v.sku, '', '', '', '', '', '', '', ...lk.stores.flatMap(() => ['', '', '']), p.id, v.attributeName, v.attributeValue,
        ]);
      }
    }
    yield chunk;
    if (rows.length < EXPORT_BATCH) break;
  }
}
