import { audit } from '../../lib/audit.ts';
import { and, eq, inArray } from 'drizzle-orm';
import { BLANK, NOT_NUMBER, NOT_POSITIVE_OR_ZERO, TOO_LONG } from '@pos/domain/wire-fields';
import { validationError, type Violation } from '@pos/domain/errors';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import type { Db } from '../../db/client.ts';
import { barcode as barcodeTable, product, productBrand, productCategory, productStore, productSupplier, productTax, productVariant } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { moveStock } from '../../lib/stock.ts';
import { CsvSyntaxError, firstInvalidUtf8, parseCsv, unneutralise } from '../../lib/csv.ts';
import { BARCODE_USED, MAX_QUANTITY, QUANTITY_TOO_LARGE, canonicalDecimal, scopes } from './shared.ts';
import { BASE_COLUMNS, BATCH, DECIMAL, EXTRA_COLUMNS, MAX_VIOLATIONS, NameIndex, STORE_COLUMN, linksOf, loadLookups, storeLabel } from './product-csv.common.ts';

// ---------------------------------------------------------------------------------------------
// Import

interface StoreCells { storeId: number; quantity?: string | null; location?: string | null; reOrderLevel?: string | null; touched: boolean }

interface ImportRow {
  rowNo: number;
  id: number | null;
  name: string;
  barcode: string | null;
  isAvailable: boolean;
  cost: string;
  basePrice: string;
  purchaseUnit: string | null;
  saleUnit: string | null;
  sku?: string | null;
  departmentId?: number | null;
  categories?: number[];
  brands?: number[];
  suppliers?: number[];
  taxes?: number[];
  manageInventory?: boolean;
  isActive?: boolean;
  stores: StoreCells[];
}

export interface ImportResult { created: number; updated: number; unchanged: number; total: number }

function parseFlag(s: string): boolean | undefined {
  const v = s.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no' || v === 'n') return false;
  if (v === '1' || v === 'true' || v === 'yes' || v === 'y') return true;
  return undefined;
}

/** Where (row, column) the first invalid UTF-8 byte sits, read from the valid text before it. */
function locateInvalidUtf8(buf: Buffer, offset: number): { row: number; column: string } {
  const prefix = buf.subarray(0, offset).toString('utf8').replace(/^\uFEFF/, '');
  let row: number;
  let col: number;
  let header: string[] | undefined;
  try {
    const parsed = parseCsv(prefix);
    header = parsed.rows[0];
    const endsLine = prefix === '' || /[\r\n]$/.test(prefix);
    row = endsLine ? parsed.rows.length + 1 : parsed.rows.length;
    col = endsLine ? 1 : parsed.rows[parsed.rows.length - 1].length;
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    row = e.row;
    col = e.column;
    try { header = parseCsv(prefix.slice(0, prefix.search(/[\r\n]/) >= 0 ? prefix.search(/[\r\n]/) : 0)).rows[0]; } catch { header = undefined; }
  }
  const name = row > 1 && header?.[col - 1] ? header[col - 1].trim() : `column ${col}`;
  return { row, column: name };
}

/** Decodes and parses an upload; 422 naming row and column for bad encoding or CSV syntax. */
export function readCsvUpload(buf: Buffer): string[][] {
  const bad = firstInvalidUtf8(buf);
  if (bad >= 0) {
    const at = locateInvalidUtf8(buf, bad);
    throw validationError([{ propertyPath: `row ${at.row}.${at.column}`, message: 'This value is not valid UTF-8 text.' }], 'The file is not valid UTF-8 text; nothing was imported.');
  }
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return parseCsv(text).rows;
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    let header: string[] | undefined;
    try { header = parseCsv(text.slice(0, Math.max(0, text.search(/[\r\n]/)))).rows[0]; } catch { header = undefined; }
    const name = e.row > 1 && header?.[e.column - 1] ? header[e.column - 1].trim() : `column ${e.column}`;
    throw validationError([{ propertyPath: `row ${e.row}.${name}`, message: e.message }], `CSV syntax error in row ${e.row}; nothing was imported.`);
  }
}

/**
 * Imports a product CSV (see the format above) in one transaction. Everything is validated first
 * (422 with up to 100 violations, nothing written); unchanged rows are not written at all.
 */
