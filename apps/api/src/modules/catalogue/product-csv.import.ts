import { Readable } from 'node:stream';
import { and, inArray } from 'drizzle-orm';
import { AppError, validationError } from '@pos/domain/errors';
import { audit } from '../../lib/audit.ts';
import type { Db } from '../../db/client.ts';
import { barcode as barcodeTable, product, productVariant } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { csvRecords, type CsvRecord } from '../../lib/csv-stream.ts';
import { BARCODE_USED, scopes } from './shared.ts';
import { BATCH, MAX_VIOLATIONS, loadLookups } from './product-csv.common.ts';
import { planColumns, type ColumnInfo } from './product-csv.columns.ts';
import { RowReader, type RowViolation } from './product-csv.rows.ts';
import { writeRows, type ImportResult } from './product-csv.write.ts';

export type { ImportResult } from './product-csv.write.ts';

export interface ImportOptions {
  /** Check and run everything, then roll back: the answer is a preview. */
  dryRun?: boolean;
  /** file header -> column ('' = ignore that column) */
  mapping?: Record<string, string>;
  /** A product or variant ID that does not exist creates a new one (copying a catalogue). */
  createUnknown?: boolean;
}

export interface ImportPreview {
  dryRun: true;
  columns: ColumnInfo[];
  /** the columns a file column may be mapped to */
  fields: string[];
  /** data rows (the header and blank lines not counted) */
  rows: number;
  /** the first rows as the file has them, with their row and line numbers */
  sample: { row: number; line: number; cells: string[] }[];
  errors: RowViolation[];
  /** true when there were more errors than listed (the list stops at 100) */
  moreErrors: boolean;
  /** what the import would do; null while there are errors */
  result: ImportResult | null;
}

const SAMPLE_ROWS = 20;
class Rollback extends Error {}

const byRow = (a: RowViolation, b: RowViolation) => a.row - b.row;

/**
 * Imports a product CSV (format: product-csv.common.ts) read as a stream, in one transaction.
 * Everything is checked first (422 with up to 100 violations, nothing written); with `dryRun` the
 * answer is a preview and the transaction is rolled back.
 */
