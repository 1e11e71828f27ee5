import { useEffect, useMemo, useRef, useState } from 'react';
import type { Product } from '@/features/catalogue-cache/types';
import type { FacetFilter } from '@/features/item-search/search-record';
import { toSearchRecord } from '@/features/item-search/search-record';
import { searchClient, useSearchSettings } from '@/features/item-search/search-client';

export interface ItemSearchInput {
  /** The catalogue visible at this till (store / terminal filtered) and its version (re-index on change). */
  products: readonly Product[];
  version: number | string;
  byId: ReadonlyMap<number, Product>;
  facets: FacetFilter | null;
  query: string;
  enabled: boolean;
}

/**
 * Fuzzy search in the worker. Keeps the last answer on screen until the next one arrives and drops
 * answers to superseded queries, so fast typing never shows stale results. Every key is sent at
 * once (no debounce): the worker collapses queries that queued up while one ran into the latest.
 * `query` in the result says which text the shown items answer (the listbox's data-query).
 */
export function useItemSearch({ products, version, byId, facets, query, enabled }: ItemSearchInput) {
  const isCaseSensitive = useSearchSettings((s) => s.isCaseSensitive);
  const threshold = useSearchSettings((s) => s.threshold);
  const [result, setResult] = useState<{ ids: ArrayLike<number>; error?: string; query: string | null }>({ ids: [], query: null });
  const [pending, setPending] = useState(false);
  const latest = useRef(0);

  // Indexed as soon as the catalogue is there (in the worker), so the first ctrl+f answers at once.
  useEffect(() => {
    if (!products.length && !enabled) return;
    searchClient().index(typeof version === 'number' ? version : hash(String(version)), () => products.map(toSearchRecord), { isCaseSensitive, threshold });
  }, [enabled, products, version, isCaseSensitive, threshold]);

  const facetKey = JSON.stringify(facets);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    setPending(true);
    void searchClient().search(query, facets).then((r) => {
      if (cancelled || r.stale || r.seq < latest.current) return;
      latest.current = r.seq;
      setResult({ ids: r.ids, error: r.error, query });
      setPending(false);
    });
    return () => {
      cancelled = true;
    };
    // facets by value
     
  }, [enabled, query, facetKey, version, isCaseSensitive, threshold]);

  const items = useMemo(() => {
    const out: Product[] = [];
    for (let i = 0; i < result.ids.length; i++) {
      const p = byId.get(result.ids[i]);
      if (p) out.push(p);
    }
    return out;
  }, [result, byId]);

  return { items, error: result.error ?? null, pending, resultQuery: result.query };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}