export async function importProducts(db: Db, buf: Buffer, ctx: ResourceCtx): Promise<ImportResult> {
  const rows = readCsvUpload(buf);
  if (!rows.length) throw validationError([{ propertyPath: 'row 1', message: 'The file is empty; the first row must name the columns.' }]);
  const lk = await loadLookups(db, ctx);
  const header = rows[0].map((h) => h.trim());
  const violations: Violation[] = [];
  const add = (propertyPath: string, message: string) => { if (violations.length < MAX_VIOLATIONS) violations.push({ propertyPath, message }); };

  // Header: required base columns, known optional ones, per-store columns of the caller's stores.
  const col = new Map<string, number>();
  const storeCols = new Map<number, { quantity?: number; location?: number; reOrderLevel?: number }>();
  header.forEach((h, i) => {
    if (col.has(h)) { add(`row 1.${h}`, 'This column appears twice.'); return; }
    col.set(h, i);
    if ((BASE_COLUMNS as readonly string[]).includes(h) || (EXTRA_COLUMNS as readonly string[]).includes(h)) return;
    const m = STORE_COLUMN.exec(h);
    if (m) {
      const storeId = Number(m[3]);
      if (!lk.stores.some((s) => s.id === storeId)) { add(`row 1.${h}`, `'Store' with ID '${m[3]}' not found`); return; }
      const entry = storeCols.get(storeId) ?? {};
      entry[m[1] === 'Quantity' ? 'quantity' : m[1] === 'Location' ? 'location' : 'reOrderLevel'] = i;
      storeCols.set(storeId, entry);
      return;
    }
    add(`row 1.${h || `column ${i + 1}`}`, `Unknown column. Expected: ${[...BASE_COLUMNS, ...EXTRA_COLUMNS].join(', ')} and per-store Quantity/Location/Re-order Level [<store> #<id>].`);
  });
  for (const c of BASE_COLUMNS) if (!col.has(c)) add(`row 1.${c}`, 'This column is missing.');
  if (violations.length) throw validationError(violations, 'The columns of the file are not the expected ones; nothing was imported.');

  // Existing products named by ID, with what the comparison needs.
  const ids = [...new Set(rows.slice(1).map((r) => Number(unneutralise(r[col.get('ID')!] ?? '').trim())).filter((n) => Number.isInteger(n) && n > 0 && n <= 2147483647))];
  const existing = new Map<number, typeof product.$inferSelect>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    for (const p of await db.select().from(product).where(and(inArray(product.id, part), scopes.product.scope(ctx)))) existing.set(p.id, p);
  }

  const parsed: ImportRow[] = [];
  const barcodes = new Map<string, { rowNo: number; id: number | null }>();
  const seenIds = new Map<number, number>();
  for (let r = 1; r < rows.length; r++) {
    const rowNo = r + 1;
    const cells = rows[r];
    if (cells.length !== header.length) { add(`row ${rowNo}`, `This row has ${cells.length} cells; the header has ${header.length}.`); continue; }
    const get = (name: string) => (col.has(name) ? unneutralise(cells[col.get(name)!]).trim() : undefined);
    const at = (name: string) => `row ${rowNo}.${name}`;
    const before = violations.length;

    let id: number | null = null;
    const rawId = get('ID')!;
    if (rawId !== '' && rawId !== '0') {
      const n = Number(rawId);
      if (!/^\d+$/.test(rawId) || !existing.has(n)) add(at('ID'), `'Product' with ID '${rawId}' not found`);
      else if (seenIds.has(n)) add(at('ID'), `This product is already in row ${seenIds.get(n)}.`);
      else { id = n; seenIds.set(n, rowNo); }
    }
    const name = get('Name')!;
    if (!name) add(at('Name'), BLANK); else if (name.length > 255) add(at('Name'), TOO_LONG);
    const code = get('Barcode')!;
    if (code.length > 255) add(at('Barcode'), TOO_LONG);
    else if (code) {
      const prev = barcodes.get(code);
      if (prev && (prev.id === null || prev.id !== id)) add(at('Barcode'), BARCODE_USED);
      else barcodes.set(code, { rowNo, id });
    }
    const money = (label: string) => {
      const v = get(label)!;
      if (v === '') { add(at(label), BLANK); return '0'; }
      if (!DECIMAL.test(v)) { add(at(label), NOT_NUMBER); return '0'; }
      if (Number(v) < 0) { add(at(label), NOT_POSITIVE_OR_ZERO); return '0'; }
      return v;
    };
    const cost = money('Purchase price');
    const basePrice = money('Sale price');
    const avail = get('Available Quantity')!;
    if (avail !== '' && !DECIMAL.test(avail)) add(at('Available Quantity'), NOT_NUMBER);
    const bool = (label: string) => {
      const v = get(label);
      if (v === undefined) return undefined;
      const b = parseFlag(v);
      if (b === undefined) add(at(label), 'The value you selected is not a valid choice.');
      return b;
    };
    const unit = (label: string) => {
      const v = get(label)!;
      if (v.length > 20) add(at(label), TOO_LONG);
      return v || null;
    };
    const row: ImportRow = {
      rowNo, id, name, barcode: code || null, isAvailable: bool('Is Available?') ?? false, cost, basePrice,
      purchaseUnit: unit('Purchase Unit'), saleUnit: unit('Sale Unit'), stores: [],
    };
    const sku = get('SKU');
    if (sku !== undefined) { if (sku.length > 255) add(at('SKU'), TOO_LONG); row.sku = sku || null; }
    const dep = get('Department');
    if (dep !== undefined) {
      if (dep === '') row.departmentId = null;
      else { const res = lk.department.resolve(dep); if ('error' in res) add(at('Department'), res.error); else row.departmentId = res.id; }
    }
    const list = (label: string, idx: NameIndex) => {
      const v = get(label);
      if (v === undefined) return undefined;
      const out: number[] = [];
      for (const token of v.split('|').map((t) => t.trim()).filter(Boolean)) {
        const res = idx.resolve(token);
        if ('error' in res) add(at(label), res.error); else if (!out.includes(res.id)) out.push(res.id);
      }
      return out;
    };
    row.categories = list('Categories', lk.category);
    row.brands = list('Brands', lk.brand);
    row.suppliers = list('Suppliers', lk.supplier);
    row.taxes = list('Taxes', lk.tax);
    row.manageInventory = bool('Manage Inventory?');
    row.isActive = bool('Is Active?');
    for (const [storeId, c] of storeCols) {
      const label = (kind: string) => `${kind} [${storeLabel(lk.stores.find((s) => s.id === storeId)!)}]`;
      const cell = (i: number | undefined) => (i === undefined ? undefined : unneutralise(cells[i]).trim());
      const q = cell(c.quantity);
      const loc = cell(c.location);
      const lvl = cell(c.reOrderLevel);
      const sc: StoreCells = { storeId, touched: Boolean(q || loc || lvl) };
      if (q) {
        if (!DECIMAL.test(q)) add(at(label('Quantity')), NOT_NUMBER);
        else if (Math.abs(Number(q)) >= MAX_QUANTITY) add(at(label('Quantity')), QUANTITY_TOO_LARGE);
        else sc.quantity = q;
      }
      if (loc !== undefined && sc.touched) { if (loc.length > 255) add(at(label('Location')), TOO_LONG); sc.location = loc || null; }
      if (lvl) {
        if (!DECIMAL.test(lvl)) add(at(label('Re-order Level')), NOT_NUMBER);
        else if (Number(lvl) < 0) add(at(label('Re-order Level')), NOT_POSITIVE_OR_ZERO);
        else if (Number(lvl) >= MAX_QUANTITY) add(at(label('Re-order Level')), QUANTITY_TOO_LARGE);
        else sc.reOrderLevel = lvl;
      } else if (c.reOrderLevel !== undefined && sc.touched) sc.reOrderLevel = null;
      row.stores.push(sc);
    }
    if (violations.length === before) parsed.push(row);
    if (violations.length >= MAX_VIOLATIONS) break;
  }

  // Barcodes must not clash with other products, variants or extra barcodes already stored.
  const codes = [...barcodes.keys()];
  for (let i = 0; i < codes.length && violations.length < MAX_VIOLATIONS; i += BATCH) {
    const part = codes.slice(i, i + BATCH);
    const taken = new Map<string, number | null>();
    for (const p of await db.select({ id: product.id, code: product.barcode }).from(product).where(inArray(product.barcode, part))) taken.set(p.code!, p.id);
    for (const v of await db.select({ code: productVariant.barcode }).from(productVariant).where(inArray(productVariant.barcode, part))) taken.set(v.code!, null);
    for (const b of await db.select({ code: barcodeTable.barcode }).from(barcodeTable).where(inArray(barcodeTable.barcode, part))) taken.set(b.code, null);
    for (const [code, owner] of taken) {
      const mine = barcodes.get(code)!;
      // A product keeps its own barcode; a barcode moving between two products of the file is refused too.
      if (owner === null || owner !== mine.id) add(`row ${mine.rowNo}.Barcode`, BARCODE_USED);
    }
  }
  if (violations.length) {
    throw validationError(violations, `The file has ${violations.length}${violations.length >= MAX_VIOLATIONS ? '+' : ''} error(s); nothing was imported.`);
  }

  const result: ImportResult = { created: 0, updated: 0, unchanged: 0, total: parsed.length };
  const updateIds = parsed.filter((r) => r.id != null).map((r) => r.id!);
  const [cats, brs, sups, txs] = await Promise.all([
    linksOf(db, productCategory, updateIds), linksOf(db, productBrand, updateIds), linksOf(db, productSupplier, updateIds), linksOf(db, productTax, updateIds),
  ]);
  const linkSpecs = [
    { key: 'categories' as const, table: productCategory, idx: lk.category, current: cats },
    { key: 'brands' as const, table: productBrand, idx: lk.brand, current: brs },
    { key: 'suppliers' as const, table: productSupplier, idx: lk.supplier, current: sups },
    { key: 'taxes' as const, table: productTax, idx: lk.tax, current: txs },
  ];

  await db.transaction(async (tx) => {
    // Current per-store rows, locked: stock differences are computed against what is really there.
    const stock = new Map<string, typeof productStore.$inferSelect>();
    for (let i = 0; i < updateIds.length; i += BATCH) {
      const part = updateIds.slice(i, i + BATCH);
      if (!lk.stores.length) break;
      const rowsNow = await tx.select().from(productStore)
        .where(and(inArray(productStore.productId, part), inArray(productStore.storeId, lk.stores.map((s) => s.id)))).for('update');
      for (const s of rowsNow) stock.set(`${s.productId}:${s.storeId}`, s);
    }
    for (const row of parsed) {
      let productId: number;
      let changed = false;
      const fields: Partial<typeof product.$inferInsert> = {
        name: row.name, barcode: row.barcode, isAvailable: row.isAvailable, cost: row.cost, basePrice: row.basePrice,
        purchaseUnit: row.purchaseUnit, saleUnit: row.saleUnit,
      };
      if (row.sku !== undefined) fields.sku = row.sku;
      if (row.departmentId !== undefined) fields.departmentId = row.departmentId;
      if (row.manageInventory !== undefined) fields.manageInventory = row.manageInventory;
      if (row.isActive !== undefined) fields.isActive = row.isActive;
      if (row.id == null) {
        const [created] = await tx.insert(product).values({ ...fields, name: row.name, isActive: row.isActive ?? true }).returning({ id: product.id });
        productId = created.id;
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
          const same = k === 'cost' || k === 'basePrice' ? canonicalDecimal(now) === canonicalDecimal(v as string) : now === v;
          if (!same) (diff as any)[k] = v;
        }
        if (Object.keys(diff).length) { await tx.update(product).set(diff).where(eq(product.id, productId)); changed = true; }
        for (const spec of linkSpecs) {
          const next = row[spec.key];
          if (!next) continue;
          const visibleNow = (spec.current.get(productId) ?? []).filter((id) => spec.idx.byId.has(id));
          const same = visibleNow.length === next.length && next.every((id) => visibleNow.includes(id));
          if (same) continue;
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
          if (sc.location !== undefined && sc.location !== cur.location) set.location = sc.location;
          if (sc.reOrderLevel !== undefined && canonicalDecimal(sc.reOrderLevel) !== canonicalDecimal(cur.reOrderLevel)) {
            set.reOrderLevel = sc.reOrderLevel;
          }
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
      if (row.id != null) {
        if (changed) { await tx.update(product).set({ updatedAt: new Date() }).where(eq(product.id, productId)); result.updated++; } else result.unchanged++;
      }
    }
    // The import is one action in the audit log (issue 21.4), committed with the rows.
    await audit(tx, { action: 'product.imported', actor: ctx.auth, entity: 'product', details: { ...result } });
  });
  return result;
}
