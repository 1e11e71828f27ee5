import { P, type DecodeContext, type ProductRow } from '@pos/domain/catalogue-sync';
import { scanKeysOf, type ScanTable } from './scan-table';
import { textColumn, type TextColumn } from './text-column';

export { findScanKey } from './scan-table';
export { textAt, textColumn, type TextColumn } from './text-column';

type Buffers<T> = { [K in keyof T]: T[K] extends Int32Array | Float64Array ? ArrayBuffer : T[K] extends object ? Buffers<T[K]> : T[K] };

/**
 * The index as stored in IndexedDB: the typed arrays as plain ArrayBuffers (stored and read as
 * bytes; a reader that turns records into JSON, such as a check for a product's name, sees `{}`
 * instead of 100,000 numbered fields per column).
 */
export type StoredIndex = Buffers<TableIndex>;

const rel = (r: Relation) => ({ start: r.start.buffer as ArrayBuffer, ids: r.ids.buffer as ArrayBuffer });
const unrel = (r: Buffers<Relation>): Relation => ({ start: new Int32Array(r.start), ids: new Int32Array(r.ids) });
const col = (c: TextColumn) => ({ text: c.text, ends: c.ends.buffer as ArrayBuffer });
const uncol = (c: Buffers<TextColumn>): TextColumn => ({ text: c.text, ends: new Int32Array(c.ends) });

/** The index to store (its arrays own their whole buffers: built by buildTableIndex or read by unpackIndex). */
export function packIndex(x: TableIndex): StoredIndex {
  return {
    ids: x.ids.buffer as ArrayBuffer, names: col(x.names), barcodes: col(x.barcodes), prices: x.prices.buffer as ArrayBuffer,
    departments: x.departments.buffer as ArrayBuffer, brands: rel(x.brands), categories: rel(x.categories), stores: rel(x.stores),
    terminals: rel(x.terminals), scanKeys: col(x.scanKeys), scanAt: x.scanAt.buffer as ArrayBuffer, scanVariant: x.scanVariant.buffer as ArrayBuffer,
    scanSlots: x.scanSlots.buffer as ArrayBuffer,
  };
}

/** Whether a stored index has this version's shape (an older one, without the scan table, is built again from the chunks). */
export const storedIndexCurrent = (x: StoredIndex): boolean => x.scanSlots !== undefined;

export function unpackIndex(x: StoredIndex): TableIndex {
  return {
    ids: new Int32Array(x.ids), names: uncol(x.names), barcodes: uncol(x.barcodes), prices: new Float64Array(x.prices),
    departments: new Int32Array(x.departments), brands: unrel(x.brands), categories: unrel(x.categories), stores: unrel(x.stores),
    terminals: unrel(x.terminals), scanKeys: uncol(x.scanKeys), scanAt: new Int32Array(x.scanAt), scanVariant: new Int32Array(x.scanVariant),
    scanSlots: new Int32Array(x.scanSlots),
  };
}

/** Ids of a relation per product: product i has ids[start[i]] .. ids[start[i + 1] - 1]. */
export interface Relation {
  start: Int32Array;
  ids: Int32Array;
}

/**
 * What the till's indexes read of every product, as columns in id order (position i = the i-th
 * smallest id): the store/terminal filter, the facets, the search records and the scan lookup.
 * Built in the worker and kept in the offline cache beside the chunks: typed arrays and a few
 * long strings copy in milliseconds, where 100,000 decoded products took the main thread most of
 * a second. Only ids the dictionaries hold are listed (as the decoded product's relations). The
 * scan lookup's columns: scan-table.ts.
 */
export interface TableIndex extends ScanTable {
  ids: Int32Array;
  /** Names and barcodes ('' for none). */
  names: TextColumn;
  barcodes: TextColumn;
  /** basePrice as the decoded product has it (a missing price is 0). */
  prices: Float64Array;
  /** Department id, -1 for none. */
  departments: Int32Array;
  brands: Relation;
  categories: Relation;
  stores: Relation;
  terminals: Relation;
}

/** Position of an id in ascending ids (TableIndex.ids), or -1. */
export function positionIn(ids: Int32Array, id: number): number {
  let lo = 0;
  let hi = ids.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (ids[mid] === id) return mid;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The typed arrays of an index (moved, not copied, when it is posted). */
export function indexBuffers(index: TableIndex): ArrayBuffer[] {
  const arrays = [
    index.ids, index.names.ends, index.barcodes.ends, index.prices, index.departments, index.scanKeys.ends, index.scanAt, index.scanVariant, index.scanSlots,
    ...[index.brands, index.categories, index.stores, index.terminals].flatMap((r) => [r.start, r.ids]),
  ];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** The parts of a row that the till's indexes read; a stock-only change leaves it equal. */
export function indexKey(r: ProductRow): string {
  return JSON.stringify([
    r[P.name], r[P.barcode], r[P.basePrice], r[P.department], r[P.brands], r[P.categories], r[P.terminals],
    r[P.stores].map((s) => s[1]), r[P.variants].map((v) => [v[0], v[4]]),
  ]);
}

class RelationBuilder {
  private start: Int32Array;
  private ids = new Int32Array(1024);
  private n = 0;
  private row = 0;
  constructor(rows: number) {
    this.start = new Int32Array(rows + 1);
  }
  /** Adds the ids (or, with `at`, the `at`-th field of each entry) that `known` holds, as the next row. */
  add(list: ReadonlyArray<number | readonly unknown[]>, known: ReadonlyMap<number, unknown>, at = -1) {
    for (const x of list) {
      const id = (at < 0 ? x : (x as readonly unknown[])[at]) as number;
      if (!known.has(id)) continue;
      if (this.n === this.ids.length) {
        const grown = new Int32Array(this.n * 2);
        grown.set(this.ids);
        this.ids = grown;
      }
      this.ids[this.n++] = id;
    }
    this.start[++this.row] = this.n;
  }
  done(): Relation {
    return { start: this.start, ids: this.ids.slice(0, this.n) };
  }
}

/** The index columns of rows in id order (see TableIndex). */
export function buildTableIndex(rows: readonly ProductRow[], ctx: DecodeContext): TableIndex {
  const n = rows.length;
  const ids = new Int32Array(n);
  const names: string[] = new Array(n);
  const barcodes: string[] = new Array(n);
  const prices = new Float64Array(n);
  const departments = new Int32Array(n);
  const brands = new RelationBuilder(n);
  const categories = new RelationBuilder(n);
  const stores = new RelationBuilder(n);
  const terminals = new RelationBuilder(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    ids[i] = r[P.id];
    names[i] = r[P.name] ?? '';
    barcodes[i] = r[P.barcode] ?? '';
    prices[i] = r[P.basePrice] ?? 0;
    const dep = r[P.department];
    departments[i] = dep != null && ctx.departments.has(dep) ? dep : -1;
    brands.add(r[P.brands], ctx.brands);
    categories.add(r[P.categories], ctx.categories);
    terminals.add(r[P.terminals], ctx.terminals);
    stores.add(r[P.stores], ctx.stores, 1);
  }
  const { keys, scanAt, scanVariant, scanSlots } = scanKeysOf(rows);
  return {
    ids, names: textColumn(names), barcodes: textColumn(barcodes), prices, departments,
    brands: brands.done(), categories: categories.done(), stores: stores.done(), terminals: terminals.done(),
    scanKeys: textColumn(keys), scanAt, scanVariant, scanSlots,
  };
}
