import { describe, expect, it } from 'vitest';
import {
  isValidMoneyInput,
  mulPriceQty,
  parseMoney,
  parseQuantity,
  parseRate,
  percentOf,
  quantityToDecimal,
  quantityToString,
  rateToDecimal,
  sumCents,
  toDecimal,
  toDecimalString,
  tryParseMoney,
} from './money.ts';
import type { DecimalInput } from './money.ts';

describe('parseMoney', () => {
  const cases: Array<[DecimalInput, number]> = [
    ['12.5', 1250],
    ['12.50', 1250],
    [12.5, 1250],
    ['-3', -300],
    ['+7', 700],
    [' 3.10 ', 310],
    ['.5', 50],
    ['12.', 1200],
    ['0', 0],
    ['-0', 0],
    [-0, 0],
    ['0.01', 1],
    // rounding beyond 2 dp: half away from zero on the decimal text, not on a float
    ['1.005', 101],
    [1.005, 101],
    ['-1.005', -101],
    ['1.0049', 100],
    ['1.004', 100],
    ['0.005', 1],
    ['-0.005', -1],
    ['0.0049', 0],
    ['2.675', 268],
    [2.675, 268],
    [8.345, 835],
    [1.255, 126],
    // 0.1 + 0.2 float trap: the double 0.30000000000000004 still means 30 cents
    [0.1 + 0.2, 30],
    ['1e3', 100000],
    ['1.5E-2', 2],
    [1e-7, 0],
    ['123456789.99', 12345678999],
    ['0000123.40', 12340],
    [null, 0],
    [undefined, 0],
    ['', 0],
    ['   ', 0],
  ];
  it.each(cases)('parseMoney(%j) = %i', (input, expected) => {
    expect(parseMoney(input)).toBe(expected);
  });

  const invalid: DecimalInput[] = ['abc', '1,5', '1.2.3', '--1', '1e', '.', '-', '$5', NaN, Infinity, -Infinity, 1e21, '1e400'];
  it.each(invalid)('parseMoney(%j) throws', (input) => {
    expect(() => parseMoney(input)).toThrow(RangeError);
    expect(tryParseMoney(input)).toBeNull();
  });

  it('sums 0.1 and 0.2 exactly', () => {
    const total = sumCents([parseMoney(0.1), parseMoney(0.2)]);
    expect(total).toBe(30);
    expect(toDecimal(total)).toBe(0.3);
  });
});

describe('parseQuantity', () => {
  const cases: Array<[DecimalInput, number]> = [
    ['1.5', 1500],
    [2, 2000],
    ['0.0005', 1],
    ['0.0004', 0],
    ['-1', -1000],
    ['1.2345', 1235],
    [1.255, 1255],
    ['10', 10000],
    [null, 0],
  ];
  it.each(cases)('parseQuantity(%j) = %i', (input, expected) => {
    expect(parseQuantity(input)).toBe(expected);
  });
});

describe('parseRate', () => {
  const cases: Array<[DecimalInput, number]> = [
    ['16', 1600],
    ['16.5', 1650],
    [7.25, 725],
    ['0.125', 13],
    ['8.875', 888],
    [0, 0],
    ['100', 10000],
  ];
  it.each(cases)('parseRate(%j) = %i', (input, expected) => {
    expect(parseRate(input)).toBe(expected);
  });
});

describe('wire conversion', () => {
  const decimals: Array<[number, number, string]> = [
    [1250, 12.5, '12.50'],
    [30, 0.3, '0.30'],
    [-5, -0.05, '-0.05'],
    [0, 0, '0.00'],
    [-0, 0, '0.00'],
    [7, 0.07, '0.07'],
    [101, 1.01, '1.01'],
    [100000, 1000, '1000.00'],
    [-123456, -1234.56, '-1234.56'],
  ];
  it.each(decimals)('%i cents -> %d / %s', (cents, decimal, text) => {
    expect(toDecimal(cents)).toBe(decimal);
    expect(toDecimalString(cents)).toBe(text);
    expect(parseMoney(toDecimal(cents))).toBe(cents === 0 ? 0 : cents);
    expect(parseMoney(toDecimalString(cents))).toBe(cents === 0 ? 0 : cents);
  });

  it.each([
    [1500, 1.5, '1.5'],
    [2000, 2, '2'],
    [1, 0.001, '0.001'],
    [-1250, -1.25, '-1.25'],
  ])('%i milli -> %d / %s', (milli, decimal, text) => {
    expect(quantityToDecimal(milli)).toBe(decimal);
    expect(quantityToString(milli)).toBe(text);
  });

  it.each([
    [1650, 16.5],
    [725, 7.25],
    [0, 0],
  ])('rate %i -> %d', (rate, decimal) => {
    expect(rateToDecimal(rate)).toBe(decimal);
  });

  it('refuses non-integer cents', () => {
    expect(() => toDecimal(12.5)).toThrow(RangeError);
    expect(() => toDecimalString(0.1)).toThrow(RangeError);
  });
});

