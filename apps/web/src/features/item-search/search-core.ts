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
  const k = allowedEdits(m, threshold);
  const n = k + 1;
  if (n > m) return null;
  const size = Math.floor(m / n);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(token.slice(i * size, i === n - 1 ? m : (i + 1) * size));
  return out;
}

/** The most edits a word of `length` may carry: e with e / length <= threshold (fuse.js's test, same arithmetic). */
export function allowedEdits(length: number, threshold: number): number {
  let k = 0;
  while (k < length && (k + 1) / length <= threshold) k++;
  return k;
}

/**
 * The fewest edits (insertions, deletions, substitutions) that make a word a substring of a text:
 * what fuse.js's bitap counts, computed with Myers's bit-parallel algorithm (one 32-bit word: words
 * of up to 32 characters, fuse.js's own limit). `edits(text, max)` stops early at 0.
 */
export class EditPattern {
  private readonly ascii = new Int32Array(128);
  private readonly other = new Map<number, number>();
  private readonly high: number;
  constructor(private readonly word: string) {
    if (word.length < 1 || word.length > MAX_PATTERN_LENGTH) throw new RangeError('word length');
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c < 128) this.ascii[c] |= 1 << i;
      else this.other.set(c, (this.other.get(c) ?? 0) | (1 << i));
    }
    this.high = 1 << (word.length - 1);
  }

  edits(text: string, max: number): number {
    const m = this.word.length;
    const { ascii, other, high } = this;
    let pv = -1;
    let mv = 0;
    let score = m;
    let best = m;
    for (let j = 0; j < text.length; j++) {
      const c = text.charCodeAt(j);
      const eq = c < 128 ? ascii[c] : (other.get(c) ?? 0);
      const xv = eq | mv;
      const xh = ((((eq & pv) + pv) | 0) ^ pv) | eq;
      let ph = mv | ~(xh | pv);
      let mh = pv & xh;
      if (ph & high) score++;
      else if (mh & high) score--;
      ph <<= 1;
      mh <<= 1;
      pv = mh | ~(xv | ph);
      mv = ph & xv;
      if (score < best) {
        best = score;
        if (best === 0) break;
      }
    }
    return best <= max ? best : max + 1;
  }
}

interface Answer { tokens: string[]; edits: number[]; docs: number[] }

/** True when every record matching `next` matched `prev`: each earlier word kept or lengthened, with no more errors allowed. */
function narrows(prev: Answer, tokens: string[], edits: number[]): boolean {
  if (tokens.length < prev.tokens.length) return false;
  for (let w = 0; w < prev.tokens.length; w++) {
    if (!tokens[w].startsWith(prev.tokens[w]) || edits[w] > prev.edits[w]) return false;
  }
  return true;
}

