import { P, type DecodeContext, type ProductRow } from '@pos/domain/catalogue-sync';

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

/** A list of strings as one text: entry i is text.slice(ends[i - 1] ?? 0, ends[i]). Copies as one string, not 100,000. */
export interface TextColumn {
  text: string;
  ends: Int32Array;
}

export function textColumn(list: ReadonlyArray<string | null>): TextColumn {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    at += list[i]?.length ?? 0;
    ends[i] = at;
  }
  return { text: list.join(''), ends };
}

export const textAt = (c: TextColumn, i: number): string => c.text.slice(i > 0 ? c.ends[i - 1] : 0, c.ends[i]);

/**
 * What the till's indexes read of every product, as columns in id order (position i = the i-th
 * smallest id): the store/terminal filter, the facets, the search records and the scan lookup.
 * Built in the worker and kept in the offline cache beside the chunks: typed arrays and a few
 * long strings copy in milliseconds, where 100,000 decoded products took the main thread most of
 * a second. Only ids the dictionaries hold are listed (as the decoded product's relations).
 */
export interface TableIndex {
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
  /**
   * The exact scan keys (product barcode, variant barcode, product name; trimmed; a barcode wins
   * over a name, a product barcode over a variant's), each once, in the order first met: key i
   * scans product position scanAt[i], variant scanVariant[i] (-1: the product itself). Found
   * through scanSlots (findScanKey).
   */
  scanKeys: TextColumn;
  scanAt: Int32Array;
  scanVariant: Int32Array;
  /**
   * The keys' hash table (open addressing, linear probing; a power of two, at most 3/4 full):
   * slot hashKey(key) & (length - 1), or the next free one after it, holds key number + 1; 0 is
   * empty.
   */
  scanSlots: Int32Array;
}

/** FNV-1a over a text's UTF-16 code units: the scan table's hash. */
function hashKey(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The number of the scan key equal to `code` (TableIndex.scanKeys), or -1. */
export function findScanKey(x: Pick<TableIndex, 'scanKeys' | 'scanSlots'>, code: string): number {
  const slots = x.scanSlots;
  if (!slots.length) return -1;
  const mask = slots.length - 1;
  for (let s = hashKey(code) & mask; ; s = (s + 1) & mask) {
    const k = slots[s] - 1;
    if (k < 0) return -1;
    if (textAt(x.scanKeys, k) === code) return k;
  }
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

/**
 * The scan keys of rows in id order and their table (TableIndex.scanKeys, scanSlots): every name,
 * then every variant barcode, then every product barcode (trimmed, empty ones left out). Where a
 * key comes more than once the rules of product-index.ts buildScanLookup pick its product: a
 * barcode takes it from a name, the later barcode from the earlier one, and of names only, the
 * first name keeps it. A hash table of the key numbers instead of a Map of 2.9 million strings and
 * their sort at 1M products (~8 of buildTableIndex's 10.5 s in node).
 */
function scanKeysOf(rows: readonly ProductRow[]): { keys: string[]; scanAt: Int32Array; scanVariant: Int32Array; scanSlots: Int32Array } {
  let entries = 0;
  for (const r of rows) entries += 2 + r[P.variants].length;
  let size = 8;
  while (size * 3 < entries * 4) size *= 2; // at most 3/4 full
  const slots = new Int32Array(size);
  const mask = size - 1;
  const keys: string[] = [];
  const at: number[] = [];
  const vs: number[] = [];
  const put = (key: string | null | undefined, i: number, v: number, override: boolean) => {
    const k = key?.trim();
    if (!k) return;
    for (let s = hashKey(k) & mask; ; s = (s + 1) & mask) {
      const n = slots[s];
      if (n === 0) {
        slots[s] = keys.push(k);
        at.push(i);
        vs.push(v);
        return;
      }
      if (keys[n - 1] === k) {
        if (override) {
          at[n - 1] = i;
          vs[n - 1] = v;
        }
        return;
      }
    }
  };
  for (let i = 0; i < rows.length; i++) put(rows[i][P.name], i, -1, false);
  for (let i = 0; i < rows.length; i++) for (const v of rows[i][P.variants]) put(v[4], i, v[0], true);
  for (let i = 0; i < rows.length; i++) put(rows[i][P.barcode], i, -1, true);
  return { keys, scanAt: Int32Array.from(at), scanVariant: Int32Array.from(vs), scanSlots: slots };
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
