/**
 * Fuzzy item search (spec 2.5 "Item search dialog", reference 4.12): fuse.js on name, barcode
 * and base price; threshold 0.2 by default (0 to 1), case-insensitive unless asked, location
 * ignored, sorted, all matches, extended search. An empty query lists everything. Runs in the
 * search worker (search.worker.ts) so typing never blocks; this module is also the fallback
 * when workers are unavailable (tests).
 */
import Fuse, { type FuseIndex, type IFuseOptions } from 'fuse.js';
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

/** Extended-search operators and quoting: such queries go to fuse.js as they are. */
const OPERATORS = /[=!'^$|"]/;

/**
 * Pieces of a fuzzy token, one of which any match must contain exactly: fuse.js's bitap accepts a
 * token with e errors (edits) when e / length <= threshold, and k edits can spoil at most k of k+1
 * disjoint pieces (pigeonhole). null when the token is too short to split (every text qualifies).
 */
export function tokenPieces(token: string, threshold: number): string[] | null {
  const m = token.length;
  const k = Math.floor(threshold * m + 1e-9);
  const n = k + 1;
  if (n > m) return null;
  const size = Math.floor(m / n);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(token.slice(i * size, i === n - 1 ? m : (i + 1) * size));
  return out;
}

export class SearchIndex {
  private fuse: Fuse<SearchRecord>;
  private options: IFuseOptions<SearchRecord>;
  private index: FuseIndex<SearchRecord>;
  /** Index record of each document, by document position. */
  private byDoc: FuseIndex<SearchRecord>['records'];
  /** name, barcode and price of each record in one string (lower case unless case-sensitive), for the prefilter. */
  private hay: string[];
  /** The same three fields apart (fuse.js's keys, in order), folded the same way. */
  private fields: string[][];

  constructor(private records: SearchRecord[], private settings: SearchSettings) {
    this.options = fuseOptions(settings);
    this.index = Fuse.createIndex(this.options.keys as string[], records);
    this.fuse = new Fuse(records, this.options, this.index);
    this.byDoc = [];
    for (const r of this.index.records) this.byDoc[r.i!] = r;
    const fold = (t: string) => (settings.isCaseSensitive ? t : t.toLowerCase());
    this.fields = [records.map((r) => fold(r.name)), records.map((r) => fold(r.barcode)), records.map((r) => fold(r.basePrice))];
    this.hay = records.map((_, i) => `${this.fields[0][i]}\u0001${this.fields[1][i]}\u0001${this.fields[2][i]}`);
  }

  /**
   * fuse.js's answer, fast: for plain fuzzy words only the records holding one piece of every word
   * (tokenPieces) can match, so fuse.js runs over those alone, with their own index records. Scores
   * are per record and ties keep the catalogue order, so the answer is the same as a full search
   * (search-core.test.ts checks it), in a few ms instead of a pass of bitap over 100,000 products.
   */
  private fuzzy(q: string): SearchRecord[] {
    if (OPERATORS.test(q)) return this.fuse.search(q).map((r) => r.item);
    const fold = (t: string) => (this.settings.isCaseSensitive ? t : t.toLowerCase());
    const threshold = this.options.threshold ?? DEFAULT_THRESHOLD;
    const tokens = q.split(/ +/).map(fold);
    if (tokens.every((t) => tokenPieces(t, threshold)?.length === 1)) return this.exact(tokens);
    const words = tokens.map((w) => tokenPieces(w, threshold)).filter((p): p is string[] => p !== null);
    if (!words.length) return this.fuse.search(q).map((r) => r.item);
    const candidates: FuseIndex<SearchRecord>['records'] = [];
    const hay = this.hay;
    for (let i = 0; i < hay.length; i++) {
      const text = hay[i];
      if (words.every((pieces) => pieces.some((p) => text.includes(p))) && this.byDoc[i]) candidates.push(this.byDoc[i]);
    }
    const sub = Fuse.parseIndex<SearchRecord>({ keys: this.index.keys, records: candidates });
    return new Fuse(this.records, this.options, sub).search(q).map((r) => r.item);
  }

  /**
   * Words too short to carry an error at this threshold (under 5 letters at 0.2, the first keys
   * typed, which match tens of thousands of products) match exactly where they occur, so fuse.js's
   * bitap pass is skipped and its ranking computed directly: per field, the mean of the words'
   * scores (0 when the word is the whole field, else bitap's floor of 0.001); per product, the
   * product over matching fields of score^(weight x field norm), ties in catalogue order. The
   * equivalence test against a full fuse.js search guards this against a fuse.js change.
   */
  private exact(tokens: string[]): SearchRecord[] {
    const weight = 1 / this.fields.length;
    const scored: Array<{ i: number; score: number }> = [];
    for (let i = 0; i < this.records.length; i++) {
      let total = 1;
      let matched = false;
      for (let k = 0; k < this.fields.length; k++) {
        const text = this.fields[k][i];
        if (!text.trim()) continue; // fuse.js does not index blank values
        let sum = 0;
        let all = true;
        for (const t of tokens) {
          if (t === text) continue; // a whole-field match scores 0
          if (!text.includes(t)) { all = false; break; }
          sum += 0.001;
        }
        if (!all) continue;
        matched = true;
        const fieldScore = sum / tokens.length;
        const norm = (this.byDoc[i]?.$ as Record<number, { n: number } | undefined>)[k]?.n ?? 1;
        total *= Math.pow(fieldScore === 0 ? Number.EPSILON : fieldScore, weight * norm);
      }
      if (matched) scored.push({ i, score: total });
    }
    scored.sort((a, b) => a.score - b.score || a.i - b.i);
    return scored.map((x) => this.records[x.i]);
  }

  /** Matching ids, best first; an error message instead when fuse refuses the pattern. */
  search(query: string, facets?: FacetFilter | null): { ids: number[]; error?: string } {
    const q = query.trim();
    const tooLong = patternError(q);
    if (tooLong) return { ids: [], error: tooLong };
    try {
      const hits = q === '' ? this.records : this.fuzzy(q);
      const ids: number[] = [];
      for (const r of hits) if (recordMatchesFacets(r, facets)) ids.push(r.id);
      return { ids };
    } catch (e) {
      // fuse.js: 'Pattern length exceeds max of 32.'
      return { ids: [], error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The plain fuse.js answer over every record (the reference the fast path is checked against). */
  searchAll(query: string): number[] {
    return this.fuse.search(query.trim()).map((r) => r.item.id);
  }
}
