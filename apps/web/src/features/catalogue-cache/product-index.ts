/**
 * The till's indexes over products: the exact scan lookup (product barcode, variant barcode,
 * product name), the store/terminal visibility filter and the brand/category/department facet
 * counts, over decoded products. These are the reference rules: the catalogue table
 * (product-table.ts) answers the same from the worker's columns without decoding 100,000
 * products (product-sync.test.ts checks they agree); the till uses these for one product.
 */
import type { Named, Product, Variant } from './types';

export interface ScanHit {
  product: Product;
  variant: Variant | null;
}

/**
 * Map of exact scan keys. Barcodes win over names: a name equal to another item's barcode never
 * shadows the barcode. Keys are stored as typed and trimmed (barcodes are case-sensitive text).
 */
export function buildScanLookup(products: readonly Product[]): Map<string, ScanHit> {
  const map = new Map<string, ScanHit>();
  for (const product of products) {
    const name = product.name?.trim();
    if (name && !map.has(name)) map.set(name, { product, variant: null });
  }
  for (const product of products) {
    for (const variant of product.variants ?? []) {
      const code = variant.barcode?.trim();
      if (code) map.set(code, { product, variant });
    }
  }
  for (const product of products) {
    const code = product.barcode?.trim();
    if (code) map.set(code, { product, variant: null });
  }
  return map;
}

/** Visible at this till: no store list or the current store in it, no terminal list or this terminal in it. */
export function isVisibleAt(product: Product, storeId: number | null, terminalId: number | null): boolean {
  if (storeId !== null && product.stores?.length && !product.stores.some((s) => s.store?.id === storeId)) return false;
  if (terminalId !== null && product.terminals?.length && !product.terminals.some((t) => t.id === terminalId)) return false;
  return true;
}

export interface FacetSelection {
  brands: readonly number[];
  categories: readonly number[];
  departments: readonly number[];
}

export const NO_FACETS: FacetSelection = { brands: [], categories: [], departments: [] };

/**
 * The chip filters: with brands chosen, a product needs one of them (no brand: hidden); same for
 * departments; with categories chosen a product needs one of them, but one with no category at
 * all is kept (reference 4.1).
 */
export function matchesFacets(p: Product, f: FacetSelection): boolean {
  if (f.brands.length && !(p.brands ?? []).some((b) => f.brands.includes(b.id))) return false;
  if (f.departments.length && !(p.department && f.departments.includes(p.department.id))) return false;
  if (f.categories.length && (p.categories ?? []).length && !(p.categories ?? []).some((c) => f.categories.includes(c.id))) return false;
  return true;
}

export interface Facet {
  id: number;
  name: string;
  count: number;
}

export interface Facets {
  brands: Facet[];
  categories: Facet[];
  departments: Facet[];
}

function tally(map: Map<number, Facet>, entity: Named | null | undefined) {
  if (!entity) return;
  const f = map.get(entity.id);
  if (f) f.count++;
  else map.set(entity.id, { id: entity.id, name: entity.name, count: 1 });
}

const sorted = (m: Map<number, Facet>) => [...m.values()].sort((a, b) => a.name.localeCompare(b.name));

/** Brand, category and department chips with the number of products of each. */
export function buildFacets(products: readonly Product[]): Facets {
  const brands = new Map<number, Facet>();
  const categories = new Map<number, Facet>();
  const departments = new Map<number, Facet>();
  for (const p of products) {
    for (const b of p.brands ?? []) tally(brands, b);
    for (const c of p.categories ?? []) tally(categories, c);
    tally(departments, p.department);
  }
  return { brands: sorted(brands), categories: sorted(categories), departments: sorted(departments) };
}
