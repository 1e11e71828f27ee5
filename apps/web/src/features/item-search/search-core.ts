/**
 * Fuzzy item search (spec 2.5 "Item search dialog", reference 4.12): fuse.js on name, barcode
 * and base price; threshold 0.2 by default (0 to 1), case-insensitive unless asked, location
 * ignored, sorted, all matches, extended search. An empty query lists everything. Runs in the
 * search worker (search.worker.ts) so typing never blocks; this module is also the fallback
 * when workers are unavailable (tests).
 */
import Fuse, { type IFuseOptions } from 'fuse.js';
import { recordMatchesFacets, type FacetFilter, type SearchRecord, type SearchSettings } from './search-record';
import { MAX_PATTERN_LENGTH, allowedEdits, charMask, fieldNorm, fieldScore, piecesOf, wordOf, type Word } from './search-match';
import { SecondKeys, builtSoFar, listOf, narrows, sizeOf, type Answer, type Candidates, type NextKeyJob } from './search-ahead';
import { HayText } from './search-sweep';
import { rank } from './search-rank';

export { EditPattern, MAX_PATTERN_LENGTH, WordChars, allowedEdits, charMask, tokenPieces } from './search-match';

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

/** Answers kept to narrow the next queries from (newest first). */
const HISTORY = 10;
/** Records held by the kept answers, at most (~16 MB with their orders). */
const HISTORY_IDS = 2_000_000;

/** Records held by the kept first-key answers, at most (~8 MB: a dozen letters at 100,000 products, one or two at 1,000,000). */
const FIRST_KEYS_IDS = 1_000_000;

const sameWords = (a: string[], b: string[]) => a.length === b.length && a.every((t, w) => t === b[w]);

/** Every word's characters may be in a text with this mask (WordChars.fits). */
function fitsAll(words: Word[], mask: number): boolean {
  for (const w of words) if (!w.chars.fits(mask, w.k)) return false;
  return true;
}

/** Every word's characters may be in the text, and one piece of every word is (the prefilter of tokenPieces). */
function holdsPieces(text: string, mask: number, pieces: string[][], words: Word[]): boolean {
  if (!fitsAll(words, mask)) return false;
  for (const word of pieces) {
    let any = false;
    for (const p of word) if (text.includes(p)) { any = true; break; }
    if (!any) return false;
  }
  return true;
}

/** 1 where a field is blank (fuse.js does not index it). */
const blankOf = (t: string) => (t.trim() ? 0 : 1);
/** A record's three folded fields in one string, for the prefilter. */
const hayOf = (name: string, barcode: string, price: string) => `${name}\u0001${barcode}\u0001${price}`;

export class SearchIndex {
  /** fuse.js itself, built the first time a query needs it (extended-search operators; the reference answer in tests). */
  private fuseOf: Fuse<SearchRecord> | null = null;
  private options: IFuseOptions<SearchRecord>;
  /** name, barcode and price of each record in one string (lower case unless case-sensitive), for the prefilter. */
  private hay: string[];
  /** The hay joined into one text (search-sweep.ts), for the reads of the whole catalogue; null after a change in place until built again. */
  private sweep: HayText | null;
  /** charMask of each hay, and of each field of each record. */
  readonly hayMasks: Int32Array;
  readonly masks: Int32Array[];
  /** The same three fields apart (fuse.js's keys, in order), folded the same way. */
  readonly fields: string[][];
  /** The last plain queries' words, their allowed errors and their matching records (catalogue order), newest first. */
  private history: Answer[] = [];
  /** The next key's candidates, built in idle time (speculate). */
  private pending: NextKeyJob | null = null;
  /** A first letter's records by the character after it: a second key's candidates (speculate). */
  private second: SecondKeys | null = null;
  /**
   * Answers to a single letter, the first key of every search (it matches most of the catalogue and
   * scans all of it), kept while they hold at most FIRST_KEYS_IDS records in all, the oldest dropped first.
   */
  private firstKeys = new Map<string, Answer>();
  /** The records' ids, in catalogue order. */
  private ids: Int32Array;
  /** 1 where a field is blank (fuse.js does not index it). */
  readonly blank: Uint8Array[];
  /** fuse.js's field-length norm of each field of each record (search-match.ts fieldNorm), as the position of its value in `normValues` (there are only a few). */
  readonly normIds: Uint16Array[];
  readonly normValues: number[] = [];
  private normAt = new Map<number, number>();
  /** Records whose texts the last plain-word search read before ranking (its cost; tests). */
  examined = 0;

