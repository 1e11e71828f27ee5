import { BLANK, NOT_NUMBER, NOT_POSITIVE_OR_ZERO, TOO_LONG } from '@pos/domain/wire-fields';
import { unneutralise } from '../../lib/csv.ts';
import type { CsvRecord } from '../../lib/csv-stream.ts';
import { gs1ShapeProblem } from '@pos/domain/barcode';
import { BARCODE_USED, MAX_QUANTITY, QUANTITY_TOO_LARGE } from './shared.ts';
import { DECIMAL, MAX_VIOLATIONS, NameIndex, storeLabel, type Lookups } from './product-csv.common.ts';
import type { ColumnPlan } from './product-csv.columns.ts';

export interface StoreCells { storeId: number; quantity?: string | null; location?: string | null; reOrderLevel?: string | null; touched: boolean }

export interface VariantRow {
  rowNo: number; line: number; id: number | null; rawId: string;
  name: string | null; barcode: string | null; sku: string | null; price: string | null; purchasePrice: string | null; quantity: string | null;
  attributeName: string | null; attributeValue: string | null;
}

export interface ImportRow {
  rowNo: number; line: number; id: number | null; rawId: string;
  name: string; barcode: string | null; isAvailable: boolean; cost: string; basePrice: string; purchaseUnit: string | null; saleUnit: string | null;
  sku?: string | null; departmentId?: number | null; categories?: number[]; brands?: number[]; suppliers?: number[]; taxes?: number[];
  manageInventory?: boolean; isActive?: boolean; stores: StoreCells[];
  /** Undefined when the file has no 'Variant of' column (the product's variants are left alone). */
  variants?: VariantRow[];
}

/** A violation with the file line its row starts on (for the preview). */
export interface RowViolation { propertyPath: string; message: string; row: number; line: number; field: string | null }

export function parseFlag(s: string): boolean | undefined {
  const v = s.trim().toLowerCase();
  if (v === '' || v === '0' || v === 'false' || v === 'no' || v === 'n') return false;
  if (v === '1' || v === 'true' || v === 'yes' || v === 'y') return true;
  return undefined;
}

const PRODUCT_ONLY = ['Is Available?', 'Purchase Unit', 'Sale Unit', 'Department', 'Categories', 'Brands', 'Suppliers', 'Taxes', 'Manage Inventory?', 'Is Active?'];

/** Reads data rows one by one into products and their variants, collecting violations (capped). */
export class RowReader {
  readonly products: ImportRow[] = [];
  readonly violations: RowViolation[] = [];
  /** code -> the row that claims it and who owns it there ('p:<id>', 'v:<id>' or null for a new one) */
  readonly barcodes = new Map<string, { rowNo: number; line: number; owner: string | null; field: string }>();
  private seenIds = new Map<number, number>();
  private current: ImportRow | null = null;
  private failedProduct = false;
  rowCount = 0;

  constructor(private plan: ColumnPlan, private lk: Lookups, private state: { invalidUtf8: boolean }) {}

  add(rowNo: number, line: number, field: string | null, message: string) {
    if (this.violations.length >= MAX_VIOLATIONS) return;
    this.violations.push({ propertyPath: field ? `row ${rowNo}.${field}` : `row ${rowNo}`, message, row: rowNo, line, field });
  }

  get full() { return this.violations.length >= MAX_VIOLATIONS; }

