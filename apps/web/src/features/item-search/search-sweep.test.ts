import { describe, expect, it } from 'vitest';
import { HayText } from './search-sweep';

describe('item search: the joined texts', () => {
  const texts = ['fresh milk\u00012000\u00012.50', 'royal cheese\u00012001\u00014', '', 'milk fresh\u00012003\u00011', 'tea\u0001\u00011', 'frozen peas\u00012005\u00013'];
  const all = () => true;

  it('keeps every text, as slices of the one joined text', () => {
    const hay = [...texts];
    const joined = HayText.of(hay);
    expect(hay).toEqual(texts);
    expect(joined.size).toBe(texts.length);
    expect(joined.text).toBe(texts.join('\u0002'));
  });

  it('finds the records holding one piece of every word, in catalogue order, from a record on, as a test per record does', () => {
    const joined = HayText.of([...texts]);
    const byRecord = (pieces: string[][], from: number) => texts.map((_t, i) => i).filter((i) => i >= from && pieces.every((w) => w.some((p) => texts[i].includes(p))));
    const cases: string[][][] = [[['fr']], [['fr', 'mil']], [['fr'], ['milk']], [['milk'], ['fr']], [['ee', 'ea']], [['1']], [['zz']], [['2.5']], [['0\u0001']], [['a'], ['e'], ['s']]];
    for (const pieces of cases) {
      for (const from of [0, 1, 3, 5, 6]) {
        const out: number[] = [];
        expect(joined.holding(pieces, from, all, out)).toBe(true);
        expect(out, `${JSON.stringify(pieces)} from ${from}`).toEqual(byRecord(pieces, from));
      }
    }
    const kept: number[] = [];
    joined.holding([['fr']], 0, (i) => i !== 3, kept);
    expect(kept).toEqual([0, 5]);
  });

  it('declines more words than it counts and empty pieces (the caller tests record by record)', () => {
    const joined = HayText.of([...texts]);
    expect(joined.holding(Array.from({ length: 256 }, () => ['a']), 0, all, [])).toBe(false);
    expect(joined.holding([['']], 0, all, [])).toBe(false);
  });
});
