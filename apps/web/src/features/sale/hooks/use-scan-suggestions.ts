import { useMemo, useState } from 'react';
import type { Product } from '@/features/catalogue-cache/types';
import type { FacetFilter } from '@/features/item-search/search-record';
import { useItemSearch, type ProductById, type SearchSource } from '@/features/item-search/hooks/use-item-search';

/** How many matches the scan box lists under itself. */
export const SUGGESTION_LIMIT = 8;

export interface ScanSuggestSource {
  source: SearchSource;
  /** The same version the item search dialog indexes with (one index in the worker for both). */
  version: number | string;
  byId: ProductById;
  facets: FacetFilter | null;
}

/**
 * The scan box's type-ahead (issue 23.2): the till's local catalogue search (the search worker,
 * shared with the item search dialog), asked only for the text the box settled on (`onSuggest`,
 * called by the box after a pause in typing, never per scanner key). `suggestions` answer
 * `suggestFor` and are empty until the worker answered that very text.
 */
export function useScanSuggestions({ source, version, byId, facets }: ScanSuggestSource) {
  const [query, setQuery] = useState('');
  const { count, itemAt, resultQuery } = useItemSearch({ source, version, byId, facets, query, enabled: query !== '' });
  const suggestions = useMemo(() => {
    if (!query || resultQuery !== query) return [];
    const out: Product[] = [];
    for (let i = 0; i < Math.min(count, SUGGESTION_LIMIT); i++) {
      const p = itemAt(i);
      if (p) out.push(p);
    }
    return out;
  }, [query, resultQuery, count, itemAt]);
  return { suggestions, suggestFor: query, onSuggest: setQuery };
}
