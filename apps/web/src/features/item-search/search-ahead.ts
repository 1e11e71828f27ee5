/**
 * What the item search builds beside its answers (search-core.ts): the next key's candidates when
 * it will allow one more error (NextKeyJob), and a first letter's records by the character that
 * follows it, so that the second key (no error allowed in two letters) scores only the records
 * holding both letters together instead of every record holding the first one (at 100,000
 * products ~20 ms -> a few).
 */
import type { Word } from './search-match';

/** A query's words, their allowed errors and matching records; `order` null: a superset built ahead (speculate). */
export interface Answer { tokens: string[]; edits: number[]; docs: Int32Array; order: Int32Array | null }

/** The next key's candidates being built in idle time. */
export interface NextKeyJob { tokens: string[]; edits: number[]; words: Word[]; pieces: string[][]; within: Int32Array | null; next: number; found: number[] }

/** True when every record matching `next` matched `prev`: each earlier word kept or lengthened, with no more errors allowed. */
export function narrows(prev: Pick<Answer, 'tokens' | 'edits'>, tokens: string[], edits: number[]): boolean {
  if (tokens.length < prev.tokens.length) return false;
  for (let w = 0; w < prev.tokens.length; w++) {
    if (!tokens[w].startsWith(prev.tokens[w]) || edits[w] > prev.edits[w]) return false;
  }
  return true;
}

/** Candidate records: those listed (in catalogue order), then every record from `from` on (the catalogue's size: none). */
export interface Candidates { listed: ArrayLike<number>; from: number }

/** How many records the candidates are, of a catalogue of `size`. */
export const sizeOf = (c: Candidates, size: number) => c.listed.length + size - c.from;

/**
 * The candidates of a job cut short: what it found among the records it read, then every record it
 * had still to read (catalogue order throughout), a superset of what its key's next letters match.
 */
export function builtSoFar(job: NextKeyJob, size: number): Candidates {
  if (!job.within) return { listed: job.found, from: job.next };
  return { listed: followedBy(job.found, job.within.subarray(job.next)), from: size };
}

/** One list of `first`'s records, then `rest`'s. */
function followedBy(first: ArrayLike<number>, rest: Int32Array): Int32Array {
  const out = new Int32Array(first.length + rest.length);
  out.set(first);
  out.set(rest, first.length);
  return out;
}

/** The candidates as one list in catalogue order, or null for the whole catalogue. */
export function listOf(c: Candidates, size: number): ArrayLike<number> | null {
  if (c.from >= size) return c.listed;
  if (c.listed.length === 0 && c.from === 0) return null;
  const out = new Int32Array(sizeOf(c, size));
  out.set(c.listed);
  for (let i = c.from, d = c.listed.length; i < size; i++, d++) out[d] = i;
  return out;
}

/**
 * A first letter's records (its answer's, in catalogue order) grouped by each character that
 * follows that letter in one of their fields (folded as the index folds them). Built in slices of
 * idle time between keys (build); until it is complete, the records not grouped yet are candidates too.
 */
export class SecondKeys {
  private next = 0;
  private readonly after = new Map<number, number[]>();
  constructor(readonly first: string, private readonly docs: Int32Array, private readonly fields: string[][], private readonly blank: Uint8Array[]) {}

  get done(): boolean {
    return this.next >= this.docs.length;
  }

  /** Groups records for up to `ms`; true while there is more to do. */
  build(ms: number): boolean {
    const end = performance.now() + ms;
    const { docs, fields, blank, first, after } = this;
    while (this.next < docs.length) {
      const stop = Math.min(docs.length, this.next + 1024);
      for (let d = this.next; d < stop; d++) {
        const i = docs[d];
        for (let f = 0; f < fields.length; f++) {
          if (blank[f][i]) continue;
          const text = fields[f][i];
          for (let at = text.indexOf(first); at >= 0 && at + 1 < text.length; at = text.indexOf(first, at + 1)) {
            const c = text.charCodeAt(at + 1);
            let list = after.get(c);
            if (!list) after.set(c, (list = []));
            if (list[list.length - 1] !== i) list.push(i); // once per record, in catalogue order
          }
        }
      }
      this.next = stop;
      if (performance.now() > end) return true;
    }
    return false;
  }

  /**
   * The candidates of a single two-letter word with no error allowed that begins with the first
   * letter, else null. Before the grouping is complete (a typist quicker than it, at 1,000,000
   * products): the records grouped under the second letter so far, then every record not grouped yet.
   */
  within(tokens: string[], edits: number[]): ArrayLike<number> | null {
    if (tokens.length !== 1 || edits[0] !== 0) return null;
    const t = tokens[0];
    if (t.length !== 2 || t[0] !== this.first) return null;
    const grouped = this.after.get(t.charCodeAt(1)) ?? [];
    return this.done ? grouped : followedBy(grouped, this.docs.subarray(this.next));
  }
}
