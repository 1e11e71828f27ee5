import { describe, expect, it } from 'vitest';
import Fuse from 'fuse.js';
import { EditPattern, SearchIndex, WordChars, allowedEdits, charMask, toSearchRecord, tokenPieces } from './search-core';
import { changedEntries, columnsOf } from './search-record';
import { fieldNorm } from './search-match';

const records = [
  { id: 1, name: 'Fresh Milk 1L', barcode: '5000000000001', basePrice: 2.5, brands: [{ id: 1 }], department: { id: 1 } },
  { id: 2, name: 'Classic Bread Loaf', barcode: '5000000000002', basePrice: 3 },
  { id: 3, name: 'Organic Tea 250g', barcode: '5000000000003', basePrice: 7.25, brands: [{ id: 2 }] },
].map(toSearchRecord);

describe('item search', () => {
  const index = new SearchIndex(records, { isCaseSensitive: false, threshold: 0.2 });
  it('lists everything for an empty query', () => {
    expect(Array.from(index.search('').ids)).toEqual([1, 2, 3]);
  });
  it('matches names fuzzily, barcodes and prices', () => {
    expect(index.search('milk').ids[0]).toBe(1);
    expect(Array.from(index.search('mlik').ids)).toEqual([]); // too far for 0.2
    expect(index.search('5000000000003').ids[0]).toBe(3);
    expect(Array.from(index.search('7.25').ids)).toContain(3);
  });
  it('honours case sensitivity and the threshold', () => {
    expect(Array.from(new SearchIndex(records, { isCaseSensitive: true, threshold: 0 }).search('milk').ids)).toEqual([]);
    expect(new SearchIndex(records, { isCaseSensitive: false, threshold: 0.6 }).search('mlik').ids[0]).toBe(1);
  });
  it('reports the pattern length error', () => {
    const r = index.search('x'.repeat(33));
    expect(r.error).toBe('Pattern length exceeds max of 32.');
  });
  it('applies the chip filters', () => {
    expect(Array.from(index.search('', { brands: [2], categories: [], departments: [] }).ids)).toEqual([3]);
  });
});

