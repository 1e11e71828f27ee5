/**
 * Main-thread side of the item search: sends the visible catalogue (as columns) to the search
 * worker once per load (or settings change) and queries it; answers out of order are dropped by the caller
 * using the sequence number. Without Worker support (jsdom) the same index runs in-thread.
 */
import { createStore, useStore } from '@/features/catalogue-cache/create-store';
import type { SearchIndex } from './search-core';
import { recordsOf, type FacetFilter, type SearchColumns, type SearchRequest, type SearchResponse, type SearchSettings } from './search-record';

/** Mirrors search-core's DEFAULT_THRESHOLD without importing fuse.js into the main bundle. */
const DEFAULT_THRESHOLD = 0.2;

export interface SearchResult {
  seq: number;
  ids: ArrayLike<number>;
  error?: string;
  /** Superseded by a newer query before it ran. */
  stale?: boolean;
}

export class SearchClient {
  private worker: Worker | null = null;
  /** In-thread fallback (no Worker support): fuse.js is loaded only then. */
  private local: Promise<SearchIndex> | null = null;
  private seq = 0;
  private waiting = new Map<number, (r: SearchResult) => void>();
  private indexKey = '';

  constructor() {
    if (typeof Worker !== 'undefined') {
      try {
        this.worker = new Worker(new URL('./search.worker.ts', import.meta.url), { type: 'module' });
        this.worker.onmessage = (e: MessageEvent<SearchResponse>) => {
          const msg = e.data;
          if (msg.type !== 'result') return;
          const done = this.waiting.get(msg.seq);
          this.waiting.delete(msg.seq);
          done?.({ seq: msg.seq, ids: msg.ids, error: msg.error, stale: msg.stale });
        };
      } catch {
        this.worker = null;
      }
    }
  }

  /** (Re)builds the index when the catalogue version or the settings changed. */
  index(version: number, columns: () => SearchColumns, settings: SearchSettings): void {
    const key = `${version}|${settings.isCaseSensitive}|${settings.threshold}`;
    if (key === this.indexKey) return;
    this.indexKey = key;
    const cols = columns();
    if (this.worker) {
      // Columns: a few typed arrays and long strings to copy; the worker builds the records.
      const msg: SearchRequest = { type: 'index', version, columns: cols, settings };
      this.worker.postMessage(msg);
    } else {
      this.local = import('./search-core').then((m) => new m.SearchIndex(recordsOf(cols), settings));
    }
  }

  search(query: string, facets: FacetFilter | null): Promise<SearchResult> {
    const seq = ++this.seq;
    if (!this.worker) {
      if (!this.local) return Promise.resolve({ seq, ids: [] });
      return this.local.then((index) => ({ seq, ...index.search(query, facets) }));
    }
    return new Promise((resolve) => {
      this.waiting.set(seq, resolve);
      const msg: SearchRequest = { type: 'search', seq, query, facets };
      this.worker!.postMessage(msg);
    });
  }

  get latestSeq(): number {
    return this.seq;
  }
}

let shared: SearchClient | null = null;
export function searchClient(): SearchClient {
  shared ??= new SearchClient();
  return shared;
}

/** The search dialog's settings (spec 2.5), kept across reloads. */
export interface ItemSearchSettings extends SearchSettings {
  closeAfterAdd: boolean;
}

export const searchSettingsStore = createStore<ItemSearchSettings>(
  { closeAfterAdd: true, isCaseSensitive: false, threshold: DEFAULT_THRESHOLD },
  { key: 'pos-search-settings' },
);

export function useSearchSettings<S>(selector: (s: ItemSearchSettings) => S): S {
  return useStore(searchSettingsStore, selector);
}
