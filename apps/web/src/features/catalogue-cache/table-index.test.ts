import { describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, decodeContext, type ProductRow, type SyncDictionaries, type VariantRow } from '@pos/domain/catalogue-sync';
import { mulberry32 } from '@pos/domain/seeded-random';
import { buildTableIndex, findScanKey, textAt } from './table-index';

const dict: SyncDictionaries = { taxes: [], categories: [], brands: [], suppliers: [], terminals: [], departments: [], stores: [] };

/**
 * Names, product barcodes and variant barcodes drawn from one small pool of texts, so that keys
 * collide in every way the rules decide: a name that is another product's barcode or variant
 * barcode, two products with one name, one barcode on two products or two variants, white space
 * around a key, empty and missing keys, and texts that sort close together ('10', '10 ', '100', 'a', 'A');
 * and names only ever names ('Tea', 'Rice'), which the first product keeps.
 */
function catalogue(n: number, seed: number): ProductRow[] {
  const next = mulberry32(seed); // the same catalogue on every run
  const pool = ['10', '100', '1000', ' 10', '10 ', 'a', 'A', 'Milk', 'milk', 'Oat Milk', '', ' ', 'é', 'e\u0301', '٣', 'Zz'];
  const pick = (): string | null => (next() < 0.1 ? null : next() < 0.6 ? pool[Math.floor(next() * pool.length)] : `${Math.floor(next() * 40)}`);
  const rows: ProductRow[] = [];
  let variantId = 1000;
  for (let i = 0; i < n; i++) {
    const id = 1 + i * 3;
    const variants: VariantRow[] = [];
    for (let v = Math.floor(next() * 3); v > 0; v--) variants.push([variantId++, 'x', 'Size', 'S', pick(), null, null, null, 1, []]);
    const name = next() < 0.3 ? (next() < 0.5 ? 'Tea' : ' Rice') : pick() ?? '';
    rows.push([id, name, pick(), null, 1, 0, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [], [], [], [], [], variants, [], []]);
  }
  return rows;
}

/** The rules as product-index.ts buildScanLookup applies them to decoded products, on the rows. */
function reference(rows: ProductRow[]): Map<string, [number, number]> {
  const map = new Map<string, [number, number]>();
  rows.forEach((r, i) => {
    const name = r[1]?.trim();
    if (name && !map.has(name)) map.set(name, [i, -1]);
  });
  rows.forEach((r, i) => r[17].forEach((v) => { const code = v[4]?.trim(); if (code) map.set(code, [i, v[0]]); }));
  rows.forEach((r, i) => { const code = r[2]?.trim(); if (code) map.set(code, [i, -1]); });
  return map;
}

describe('the scan keys of the index columns', () => {
  it.each([1, 2, 3, 4, 5])('find the product and variant buildScanLookup picks, for every key and no other (catalogue %i)', (seed) => {
    const rows = catalogue(300, seed);
    const index = buildTableIndex(rows, decodeContext(dict));
    const want = reference(rows);
    const keys = Array.from(index.scanKeys.ends, (_, j) => textAt(index.scanKeys, j));
    expect([...keys].sort()).toEqual([...want.keys()].sort()); // each key once
    for (const [key, hit] of want) {
      const j = findScanKey(index, key);
      expect([index.scanAt[j], index.scanVariant[j]], key).toEqual(hit);
    }
    for (const miss of ['nope', '1 0', 'milk ', '10\u0000', '', '٣٣']) if (!want.has(miss)) expect(findScanKey(index, miss), miss).toBe(-1);
    // The table: a power of two, at most 3/4 full, every key in it once.
    const slots = index.scanSlots;
    expect(slots.length & (slots.length - 1)).toBe(0);
    expect(keys.length * 4).toBeLessThanOrEqual(slots.length * 3);
    expect(slots.filter((n) => n > 0).sort()).toEqual(Int32Array.from(keys, (_, j) => j + 1).sort());
    // The pool does collide: names lost to barcodes, barcodes to later barcodes; 'Tea' is the first tea's.
    expect(keys.length).toBeLessThan(rows.length + rows.reduce((n, r) => n + r[17].length, 0));
    expect(index.scanAt[findScanKey(index, 'Tea')]).toBe(rows.findIndex((r) => r[1] === 'Tea'));
  });

  it('finds nothing in an empty catalogue', () => {
    const index = buildTableIndex([], decodeContext(dict));
    expect(findScanKey(index, '2000000000001')).toBe(-1);
    expect(findScanKey({ ...index, scanSlots: new Int32Array(0) }, 'x')).toBe(-1);
  });
});
