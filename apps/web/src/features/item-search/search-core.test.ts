import { describe, expect, it } from 'vitest';
import { SearchIndex, toSearchRecord } from './search-core';

const records = [
  { id: 1, name: 'Fresh Milk 1L', barcode: '5000000000001', basePrice: 2.5, brands: [{ id: 1 }], department: { id: 1 } },
  { id: 2, name: 'Classic Bread Loaf', barcode: '5000000000002', basePrice: 3 },
  { id: 3, name: 'Organic Tea 250g', barcode: '5000000000003', basePrice: 7.25, brands: [{ id: 2 }] },
].map(toSearchRecord);

describe('item search', () => {
  const index = new SearchIndex(records, { isCaseSensitive: false, threshold: 0.2 });
  it('lists everything for an empty query', () => {
    expect(index.search('').ids).toEqual([1, 2, 3]);
  });
  it('matches names fuzzily, barcodes and prices', () => {
    expect(index.search('milk').ids[0]).toBe(1);
    expect(index.search('mlik').ids).toEqual([]); // too far for 0.2
    expect(index.search('5000000000003').ids[0]).toBe(3);
    expect(index.search('7.25').ids).toContain(3);
  });
  it('honours case sensitivity and the threshold', () => {
    expect(new SearchIndex(records, { isCaseSensitive: true, threshold: 0 }).search('milk').ids).toEqual([]);
    expect(new SearchIndex(records, { isCaseSensitive: false, threshold: 0.6 }).search('mlik').ids).toContain(1);
  });
  it('reports the pattern length error', () => {
    const r = index.search('x'.repeat(33));
    expect(r.error).toBe('Pattern length exceeds max of 32.');
  });
  it('applies the chip filters', () => {
    expect(index.search('', { brands: [2], categories: [], departments: [] }).ids).toEqual([3]);
  });
});
