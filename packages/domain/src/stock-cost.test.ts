import { describe, expect, it } from 'vitest';
import { weightedAverage } from './stock-cost.ts';

describe('weighted-average cost', () => {
  it('averages what is on hand with what is received, rounded once half away from zero', () => {
    // 10 at 6.00 on hand, 20 received at 9.00: (60 + 180) / 30 = 8.00
    expect(weightedAverage(10_000, 600, 0, [{ qtyMilli: 20_000, unitMinor: 900 }])).toBe(800);
    // 3 at 1.00 + 3 at 1.01 -> 1.005 -> 1.01 (half away from zero)
    expect(weightedAverage(3_000, 100, 0, [{ qtyMilli: 3_000, unitMinor: 101 }])).toBe(101);
    // 2 at 1.00 + 1 at 1.01 -> 1.00333 -> 1.00
    expect(weightedAverage(2_000, 100, 0, [{ qtyMilli: 1_000, unitMinor: 101 }])).toBe(100);
    // several lines of one receipt (a product and its variants at different prices)
    expect(weightedAverage(0, null, 500, [{ qtyMilli: 1_000, unitMinor: 300 }, { qtyMilli: 3_000, unitMinor: 700 }])).toBe(600);
    // weighed goods: 0.5 kg at 12.000 KWD on hand, 1.25 kg received at 10.400: 3-digit minor units
    expect(weightedAverage(500, 12_000, 0, [{ qtyMilli: 1_250, unitMinor: 10_400 }])).toBe(10_857);
  });

  it('negative or no stock carries no value; receiving nothing keeps the average; no average yet uses the catalogue cost', () => {
    expect(weightedAverage(-4_000, 600, 0, [{ qtyMilli: 10_000, unitMinor: 900 }])).toBe(900);
    expect(weightedAverage(0, 600, 0, [{ qtyMilli: 10_000, unitMinor: 900 }])).toBe(900);
    expect(weightedAverage(10_000, 600, 0, [])).toBe(600);
    expect(weightedAverage(10_000, null, 0, [{ qtyMilli: 0, unitMinor: 900 }])).toBeNull();
    expect(weightedAverage(10_000, null, 400, [{ qtyMilli: 10_000, unitMinor: 800 }])).toBe(600);
  });
});