describe('mulPriceQty', () => {
  const cases: Array<[number, number, number]> = [
    [1999, 3000, 5997],
    [1999, 1500, 2999], // 2998.5 -> 2999
    [1999, -1500, -2999], // refund mirrors
    [333, 333, 111], // 110.889
    [1, 500, 1], // half away from zero
    [1, 499, 0],
    [1, -500, -1],
    [1299, 1255, 1630], // 12.99 x 1.255 kg = 16.30245
    [10, 3000, 30],
    [0, 5000, 0],
    [1000, 0, 0],
    // the product exceeds 2^53; float maths gives ...079
    [8882920030, 8557283, 76013660563078],
    [900000000000, 9000000, 8100000000000000],
  ];
  it.each(cases)('%i x %i milli = %i', (price, qty, expected) => {
    expect(mulPriceQty(price, qty)).toBe(expected);
  });

  it('refuses non-integers and overflow', () => {
    expect(() => mulPriceQty(19.99, 1000)).toThrow(RangeError);
    expect(() => mulPriceQty(Number.MAX_SAFE_INTEGER, 2000)).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  const cases: Array<[number, number, number]> = [
    [10000, 1600, 1600],
    [1999, 1600, 320], // 319.84
    [5997, 1600, 960], // 959.52
    [5, 1000, 1], // 0.5 -> 1
    [-5, 1000, -1],
    [4, 1250, 1], // 0.5 -> 1
    [3, 1650, 0], // 0.495
    [0, 1600, 0],
    [12345, 725, 895], // 894.9625
    [1005, 5000, 503], // 502.5
    [-1005, 5000, -503],
    [7441, 10000, 7441],
  ];
  it.each(cases)('%i x %i / 10000 = %i', (cents, rate, expected) => {
    expect(percentOf(cents, rate)).toBe(expected);
  });
});

describe('sumCents', () => {
  it.each([
    [[10, 20], 30],
    [[], 0],
    [[-10, 10], 0],
    [[1250, -300, 5], 955],
  ] as Array<[number[], number]>)('sumCents(%j) = %i', (list, expected) => {
    expect(sumCents(list)).toBe(expected);
  });

  it('refuses fractions and overflow', () => {
    expect(() => sumCents([1.5])).toThrow(RangeError);
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1])).toThrow(RangeError);
  });
});

describe('isValidMoneyInput', () => {
  const cases: Array<[string, boolean, { allowNegative?: boolean; scale?: number }?]> = [
    ['12', true],
    ['12.5', true],
    ['12.50', true],
    ['12.505', false],
    ['12.505', true, { scale: 3 }],
    ['-3', true],
    ['-3', false, { allowNegative: false }],
    ['3', true, { allowNegative: false }],
    ['.5', true],
    ['12.', true],
    [' 7 ', true],
    ['', false],
    ['abc', false],
    ['1,000', false],
    ['1e3', false],
    ['.', false],
    ['-', false],
    ['1.2.3', false],
    ['99999999999999999999', false],
  ];
  it.each(cases)('isValidMoneyInput(%j) = %s', (input, expected, options) => {
    expect(isValidMoneyInput(input, options)).toBe(expected);
  });
});

describe('currency minor units (issue 19)', () => {
  it('formats and parses with the currency digits', async () => {
    const { minorToString, minorToDecimal, parseMinor, parseWireAmount, PrecisionError } = await import('./money.ts');
    expect(minorToString(1234, 3)).toBe('1.234');
    expect(minorToString(1500, 0)).toBe('1500');
    expect(minorToString(-5, 2)).toBe('-0.05');
    expect(minorToDecimal(1234, 3)).toBe(1.234);
    expect(minorToDecimal(1500, 0)).toBe(1500);
    expect(parseMinor('10.755', 2)).toBe(1076);
    expect(parseMinor('1.2345', 3)).toBe(1235);
    expect(parseWireAmount(4.499999999999999, 2)).toBe(450);
    expect(parseWireAmount(10.750000000000002, 2)).toBe(1075);
    expect(parseWireAmount('1500', 0)).toBe(1500);
    expect(parseWireAmount('1.234', 3)).toBe(1234);
    expect(() => parseWireAmount('10.755', 2)).toThrow(PrecisionError);
    expect(() => parseWireAmount(1.5, 0)).toThrow(PrecisionError);
    expect(() => parseWireAmount('1.2345', 3)).toThrow(PrecisionError);
  });
});

describe('parsing stored decimals (the plain fast path)', () => {
  /** The rule written out with BigInt: scale the digits, round what is dropped half away from zero. */
  const reference = (text: string, scale: number): bigint => {
    const [, sign, int, frac = ''] = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text)!;
    const digits = BigInt(int + frac);
    const shift = scale - frac.length;
    let n = shift >= 0 ? digits * 10n ** BigInt(shift) : digits / 10n ** BigInt(-shift);
    if (shift < 0 && (digits % 10n ** BigInt(-shift)) * 2n >= 10n ** BigInt(-shift)) n += 1n;
    return sign === '-' ? -n : n;
  };

  it('gives what the rule gives for numbers as PostgreSQL prints them, at every currency scale', async () => {
    const { parseMinor } = await import('./money.ts');
    let seed = 7;
    const rand = (n: number) => { seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648; return seed % n; };
    const digits = (n: number) => Array.from({ length: n }, () => rand(10)).join('');
    const cases = ['0', '-0.000', '0.005', '-0.005', '-0.004', '0.0049999', '12.5', '-12.5', '999999999999.995', '-1234.500', '00012.345'];
    for (let i = 0; i < 5_000; i++) cases.push(`${rand(2) ? '-' : ''}${digits(1 + rand(14))}${rand(4) ? `.${digits(1 + rand(8))}` : ''}`);
    for (const text of cases) {
      for (const scale of [0, 2, 3, 6]) {
        const want = reference(text, scale);
        if (want > BigInt(Number.MAX_SAFE_INTEGER) || -want > BigInt(Number.MAX_SAFE_INTEGER)) {
          expect(() => parseMinor(text, scale)).toThrow(RangeError);
        } else {
          expect([text, scale, parseMinor(text, scale)]).toEqual([text, scale, Number(want)]);
        }
      }
    }
    expect(Object.is(parseMinor('-0.001', 2), 0)).toBe(true); // no negative zero
  });
});