export async function importProducts(db: Db, source: AsyncIterable<Buffer | string> | Buffer | string, ctx: ResourceCtx, opts: ImportOptions = {}): Promise<ImportResult | ImportPreview> {
  const input: AsyncIterable<Buffer | string> = typeof source === 'string' || Buffer.isBuffer(source) ? Readable.from([source]) : source;
  const lk = await loadLookups(db, ctx);
  const state = { invalidUtf8: false };
  const sample: ImportPreview['sample'] = [];
  let reader: RowReader | null = null;
  let plan: ReturnType<typeof planColumns> | null = null;
  for await (const rec of csvRecords(input, state) as AsyncGenerator<CsvRecord>) {
    if (rec.row === 1) {
      const header = rec.cells.map((h) => h.trim());
      plan = planColumns(header, lk.stores, opts.mapping ?? {});
      if (state.invalidUtf8 && header.some((h) => h.includes('\uFFFD'))) plan.problems.unshift({ header: `column ${header.findIndex((h) => h.includes('\uFFFD')) + 1}`, message: 'This value is not valid UTF-8 text.' });
      if (plan.problems.length && !opts.dryRun) {
        const violations = plan.problems.slice(0, MAX_VIOLATIONS).map((p) => ({ propertyPath: `row 1.${p.header}`, message: p.message, line: 1 }));
        throw validationError(violations, 'The columns of the file are not the expected ones; nothing was imported.');
      }
      reader = new RowReader(plan, lk, state);
      for (const p of plan.problems) reader.add(1, 1, p.header, p.message);
      continue;
    }
    if (sample.length < SAMPLE_ROWS) sample.push({ row: rec.row, line: rec.line, cells: rec.cells });
    reader!.read(rec);
  }
  if (!reader || !plan) {
    if (state.invalidUtf8) throw validationError([{ propertyPath: 'row 1.column 1', message: 'This value is not valid UTF-8 text.' }], 'The file is not valid UTF-8 text; nothing was imported.');
    throw validationError([{ propertyPath: 'row 1', message: 'The file is empty; the first row must name the columns.' }]);
  }
  const r = reader;
  const parsed = r.products;

  // Products named by ID must exist (or, with createUnknown, not exist anywhere: then they are created).
  const ids = parsed.filter((p) => p.id != null).map((p) => p.id!);
  const existing = new Map<number, typeof product.$inferSelect>();
  const anywhere = new Set<number>();
  for (let i = 0; i < ids.length; i += BATCH) {
    const part = ids.slice(i, i + BATCH);
    for (const p of await db.select().from(product).where(and(inArray(product.id, part), scopes.product.scope(ctx)))) existing.set(p.id, p);
    if (opts.createUnknown) for (const p of await db.select({ id: product.id }).from(product).where(inArray(product.id, part))) anywhere.add(p.id);
  }
  for (const p of parsed) {
    if (p.id == null || existing.has(p.id)) continue;
    if (opts.createUnknown && !anywhere.has(p.id)) {
      if (p.barcode) r.barcodes.set(p.barcode, { ...r.barcodes.get(p.barcode)!, owner: null });
      p.id = null;
    } else r.add(p.rowNo, p.line, 'ID', `'Product' with ID '${p.rawId}' not found`);
  }
  // Variants named by ID must be variants of that product.
  const variantsOf = new Map<number, (typeof productVariant.$inferSelect)[]>();
  const withVariants = parsed.filter((p) => p.id != null && p.variants).map((p) => p.id!);
  for (let i = 0; i < withVariants.length; i += BATCH) {
    for (const v of await db.select().from(productVariant).where(inArray(productVariant.productId, withVariants.slice(i, i + BATCH)))) {
      variantsOf.set(v.productId, [...(variantsOf.get(v.productId) ?? []), v]);
    }
  }
  for (const p of parsed) {
    for (const v of p.variants ?? []) {
      if (v.id == null || (p.id != null && (variantsOf.get(p.id) ?? []).some((x) => x.id === v.id))) continue;
      if (opts.createUnknown) {
        if (v.barcode) r.barcodes.set(v.barcode, { ...r.barcodes.get(v.barcode)!, owner: null });
        v.id = null;
      } else r.add(v.rowNo, v.line, 'ID', `'Product variant' with ID '${v.rawId}' not found`);
    }
  }

  // Barcodes must not clash with other products, variants or extra barcodes already stored.
  const codes = [...r.barcodes.keys()];
  for (let i = 0; i < codes.length && !r.full; i += BATCH) {
    const part = codes.slice(i, i + BATCH);
    const taken = new Map<string, string | null>();
    for (const p of await db.select({ id: product.id, code: product.barcode }).from(product).where(inArray(product.barcode, part))) taken.set(p.code!, `p:${p.id}`);
    for (const v of await db.select({ id: productVariant.id, code: productVariant.barcode }).from(productVariant).where(inArray(productVariant.barcode, part))) taken.set(v.code!, `v:${v.id}`);
    for (const b of await db.select({ code: barcodeTable.barcode }).from(barcodeTable).where(inArray(barcodeTable.barcode, part))) taken.set(b.code, null);
    for (const [code, owner] of taken) {
      const mine = r.barcodes.get(code)!;
      // A product or variant keeps its own barcode; a barcode moving between two of them is refused.
      if (owner === null || owner !== mine.owner) r.add(mine.rowNo, mine.line, mine.field, BARCODE_USED);
    }
  }
  const errors = [...r.violations].sort(byRow);
  const preview = (result: ImportResult | null): ImportPreview => ({
    dryRun: true, columns: plan!.columns, fields: plan!.fields, rows: r.rowCount, sample, errors, moreErrors: errors.length >= MAX_VIOLATIONS, result,
  });
  if (errors.length) {
    if (opts.dryRun) return preview(null);
    throw validationError(errors.map((e) => ({ propertyPath: e.propertyPath, message: e.message, line: e.line })),
      `The file has ${errors.length}${errors.length >= MAX_VIOLATIONS ? '+' : ''} error(s); nothing was imported.`);
  }

  let result: ImportResult | undefined;
  try {
    await db.transaction(async (tx) => {
      result = await writeRows(tx, parsed, existing, variantsOf, lk, ctx);
      // The import is one action in the audit log (issue 21.4), committed with the rows.
      await audit(tx, { action: 'product.imported', actor: ctx.auth, entity: 'product', details: { ...result! } });
      if (opts.dryRun) throw new Rollback();
    });
  } catch (e) {
    if (e instanceof Rollback) return preview(result!);
    // A refusal found while writing (a removed variant still in use): the preview lists it like the others.
    const v = (e as { violations?: { propertyPath: string; message: string; line?: number }[] }).violations;
    if (!opts.dryRun || !(e instanceof AppError) || !v?.length) throw e;
    errors.push(...v.map((x) => ({ ...x, row: Number(/^row (\d+)/.exec(x.propertyPath)?.[1] ?? 0), line: x.line ?? 0, field: x.propertyPath.split('.').slice(1).join('.') || null })));
    return preview(null);
  }
  return result!;
}