  read(rec: CsvRecord) {
    this.rowCount++;
    if (this.full) return;
    const { cells, row: rowNo, line } = rec;
    const width = this.plan.columns.length;
    if (cells.length !== width) { this.add(rowNo, line, null, `This row has ${cells.length} cells; the header has ${width}.`); return; }
    const { col } = this.plan;
    if (this.state.invalidUtf8) {
      const bad = cells.findIndex((c) => c.includes('\uFFFD'));
      if (bad >= 0) { this.add(rowNo, line, this.plan.columns[bad].field ?? this.plan.columns[bad].header, 'This value is not valid UTF-8 text.'); return; }
    }
    const get = (name: string) => (col.has(name) ? unneutralise(cells[col.get(name)!]).trim() : undefined);
    const before = this.violations.length;
    const add = (field: string, message: string) => this.add(rowNo, line, field, message);
    const variantOf = get('Variant of');
    if (variantOf) { this.readVariant(rowNo, line, get, add, variantOf); return; }
    if (this.plan.col.has('Variant of')) for (const c of ['Attribute Name', 'Attribute Value']) if (get(c)) add(c, "Leave this cell empty on a product row (fill 'Variant of' for a variant).");

    const rawId = get('ID')!;
    let id: number | null = null;
    if (rawId !== '' && rawId !== '0') {
      const n = Number(rawId);
      if (!/^\d+$/.test(rawId) || n > 2147483647) add('ID', `'Product' with ID '${rawId}' not found`);
      else if (this.seenIds.has(n)) add('ID', `This product is already in row ${this.seenIds.get(n)}.`);
      else { id = n; this.seenIds.set(n, rowNo); }
    }
    const name = get('Name')!;
    if (!name) add('Name', BLANK); else if (name.length > 255) add('Name', TOO_LONG);
    const code = this.claim(get('Barcode')!, rowNo, line, id != null ? `p:${id}` : null, add);
    const cost = this.money(get('Purchase price')!, 'Purchase price', add, false)!;
    const basePrice = this.money(get('Sale price')!, 'Sale price', add, false)!;
    const avail = get('Available Quantity')!;
    if (avail !== '' && !DECIMAL.test(avail)) add('Available Quantity', NOT_NUMBER);
    const bool = (label: string) => {
      const v = get(label);
      if (v === undefined) return undefined;
      const b = parseFlag(v);
      if (b === undefined) add(label, 'The value you selected is not a valid choice.');
      return b;
    };
    const unit = (label: string) => {
      const v = get(label)!;
      if (v.length > 20) add(label, TOO_LONG);
      return v || null;
    };
    const row: ImportRow = {
      rowNo, line, id, rawId, name, barcode: code, isAvailable: bool('Is Available?') ?? false, cost, basePrice,
      purchaseUnit: unit('Purchase Unit'), saleUnit: unit('Sale Unit'), stores: [], variants: col.has('Variant of') ? [] : undefined,
    };
    const sku = get('SKU');
    if (sku !== undefined) { if (sku.length > 255) add('SKU', TOO_LONG); row.sku = sku || null; }
    const dep = get('Department');
    if (dep !== undefined) {
      if (dep === '') row.departmentId = null;
      else { const res = this.lk.department.resolve(dep); if ('error' in res) add('Department', res.error); else row.departmentId = res.id; }
    }
    const list = (label: string, idx: NameIndex) => {
      const v = get(label);
      if (v === undefined) return undefined;
      const out: number[] = [];
      for (const token of v.split('|').map((t) => t.trim()).filter(Boolean)) {
        const res = idx.resolve(token);
        if ('error' in res) add(label, res.error); else if (!out.includes(res.id)) out.push(res.id);
      }
      return out;
    };
    row.categories = list('Categories', this.lk.category);
    row.brands = list('Brands', this.lk.brand);
    row.suppliers = list('Suppliers', this.lk.supplier);
    row.taxes = list('Taxes', this.lk.tax);
    row.manageInventory = bool('Manage Inventory?');
    row.isActive = bool('Is Active?');
    for (const [storeId, c] of this.plan.storeCols) {
      const label = (kind: string) => `${kind} [${storeLabel(this.lk.stores.find((s) => s.id === storeId)!)}]`;
      const cell = (i: number | undefined) => (i === undefined ? undefined : unneutralise(cells[i]).trim());
      const q = cell(c.quantity);
      const loc = cell(c.location);
      const lvl = cell(c.reOrderLevel);
      const sc: StoreCells = { storeId, touched: Boolean(q || loc || lvl) };
      if (q) {
        if (!DECIMAL.test(q)) add(label('Quantity'), NOT_NUMBER);
        else if (Math.abs(Number(q)) >= MAX_QUANTITY) add(label('Quantity'), QUANTITY_TOO_LARGE);
        else sc.quantity = q;
      }
      if (loc !== undefined && sc.touched) { if (loc.length > 255) add(label('Location'), TOO_LONG); sc.location = loc || null; }
      if (lvl) {
        if (!DECIMAL.test(lvl)) add(label('Re-order Level'), NOT_NUMBER);
        else if (Number(lvl) < 0) add(label('Re-order Level'), NOT_POSITIVE_OR_ZERO);
        else if (Number(lvl) >= MAX_QUANTITY) add(label('Re-order Level'), QUANTITY_TOO_LARGE);
        else sc.reOrderLevel = lvl;
      } else if (c.reOrderLevel !== undefined && sc.touched) sc.reOrderLevel = null;
      row.stores.push(sc);
    }
    this.current = row;
    this.failedProduct = this.violations.length !== before;
    if (!this.failedProduct) this.products.push(row);
  }

