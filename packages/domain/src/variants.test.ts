import { describe, expect, it } from 'vitest';
import { gs1Problem } from './barcode.ts';
import { addGroupValue, addVariantGroup, generateVariants, randomBarcode, variantBarcode } from './variants.ts';
import type { VariantGroup } from './variants.ts';

const size: VariantGroup = { groupName: 'Size', values: ['S', 'M'] };
const color: VariantGroup = { groupName: 'Color', values: ['Red', 'Blue'] };

describe('generateVariants', () => {
  it('builds the cross product, last group slowest, with price, stock and barcodes', () => {
    expect(generateVariants([size, color], '12.50', '123')).toEqual([
      { attributeValue: 'S-Red', price: '12.50', quantity: '10', barcode: '124' },
      { attributeValue: 'M-Red', price: '12.50', quantity: '10', barcode: '125' },
      { attributeValue: 'S-Blue', price: '12.50', quantity: '10', barcode: '126' },
      { attributeValue: 'M-Blue', price: '12.50', quantity: '10', barcode: '127' },
    ]);
  });

  const cases: Array<[string, VariantGroup[], string, string[], string[]]> = [
    ['three groups', [size, color, { groupName: 'Fit', values: ['Slim', 'Wide'] }], '100', ['S-Red-Slim', 'M-Red-Slim', 'S-Blue-Slim', 'M-Blue-Slim', 'S-Red-Wide', 'M-Red-Wide', 'S-Blue-Wide', 'M-Blue-Wide'], ['101', '102', '103', '104', '105', '106', '107', '108']],
    ['one group', [{ groupName: 'Size', values: ['S', 'M', 'L'] }], '5', ['S', 'M', 'L'], ['6', '7', '8']],
    ['empty groups are ignored', [size, { groupName: '', values: ['x'] }, { groupName: 'Color', values: [] }, { groupName: '  ', values: [] }], '10', ['S', 'M'], ['11', '12']],
    ['blank and duplicate values are ignored', [{ groupName: 'Size', values: ['S', ' ', 'S', ' M '] }], '10', ['S', 'M'], ['11', '12']],
    ['no groups', [], '10', [], []],
    ['only empty groups', [{ groupName: 'Size', values: [] }], '10', [], []],
    ['carry across digits, not string concatenation', [size, color], '99', ['S-Red', 'M-Red', 'S-Blue', 'M-Blue'], ['100', '101', '102', '103']],
    ['leading zeros keep the width', [size], '0099', ['S', 'M'], ['0100', '0101']],
    ['beyond 2^53', [size], '9999999999999999999', ['S', 'M'], ['10000000000000000000', '10000000000000000001']],
    ['non-numeric base barcode', [size, color], 'ABC', ['S-Red', 'M-Red', 'S-Blue', 'M-Blue'], ['ABC-1', 'ABC-2', 'ABC-3', 'ABC-4']],
  ];
  it.each(cases)('%s', (_name, groups, barcode, values, barcodes) => {
    const rows = generateVariants(groups, '9.99', barcode);
    expect(rows.map((r) => r.attributeValue)).toEqual(values);
    expect(rows.map((r) => r.barcode)).toEqual(barcodes);
    rows.forEach((r) => {
      expect(r.price).toBe('9.99');
      expect(r.quantity).toBe('10');
    });
  });
});

describe('variantBarcode', () => {
  it.each([
    ['123', 0, '124'],
    ['123', 9, '133'],
    // A GS1-shaped base counts before its check digit; each row gets its own valid check digit.
    ['4006381333931', 0, '4006381333948'],
    ['4006381333931', 9, '4006381334037'],
    ['96385074', 1, '96385098'],
    // The count would widen the code: plain counting.
    ['99999999', 0, '100000000'],
    ['', 0, '1'],
    ['SKU-9', 2, 'SKU-9-3'],
    [' 55 ', 0, '56'],
  ] as Array<[string, number, string]>)('%j + %i', (base, index, expected) => {
    expect(variantBarcode(base, index)).toBe(expected);
  });
});

describe('addGroupValue', () => {
  it.each([
    [['S'], 'M', ['S', 'M']],
    [['S'], 'S', ['S']],
    [['S'], ' S ', ['S']],
    [['S'], ' M ', ['S', 'M']],
    [['S'], '', ['S']],
    [[], 'XL', ['XL']],
  ] as Array<[string[], string, string[]]>)('%j + %j', (values, value, expected) => {
    const before = [...values];
    expect(addGroupValue(values, value)).toEqual(expected);
    expect(values).toEqual(before); // not mutated
  });
});

describe('addVariantGroup', () => {
  it.each([
    [[], 'Size', ['Size']],
    [[size], '', ['Size']],
    [[size], '   ', ['Size']],
    [[size], 'Size', ['Size']],
    [[size], 'Color', ['Size', 'Color']],
  ] as Array<[VariantGroup[], string, string[]]>)('%j + %j', (groups, name, expected) => {
    expect(addVariantGroup(groups, name).map((g) => g.groupName)).toEqual(expected);
  });
});

describe('randomBarcode', () => {
  it.each([
    [0, '1'],
    [0.5, '5000000001'],
    [0.9999999999999999, '10000000000'],
  ])('random %d -> %s', (r, expected) => {
    expect(randomBarcode(() => r)).toBe(expected);
  });

  it('an 8-digit draw (the shape of an EAN-8) ends in its check digit', () => {
    expect(randomBarcode(() => 0.00123456)).toBe('12345601');
    expect(gs1Problem(randomBarcode(() => 0.00123456), 'ean8')).toBeNull();
  });

  it('stays within 1..10^10', () => {
    for (let i = 0; i < 200; i++) {
      const n = Number(randomBarcode());
      expect(Number.isInteger(n)).toBe(true);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(1e10);
    }
  });
});