  constructor(private records: SearchRecord[], private settings: SearchSettings) {
    this.options = fuseOptions(settings);
    this.ids = Int32Array.from(records, (r) => r.id);
    const fold = (t: string) => this.fold(t);
    this.fields = [records.map((r) => fold(r.name)), records.map((r) => fold(r.barcode)), records.map((r) => fold(r.basePrice))];
    this.blank = this.fields.map((f) => Uint8Array.from(f, blankOf));
    // The norms fuse.js's index would hold, without building it (2.6 s and a few hundred MB at 1,000,000 products).
    // (Counted on the folded fields: folding a text's case never adds or removes white space.)
    this.normIds = this.fields.map((f) => Uint16Array.from(f, (t) => this.normId(fieldNorm(t))));
    this.hay = records.map((_, i) => hayOf(this.fields[0][i], this.fields[1][i], this.fields[2][i]));
    this.sweep = HayText.of(this.hay);
    this.masks = this.fields.map((f) => Int32Array.from(f, charMask));
    this.hayMasks = Int32Array.from(records, (_r, i) => this.masks[0][i] | this.masks[1][i] | this.masks[2][i]);
  }

  /** True when the fields are folded to lower case (rank: search-rank.ts). */
  get folded(): boolean {
    return !this.settings.isCaseSensitive;
  }

  /** A text as the index compares it: lower case unless the search is case-sensitive. */
  private fold(t: string): string {
    return this.settings.isCaseSensitive ? t : t.toLowerCase();
  }

  /** The position of a field norm in normValues (added when new). */
  private normId(n: number): number {
    let id = this.normAt.get(n);
    if (id === undefined) {
      id = this.normValues.length;
      if (id > 0xffff) throw new RangeError('too many field norms');
      this.normAt.set(n, id);
      this.normValues.push(n);
    }
    return id;
  }

  /**
   * Records changed in place (the catalogue's positions kept; search.worker.ts finds them): their
   * texts, masks and norms anew, and every kept answer dropped (it may hold or miss them). At
   * 1,000,000 products a renamed product no longer builds the whole index (~13 s in node).
   */
  update(changes: ReadonlyArray<readonly [number, SearchRecord]>): void {
    if (!changes.length) return; // nothing this till lists changed (another store's product): the kept answers hold
    for (const [k, r] of changes) {
      this.records[k] = r;
      this.ids[k] = r.id;
      const texts = [this.fold(r.name), this.fold(r.barcode), this.fold(r.basePrice)];
      texts.forEach((t, f) => {
        this.fields[f][k] = t;
        this.blank[f][k] = blankOf(t);
        this.normIds[f][k] = this.normId(fieldNorm(t));
        this.masks[f][k] = charMask(t);
      });
      this.hay[k] = hayOf(texts[0], texts[1], texts[2]);
      this.hayMasks[k] = this.masks[0][k] | this.masks[1][k] | this.masks[2][k];
    }
    this.fuseOf = null;
    this.sweep = null;
    this.history = [];
    this.pending = null;
    this.second = null;
    this.firstKeys.clear();
  }

  private sweepText(): HayText {
    this.sweep ??= HayText.of(this.hay);
    return this.sweep;
  }

  private fuse(): Fuse<SearchRecord> {
    this.fuseOf ??= new Fuse(this.records, this.options);
    return this.fuseOf;
  }

