/**
 * The item search's ranking (search-core.ts): fuse.js's scores computed directly over the index's
 * folded fields, and the answer laid out by score.
 */
import { fieldScore, letterBit, type Word } from './search-match';

/** What ranking reads of the index: the folded fields, blanks, field norms and character masks. */
export interface RankColumns {
  readonly fields: string[][];
  readonly blank: Uint8Array[];
  readonly normIds: Uint16Array[];
  readonly normValues: number[];
  readonly masks: Int32Array[];
  /** Each record's three masks or'ed together. */
  readonly hayMasks: Int32Array;
  /** True when the fields are folded to lower case (the search is not case-sensitive). */
  readonly folded: boolean;
}

/**
 * The distinct scores of an answer and how many documents have each: `add` gives a score's group
 * (the first 16 scores looked up in a short list — a map lookup by a floating-point key per hit
 * was the cost of a first key that matches most of the catalogue — the rest in a map), `starts`
 * where each group begins when the groups are laid out by rising score.
 */
class Scores {
  private readonly keys: number[] = [];
  private readonly sizes: number[] = [];
  private more: Map<number, number> | null = null;
  add(score: number): number {
    const { keys } = this;
    const near = Math.min(keys.length, 16);
    for (let j = 0; j < near; j++) if (keys[j] === score) { this.sizes[j]++; return j; }
    let g = keys.length > 16 ? this.more!.get(score) : undefined;
    if (g === undefined) {
      g = keys.length;
      keys.push(score);
      this.sizes.push(0);
      if (g >= 16) (this.more ??= new Map()).set(score, g);
    }
    this.sizes[g]++;
    return g;
  }
  starts(): Int32Array {
    const { keys, sizes } = this;
    const out = new Int32Array(keys.length);
    let at = 0;
    for (const g of keys.map((_, j) => j).sort((a, b) => keys[a] - keys[b])) { out[g] = at; at += sizes[g]; }
    return out;
  }
}

/**
 * rank's scoring of a first key, one letter (letterBit: a field holds it exactly when its mask has
 * the bit), which matches most of the catalogue: each field is told by its mask alone, its text read
 * only when the mask is that letter's and nothing else (the whole field the letter: score 0, else
 * 0.001), and a field's factor looked up by its norm. At 1,000,000 products the texts read and the
 * general loop's per-field calls were most of a first key's time. Answers the number of matches.
 */
function groupLetter(index: RankColumns, bit: number, t: string, docs: ArrayLike<number> | null, group: Int32Array, scores: Scores,
  power: (score: number, norm: number) => number): number {
  const { fields, blank, normIds, normValues, masks, hayMasks } = index;
  const count = group.length;
  // The factor of a field that holds the letter (0.001), and of one that is the letter (0), per norm.
  const part = Float64Array.from(normValues, (_v, norm) => power(0.001, norm));
  const whole = Float64Array.from(normValues, (_v, norm) => power(0, norm));
  let hits = 0;
  for (let n = 0; n < count; n++) {
    const i = docs ? docs[n] : n;
    if (!(hayMasks[i] & bit)) { group[n] = -1; continue; } // in none of its fields
    let total = 1;
    let matched = false;
    for (let k = 0; k < masks.length; k++) {
      const m = masks[k][i];
      if (!(m & bit) || blank[k][i]) continue; // fuse.js does not index blank values
      matched = true;
      total *= m === bit && fields[k][i] === t ? whole[normIds[k][i]] : part[normIds[k][i]];
    }
    if (!matched) { group[n] = -1; continue; }
    group[n] = scores.add(total);
    hits++;
  }
  return hits;
}

/**
 * fuse.js's ranking computed directly (extended search, keys name / barcode / price, location
 * ignored): a word matches a field with e edits when e / length <= threshold, where e is the
 * fewest edits making it a substring of the field (bitap's count, EditPattern); its score is
 * e / length, at least 0.001, and 0 when the word is the whole field. Per field, the mean of the
 * words' scores when every word matches; per product, the product over matching fields of
 * score^(weight x field norm); ties in catalogue order. `docs`: the records to score (all if null).
 */
export function rank(index: RankColumns, words: Word[], docs: ArrayLike<number> | null): { order: Int32Array; docs: Int32Array } {
  const weight = 1 / index.fields.length;
  const count = docs ? docs.length : index.fields[0].length;
  const { fields, blank, normIds, normValues, masks } = index;
  // score^(weight x norm) for the few scores and norms there are, computed once each; the last
  // score's row is at hand (most fields of a query score the same).
  const powers = new Map<number, Float64Array>();
  let lastScore = NaN;
  let row: Float64Array = new Float64Array(0);
  const power = (score: number, norm: number) => {
    if (score !== lastScore) {
      let r = powers.get(score);
      if (!r) powers.set(score, (r = new Float64Array(normValues.length).fill(NaN)));
      row = r;
      lastScore = score;
    }
    let v = row[norm];
    if (v !== v) row[norm] = v = Math.pow(score === 0 ? Number.EPSILON : score, weight * normValues[norm]);
    return v;
  };
  // An answer has few distinct scores: each candidate gets its score's group (-1: no match), then
  // the groups are laid out by rising score, each in catalogue order (a counting sort into typed
  // arrays: a first key matches most of the catalogue, and growing arrays of a million numbers
  // were most of its cost, with their garbage).
  const group = new Int32Array(count);
  const scores = new Scores();
  const letter = words.length === 1 && words[0].k === 0 ? letterBit(words[0].t, index.folded) : 0;
  let hits = 0;
  if (letter) hits = groupLetter(index, letter, words[0].t, docs, group, scores, power);
  else {
    for (let n = 0; n < count; n++) {
      const i = docs ? docs[n] : n;
      let total = 1;
      let matched = false;
      for (let k = 0; k < fields.length; k++) {
        if (blank[k][i]) continue; // fuse.js does not index blank values
        const sum = fieldScore(words, fields[k][i], masks[k][i]);
        if (sum < 0) continue;
        matched = true;
        total *= power(sum / words.length, normIds[k][i]);
      }
      if (!matched) { group[n] = -1; continue; }
      group[n] = scores.add(total);
      hits++;
    }
  }
  const next = scores.starts();
  const order = new Int32Array(hits);
  const out = new Int32Array(hits);
  for (let n = 0, m = 0; n < count; n++) {
    const g = group[n];
    if (g < 0) continue;
    const i = docs ? docs[n] : n;
    order[next[g]++] = i;
    out[m++] = i;
  }
  return { order, docs: out };
}