describe('item search prefilter', () => {
  const words = ['fresh', 'milk', 'royal', 'cheese', 'cobalt', 'sneakers', 'organic', 'honey', 'zephyr', 'bread', 'Linen', 'shirt', 'tea', 'oat', 'Green'];
  let seed = 7;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const catalogue = [...Array.from({ length: 1500 }, (_, i) => toSearchRecord({
    id: i + 1,
    name: `${words[rnd(words.length)]} ${words[rnd(words.length)]} ${rnd(1000)}${rnd(3) ? 'g' : 'ml'}`,
    barcode: String(2000000000000 + i * 37),
    basePrice: `${rnd(100)}.${rnd(100)}`,
  })), toSearchRecord({ id: 2001, name: 'tea', barcode: '7', basePrice: 1 }), toSearchRecord({ id: 2002, name: 'Oat', barcode: '20', basePrice: 20 })];
  const queries = ['fresh milk', 'royal chees', 'cobalt sneakrs', 'organic honey 1kg', 'zephyr', 'mlik', 'she', 'l', 'linen', 'GREEN tea',
    '2000000000370', '200000001', '12.5', 'hony', 'cheese 250g', 'oat milk 1', 'sneakers cobalt', 'xq',
    // Short words (exact at 0.2): single keys, several words, a whole-field match, digits.
    'r', 'ro', 'roy', 'o', 'e 1', 'tea', 'oat', '1', '20', 'ml', 'f m', '7', 'Tea'];

  it('answers exactly what a full fuse.js search answers, in the same order', () => {
    for (const threshold of [0, 0.2, 0.4, 0.6]) {
      for (const isCaseSensitive of [false, true]) {
        const index = new SearchIndex(catalogue, { isCaseSensitive, threshold });
        for (const q of queries) expect(Array.from(index.search(q).ids), `${q} @${threshold}${isCaseSensitive ? ' case' : ''}`).toEqual(index.searchAll(q));
      }
    }
  });

  it('answers each key of a typed query as fuse.js does (typing on narrows to the previous answer)', () => {
    const mixed = [...catalogue,
      toSearchRecord({ id: 3001, name: 'حليب طازج كامل الدسم', barcode: '6281000000017', basePrice: 6.5 }),
      toSearchRecord({ id: 3002, name: 'حليب طازج قليل الدسم', barcode: '6281000000024', basePrice: 6.25 }),
      toSearchRecord({ id: 3003, name: 'Café Crème Brûlée', barcode: '3000000000001', basePrice: 4 }),
    ];
    const typed = ['fresh milk', 'royal chees', 'cobalt sneakrs', 'organic honey 1kg', 'zephyr', 'حليب طازج', 'café crème', 'GREEN tea'];
    for (const threshold of [0.2, 0.4]) {
      for (const isCaseSensitive of [false, true]) {
        const index = new SearchIndex(mixed, { isCaseSensitive, threshold });
        for (const q of typed) {
          for (let n = 1; n <= q.length; n++) {
            expect(Array.from(index.search(q.slice(0, n)).ids), `${q.slice(0, n)} @${threshold}`).toEqual(index.searchAll(q.slice(0, n)));
            // After the first key and every other one, the idle time between keys builds the next key's candidates (speculate).
            if (n === 1 || n % 2 === 0) while (index.speculate(1000));
          }
          // Backspace: a shorter text is answered from the whole catalogue again.
          for (let n = q.length - 1; n >= 1; n -= 3) expect(Array.from(index.search(q.slice(0, n)).ids), `${q.slice(0, n)} (back)`).toEqual(index.searchAll(q.slice(0, n)));
        }
      }
    }
  });

  it('answers a single letter, told from the fields\' masks, as fuse.js does: a field that is the letter, upper case, blank fields, letters in codes', () => {
    const odd = [...catalogue.slice(0, 300),
      toSearchRecord({ id: 4001, name: 'a', barcode: 'A', basePrice: 1 }),
      toSearchRecord({ id: 4002, name: 'A', barcode: '', basePrice: '' }),
      toSearchRecord({ id: 4003, name: '   ', barcode: 'ab-12', basePrice: 'z' }),
      toSearchRecord({ id: 4004, name: 'z z z', barcode: 'Z', basePrice: 2 }),
      toSearchRecord({ id: 4005, name: 'Ça a Été', barcode: 'e', basePrice: 3 }),
      // Two fields holding the letter, then one field that is the letter and nothing else: fuse.js ranks the whole field first.
      toSearchRecord({ id: 4006, name: 'q q', barcode: 'q1', basePrice: 4 }),
      toSearchRecord({ id: 4007, name: 'Q', barcode: '', basePrice: '' }),
    ];
    for (const isCaseSensitive of [false, true]) {
      const index = new SearchIndex(odd, { isCaseSensitive, threshold: 0.2 });
      for (const q of [...'abcdefghijklmnopqrstuvwxyz', 'A', 'Z', 'E', 'é', 'ç', '1', '-']) {
        expect(Array.from(index.search(q).ids), `${q}${isCaseSensitive ? ' case' : ''}`).toEqual(index.searchAll(q));
      }
    }
    expect(Array.from(new SearchIndex(odd, { isCaseSensitive: false, threshold: 0.2 }).search('q').ids)).toEqual([4007, 4006]);
  });

  it('builds the candidates of a key that allows one more error before it is typed, and answers it from them', () => {
    const index = new SearchIndex(catalogue, { isCaseSensitive: false, threshold: 0.2 });
    expect(index.search('roya').ids.length).toBeGreaterThan(0);
    let slices = 0;
    while (index.speculate(0)) slices++; // one block of records per slice at a zero budget
    expect(slices).toBeGreaterThan(0);
    for (const q of ['royal', 'royaz', 'roya l']) expect(Array.from(index.search(q).ids), q).toEqual(index.searchAll(q));
    expect(index.speculate(10)).toBe(false); // nothing left to build: 'royal' allows no more errors until its 10th letter
  });

  it('answers a key whose candidates are still being built from the part built and the records not read yet, as fuse.js does', () => {
    const index = new SearchIndex(catalogue, { isCaseSensitive: false, threshold: 0.2 });
    index.search('roya');
    expect(index.speculate(0)).toBe(true); // one block of records built, the key comes before the rest
    expect(Array.from(index.search('royal').ids)).toEqual(index.searchAll('royal'));
    // What the block built found, then the records it had not read: not the whole catalogue.
    expect(index.examined).toBeGreaterThan(0);
    expect(index.examined).toBeLessThan(catalogue.length);
    expect(index.speculate(10)).toBe(false);
    // Another word: those candidates do not narrow it, the catalogue is read.
    index.search('zeph');
    expect(index.speculate(0)).toBe(true);
    expect(Array.from(index.search('cobalt').ids)).toEqual(index.searchAll('cobalt'));
    expect(index.examined).toBe(catalogue.length);
  });

  it('answers a second key typed before its first letter\'s records are grouped from the part grouped and the rest, as fuse.js does', () => {
    const twice = [...catalogue, ...catalogue.map((r) => ({ ...r, id: r.id + 10_000 }))];
    for (const second of ['o', 'e', 'a', 'z']) {
      const index = new SearchIndex(twice, { isCaseSensitive: false, threshold: 0.2 });
      index.search('r');
      expect(index.speculate(0)).toBe(true); // one block of the letter's records grouped, more to do
      expect(Array.from(index.search(`r${second}`).ids), `r${second}`).toEqual(index.searchAll(`r${second}`));
    }
  });

  it('groups a first letter\'s records by the next character between keys, and answers every second key from them as fuse.js does', () => {
    const mixed = [...catalogue, toSearchRecord({ id: 3001, name: 'حليب طازج', barcode: '6281000000017', basePrice: 6.5 }), toSearchRecord({ id: 3003, name: 'Café Crème', barcode: '3000000000001', basePrice: 4 })];
    for (const isCaseSensitive of [false, true]) {
      const index = new SearchIndex(mixed, { isCaseSensitive, threshold: 0.2 });
      for (const first of ['r', 'c', 'ح', '2', 'C']) {
        index.search(first);
        let slices = 0;
        while (index.speculate(0)) slices++; // a block of records per slice at a zero budget
        expect(slices, first).toBeGreaterThan(0);
        for (const second of ['o', 'e', 'a', 'l', 'h', 'ي', '0', '1', 'r', 'é', 'O', 'z']) {
          const q = first + second;
          expect(Array.from(index.search(q).ids), `${q}${isCaseSensitive ? ' case' : ''}`).toEqual(index.searchAll(q));
        }
      }
    }
  });

  it('counts the edits that make a word a substring (bitap\'s count)', () => {
    expect(new EditPattern('milk').edits('fresh milk 1l', 2)).toBe(0);
    expect(new EditPattern('mlik').edits('fresh milk 1l', 2)).toBe(2);
    expect(new EditPattern('sneakrs').edits('cobalt sneakers', 2)).toBe(1);
    expect(new EditPattern('حلييب').edits('حليب طازج', 2)).toBe(1);
    expect(new EditPattern('x'.repeat(32)).edits('y'.repeat(40), 40)).toBe(32);
    expect(new EditPattern('abc').edits('zzz', 1)).toBe(2); // more than allowed: max + 1
    expect(allowedEdits(5, 0.2)).toBe(1);
    expect(allowedEdits(4, 0.2)).toBe(0);
    expect(allowedEdits(10, 0.2)).toBe(2);
  });

  it('rules a field out only when more of a word\'s letters are missing from it than its edits allow', () => {
    const milk = charMask('acme classic milk 1kg');
    expect(new WordChars('fresh').fits(milk, 1)).toBe(false); // f, r, e, h: four letters not there
    expect(new WordChars('mulk').fits(milk, 0)).toBe(false);
    expect(new WordChars('mulk').fits(milk, 1)).toBe(true); // only the u is missing
    expect(new WordChars('MILK').fits(milk, 0)).toBe(true); // case shares a bit (holds case-sensitive too)
    expect(new WordChars('1kg').fits(milk, 0)).toBe(true);
    expect(new WordChars('7kg').fits(milk, 0)).toBe(true); // digits share bits: let through, never ruled out wrongly
    expect(new WordChars('حليب').fits(charMask('حليب طازج'), 0)).toBe(true);
  });

  it('gives every field the norm fuse.js\'s own index gives it (the index itself is not built)', () => {
    const texts = ['tea', 'fresh milk 1l', '  two  spaces  ', 'tab\tand\nnewline', 'no\u00a0break space', 'حليب طازج كامل الدسم', 'Café Crème Brûlée',
      'a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9 0 a b c d e f g h i j k l m n o p q r s t u v w x y z 1 2 3 4 5 6 7 8 9', '2000000000017', '12.5'];
    const index = Fuse.createIndex(['name'], texts.map((name) => ({ name })));
    for (const [i, t] of texts.entries()) expect(fieldNorm(t), JSON.stringify(t)).toBe((index.records[i].$ as Record<number, { n: number }>)[0].n);
  });

  it('splits a word into one more piece than the errors it may carry', () => {
    expect(tokenPieces('milk', 0.2)).toEqual(['milk']);
    expect(tokenPieces('cheese', 0.2)).toEqual(['che', 'ese']);
    expect(tokenPieces('ab', 0.6)).toEqual(['a', 'b']);
    expect(tokenPieces('ab', 1)).toBeNull();
  });
});

