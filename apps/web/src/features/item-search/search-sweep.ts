/**
 * The item search's texts (each record's name, barcode and price, search-core.ts `hay`) as one
 * string, for a key that has to read the whole catalogue (or the part a job built ahead had not
 * read yet: a fifth letter typed quicker than its candidates are built, at 1,000,000 products).
 * `indexOf` over one long text passes what holds no piece at the speed of a memory scan, where a
 * test per record paid a call and a search of each of a million short strings: at 1,000,000
 * products a fifth letter's read took 100-230 ms that way (docs/performance.md).
 */

/** Between two records' texts (a field's are joined by U+0001 within its record). */
const SEPARATOR = '\u0002';

export class HayText {
  private constructor(
    /** Every record's text, in catalogue order, joined by SEPARATOR. */
    readonly text: string,
    /** Where each record's text ends (exclusive): the separator after it, or the text's end. */
    private readonly ends: Int32Array,
  ) {}

  /** The joined text, and each record's text as a slice of it (replaced in `hay`: no second copy of the characters). */
  static of(hay: string[]): HayText {
    const ends = new Int32Array(hay.length);
    let at = 0;
    for (let i = 0; i < hay.length; i++) {
      at += hay[i].length;
      ends[i] = at;
      at += SEPARATOR.length;
    }
    const out = new HayText(hay.join(SEPARATOR), ends);
    for (let i = 0; i < hay.length; i++) hay[i] = out.text.slice(out.start(i), ends[i]);
    return out;
  }

  get size(): number {
    return this.ends.length;
  }

  private start(i: number): number {
    return i === 0 ? 0 : this.ends[i - 1] + SEPARATOR.length;
  }

  /**
   * The records from `from` on whose text holds, for every word, one of its pieces (`pieces[w]`,
   * search-core.ts holdsPieces without the masks) and that `keep` keeps, in catalogue order,
   * appended to `out`. Per word, each piece is looked for in the text, once per record at most
   * (the search goes on at the next record's start); a record counts a word only when it held every
   * word before it. Up to 255 words (a query has fewer: false beyond, nothing appended).
   */
  holding(pieces: readonly (readonly string[])[], from: number, keep: (i: number) => boolean, out: number[]): boolean {
    const words = pieces.length;
    if (words > 255 || pieces.some((w) => w.some((p) => p === ''))) return false;
    const n = this.ends.length - from;
    if (n <= 0) return true;
    const { text, ends } = this;
    const begin = this.start(from);
    // How many words of each record, in order, held a piece so far.
    const held = new Uint8Array(n);
    for (let w = 0; w < words; w++) {
      for (const p of pieces[w]) {
        let r = from;
        for (let x = text.indexOf(p, begin); x >= 0;) {
          while (ends[r] < x) r++;
          if (held[r - from] === w) held[r - from] = w + 1;
          if (++r >= ends.length) break;
          x = text.indexOf(p, this.start(r));
        }
      }
    }
    for (let d = 0; d < n; d++) if (held[d] === words && keep(from + d)) out.push(from + d);
    return true;
  }
}
