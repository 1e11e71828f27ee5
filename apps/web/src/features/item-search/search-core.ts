/**
 * Fuzzy item search (spec 2.5 "Item search dialog", reference 4.12): fuse.js on name, barcode
 * and base price; threshold 0.2 by default (0 to 1), case-insensitive unless asked, location
 * ignored, sorted, all matches, extended search. An empty query lists everything. Runs in the
 * search worker (search.worker.ts) so typing never blocks; this module is also the fallback
 * when workers are unavailable (tests).
 */
import Fuse, { type IFuseOptions } from 'fuse.js';
import { recordMatchesFacets, type FacetFilter, type SearchRecord, type SearchSettings } from './search-record';

export { toSearchRecord, recordMatchesFacets } from './search-record';
export type { FacetFilter, SearchRecord, SearchRequest, SearchResponse, SearchSettings } from './search-record';

export const DEFAULT_THRESHOLD = 0.2;

export function fuseOptions(settings: SearchSettings): IFuseOptions<SearchRecord> {
  return {
    keys: ['name', 'barcode', 'basePrice'],
    threshold: Math.min(Math.max(settings.threshold, 0), 1),
    ignoreLocation: true,
    isCaseSensitive: settings.isCaseSensitive,
    shouldSort: true,
    findAllMatches: true,
    useExtendedSearch: true,
  };
}

export const MAX_PATTERN_LENGTH = 32;
export const PATTERN_TOO_LONG = 'Pattern length exceeds max of 32.';

/**
 * fuse.js 7 splits long patterns into chunks, fuse.js 6 (the reference) refused them with
 * 'Pattern length exceeds max of 32.': the spec keeps that message, so a search word (an
 * extended-search token without its operators) longer than 32 characters is refused here.
 */
export function patternError(query: string): string | null {
  for (const raw of query.split(/\s+/)) {
    const token = raw.replace(/^[=!'^]+/, '').replace(/\$$/, '');
    if (token.length > MAX_PATTERN_LENGTH) return PATTERN_TOO_LONG;
  }
  return null;
}

export class SearchIndex {
  private fuse: Fuse<SearchRecord>;
  constructor(private records: SearchRecord[], settings: SearchSettings) {
    const options = fuseOptions(settings);
    this.fuse = new Fuse(records, options, Fuse.createIndex(options.keys as string[], records));
  }

  /** Matching ids, best first; an error message instead when fuse refuses the pattern. */
  search(query: string, facets?: FacetFilter | null): { ids: number[]; error?: string } {
    const q = query.trim();
    const tooLong = patternError(q);
    if (tooLong) return { ids: [], error: tooLong };
    try {
      const hits = q === '' ? this.records : this.fuse.search(q).map((r) => r.item);
      const ids: number[] = [];
      for (const r of hits) if (recordMatchesFacets(r, facets)) ids.push(r.id);
      return { ids };
    } catch (e) {
      // fuse.js: 'Pattern length exceeds max of 32.'
      return { ids: [], error: e instanceof Error ? e.message : String(e) };
    }
  }
}

