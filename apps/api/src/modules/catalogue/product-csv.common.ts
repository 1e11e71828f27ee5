import { and, asc, gt, inArray, lte } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { brand, category, department, store, supplier, tax } from '../../db/schema/index.ts';
import type { ResourceCtx } from '../../resources/engine.ts';
import { inIds, scopes, type LinkTable } from './shared.ts';

/**
 * Product CSV (export and import use the same columns, so an export re-imports unchanged).
 *
 * Columns, in this order on export; on import the first nine are required, the others optional
 * (an absent column leaves that field unchanged), the order is free and unknown columns are refused:
 *   ID, Name, Barcode, Is Available?, Purchase price, Sale price, Available Quantity, Purchase Unit, Sale Unit,
 *   SKU, Department, Categories, Brands, Suppliers, Taxes, Manage Inventory?, Is Active?,
 *   and per store of the caller: Quantity [<store name> #<id>], Location [...], Re-order Level [...].
 * - ID empty (or 0): create a product; otherwise update that product (404-style error if not visible).
 * - Purchase price = cost, Sale price = basePrice (the reference import swapped them; we do not).
 * - Available Quantity = the product's total stock over the exported stores; informational, ignored
 *   on import (it must still be empty or a number).
 * - Flags: '1' or empty on export; 1/0/true/false/yes/no/empty on import.
 * - Department, Categories, ...: names (several joined with ' | '); a name that is not unique among
 *   what the caller sees is written 'Name #id' (also accepted on import; '#id' alone too).
 * - Store cells: empty = leave that store's row as it is; a quantity sets the stock, the difference
 *   going to the stock ledger with reason 'import'.
 * - Variants (columns Variant of, Attribute Name, Attribute Value, after the store columns): each
 *   variant is one more row directly under its product's row. On a variant row, 'Variant of' holds
 *   the product's ID as written in the product row above (or 'new' when that row has no ID), 'ID'
 *   is the variant's own ID (empty = create it), and Name, Barcode, SKU, Sale price (empty = the
 *   product's price), Purchase price (may be empty) and Available Quantity (the variant's total over the
 *   stores; a difference goes to the ledger in its product's home store, catalogue/variant-stock.ts) are the variant's; Attribute Name / Value are
 *   its attribute; every other cell stays empty. When the file has the 'Variant of' column, the
 *   variant rows under a product are all its variants (one not listed is removed); without that
 *   column a product's variants are left as they are. Price rules are not in the file.
 * - Option unknownIds=create (copying a catalogue into another database): a product or variant ID
 *   that does not exist creates a new one instead of being an error.
 * - Column mapping: a header that differs only in case is recognised; the option
 *   mapping={"<file header>":"<column>"} names what a differently named column holds ('' = ignore it).
 * - Template: GET /api/products/import/template (token in the header only), the header with every column of the caller and
 *   one example product with a variant.
 * - Dry run (?dryRun=1): everything is checked and the import is run in a transaction that is rolled
 *   back; the answer has the column mapping, the row count, the first rows, the errors with their row
 *   and file line, and what the import would do (created / updated / unchanged).
 * - Encoding: UTF-8 (a BOM is written on export and skipped on import), RFC 4180 quoting, CRLF.
 *   Cells starting with = + - @ are written with a leading apostrophe; import removes it again.
 * - Import is all or nothing: any error gives 422 {violations:[{propertyPath:'row 3.Sale price', message, line}]}
 *   (row 1 is the header; blank lines are not counted; line = the file line the row starts on) and
 *   nothing is written. The upload is read as a stream (csv-parse) and must be under 50 MB.
 */