  /**
   * fuse.js's answer, fast: for plain words only the records holding one piece of every word
   * (tokenPieces) can match, and those are scored exactly as fuse.js scores them (search-rank.ts),
   * without its bitap pass per record and field. Queries with extended-search operators, or words so
   * short that every text qualifies, go to fuse.js itself. The equivalence test against a full
   * fuse.js search (search-core.test.ts) guards this against a fuse.js change.
   */
  private fuzzy(q: string): ArrayLike<number> {
    const job = this.pending;
    this.pending = null;
    this.examined = 0;
    if (OPERATORS.test(q)) return this.fuse().search(q).map((r) => r.refIndex);
    const fold = (t: string) => this.fold(t);
    const threshold = this.options.threshold ?? DEFAULT_THRESHOLD;
    const tokens = q.split(/ +/).map(fold);
    const edits = tokens.map((t) => allowedEdits(t.length, threshold));
    // The key the candidates were being built for came before they were done (at 1,000,000
    // products they take longer than a typist's pause): what was built narrows the part it covers,
    // and the rest is read with this key's own pieces. Finishing them first cost more than that
    // read (their shorter word, with an error more, lets far more texts through: 150-580 ms at 1M).
    const size = this.hay.length;
    const partial = job && narrows(job, tokens, edits) ? builtSoFar(job, size) : null;
    const pieces = tokens.map((t, w) => piecesOf(t, edits[w]));
    if (pieces.some((p) => p === null)) return this.fuse().search(q).map((r) => r.refIndex);
    // The same words answered a moment ago (a space typed after them, a first letter typed again).
    const same = this.keptAnswer(tokens);
    if (same) {
      this.remember(same);
      this.buildAhead(same, threshold);
      return same.order;
    }
    const words = tokens.map((t, w) => wordOf(t, edits[w]));
    // Typing on: every word of an earlier query kept or lengthened with no more errors allowed,
    // words only added -> only that answer's products can match (a match of the longer word holds
    // one of its prefix), so the smallest such answer is the candidates instead of the whole
    // catalogue. Not only the last: "organic hone" -> "organic honey" allows an error more in its
    // second word, but "organic" a moment before still narrows it.
    const kept = this.second?.within(tokens, edits) ?? this.narrowest(tokens, edits);
    const within: Candidates = partial && (!kept || sizeOf(partial, size) < kept.length) ? partial : { listed: kept ?? [], from: kept ? size : 0 };
    let candidates: ArrayLike<number> | null;
    if (pieces.every((p) => p!.length === 1)) candidates = listOf(within, size);
    else {
      const { hay, hayMasks } = this;
      const found: number[] = [];
      this.examined += sizeOf(within, size);
      const holds = (i: number) => holdsPieces(hay[i], hayMasks[i], pieces as string[][], words);
      for (let d = 0; d < within.listed.length; d++) if (holds(within.listed[d])) found.push(within.listed[d]);
      // The records past `from` (the whole catalogue, or what a job had not read): through the joined text.
      if (within.from < size && !this.sweepText().holding(pieces as string[][], within.from, (i) => fitsAll(words, hayMasks[i]), found)) {
        for (let i = within.from; i < size; i++) if (holds(i)) found.push(i);
      }
      candidates = found;
    }
    const { order, docs } = rank(this, words, candidates);
    const answer: Answer = { tokens, edits, docs, order };
    this.remember(answer);
    if (tokens.length === 1 && tokens[0].length === 1) this.keepFirstKey(tokens[0], answer);
    this.buildAhead(answer, threshold);
    return order;
  }

  /**
   * What speculate builds after an answer: the next key's candidates when it allows one more error;
   * after a first letter (no error allowed), its records grouped by the next character.
   */
  private buildAhead(a: Answer, threshold: number) {
    this.pending = this.nextKeyJob(a.tokens, a.edits, threshold);
    if (a.tokens.length === 1 && a.tokens[0].length === 1 && a.edits[0] === 0 && this.second?.first !== a.tokens[0]) {
      this.second = new SecondKeys(a.tokens[0], a.docs, this.fields, this.blank);
    }
  }

  /** A kept answer (not one built ahead) to exactly these words; a first letter's is the most recently used from then on. */
  private keptAnswer(tokens: string[]): (Answer & { order: Int32Array }) | null {
    const hasOrder = (a: Answer | undefined): a is Answer & { order: Int32Array } => !!a?.order;
    if (tokens.length === 1 && tokens[0].length === 1) {
      const first = this.firstKeys.get(tokens[0]);
      if (hasOrder(first)) {
        this.firstKeys.delete(tokens[0]);
        this.firstKeys.set(tokens[0], first); // the most recently used is dropped last
        return first;
      }
    }
    const same = this.history.find((a) => a.order && sameWords(a.tokens, tokens));
    return hasOrder(same) ? same : null;
  }

  /** The smallest kept answer these words refine (narrows), or null: the whole catalogue. */
  private narrowest(tokens: string[], edits: number[]): Int32Array | null {
    let within: Int32Array | null = null;
    for (const a of this.history) if (narrows(a, tokens, edits) && (!within || a.docs.length < within.length)) within = a.docs;
    return within;
  }

  private keepFirstKey(key: string, a: Answer) {
    this.firstKeys.set(key, a);
    let held = 0;
    for (const k of this.firstKeys.values()) held += k.docs.length;
    for (const [old, k] of this.firstKeys) {
      if (held <= FIRST_KEYS_IDS) break;
      this.firstKeys.delete(old);
      held -= k.docs.length;
    }
  }

