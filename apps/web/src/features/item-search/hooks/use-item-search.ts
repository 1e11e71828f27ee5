import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { Product } from '@/features/catalogue-cache/types';
import type { FacetFilter, SearchColumns } from '@/features/item-search/search-record';
import { columnsOf, toSearchRecord } from '@/features/item-search/search-record';
import { searchClient, useSearchSettings } from '@/features/item-search/search-client';

/** What to index: the catalogue visible at this till (store / terminal filtered), as columns taken only when (re)indexed. */
export interface SearchSource {
  size: number;
  columns: () => SearchColumns;
}

/** A source over a list of products (small lists, tests). */
export const listSource = (products: readonly Product[]): SearchSource => ({ size: products.length, columns: () => columnsOf(products.map(toSearchRecord)) });

/** Products by id: the till's catalogue table decodes one when asked. */
export interface ProductById {
  get(id: number): Product | undefined;
}

export interface ItemSearchInput {
  source: SearchSource;
  /** The source's version: re-indexed on change. */
  version: number | string;
  byId: ProductById;
  facets: FacetFilter | null;
  /**
   * The text to search, as React state (the scan box's settled text). Undefined: the caller types
   * through `type()` from its input's own event (the search dialog), so a key renders nothing until
   * its answer is there.
   */
  query?: string;
  enabled: boolean;
}

/**
 * Fuzzy search in the worker. Keeps the last answer on screen until the next one arrives and drops
 * answers to superseded queries, so fast typing never shows stale results. Every key is sent at
 * once (no debounce): the worker collapses queries that queued up while one ran into the latest.
 * `query` in the result says which text the shown items answer (the listbox's data-query).
 */
export function useItemSearch({ source, version, byId, facets, query, enabled }: ItemSearchInput) {
  const isCaseSensitive = useSearchSettings((s) => s.isCaseSensitive);
  const threshold = useSearchSettings((s) => s.threshold);
  const [result, setResult] = useState<{ ids: ArrayLike<number>; error?: string; query: string | null }>({ ids: [], query: null });
  const latest = useRef(0);
  const typed = useRef('');
  // The typed text as of this render: the box shows it again when the dialog reopens.
  const [lastTyped, setLastTyped] = useState('');
  const live = useRef(enabled);
  live.current = enabled;
  const facetsNow = useRef(facets);
  facetsNow.current = facets;

  // Indexed as soon as the catalogue is there (in the worker), so the first ctrl+f answers at once;
  // a layout effect like the search's below, so the index always reaches the worker first.
  useLayoutEffect(() => {
    if (!source.size && !enabled) return;
    searchClient().index(typeof version === 'number' ? version : hash(String(version)), source.columns, { isCaseSensitive, threshold });
  }, [enabled, source, version, isCaseSensitive, threshold]);

  /** Sends the text now; its answer is shown unless a later one was already. One render per answer. */
  const run = useCallback((text: string) => {
    void searchClient().search(text, facetsNow.current).then((r) => {
      if (!live.current || r.stale || r.seq < latest.current) return;
      latest.current = r.seq;
      setResult({ ids: r.ids, error: r.error, query: text });
    });
  }, []);

  const facetKey = JSON.stringify(facets);
  // The text again when what it searches changed (opened, other facets, a new catalogue or
  // settings), or the query state changed. A layout effect: sent as soon as it is rendered.
  useLayoutEffect(() => {
    if (enabled) run(query ?? typed.current);
    // facets by value
  }, [enabled, query, facetKey, version, isCaseSensitive, threshold, run]);

  // The answer's ids; a product is decoded only when its row is on screen (itemAt), not all
  // 80,000 hits of a first key. An id gone meanwhile (a delta removed it) shows no row.
  const ids = result.ids;
  const itemAt = useCallback((i: number): Product | undefined => (i >= 0 && i < ids.length ? byId.get(ids[i]) : undefined), [ids, byId]);

  // From the key's input event: the worker starts at once and the page renders only the answer.
  const type = useCallback((text: string) => {
    typed.current = text;
    if (live.current) run(text);
  }, [run]);
  // Kept for the next opening (a box is made anew each time): read only when the search closes.
  if (!enabled && lastTyped !== typed.current) setLastTyped(typed.current);

  return { count: ids.length, itemAt, error: result.error ?? null, resultQuery: result.query, typed: lastTyped, type };
}

function hash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}
