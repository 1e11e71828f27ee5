/**
 * The item search's records and worker protocol, without fuse.js (so the main bundle stays
 * light; fuse.js lives in the search worker).
 */
export interface SearchRecord {
  id: number;
  name: string;
  barcode: string;
  basePrice: string;
  /** Brand, category ids and department id, for the chip filters. */
  b: number[];
  c: number[];
  d: number | null;
}

export interface SearchSettings {
  isCaseSensitive: boolean;
  threshold: number;
}

export interface FacetFilter {
  brands: readonly number[];
  categories: readonly number[];
  departments: readonly number[];
}

export function recordMatchesFacets(r: SearchRecord, f: FacetFilter | null | undefined): boolean {
  if (!f) return true;
  if (f.brands.length && !r.b.some((id) => f.brands.includes(id))) return false;
  if (f.departments.length && !(r.d !== null && f.departments.includes(r.d))) return false;
  if (f.categories.length && r.c.length && !r.c.some((id) => f.categories.includes(id))) return false;
  return true;
}

export function toSearchRecord(p: {
  id: number;
  name: string;
  barcode?: string | null;
  basePrice: number | string;
  brands?: Array<{ id: number }>;
  categories?: Array<{ id: number }>;
  department?: { id: number } | null;
}): SearchRecord {
  return {
    id: p.id,
    name: p.name ?? '',
    barcode: p.barcode ?? '',
    basePrice: String(p.basePrice ?? ''),
    b: (p.brands ?? []).map((x) => x.id),
    c: (p.categories ?? []).map((x) => x.id),
    d: p.department?.id ?? null,
  };
}

/** A list of strings as one text: entry i is text.slice(ends[i - 1] ?? 0, ends[i]). */
export interface TextList {
  text: string;
  ends: Int32Array;
}

/** Ids per entry: entry i has ids[start[i]] .. ids[start[i + 1] - 1]. */
export interface IdLists {
  start: Int32Array;
  ids: Int32Array;
}

/**
 * The records to index as columns, and which entries (`positions`): the till's catalogue table
 * hands its own columns over, so the main thread neither builds 100,000 record objects nor copies
 * them one by one to the search worker; the worker builds the records (recordsOf).
 */
export interface SearchColumns {
  positions: Int32Array;
  ids: Int32Array;
  names: TextList;
  barcodes: TextList;
  prices: Float64Array;
  brands: IdLists;
  categories: IdLists;
  /** -1: none. */
  departments: Int32Array;
}

const textAt = (c: TextList, i: number) => c.text.slice(i > 0 ? c.ends[i - 1] : 0, c.ends[i]);
const idsAt = (c: IdLists, i: number) => {
  const out: number[] = [];
  for (let j = c.start[i]; j < c.start[i + 1]; j++) out.push(c.ids[j]);
  return out;
};

/** The record of the columns' k-th chosen entry. */
export function recordAt(c: SearchColumns, k: number): SearchRecord {
  const i = c.positions[k];
  return {
    id: c.ids[i], name: textAt(c.names, i), barcode: textAt(c.barcodes, i), basePrice: String(c.prices[i]),
    b: idsAt(c.brands, i), c: idsAt(c.categories, i), d: c.departments[i] >= 0 ? c.departments[i] : null,
  };
}

/** The records of the columns' chosen entries (in the search worker). */
export function recordsOf(c: SearchColumns): SearchRecord[] {
  const out: SearchRecord[] = new Array(c.positions.length);
  for (let k = 0; k < c.positions.length; k++) out[k] = recordAt(c, k);
  return out;
}

const sameInts = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
};

/** Marks (out[i] = 1) the entries whose text differs, halving the ranges whose texts differ: a few changes among 1,000,000 compare a few long slices. */
function markTexts(a: TextList, b: TextList, out: Uint8Array): void {
  const n = a.ends.length;
  if (!n || (a.text === b.text && sameInts(a.ends, b.ends))) return;
  const start = (c: TextList, i: number) => (i > 0 ? c.ends[i - 1] : 0);
  // Entries whose length changed are marked; a range without one differs only where an entry does.
  const resized = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const other = a.ends[i] - start(a, i) !== b.ends[i] - start(b, i);
    if (other) out[i] = 1;
    resized[i + 1] = resized[i] + (other ? 1 : 0);
  }
  const walk = (lo: number, hi: number): void => {
    if (resized[hi] === resized[lo] && a.text.slice(start(a, lo), a.ends[hi - 1]) === b.text.slice(start(b, lo), b.ends[hi - 1])) return;
    if (hi - lo === 1) {
      out[lo] = 1;
      return;
    }
    const mid = (lo + hi) >>> 1;
    walk(lo, mid);
    walk(mid, hi);
  };
  walk(0, n);
}

/**
 * The chosen entries (k) whose record differs between two versions of the columns, or null when
 * they do not compare entry by entry (other positions chosen: a store or terminal filter changed,
 * a product came or went).
 */
export function changedEntries(a: SearchColumns, b: SearchColumns): number[] | null {
  if (!sameInts(a.positions, b.positions) || !sameInts(a.ids, b.ids)) return null;
  const n = a.ids.length;
  const marked = new Uint8Array(n);
  markTexts(a.names, b.names, marked);
  markTexts(a.barcodes, b.barcodes, marked);
  const sameIds = (x: IdLists, y: IdLists, i: number) => {
    const from = x.start[i];
    const len = x.start[i + 1] - from;
    if (len !== y.start[i + 1] - y.start[i]) return false;
    for (let j = 0; j < len; j++) if (x.ids[from + j] !== y.ids[y.start[i] + j]) return false;
    return true;
  };
  const out: number[] = [];
  for (let k = 0; k < a.positions.length; k++) {
    const i = a.positions[k];
    if (marked[i] || !Object.is(a.prices[i], b.prices[i]) || a.departments[i] !== b.departments[i] || !sameIds(a.brands, b.brands, i) || !sameIds(a.categories, b.categories, i)) out.push(k);
  }
  return out;
}

/** Columns of a list of records (small lists and tests); recordsOf gives the records back (basePrice as a number's text). */
export function columnsOf(records: readonly SearchRecord[]): SearchColumns {
  const text = (get: (r: SearchRecord) => string): TextList => {
    const ends = new Int32Array(records.length);
    let at = 0;
    records.forEach((r, i) => { at += get(r).length; ends[i] = at; });
    return { text: records.map(get).join(''), ends };
  };
  const lists = (get: (r: SearchRecord) => number[]): IdLists => {
    const start = new Int32Array(records.length + 1);
    records.forEach((r, i) => { start[i + 1] = start[i] + get(r).length; });
    return { start, ids: Int32Array.from(records.flatMap(get)) };
  };
  return {
    positions: Int32Array.from(records, (_, i) => i),
    ids: Int32Array.from(records, (r) => r.id),
    names: text((r) => r.name),
    barcodes: text((r) => r.barcode),
    prices: Float64Array.from(records, (r) => Number(r.basePrice) || 0),
    brands: lists((r) => r.b),
    categories: lists((r) => r.c),
    departments: Int32Array.from(records, (r) => r.d ?? -1),
  };
}

// Worker protocol.
export type SearchRequest =
  | { type: 'index'; version: number; columns: SearchColumns; settings: SearchSettings }
  | { type: 'search'; seq: number; query: string; facets: FacetFilter | null };

export type SearchResponse =
  | { type: 'indexed'; version: number; count: number }
  | { type: 'result'; seq: number; ids: Int32Array; error?: string; stale?: boolean };
