/**
 * A delta of products changed in place, applied to the index columns without building them again
 * (issue 24): at 1,000,000 products a renamed product took 40 s to reach a running till, rebuilding
 * every column (~5.5 s in node) and writing the whole index (~180 MB) to IndexedDB again. A patch
 * says what the changed positions hold now and which scan keys changed product; applying it copies
 * the columns once and replaces only those entries. The offline cache keeps the index it last wrote
 * and the patches since, merged into one (product-sync.ts), until they grow past PATCH_LIMIT.
 *
 * Only changes in place: a product that came or went moves every position after it, and a
 * dictionary change re-filters every relation; those build the index again.
 */
import type { DecodeContext, ProductRow } from '@pos/domain/catalogue-sync';
import { keysOfRow, rowScanKeys, scanOwners, setScanKeys, type ScanOwner } from './scan-table';
import { buildTableIndex, type Relation, type TableIndex } from './table-index';
import { replaceTexts, textAt } from './text-column';

/** Entries (changed positions and scan keys) a kept patch may hold before the index is written again. */
export const PATCH_LIMIT = 20_000;

export interface IndexPatch {
  /** Changed positions, ascending; the arrays below hold their new values in the same order. */
  at: number[];
  names: string[];
  barcodes: string[];
  prices: number[];
  departments: number[];
  brands: number[][];
  categories: number[][];
  stores: number[][];
  terminals: number[][];
  /** The scan keys whose product changed, and their product now. */
  keys: ScanOwner[];
}

/** A product changed in place: its position in the columns, the row before and the row now. */
export interface RowChange {
  at: number;
  before: ProductRow;
  row: ProductRow;
}

/**
 * The patch for these changes. `rowAt` gives every row in position order (now): a scan key a
 * change gave up or took may belong to another product by the rules (scanOwners), so one pass over
 * the catalogue settles them when a change touched a key.
 */
export function indexPatchOf(changes: readonly RowChange[], size: number, rowAt: (i: number) => ProductRow, ctx: DecodeContext): IndexPatch {
  const sorted = [...changes].sort((a, b) => a.at - b.at);
  // The changed rows' column values by buildTableIndex's own rules (the relations' ids the dictionaries hold, ...).
  const x = buildTableIndex(sorted.map((c) => c.row), ctx);
  const lists = (r: Relation) => sorted.map((_, j) => Array.from(r.ids.subarray(r.start[j], r.start[j + 1])));
  const touched = new Set<string>();
  for (const { before, row } of sorted) {
    if (rowScanKeys(before) !== rowScanKeys(row)) for (const k of [...keysOfRow(before), ...keysOfRow(row)]) touched.add(k);
  }
  return {
    at: sorted.map((c) => c.at), names: sorted.map((_, j) => textAt(x.names, j)), barcodes: sorted.map((_, j) => textAt(x.barcodes, j)),
    prices: Array.from(x.prices), departments: Array.from(x.departments),
    brands: lists(x.brands), categories: lists(x.categories), stores: lists(x.stores), terminals: lists(x.terminals),
    keys: touched.size ? scanOwners(size, rowAt, touched) : [],
  };
}

/** The relation with the lists of positions `at` replaced. */
function replaceLists(r: Relation, at: readonly number[], lists: readonly number[][]): Relation {
  if (at.every((i, j) => lists[j].length === r.start[i + 1] - r.start[i] && lists[j].every((id, k) => r.ids[r.start[i] + k] === id))) return r;
  const n = r.start.length - 1;
  let total = r.ids.length;
  at.forEach((i, j) => { total += lists[j].length - (r.start[i + 1] - r.start[i]); });
  const start = new Int32Array(n + 1);
  const ids = new Int32Array(total);
  let next = 0;
  let shift = 0;
  let from = 0;
  let to = 0;
  at.forEach((i, j) => {
    for (; next <= i; next++) start[next] = r.start[next] + shift;
    ids.set(r.ids.subarray(from, r.start[i]), to);
    to += r.start[i] - from;
    ids.set(lists[j], to);
    to += lists[j].length;
    shift += lists[j].length - (r.start[i + 1] - r.start[i]);
    from = r.start[i + 1];
  });
  for (; next <= n; next++) start[next] = r.start[next] + shift;
  ids.set(r.ids.subarray(from), to);
  return { start, ids };
}

/** A column of numbers with the entries `at` set (the same array when none differs). */
function replaceNumbers<A extends Int32Array | Float64Array>(a: A, at: readonly number[], values: readonly number[]): A {
  if (at.every((i, j) => Object.is(a[i], values[j]))) return a;
  const out = a.slice() as A;
  at.forEach((i, j) => { out[i] = values[j]; });
  return out;
}

/** The index after the patch (new columns where something changed; `x` is left as it was). */
export function applyIndexPatch(x: TableIndex, p: IndexPatch): TableIndex {
  return p.keys.length ? { ...patchColumns(x, p), ...setScanKeys(x, p.keys) } : patchColumns(x, p);
}

/** The index after the patch but for its scan keys (the till keeps those aside a while: product-table.ts). */
export function patchColumns(x: TableIndex, p: IndexPatch): TableIndex {
  const texts = (c: TableIndex['names'], values: string[]) => (p.at.every((i, j) => textAt(c, i) === values[j]) ? c : replaceTexts(c, p.at, values));
  return {
    ids: x.ids,
    names: texts(x.names, p.names),
    barcodes: texts(x.barcodes, p.barcodes),
    prices: replaceNumbers(x.prices, p.at, p.prices),
    departments: replaceNumbers(x.departments, p.at, p.departments),
    brands: replaceLists(x.brands, p.at, p.brands),
    categories: replaceLists(x.categories, p.at, p.categories),
    stores: replaceLists(x.stores, p.at, p.stores),
    terminals: replaceLists(x.terminals, p.at, p.terminals),
    scanKeys: x.scanKeys, scanAt: x.scanAt, scanVariant: x.scanVariant, scanSlots: x.scanSlots,
  };
}

/** One patch doing what `a` then `b` do. */
export function mergePatches(a: IndexPatch, b: IndexPatch): IndexPatch {
  const from = new Map<number, [IndexPatch, number]>();
  a.at.forEach((i, j) => from.set(i, [a, j]));
  b.at.forEach((i, j) => from.set(i, [b, j]));
  const at = [...from.keys()].sort((x, y) => x - y);
  const pick = <K extends Exclude<keyof IndexPatch, 'at' | 'keys'>>(k: K) => at.map((i) => { const [q, j] = from.get(i)!; return q[k][j]; }) as IndexPatch[K];
  const keys = new Map<string, ScanOwner>();
  for (const o of [...a.keys, ...b.keys]) keys.set(o[0], o);
  return {
    at, names: pick('names'), barcodes: pick('barcodes'), prices: pick('prices'), departments: pick('departments'),
    brands: pick('brands'), categories: pick('categories'), stores: pick('stores'), terminals: pick('terminals'), keys: [...keys.values()],
  };
}

/** Entries a patch holds (PATCH_LIMIT). */
export const patchSize = (p: IndexPatch): number => p.at.length + p.keys.length;