  private remember(a: Answer) {
    const { history } = this;
    const at = history.indexOf(a);
    if (at >= 0) history.splice(at, 1);
    history.unshift(a);
    if (history.length > HISTORY) history.pop();
    // Bounded in records too (a first key at 1,000,000 products matches most of them).
    let held = 0;
    for (let j = 0; j < history.length; j++) {
      held += history[j].docs.length;
      if (j > 0 && held > HISTORY_IDS) { history.length = j; break; }
    }
  }

  /**
   * When the next letter of the last word will allow it one more error (its 5th, its 10th at 0.2),
   * that key would have to scan the whole catalogue: its candidates (the records matching the words
   * typed so far with that error more, a superset of what any next letter matches) are built ahead,
   * in the worker's idle time between keys (speculate), and kept like an answer to narrow from.
   */
  private nextKeyJob(tokens: string[], edits: number[], threshold: number): NextKeyJob | null {
    const last = tokens.length - 1;
    const m = tokens[last].length + 1;
    const k = edits[last] + 1;
    if (m > MAX_PATTERN_LENGTH || allowedEdits(m, threshold) !== k) return null;
    const more = [...edits.slice(0, last), k];
    const pieces = tokens.map((t, w) => piecesOf(t, more[w]));
    if (pieces.some((p) => p === null)) return null; // too short to hold a piece: every text qualifies
    if (this.history.some((a) => sameWords(a.tokens, tokens) && a.edits.every((e, w) => e === more[w]))) return null; // built already
    return { tokens, edits: more, words: tokens.map((t, w) => wordOf(t, more[w])), pieces: pieces as string[][], within: this.narrowest(tokens, more), next: 0, found: [] };
  }

  /** Builds the next key's candidates (then a first letter's second keys) for up to `ms`; true while there is more to do. */
  speculate(ms: number): boolean {
    const job = this.pending;
    if (!job) {
      if (this.second?.build(ms)) return true;
      this.sweepText(); // after a change in place, the joined text anew while the till is idle
      return false;
    }
    if (!this.advance(job, performance.now() + ms)) return true;
    this.pending = null;
    return !!this.second && !this.second.done;
  }

  /** Builds `job` until the clock passes `end`; once done, its candidates are kept like an answer (true). */
  private advance(job: NextKeyJob, end: number): boolean {
    const n = job.within ? job.within.length : this.hay.length;
    const { hay, hayMasks, fields, masks, blank } = this;
    while (job.next < n) {
      const stop = Math.min(n, job.next + 1024);
      for (let d = job.next; d < stop; d++) {
        const i = job.within ? job.within[d] : d;
        if (!holdsPieces(hay[i], hayMasks[i], job.pieces, job.words)) continue;
        for (let f = 0; f < fields.length; f++) {
          if (!blank[f][i] && fieldScore(job.words, fields[f][i], masks[f][i]) >= 0) { job.found.push(i); break; }
        }
      }
      job.next = stop;
      if (performance.now() > end) return false;
    }
    this.remember({ tokens: job.tokens, edits: job.edits, docs: Int32Array.from(job.found), order: null });
    return true;
  }

  /**
   * Matching ids, best first (an Int32Array the worker hands over without a copy); an error
   * message instead when fuse refuses the pattern.
   */
  search(query: string, facets?: FacetFilter | null): { ids: Int32Array; error?: string } {
    const q = query.trim();
    const tooLong = patternError(q);
    if (tooLong) return { ids: new Int32Array(0), error: tooLong };
    try {
      const order = q === '' ? null : this.fuzzy(q);
      const { records, ids } = this;
      const n = order ? order.length : records.length;
      const filtered = !!facets && (facets.brands.length > 0 || facets.categories.length > 0 || facets.departments.length > 0);
      if (!filtered) {
        if (!order) return { ids: ids.slice() };
        const out = new Int32Array(n);
        for (let j = 0; j < n; j++) out[j] = ids[order[j]];
        return { ids: out };
      }
      const out = new Int32Array(n);
      let m = 0;
      for (let j = 0; j < n; j++) {
        const d = order ? order[j] : j;
        if (recordMatchesFacets(records[d], facets)) out[m++] = ids[d];
      }
      return { ids: out.slice(0, m) };
    } catch (e) {
      // fuse.js: 'Pattern length exceeds max of 32.'
      return { ids: new Int32Array(0), error: e instanceof Error ? e.message : String(e) };
    }
  }

  /** The plain fuse.js answer over every record (the reference the fast path is checked against). */
  searchAll(query: string): number[] {
    return this.fuse().search(query.trim()).map((r) => r.item.id);
  }
}