describe('item search: products changed in place', () => {
  const words = ['fresh', 'milk', 'royal', 'cheese', 'cobalt', 'organic', 'honey', 'bread', 'tea', 'oat'];
  const base = Array.from({ length: 800 }, (_, i) => ({
    id: 10 + i, name: `${words[i % words.length]} ${words[(i * 7) % words.length]} ${i}`, barcode: String(2000000000000 + i), basePrice: `${i % 50}.5`,
    b: i % 3 ? [1] : [], c: [], d: i % 4 ? 2 : null,
  }));
  const settings = { isCaseSensitive: false, threshold: 0.2 };

  it('finds the entries whose record changed, or says the columns do not compare', () => {
    const next = base.map((r) => ({ ...r }));
    next[3] = { ...next[3], name: 'Renamed to something longer' };
    next[40] = { ...next[40], name: next[40].name.replace('fresh', 'frash') }; // same length
    next[41] = { ...next[41], basePrice: '99' };
    next[500] = { ...next[500], barcode: '123' };
    next[799] = { ...next[799], b: [1, 4] };
    next[700] = { ...next[700], d: 9 };
    expect(changedEntries(columnsOf(base), columnsOf(next))).toEqual([3, 40, 41, 500, 700, 799]);
    expect(changedEntries(columnsOf(base), columnsOf(base))).toEqual([]);
    // Other positions chosen (a store filter) or another product: not entry by entry.
    expect(changedEntries(columnsOf(base), { ...columnsOf(base), positions: Int32Array.from(base.slice(1), (_, k) => k + 1) })).toBeNull();
    expect(changedEntries(columnsOf(base), columnsOf([...base.slice(0, 799), { ...base[799], id: 5000 }]))).toBeNull();
  });

  it('answers as an index built anew, kept answers of the old texts dropped', () => {
    const index = new SearchIndex(base.map((r) => ({ ...r })), settings);
    const queries = ['f', 'fr', 'fre', 'fresh', 'fresh m', 'fresh milk', 'zanzibar', 'zanzi', 'z', 'tea oat', '2000000000005', '12.5', 'honye'];
    for (const q of queries) index.search(q); // fills the kept answers, first keys and the work built ahead
    const next = base.map((r) => ({ ...r }));
    next[5] = { ...next[5], name: 'Zanzibar fresh cloves' };
    next[6] = { ...next[6], basePrice: '12.5', barcode: '' };
    next[100] = { ...next[100], name: '' };
    next[101] = { ...next[101], name: 'Fresh Milk' };
    index.update(changedEntries(columnsOf(base), columnsOf(next))!.map((k) => [k, next[k]] as const));
    const fresh = new SearchIndex(next, settings);
    // The kept answers' own words first: an answer kept from before the change would miss or list the changed products.
    for (const q of ['fresh', 'fresh milk', 'zanzibar', 'tea oat', 'f', 'z', ...queries, 'cloves', '']) {
      expect(Array.from(index.search(q).ids), q).toEqual(Array.from(fresh.search(q).ids));
      expect(index.search(q, { brands: [1], categories: [], departments: [] }).ids, q).toEqual(fresh.search(q, { brands: [1], categories: [], departments: [] }).ids);
    }
    expect(index.searchAll('fresh milk')).toEqual(fresh.searchAll('fresh milk'));
  });

  it('keeps its kept answers when no record changed (a change to a product another till lists)', () => {
    const index = new SearchIndex(base.map((r) => ({ ...r })), settings);
    const first = Array.from(index.search('fresh milk').ids);
    expect(index.examined).toBeGreaterThan(0);
    while (index.speculate(1000)); // the work built ahead, done as between keys
    index.update(changedEntries(columnsOf(base), columnsOf(base))!.map((k) => [k, base[k]] as const));
    expect(Array.from(index.search('fresh milk').ids)).toEqual(first);
    expect(index.examined).toBe(0); // answered from the kept answer, no record read
    while (index.speculate(1000));
    index.update([[0, { ...base[0], name: 'other' }]]);
    index.search('fresh milk');
    expect(index.examined).toBeGreaterThan(0);
  });
});
