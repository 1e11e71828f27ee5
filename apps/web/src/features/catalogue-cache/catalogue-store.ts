/**
 * The loaded catalogue in memory, with its indexes: products by id, the exact scan lookup, and
 * the list the search index and facets are built from. The store also tracks the loading
 * sequence's progress.
 *
 * Deltas from the sync (every few seconds while the till runs) go through applyProductUpdate:
 * a stock-only change swaps the product objects (byId, the scan hits) and leaves `indexed` and
 * `indexVersion` alone, so the search worker, the facets and the store filter are not rebuilt
 * for it; a change of anything they read rebuilds them once.
 */
import { createStore, useStore } from '@/features/catalogue-cache/create-store';
import { buildScanLookup, refreshScanHits, type ScanHit } from './product-index';
import type { LoadStep } from './load-catalogue';
import type { ProductUpdate } from './product-sync';
import type { Catalogue, Product } from './types';

export interface CatalogueState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  step: LoadStep | null;
  progress: { loaded: number; total?: number } | null;
  catalogue: Catalogue;
  byId: Map<number, Product>;
  scan: Map<string, ScanHit>;
  /** Bumped on every change of the products. */
  version: number;
  /**
   * The products as of the last change the indexes care about (see above), and its version: what
   * the search worker indexes and the facets count. Current objects are always in byId.
   */
  indexed: Product[];
  indexVersion: number;
  error: unknown;
}

const EMPTY: Catalogue = { products: [], discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] };

export const catalogueStore = createStore<CatalogueState>({
  status: 'idle',
  step: null,
  progress: null,
  catalogue: EMPTY,
  byId: new Map(),
  scan: new Map(),
  version: 0,
  indexed: [],
  indexVersion: 0,
  error: null,
});

export function useCatalogue<S>(selector: (s: CatalogueState) => S): S {
  return useStore(catalogueStore, selector);
}

/** Installs a freshly loaded catalogue and builds its indexes. */
export function setCatalogue(catalogue: Catalogue): void {
  const byId = new Map<number, Product>();
  for (const p of catalogue.products) byId.set(p.id, p);
  catalogueStore.set((s) => ({
    ...s,
    status: 'ready',
    catalogue,
    byId,
    scan: buildScanLookup(catalogue.products),
    version: s.version + 1,
    indexed: catalogue.products,
    indexVersion: s.indexVersion + 1,
    error: null,
  }));
}

/** Applies what the sync brought while the till runs (a full catalogue or a delta). */
export function applyProductUpdate(update: Pick<ProductUpdate, 'full' | 'products' | 'removed' | 'indexChanged'>): void {
  const s = catalogueStore.get();
  if (update.full) {
    setCatalogue({ ...s.catalogue, products: update.products });
    return;
  }
  if (!update.products.length && !update.removed.length) return;
  const byId = new Map(s.byId);
  for (const id of update.removed) byId.delete(id);
  const olds: Product[] = [];
  for (const p of update.products) {
    const old = byId.get(p.id);
    if (old) olds.push(old);
    byId.set(p.id, p);
  }
  // Same order as before (by id), new products at their place: no sort of the whole catalogue.
  const gone = new Set(update.removed);
  const fresh = new Map(update.products.map((p) => [p.id, p]));
  const products: Product[] = [];
  for (const p of s.catalogue.products) {
    if (gone.has(p.id)) continue;
    products.push(fresh.get(p.id) ?? p);
    fresh.delete(p.id);
  }
  if (fresh.size) {
    products.push(...fresh.values());
    products.sort((a, b) => a.id - b.id);
  }
  const scan = update.indexChanged ? buildScanLookup(products) : refreshScanHits(s.scan, olds, byId);
  catalogueStore.set({
    ...s,
    catalogue: { ...s.catalogue, products },
    byId,
    scan,
    version: s.version + 1,
    indexed: update.indexChanged ? products : s.indexed,
    indexVersion: update.indexChanged ? s.indexVersion + 1 : s.indexVersion,
  });
}
