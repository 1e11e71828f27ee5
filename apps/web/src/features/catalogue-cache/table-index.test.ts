import { describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, decodeContext, type ProductRow, type SyncDictionaries, type VariantRow } from '@pos/domain/catalogue-sync';
import { mulberry32 } from '@pos/domain/seeded-random';
import { applyIndexPatch, indexPatchOf, mergePatches, type IndexPatch, type RowChange } from './index-patch';
import { buildTableIndex, findScanKey, textAt, type TableIndex } from './table-index';

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

/** Relations, some ids the dictionaries do not hold (9): the index lists only the known ones. */
const rich: SyncDictionaries = {
  ...dict, brands: [[1, 'Acme', true], [2, 'Bolt', true]], categories: [[3, 'Tea', 'product', true]], departments: [[5, 'Food', null]],
  stores: [[1, 'Main', null], [2, 'Mall', null]], terminals: [[7, 'T1', null, true]],
};

/** A product changed in every way a delta in place may change it: names and barcodes from the colliding pool, variants, price, relations. */
function changed(r: ProductRow, next: () => number, variantIds: { next: number }): ProductRow {
  const pool = ['10', '100', ' 10', 'a', 'A', 'Milk', 'milk', 'Tea', ' Rice', '', 'é', 'Zz', `${Math.floor(next() * 40)}`];
  const pick = () => (next() < 0.1 ? null : pool[Math.floor(next() * pool.length)]);
  const some = (ids: number[]) => ids.filter(() => next() < 0.5);
  const out = [...r] as ProductRow;
  const what = Math.floor(next() * 6);
  if (what === 0) out[1] = pick() ?? '';
  else if (what === 1) out[2] = pick();
  else if (what === 2) {
    const variants = out[17].filter(() => next() < 0.6).map((v): VariantRow => (next() < 0.5 ? [...v.slice(0, 4), pick(), ...v.slice(5)] as VariantRow : v));
    if (next() < 0.5) variants.push([variantIds.next++, 'x', 'Size', 'M', pick(), null, null, null, 1, []]);
    out[17] = variants;
  } else if (what === 3) out[4] = next() < 0.2 ? null : Math.floor(next() * 1000) / 100;
  else if (what === 4) {
    out[14] = some([1, 2, 9]);
    out[13] = some([3, 9]);
    out[11] = next() < 0.5 ? 5 : next() < 0.5 ? 9 : null;
  } else {
    out[19] = some([1, 2, 9]).map((store, k) => [k, store, '1', null, null]);
    out[16] = some([7, 9]);
  }
  return out;
}

function expectSameIndex(patched: TableIndex, fresh: TableIndex, rows: ProductRow[]) {
  const { scanKeys, scanAt, scanVariant, scanSlots, ...columns } = patched;
  const { scanKeys: _k, scanAt: _a, scanVariant: _v, scanSlots: _s, ...want } = fresh;
  expect(columns).toEqual(want);
  const keys = reference(rows);
  for (const [key, hit] of keys) {
    const j = findScanKey(patched, key);
    expect([scanAt[j], scanVariant[j]], key).toEqual(hit);
  }
  // No key but these is found: the table holds exactly as many as there are.
  expect(scanSlots.filter((n) => n > 0).length).toBe(keys.size);
  expect(scanSlots.filter((n) => n > 0).length * 4).toBeLessThanOrEqual(scanSlots.length * 3);
  expect(textAt(scanKeys, 0)).toBe(textAt(fresh.scanKeys, 0));
}

describe('the index columns patched for products changed in place', () => {
  it.each([1, 2, 3, 4, 5, 6])('equal the columns built again, the scan keys found as buildScanLookup picks them, patch by patch and merged (catalogue %i)', (seed) => {
    const ctx = decodeContext(rich);
    let rows = catalogue(200, seed);
    const base = buildTableIndex(rows, ctx);
    let index = base;
    let kept: IndexPatch | null = null;
    const next = mulberry32(seed + 1000);
    const variantIds = { next: 5000 };
    for (let round = 0; round < 12; round++) {
      const now = rows.slice();
      const changes: RowChange[] = [];
      for (let c = 1 + Math.floor(next() * 8); c > 0; c--) {
        const at = Math.floor(next() * now.length);
        if (changes.some((x) => x.at === at)) continue;
        now[at] = changed(rows[at], next, variantIds);
        changes.push({ at, before: rows[at], row: now[at] });
      }
      const patch = indexPatchOf(changes, now.length, (i) => now[i], ctx);
      index = applyIndexPatch(index, patch);
      kept = kept ? mergePatches(kept, patch) : patch;
      rows = now;
      const fresh = buildTableIndex(rows, ctx);
      expectSameIndex(index, fresh, rows);
      // The offline cache: the index written before, and the patches since as one.
      expectSameIndex(applyIndexPatch(base, kept), fresh, rows);
    }
    // The index the patches started from is left as it was.
    expect(base).toEqual(buildTableIndex(catalogue(200, seed), ctx));
  });

  it('grows the scan table past 3/4 full, and a price change leaves the text columns and the scan table as they were', () => {
    const ctx = decodeContext(rich);
    const rows = catalogue(6, 7).map((r) => [...r.slice(0, 17), [], ...r.slice(18)] as ProductRow);
    const index = buildTableIndex(rows, ctx);
    const now = rows.map((r, i) => [...r.slice(0, 17), Array.from({ length: 10 }, (_, v): VariantRow => [100 * i + v, 'x', 'Size', 'S', `code-${i}-${v}`, null, null, null, 1, []]), ...r.slice(18)] as ProductRow);
    const patched = applyIndexPatch(index, indexPatchOf(rows.map((r, at) => ({ at, before: r, row: now[at] })), now.length, (i) => now[i], ctx));
    expect(patched.scanSlots.length).toBeGreaterThan(index.scanSlots.length);
    expectSameIndex(patched, buildTableIndex(now, ctx), now);
    const priced = now.map((r) => [...r.slice(0, 4), 99, ...r.slice(5)] as ProductRow);
    const repriced = applyIndexPatch(patched, indexPatchOf(now.map((r, at) => ({ at, before: r, row: priced[at] })), now.length, (i) => priced[i], ctx));
    expect(repriced.names).toBe(patched.names);
    expect(repriced.scanSlots).toBe(patched.scanSlots);
    expect(Array.from(repriced.prices)).toEqual(now.map(() => 99));
  });

  it('frees the keys no product has any more without losing the keys that probed past them', () => {
    const ctx = decodeContext(rich);
    // 1,500 keys in a table of 2,048 slots: long probe runs, so a freed slot sits in the middle of many.
    const rows = Array.from({ length: 500 }, (_, i) => [i + 1, `name ${i}`, `code ${i}`, null, 1, 0, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [], [], [], [], [],
      [[10_000 + i, 'x', 'Size', 'S', `variant ${i}`, null, null, null, 1, []]], [], []] as ProductRow);
    const index = buildTableIndex(rows, ctx);
    expect(index.scanSlots.length).toBe(2048);
    const next = mulberry32(11);
    const now = rows.map((r) => (next() < 0.5 ? [r[0], '', null, ...r.slice(3, 17), [], ...r.slice(18)] as ProductRow : r));
    const changes = rows.flatMap((r, at) => (now[at] === r ? [] : [{ at, before: r, row: now[at] }]));
    expectSameIndex(applyIndexPatch(index, indexPatchOf(changes, now.length, (i) => now[i], ctx)), buildTableIndex(now, ctx), now);
  });
});