/** One piece of every word is in the text (the prefilter of tokenPieces). */
function holdsPieces(text: string, words: string[][]): boolean {
  for (const pieces of words) {
    let any = false;
    for (const p of pieces) if (text.includes(p)) { any = true; break; }
    if (!any) return false;
  }
  return true;
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
  /** The last plain query's words, their allowed errors and its matching records (catalogue order). */
  private last: Answer | null = null;
  /** 1 where a field is blank (fuse.js does not index it). */
  private blank: Uint8Array[];
  /** fuse.js's field-length norm of each field of each record (from its index). */
  private norms: Float64Array[];

  constructor(private records: SearchRecord[], private settings: SearchSettings) {
    this.options = fuseOptions(settings);
    this.index = Fuse.createIndex(this.options.keys as string[], records);
    this.fuse = new Fuse(records, this.options, this.index);
    this.byDoc = [];
    for (const r of this.index.records) this.byDoc[r.i!] = r;
    const fold = (t: string) => (settings.isCaseSensitive ? t : t.toLowerCase());
    this.fields = [records.map((r) => fold(r.name)), records.map((r) => fold(r.barcode)), records.map((r) => fold(r.basePrice))];
    this.blank = this.fields.map((f) => Uint8Array.from(f, (t) => (t.trim() ? 0 : 1)));
    this.norms = this.fields.map((_, k) => Float64Array.from(records, (_r, i) => (this.byDoc[i]?.$ as Record<number, { n: number } | undefined> | undefined)?.[k]?.n ?? 1));
    this.hay = records.map((_, i) => `${this.fields[0][i]}\u0001${this.fields[1][i]}\u0001${this.fields[2][i]}`);
  }

  /**
   * fuse.js's answer, fast: for plain words only the records holding one piece of every word
   * (tokenPieces) can match, and those are scored here exactly as fuse.js scores them (ranked),
   * without its bitap pass per record and field. Queries with extended-search operators, or words so
   * short that every text qualifies, go to fuse.js itself. The equivalence test against a full
   * fuse.js search (search-core.test.ts) guards this against a fuse.js change.
   */
  private fuzzy(q: string): SearchRecord[] {
    const last = this.last;
    this.last = null;
    if (OPERATORS.test(q)) return this.fuse.search(q).map((r) => r.item);
    const fold = (t: string) => (this.settings.isCaseSensitive ? t : t.toLowerCase());
    const threshold = this.options.threshold ?? DEFAULT_THRESHOLD;
    const tokens = q.split(/ +/).map(fold);
    const words = tokens.map((w) => tokenPieces(w, threshold));
    if (words.some((p) => p === null)) return this.fuse.search(q).map((r) => r.item);
    const edits = tokens.map((t) => allowedEdits(t.length, threshold));
    // Typing on: every earlier word kept or lengthened with no more errors allowed, words only added
    // -> only the previous answer's products can match (a match of the longer word holds one of its
    // prefix), so they are the candidates instead of the whole catalogue.
    const within = last && narrows(last, tokens, edits) ? last.docs : null;
    let candidates: number[] | null = within;
    if (!words.every((p) => p!.length === 1)) {
      const pieces = words as string[][];
      const hay = this.hay;
      candidates = [];
      const n = within ? within.length : hay.length;
      for (let d = 0; d < n; d++) {
        const i = within ? within[d] : d;
        if (holdsPieces(hay[i], pieces)) candidates.push(i);
      }
    }
    const { records, docs } = this.ranked(tokens, edits, candidates);
    this.last = { tokens, edits, docs };
    return records;
  }

  /**
   * fuse.js's ranking computed directly (extended search, keys name / barcode / price, location
   * ignored): a word matches a field with e edits when e / length <= threshold, where e is the
   * fewest edits making it a substring of the field (bitap's count, EditPattern); its score is
   * e / length, at least 0.001, and 0 when the word is the whole field. Per field, the mean of the
   * words' scores when every word matches; per product, the product over matching fields of
   * score^(weight x field norm); ties in catalogue order. `docs`: the records to score (all if null).
   */
  private ranked(tokens: string[], edits: number[], docs: number[] | null): { records: SearchRecord[]; docs: number[] } {
    const weight = 1 / this.fields.length;
    const words = tokens.map((t, w) => ({ t, k: edits[w], pattern: edits[w] > 0 ? new EditPattern(t) : null }));
    const matches: number[] = [];
    // Products by score, each group in catalogue order (the loop's order): the answer is the groups
    // by rising score, no sort of tens of thousands of hits (a first key matches most of the catalogue).
    const groups = new Map<number, number[]>();
    const count = docs ? docs.length : this.records.length;
    const { fields, blank, norms } = this;
    // score^(weight x norm) for the few scores and norms there are, computed once each.
    const powers = new Map<number, Map<number, number>>();
    const power = (score: number, norm: number) => {
      let byScore = powers.get(norm);
      if (!byScore) powers.set(norm, (byScore = new Map()));
      let v = byScore.get(score);
      if (v === undefined) byScore.set(score, (v = Math.pow(score === 0 ? Number.EPSILON : score, weight * norm)));
      return v;
    };
    for (let n = 0; n < count; n++) {
      const i = docs ? docs[n] : n;
      let total = 1;
      let matched = false;
      for (let k = 0; k < fields.length; k++) {
        if (blank[k][i]) continue; // fuse.js does not index blank values
        const text = fields[k][i];
        let sum = 0;
        let all = true;
        for (const w of words) {
          if (w.t === text) continue; // a whole-field match scores 0
          if (text.includes(w.t)) { sum += 0.001; continue; }
          const e = w.pattern ? w.pattern.edits(text, w.k) : Infinity;
          if (e > w.k) { all = false; break; }
          sum += Math.max(0.001, e / w.t.length);
        }
        if (!all) continue;
        matched = true;
        total *= power(sum / words.length, norms[k][i]);
      }
      if (!matched) continue;
      matches.push(i);
      const group = groups.get(total);
      if (group) group.push(i);
      else groups.set(total, [i]);
    }
    const out: SearchRecord[] = [];
    for (const score of [...groups.keys()].sort((a, b) => a - b)) for (const i of groups.get(score)!) out.push(this.records[i]);
    return { records: out, docs: matches };
  }

  /** Matching ids, best first; an error message instead when fuse refuses the pattern. */
  search(query: string, facets?: FacetFilter | null): { ids: number[]; error?: string } {
    const q = query.trim();
    const tooLong = patternError(q);
    if (tooLong) return { ids: [], error: tooLong };
    try {
      if (q === '') this.last = null;
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