  private readVariant(rowNo: number, line: number, get: (n: string) => string | undefined, add: (f: string, m: string) => void, variantOf: string) {
    const parent = this.current;
    if (!parent) { add('Variant of', 'A variant row must come directly under its product row.'); return; }
    if (variantOf !== (parent.rawId === '' || parent.rawId === '0' ? 'new' : parent.rawId)) {
      add('Variant of', `A variant row must come directly under its product row; the product above is '${parent.rawId || 'new'}'.`);
      return;
    }
    for (const c of PRODUCT_ONLY) if (get(c)) add(c, 'Leave this cell empty on a variant row.');
    for (const [storeId, c] of this.plan.storeCols) {
      for (const i of [c.quantity, c.location, c.reOrderLevel]) {
        if (i !== undefined && this.plan.columns[i] && get(this.plan.columns[i].field!)) add(this.plan.columns[i].field!, `Leave this cell empty on a variant row (store ${storeId}).`);
      }
    }
    const rawId = get('ID')!;
    let id: number | null = null;
    if (rawId !== '' && rawId !== '0') {
      if (!/^\d+$/.test(rawId) || Number(rawId) > 2147483647) add('ID', `'Product variant' with ID '${rawId}' not found`);
      else if (parent.variants?.some((v) => v.id === Number(rawId))) add('ID', 'This variant is already in the file.');
      else id = Number(rawId);
    }
    const text = (label: string, max = 255) => {
      const v = get(label) ?? '';
      if (v.length > max) add(label, TOO_LONG);
      return v || null;
    };
    // A new variant's code of a GS1 shape needs its check digit, as in the product form (issue 26.4); an
    // existing variant keeps the code it has (a file exported before the rule re-imports unchanged).
    const vCode = get('Barcode')!;
    const gs1 = id == null && vCode ? gs1ShapeProblem(vCode) : null;
    if (gs1) add('Barcode', gs1.message);
    const v: VariantRow = {
      rowNo, line, id, rawId, name: text('Name'), barcode: this.claim(vCode, rowNo, line, id != null ? `v:${id}` : null, add),
      sku: text('SKU'), price: this.money(get('Sale price')!, 'Sale price', add, true), purchasePrice: this.money(get('Purchase price')!, 'Purchase price', add, true),
      quantity: null, attributeName: text('Attribute Name'), attributeValue: text('Attribute Value'),
    };
    const q = get('Available Quantity')!;
    if (q) {
      if (!DECIMAL.test(q)) add('Available Quantity', NOT_NUMBER);
      else if (Math.abs(Number(q)) >= MAX_QUANTITY) add('Available Quantity', QUANTITY_TOO_LARGE);
      else v.quantity = q;
    }
    parent.variants?.push(v);
  }

  private money(v: string, label: string, add: (f: string, m: string) => void, optional: boolean): string | null {
    if (v === '') { if (!optional) add(label, BLANK); return optional ? null : '0'; }
    if (!DECIMAL.test(v)) { add(label, NOT_NUMBER); return '0'; }
    if (Number(v) < 0) { add(label, NOT_POSITIVE_OR_ZERO); return '0'; }
    return v;
  }

  private claim(code: string, rowNo: number, line: number, owner: string | null, add: (f: string, m: string) => void): string | null {
    if (code.length > 255) { add('Barcode', TOO_LONG); return null; }
    if (!code) return null;
    const prev = this.barcodes.get(code);
    if (prev && (prev.owner === null || prev.owner !== owner)) add('Barcode', BARCODE_USED);
    else this.barcodes.set(code, { rowNo, line, owner, field: 'Barcode' });
    return code;
  }
}
