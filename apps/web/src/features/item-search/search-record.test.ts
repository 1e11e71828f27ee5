import { describe, expect, it } from 'vitest';
import { columnsOf, recordsOf, type SearchRecord } from './search-record';

const records: SearchRecord[] = [
  { id: 4, name: 'Fresh Milk 1L', barcode: '5000000000001', basePrice: '10.75', b: [1, 2], c: [], d: 3 },
  { id: 9, name: '', barcode: '', basePrice: '0', b: [], c: [7], d: null },
  { id: 12, name: 'Thé vert', barcode: '77', basePrice: '4', b: [2], c: [7, 8], d: 3 },
];

describe('search columns', () => {
  it('give the records back, for the chosen positions only', () => {
    const columns = columnsOf(records);
    expect(recordsOf(columns)).toEqual(records);
    expect(recordsOf({ ...columns, positions: Int32Array.from([2, 0]) })).toEqual([records[2], records[0]]);
  });
});
