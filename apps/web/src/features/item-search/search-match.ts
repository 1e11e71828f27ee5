/**
 * The item search's matching primitives (search-core.ts ranks with them): the pieces a fuzzy word
 * must contain, the edits it may carry, the bit-parallel edit count, and the character masks that
 * rule a field out before any of that.
 */
/** fuse.js 6's longest pattern (the bit-parallel count works in one 32-bit word). */
export const MAX_PATTERN_LENGTH = 32;

/**
 * Pieces of a fuzzy token, one of which any match must contain exactly: fuse.js's bitap accepts a
 * token with e errors (edits) when e / length <= threshold, and k edits can spoil at most k of k+1
 * disjoint pieces (pigeonhole). null when the token is too short to split (every text qualifies).
 */
export function tokenPieces(token: string, threshold: number): string[] | null {
  return piecesOf(token, allowedEdits(token.length, threshold));
}

/** The pieces of a word that may carry `k` edits (tokenPieces). */
export function piecesOf(token: string, k: number): string[] | null {
  const m = token.length;
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

/**
 * A text's characters as 32 bits (lower-cased: a-z one bit each, digits and other characters
 * sharing a few), for a cheap necessary test before the edit count: a word position whose
 * character is nowhere in a field can only be matched by an edit, so a word with more such
 * positions than its allowed edits cannot match that field. Shared bits only make the test let
 * more through, never fewer; upper and lower case share a bit, so it holds case-sensitive too.
 */
function charBit(c: number): number {
  if (c >= 65 && c <= 90) c += 32;
  if (c >= 97 && c <= 122) return 1 << (c - 97);
  if (c >= 48 && c <= 57) return 1 << (26 + (c % 3));
  return 1 << (29 + (c % 3));
}

/**
 * The bit of a one-letter word that only that letter sets in a text the index folded to lower case
 * (a-z; upper case shares it, but a folded text holds none): such a field holds the letter exactly
 * when its mask has the bit. 0 for any other word, or texts not folded (case-sensitive search).
 */
export function letterBit(word: string, folded: boolean): number {
  if (!folded || word.length !== 1) return 0;
  const c = word.charCodeAt(0);
  return c >= 97 && c <= 122 ? charBit(c) : 0;
}

export function charMask(text: string): number {
  let m = 0;
  for (let i = 0; i < text.length; i++) m |= charBit(text.charCodeAt(i));
  return m;
}

/** A word's characters: their bits, and how many of its positions fall on each bit. */
export class WordChars {
  readonly mask: number;
  private readonly bits: number[] = [];
  private readonly counts: number[] = [];
  constructor(word: string) {
    let mask = 0;
    for (let i = 0; i < word.length; i++) {
      const b = charBit(word.charCodeAt(i));
      const at = this.bits.indexOf(b);
      if (at < 0) { this.bits.push(b); this.counts.push(1); } else this.counts[at]++;
      mask |= b;
    }
    this.mask = mask;
  }

  /** Whether the word may match a text with this mask with at most `edits` edits. */
  fits(textMask: number, edits: number): boolean {
    const absent = this.mask & ~textMask;
    if (absent === 0) return true;
    if (edits === 0) return false;
    let missing = 0;
    for (let j = 0; j < this.bits.length; j++) if (absent & this.bits[j]) missing += this.counts[j];
    return missing <= edits;
  }
}

/** A query word ready to be matched: its text, the edits it may carry and its matchers. */
export interface Word { t: string; k: number; chars: WordChars; pattern: EditPattern | null }

export const wordOf = (t: string, k: number): Word => ({ t, k, chars: new WordChars(t), pattern: k > 0 ? new EditPattern(t) : null });

/**
 * fuse.js's field-length norm (its index's `n`; fuse.js 7 tools/fieldNorm, weight 1, 3 decimals):
 * 1 / sqrt(words), the words split on white space (tab to carriage return, space, no-break space).
 */
export function fieldNorm(value: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c >= 9 && c <= 13) || c === 32 || c === 160) inWord = false;
    else if (!inWord) { words++; inWord = true; }
  }
  return NORMS[words] ?? Math.round(1000 / Math.pow(Math.max(1, words), 0.5)) / 1000;
}
const NORMS = Array.from({ length: 64 }, (_, n) => Math.round(1000 / Math.pow(Math.max(1, n), 0.5)) / 1000);

/**
 * The words' summed scores in one field (fuse.js: e / length, at least 0.001, 0 for the whole
 * field), or -1 when one of them does not match it.
 */
export function fieldScore(words: Word[], text: string, mask: number): number {
  let sum = 0;
  for (const w of words) {
    if (!w.chars.fits(mask, w.k)) return -1; // too many of its characters are not in the field
    if (w.t === text) continue; // a whole-field match scores 0
    // Without errors allowed, a substring or nothing; with them, the edit count (0 for a substring).
    const e = w.pattern ? w.pattern.edits(text, w.k) : text.includes(w.t) ? 0 : Infinity;
    if (e > w.k) return -1;
    sum += Math.max(0.001, e / w.t.length);
  }
  return sum;
}
