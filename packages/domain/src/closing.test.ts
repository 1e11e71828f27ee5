import { describe, expect, it } from 'vitest';
import { cashInHand, denominationsTotal, isOpeningStale, profitOrLoss } from './closing.ts';
import type { CashInHandInput, ProfitOrLoss } from './closing.ts';

describe('cashInHand', () => {
  const cases: Array<[CashInHandInput, number]> = [
    [{ openingBalance: 0, cashAdded: 0, cashWithdrawn: 0, expenses: 0, cashSales: 0 }, 0],
    [{ openingBalance: 10000, cashAdded: 5000, cashWithdrawn: 2000, expenses: 1550, cashSales: 45025 }, 56475],
    [{ openingBalance: 10000, cashAdded: 0, cashWithdrawn: 12000, expenses: 0, cashSales: 0 }, -2000],
    [{ openingBalance: 10000, cashAdded: 0, cashWithdrawn: 0, expenses: 0, cashSales: -2500 }, 7500], // a cash refund
    [{ openingBalance: 10, cashAdded: 20, cashWithdrawn: 0, expenses: 0, cashSales: 0 }, 30], // 0.10 + 0.20
  ];
  it.each(cases)('%j -> %i', (input, expected) => {
    expect(cashInHand(input)).toBe(expected);
  });
});

describe('profitOrLoss', () => {
  const cases: Array<[{ sales: number; cost: number; expenses: number }, ProfitOrLoss]> = [
    [{ sales: 100000, cost: 50000, expenses: 40000 }, { amountCents: 10000, isLoss: false }],
    [{ sales: 100000, cost: 60000, expenses: 40000 }, { amountCents: 0, isLoss: true }],
    [{ sales: 100000, cost: 60000, expenses: 40001 }, { amountCents: -1, isLoss: true }],
    [{ sales: 1, cost: 0, expenses: 0 }, { amountCents: 1, isLoss: false }],
    [{ sales: 0, cost: 0, expenses: 0 }, { amountCents: 0, isLoss: true }],
  ];
  it.each(cases)('%j -> %j', (input, expected) => {
    expect(profitOrLoss(input)).toEqual(expected);
  });
});

describe('isOpeningStale', () => {
  const opened = new Date('2024-03-15T08:00:00Z');
  const H = 60 * 60 * 1000;
  it.each([
    [0, false],
    [23 * H, false],
    [24 * H, false],
    [24 * H + 1, true],
    [72 * H, true],
  ])('%i ms later -> %s', (elapsed, expected) => {
    expect(isOpeningStale(opened, new Date(opened.getTime() + elapsed))).toBe(expected);
  });
});

describe('denominationsTotal', () => {
  it.each([
    [{}, 0],
    [{ '5000': 2 }, 1000000],
    [{ '5000': 2, '100': 3, '0.5': 3 }, 1030150],
    [{ '1': 0, '2': 7 }, 1400],
    [{ '0.1': 1, '0.2': 1 }, 30],
  ] as Array<[Record<string, number>, number]>)('%j -> %i cents', (counts, expected) => {
    expect(denominationsTotal(counts)).toBe(expected);
  });

  it('accepts a Map with numeric keys', () => {
    expect(denominationsTotal(new Map<number, number>([[1000, 4], [20, 1]]))).toBe(402000);
  });

  it('refuses negative or fractional counts', () => {
    expect(() => denominationsTotal({ '100': -1 })).toThrow(RangeError);
    expect(() => denominationsTotal({ '100': 1.5 })).toThrow(RangeError);
  });
});
