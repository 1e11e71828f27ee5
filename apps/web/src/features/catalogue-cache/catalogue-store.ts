/**
 * The loaded catalogue in memory, with its indexes built once per load: products by id, the
 * exact scan lookup, and the facets. The store also tracks the loading sequence's progress.
 */
import { createStore, useStore } from '@/features/catalogue-cache/create-store';
import { buildScanLookup, type ScanHit } from './product-index';
import type { LoadStep } from './load-catalogue';
import type { Catalogue, Product } from './types';

export interface CatalogueState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  step: LoadStep | null;
  progress: { loaded: number; total?: number } | null;
  catalogue: Catalogue;
  byId: Map<number, Product>;
  scan: Map<string, ScanHit>;
  /** Bumped on every load so dependants (the search worker) can re-index. */
  version: number;
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
    error: null,
  }));
}
