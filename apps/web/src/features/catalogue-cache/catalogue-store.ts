/**
 * The loaded catalogue in memory, with its indexes: the product table (products by id, decoded on
 * demand; product-table.ts), its exact scan lookup, and the table the search index and facets are
 * built from. The store also tracks the loading sequence's progress.
 *
 * Deltas from the sync (every few seconds while the till runs) go through applyProductUpdate:
 * a stock-only change gives a new table (new product objects for the changed ids) and leaves
 * `indexed` and `indexVersion` alone, so the search worker, the facets and the store filter are
 * not rebuilt for it; a change of anything they read rebuilds them once.
 */
import { createStore, useStore } from '@/features/catalogue-cache/create-store';
import type { LoadStep } from './load-catalogue';
import type { ProductUpdate } from './product-sync';
import { ProductTable, type ScanLookup } from './product-table';
import type { Catalogue } from './types';

/** The catalogue the till holds: the reference lists, and the products as a table. */
export type TillCatalogue = Catalogue<ProductTable>;

export interface CatalogueState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  step: LoadStep | null;
  progress: { loaded: number; total?: number } | null;
  catalogue: TillCatalogue;
  /** The current products (the same table as catalogue.products). */
  byId: ProductTable;
  scan: ScanLookup;
  /** Bumped on every change of the products. */
  version: number;
  /**
   * The table as of the last change the indexes care about (see above), and its version: what
   * the search worker indexes and the facets count. Current objects are always in byId.
   */
  indexed: ProductTable;
  indexVersion: number;
  error: unknown;
  /** The server answered 503 BUSY to the last sync or load: the till waits (backoff) and says so. */
  busy: boolean;
  /**
   * A warm start's product texts are still coming (cached-texts.ts): a product whose text is not
   * there yet shows nothing until they are in (what shows products listens).
   */
  textsPending: boolean;
}

const NONE = ProductTable.empty();
const EMPTY: TillCatalogue = { products: NONE, discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] };

export const catalogueStore = createStore<CatalogueState>({
  status: 'idle',
  step: null,
  progress: null,
  catalogue: EMPTY,
  byId: NONE,
  scan: NONE.scan,
  version: 0,
  indexed: NONE,
  indexVersion: 0,
  error: null,
  busy: false,
  textsPending: false,
});

export function useCatalogue<S>(selector: (s: CatalogueState) => S): S {
  return useStore(catalogueStore, selector);
}

/** Installs a freshly loaded catalogue. */
export function setCatalogue(catalogue: TillCatalogue): void {
  const table = catalogue.products;
  catalogueStore.set((s) => ({
    ...s,
    status: 'ready',
    catalogue,
    byId: table,
    scan: table.scan,
    version: s.version + 1,
    indexed: table,
    indexVersion: s.indexVersion + 1,
    error: null,
    textsPending: table.textsPending,
  }));
}

/** A warm start's texts are all in: what showed nothing for lack of them shows now. */
export function cachedTextsRead(): void {
  catalogueStore.set((s) => {
    const table = s.byId.renewed();
    return { ...s, catalogue: { ...s.catalogue, products: table }, byId: table, scan: table.scan, version: s.version + 1, textsPending: false };
  });
}

/** Applies what the sync brought while the till runs (a full catalogue or a delta). */
export function applyProductUpdate(update: ProductUpdate): void {
  const s = catalogueStore.get();
  if (!update.full && !update.chunks.length && !update.drop.length && !update.dict) return;
  const table = s.catalogue.products.apply(update);
  const indexChanged = update.full || update.indexChanged;
  catalogueStore.set({
    ...s,
    catalogue: { ...s.catalogue, products: table },
    byId: table,
    scan: table.scan,
    version: s.version + 1,
    indexed: indexChanged ? table : s.indexed,
    indexVersion: indexChanged ? s.indexVersion + 1 : s.indexVersion,
  });
}