export const BASE_COLUMNS = ['ID', 'Name', 'Barcode', 'Is Available?', 'Purchase price', 'Sale price', 'Available Quantity', 'Purchase Unit', 'Sale Unit'] as const;
export const EXTRA_COLUMNS = ['SKU', 'Department', 'Categories', 'Brands', 'Suppliers', 'Taxes', 'Manage Inventory?', 'Is Active?'] as const;
export const VARIANT_COLUMNS = ['Variant of', 'Attribute Name', 'Attribute Value'] as const;
export const STORE_COLUMN = /^(Quantity|Location|Re-order Level) \[(.*)#(\d+)\]$/;
export const LIST_SEPARATOR = ' | ';
export const BATCH = 2000;
export const EXPORT_BATCH = 5000;
export const MAX_VIOLATIONS = 100;
export const DECIMAL = /^-?\d{1,15}(\.\d{1,6})?$/;

type Kind = 'Department' | 'Category' | 'Brand' | 'Supplier' | 'Tax';

/** Names of what the caller may see, to write and read 'Name' / 'Name #id' tokens. */
export class NameIndex {
  private byName = new Map<string, number[]>();
  readonly byId = new Map<number, string>();
  constructor(readonly kind: Kind, rows: { id: number; name: string }[]) {
    for (const r of rows) {
      this.byId.set(r.id, r.name);
      const k = r.name.trim().toLowerCase();
      this.byName.set(k, [...(this.byName.get(k) ?? []), r.id]);
    }
  }

  token(id: number): string {
    const name = this.byId.get(id) ?? '';
    const unique = (this.byName.get(name.trim().toLowerCase()) ?? []).length === 1;
    if (!name.includes('|') && unique && !/#\d+$/.test(name) && name.trim() !== '') return name.trim();
    return name.includes('|') ? `#${id}` : `${name.trim()} #${id}`;
  }

  resolve(token: string): { id: number } | { error: string } {
    const m = /^(.*?)\s*#(\d+)$/.exec(token);
    if (m) {
      const id = Number(m[2]);
      return this.byId.has(id) ? { id } : { error: `'${this.kind}' with ID '${m[2]}' not found` };
    }
    const ids = this.byName.get(token.trim().toLowerCase()) ?? [];
    if (ids.length === 1) return { id: ids[0] };
    if (!ids.length) return { error: `'${this.kind}' with name '${token}' not found` };
    return { error: `'${this.kind}' name '${token}' is ambiguous; write it as '${token} #${ids[0]}'` };
  }
}

export interface Lookups {
  stores: (typeof store.$inferSelect)[];
  department: NameIndex;
  category: NameIndex;
  brand: NameIndex;
  supplier: NameIndex;
  tax: NameIndex;
}

export async function loadLookups(db: Db, ctx: ResourceCtx): Promise<Lookups> {
  const stores = ctx.auth.storeIds.length ? await db.select().from(store).where(inArray(store.id, ctx.auth.storeIds)).orderBy(asc(store.id)) : [];
  const load = async (t: any, s: { scope: (c: ResourceCtx) => any }) =>
    db.select({ id: t.id, name: t.name }).from(t).where(s.scope(ctx)).orderBy(asc(t.id)) as Promise<{ id: number; name: string }[]>;
  return {
    stores,
    department: new NameIndex('Department', await load(department, scopes.department)),
    category: new NameIndex('Category', await load(category, scopes.category)),
    brand: new NameIndex('Brand', await load(brand, scopes.brand)),
    supplier: new NameIndex('Supplier', await load(supplier, scopes.supplier)),
    tax: new NameIndex('Tax', await load(tax, scopes.tax)),
  };
}

export const storeLabel = (s: { id: number; name: string }) => `${s.name.replace(/[\r\n]/g, ' ')} #${s.id}`;
const storeHeaders = (s: { id: number; name: string }) => [`Quantity [${storeLabel(s)}]`, `Location [${storeLabel(s)}]`, `Re-order Level [${storeLabel(s)}]`];

export function exportHeader(stores: { id: number; name: string }[]): string[] {
  return [...BASE_COLUMNS, ...EXTRA_COLUMNS, ...stores.flatMap(storeHeaders), ...VARIANT_COLUMNS];
}

/** The template: the header and one example product with one variant (the store cells of the first store). */
export function templateRows(stores: { id: number; name: string }[]): string[][] {
  const header = exportHeader(stores);
  const product: Record<string, string> = {
    Name: 'T-shirt', Barcode: '2000000000017', 'Is Available?': '1', 'Purchase price': '4.50', 'Sale price': '9.99', 'Purchase Unit': 'pcs', 'Sale Unit': 'pcs',
    SKU: 'TS-1', 'Manage Inventory?': '1', 'Is Active?': '1',
  };
  if (stores[0]) Object.assign(product, { [`Quantity [${storeLabel(stores[0])}]`]: '10', [`Location [${storeLabel(stores[0])}]`]: 'Aisle 1', [`Re-order Level [${storeLabel(stores[0])}]`]: '2' });
  const variant: Record<string, string> = {
    'Variant of': 'new', Name: 'T-shirt red', Barcode: '2000000000024', 'Sale price': '10.99', 'Available Quantity': '5', SKU: 'TS-1-R',
    'Attribute Name': 'Colour', 'Attribute Value': 'Red',
  };
  return [header, header.map((h) => product[h] ?? ''), header.map((h) => variant[h] ?? '')];
}

export async function linksOf(db: Db | Tx, link: LinkTable, ids: number[]) {
  const m = new Map<number, number[]>();
  if (!ids.length) return m;
  const rows = await (db as Db).select({ p: link.productId, o: link.otherId }).from(link as any).where(inIds(link.productId, ids)).orderBy(asc(link.otherId));
  for (const r of rows as { p: number; o: number }[]) m.set(r.p, [...(m.get(r.p) ?? []), r.o]);
  return m;
}

/** Links of the products with first < id <= last (an index range, no parameter list). */
export async function linksInRange(db: Db, link: LinkTable, first: number, last: number) {
  const m = new Map<number, number[]>();
  const rows = await db.select({ p: link.productId, o: link.otherId }).from(link as any)
    .where(and(gt(link.productId, first), lte(link.productId, last))).orderBy(asc(link.otherId));
  for (const r of rows as { p: number; o: number }[]) m.set(r.p, [...(m.get(r.p) ?? []), r.o]);
  return m;
}

export const flag = (b: boolean) => (b ? '1' : '');
