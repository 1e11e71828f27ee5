import { describe, expect, it } from 'vitest';
import { FIRST_INDEX_PART, indexRecords, joinIndex } from './index-parts';
import type { StoredIndex } from './table-index';

const INDEX = -2;
const ints = (n: number) => Int32Array.from({ length: n }, (_, i) => i * 7 - 3).buffer as ArrayBuffer;
const index = (): StoredIndex => ({
  ids: ints(1000), names: { text: 'حليب طازج Café '.repeat(200), ends: ints(300) }, barcodes: { text: 'short', ends: ints(2) },
  prices: new Float64Array([1.5, 2.25, -0.1]).buffer as ArrayBuffer, departments: ints(10),
  brands: { start: ints(5), ids: ints(3) }, categories: { start: ints(5), ids: ints(3) }, stores: { start: ints(5), ids: ints(3) }, terminals: { start: ints(5), ids: ints(3) },
  scanKeys: { text: '2000000000001'.repeat(100), ends: ints(100) }, scanAt: ints(100), scanVariant: ints(100), scanSlots: ints(128),
});
const size = (v: unknown) => (typeof v === 'string' ? 2 * v.length : (v as ArrayBuffer).byteLength);

describe('the index stored in parts', () => {
  it('cuts every column past the limit into parts no larger than it, and joins them back to the same index', () => {
    const records = indexRecords(INDEX, 'tag-1', index(), 1000);
    expect(records[0]).toMatchObject({ key: INDEX, json: 'tag-1' });
    const parts = records.slice(1);
    // ids (4,000 bytes), the names' text (3,000 characters = 6,000 bytes) and ends (1,200 bytes), the
    // scan keys' text (2,600 bytes): cut; the small columns stay in the index record.
    expect(parts.length).toBe(4 + 6 + 2 + 3);
    expect(parts.map((p) => p.key)).toEqual(parts.map((_, i) => FIRST_INDEX_PART - i));
    for (const p of parts) expect(size(p.part)).toBeLessThanOrEqual(1000);
    expect(records[0].index!.barcodes.text).toBe('short');
    const joined = joinIndex(INDEX, [...records].reverse());
    expect(joined).toEqual({ key: INDEX, json: 'tag-1', index: index() });
    expect(new Int32Array(joined!.index.ids)[999]).toBe(999 * 7 - 3);
  });

  it('stores an index within the limit as one record', () => {
    expect(indexRecords(INDEX, 't', index(), 64 * 1024)).toHaveLength(1);
  });

  it('joins nothing when a part is missing or belongs to another index', () => {
    const records = indexRecords(INDEX, 'tag-1', index(), 1000);
    expect(joinIndex(INDEX, records.filter((r) => r.key !== FIRST_INDEX_PART - 5))).toBeUndefined();
    const other = indexRecords(INDEX, 'tag-2', index(), 1000);
    expect(joinIndex(INDEX, [records[0], ...other.slice(1)])).toBeUndefined();
    expect(joinIndex(INDEX, records.slice(1))).toBeUndefined();
  });
});
