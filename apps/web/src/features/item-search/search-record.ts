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

// Worker protocol.
export type SearchRequest =
  | { type: 'index'; version: number; records: SearchRecord[]; settings: SearchSettings }
  | { type: 'search'; seq: number; query: string; facets: FacetFilter | null };

export type SearchResponse =
  | { type: 'indexed'; version: number; count: number }
  | { type: 'result'; seq: number; ids: Int32Array; error?: string; stale?: boolean };
