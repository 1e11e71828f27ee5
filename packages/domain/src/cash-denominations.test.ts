import { describe, expect, it } from 'vitest';
import { cashDenominations } from './cash-denominations.ts';
import { denominationsTotal } from './closing.ts';

describe('cashDenominations (issue 19)', () => {
  it("lists a currency's own notes and coins in its minor units, largest first", () => {
    expect(cashDenominations('USD')).toEqual([10000, 5000, 2000, 1000, 500, 200, 100, 50, 25, 10, 5, 1]);
    expect(cashDenominations('JPY')).toEqual([10000, 5000, 2000, 1000, 500, 100, 50, 10, 5, 1]);
    // Kuwaiti dinar: notes down to a quarter dinar (250 fils), coins down to 5 fils.
    expect(cashDenominations('KWD')).toEqual([20000, 10000, 5000, 1000, 500, 250, 100, 50, 20, 10, 5]);
  });

  it('gives an unlisted currency a 1-2-5 series down to its smallest unit, and an unknown code the US dollar', () => {
    expect(cashDenominations('TND')).toEqual([100000, 50000, 20000, 10000, 5000, 2000, 1000, 500, 200, 100, 50, 20, 10, 5, 2, 1]);
    expect(cashDenominations('ISK')[0]).toBe(10000);
    expect(cashDenominations('ISK').at(-1)).toBe(1);
    expect(cashDenominations('NOPE')).toEqual(cashDenominations('USD'));
    for (const code of ['EUR', 'GBP', 'SAR', 'BHD', 'INR']) {
      const list = cashDenominations(code);
      expect([...list].sort((a, b) => b - a)).toEqual(list);
      expect(new Set(list).size).toBe(list.length);
    }
  });

  it('a count keyed in currency units adds up in the minor units of the currency', () => {
    // 3 quarter-dinars and 3 five-fils coins: 750 + 15 = 765 fils (in cents this would be 75 + 3 = 78).
    expect(denominationsTotal({ '0.25': 3, '0.005': 3 }, 3)).toBe(765);
    expect(denominationsTotal({ '10000': 1, '5': 2 }, 0)).toBe(10010);
  });
});
