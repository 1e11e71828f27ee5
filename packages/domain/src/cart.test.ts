import { describe, expect, it } from 'vitest';
import {
  capLineDiscount,
  cartLineFromWire,
  computeLineTotals,
  computeOrderTotals,
  lineDiscountFromPercent,
  resolveOrderDiscount,
} from './cart.ts';
import type { CartLineInput, CartLineTotals, OrderDiscountInput, OrderInput, OrderTotals, WireOrderDiscountFields } from './cart.ts';
import { roundingAdjustment } from './tender.ts';
import { mulberry32 } from './seeded-random.ts';

const line = (priceCents: number, qtyMilli: number, discountCents = 0, taxRates: number[] = [], taxIncluded = true): CartLineInput => ({
  priceCents,
  qtyMilli,
  discountCents,
  taxRates,
  taxIncluded,
});

describe('computeLineTotals', () => {
  const cases: Array<[string, CartLineInput, Omit<CartLineTotals, 'taxCents'> & { taxCents?: number[] }]> = [
    ['plain', line(1000, 2000), { grossCents: 2000, discountCents: 0, exclusiveCents: 2000, taxesTotalCents: 0, totalCents: 2000, taxCents: [] }],
    ['tax on gross, before the discount', line(1999, 3000, 500, [1600]), { grossCents: 5997, discountCents: 500, exclusiveCents: 5497, taxesTotalCents: 960, totalCents: 6457, taxCents: [960] }],
    ['tax toggled off', line(1999, 3000, 500, [1600], false), { grossCents: 5997, discountCents: 500, exclusiveCents: 5497, taxesTotalCents: 0, totalCents: 5497, taxCents: [0] }],
    ['two rates rounded each', line(1999, 3000, 500, [1600, 500]), { grossCents: 5997, discountCents: 500, exclusiveCents: 5497, taxesTotalCents: 1260, totalCents: 6757, taxCents: [960, 300] }],
    ['discount capped to gross', line(1000, 1000, 1500, [1600]), { grossCents: 1000, discountCents: 1000, exclusiveCents: 0, taxesTotalCents: 160, totalCents: 160 }],
    ['negative discount on a sale is ignored', line(1000, 1000, -200), { grossCents: 1000, discountCents: 0, exclusiveCents: 1000, taxesTotalCents: 0, totalCents: 1000 }],
    ['weighed quantity', line(1299, 1255, 0, [725]), { grossCents: 1630, discountCents: 0, exclusiveCents: 1630, taxesTotalCents: 118, totalCents: 1748 }],
    ['0.1 + 0.2 trap: 10c x 3', line(10, 3000), { grossCents: 30, discountCents: 0, exclusiveCents: 30, taxesTotalCents: 0, totalCents: 30 }],
    ['refund line', line(1999, -3000, 500, [1600]), { grossCents: -5997, discountCents: -500, exclusiveCents: -5497, taxesTotalCents: -960, totalCents: -6457, taxCents: [-960] }],
    ['refund line, mirrored negative discount', line(1999, -3000, -500, [1600]), { grossCents: -5997, discountCents: -500, exclusiveCents: -5497, taxesTotalCents: -960, totalCents: -6457 }],
    ['refund line, discount capped', line(1000, -1000, 1500, [1600]), { grossCents: -1000, discountCents: -1000, exclusiveCents: 0, taxesTotalCents: -160, totalCents: -160 }],
    ['free item with a discount', line(0, 1000, 100), { grossCents: 0, discountCents: 0, exclusiveCents: 0, taxesTotalCents: 0, totalCents: 0 }],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    const result = computeLineTotals(input);
    expect(result).toMatchObject(expected);
  });
});

describe('capLineDiscount', () => {
  it.each([
    [500, 2000, 500],
    [2500, 2000, 2000],
    [-5, 2000, 0],
    [500, -2000, -500],
    [-500, -2000, -500],
    [2500, -2000, -2000],
    [-2500, -2000, -2000],
    [100, 0, 0],
  ])('cap(%i, gross %i) = %i', (discount, gross, expected) => {
    expect(capLineDiscount(discount, gross)).toBe(expected);
  });
});

describe('lineDiscountFromPercent', () => {
  it.each([
    [1000, 3000, 1000, 300], // 10% of 3 x 10.00; the reference's per-unit bug gave 100
    [1999, 3000, 1250, 750], // 12.5% of 59.97 = 7.49625
    [1999, -3000, 1250, -750],
    [333, 1000, 5000, 167], // 1.665 -> 1.67
    [1000, 1000, 15000, 1000], // clamped to 100%
    [1000, 1000, -500, 0],
  ])('%i x %i milli at %i = %i', (price, qty, rate, expected) => {
    expect(lineDiscountFromPercent(price, qty, rate)).toBe(expected);
  });
});

// A cart with an item tax, a weighed line and a discounted line.
const mixedLines = [line(1999, 3000, 500, [1600]), line(450, 1500)];

describe('computeOrderTotals', () => {
  type Expected = Omit<OrderTotals, 'lines'>;
  const cases: Array<[string, OrderInput, Expected]> = [
    [
      'single plain line',
      { lines: [line(1000, 2000)] },
      { totalQtyMilli: 2000, grossCents: 2000, lineDiscountCents: 0, subTotalCents: 2000, taxableAmountCents: 2000, itemTaxesCents: 0, orderTaxCents: 0, discountTotalCents: 0, totalCents: 2000, adjustmentCents: 0, grandTotalCents: 2000 },
    ],
    [
      'item tax, order tax 5%, 10% discount, rounding adjustment',
      { lines: mixedLines, orderTaxRate: 500, discount: { kind: 'percent', rate: 1000 }, adjustmentCents: 303 },
      // subTotal 6457 + 675 = 7132; taxable 5497 + 675 = 6172; order tax 308.6 -> 309;
      // discount 10% of (7132 + 309) = 744.1 -> 744; total 6697; + 3.03 = 70.00
      { totalQtyMilli: 4500, grossCents: 6672, lineDiscountCents: 500, subTotalCents: 7132, taxableAmountCents: 6172, itemTaxesCents: 960, orderTaxCents: 309, discountTotalCents: 744, totalCents: 6697, adjustmentCents: 303, grandTotalCents: 7000 },
    ],
    [
      'fixed order discount',
      { lines: mixedLines, orderTaxRate: 500, discount: { kind: 'fixed', amountCents: 1000 } },
      { totalQtyMilli: 4500, grossCents: 6672, lineDiscountCents: 500, subTotalCents: 7132, taxableAmountCents: 6172, itemTaxesCents: 960, orderTaxCents: 309, discountTotalCents: 1000, totalCents: 6441, adjustmentCents: 0, grandTotalCents: 6441 },
    ],
    [
      'fixed order discount capped to the total',
      { lines: mixedLines, orderTaxRate: 500, discount: { kind: 'fixed', amountCents: 10000 } },
      { totalQtyMilli: 4500, grossCents: 6672, lineDiscountCents: 500, subTotalCents: 7132, taxableAmountCents: 6172, itemTaxesCents: 960, orderTaxCents: 309, discountTotalCents: 7441, totalCents: 0, adjustmentCents: 0, grandTotalCents: 0 },
    ],
    [
      'negative adjustment, no order tax',
      { lines: [line(12340, 1000)], orderTaxRate: null, discount: { kind: 'none' }, adjustmentCents: -340 },
      { totalQtyMilli: 1000, grossCents: 12340, lineDiscountCents: 0, subTotalCents: 12340, taxableAmountCents: 12340, itemTaxesCents: 0, orderTaxCents: 0, discountTotalCents: 0, totalCents: 12340, adjustmentCents: -340, grandTotalCents: 12000 },
    ],
    [
      '100% discount',
      { lines: [line(1000, 1000, 0, [1600])], discount: { kind: 'percent', rate: 10000 } },
      { totalQtyMilli: 1000, grossCents: 1000, lineDiscountCents: 0, subTotalCents: 1160, taxableAmountCents: 1000, itemTaxesCents: 160, orderTaxCents: 0, discountTotalCents: 1160, totalCents: 0, adjustmentCents: 0, grandTotalCents: 0 },
    ],
    [
      'empty cart with a fixed discount',
      { lines: [], discount: { kind: 'fixed', amountCents: 500 }, orderTaxRate: 1600 },
      { totalQtyMilli: 0, grossCents: 0, lineDiscountCents: 0, subTotalCents: 0, taxableAmountCents: 0, itemTaxesCents: 0, orderTaxCents: 0, discountTotalCents: 0, totalCents: 0, adjustmentCents: 0, grandTotalCents: 0 },
    ],
    [
      'refund of the mixed cart mirrors the sale',
      { lines: [line(1999, -3000, 500, [1600]), line(450, -1500)], orderTaxRate: 500, discount: { kind: 'percent', rate: 1000 }, adjustmentCents: -303 },
      { totalQtyMilli: -4500, grossCents: -6672, lineDiscountCents: -500, subTotalCents: -7132, taxableAmountCents: -6172, itemTaxesCents: -960, orderTaxCents: -309, discountTotalCents: -744, totalCents: -6697, adjustmentCents: -303, grandTotalCents: -7000 },
    ],
    [
      'refund with a fixed discount gives back what was paid',
      { lines: [line(1999, -3000, 500, [1600]), line(450, -1500)], orderTaxRate: 500, discount: { kind: 'fixed', amountCents: 1000 } },
      { totalQtyMilli: -4500, grossCents: -6672, lineDiscountCents: -500, subTotalCents: -7132, taxableAmountCents: -6172, itemTaxesCents: -960, orderTaxCents: -309, discountTotalCents: -1000, totalCents: -6441, adjustmentCents: 0, grandTotalCents: -6441 },
    ],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    const { lines, ...figures } = computeOrderTotals(input);
    expect(figures).toEqual(expected);
    expect(lines).toHaveLength(input.lines.length);
  });
});

describe('resolveOrderDiscount', () => {
  const cases: Array<[string, WireOrderDiscountFields, OrderDiscountInput]> = [
    ['nothing', {}, { kind: 'none' }],
    ['null discount', { discount: null, discountAmount: null }, { kind: 'none' }],
    ['open fixed amount', { discountAmount: 5, discountRateType: 'fixed' }, { kind: 'fixed', amountCents: 500 }],
    ['open amount without rate type is fixed', { discountAmount: '12.5' }, { kind: 'fixed', amountCents: 1250 }],
    ['open percent', { discountAmount: 10, discountRateType: 'percent' }, { kind: 'percent', rate: 1000 }],
    ['open amount wins over the entity', { discountAmount: 2, discount: { rateType: 'percent', rate: 50, scope: 'open' } }, { kind: 'fixed', amountCents: 200 }],
    ['zero amount falls back to the entity', { discountAmount: 0, discount: { rateType: 'percent', rate: 10 } }, { kind: 'percent', rate: 1000 }],
    ['"0" string amount falls back too', { discountAmount: '0', discountRateType: 'percent', discount: { rateType: 'fixed', rate: 5 } }, { kind: 'fixed', amountCents: 500 }],
    ['entity fixed', { discount: { rateType: 'fixed', rate: 5 } }, { kind: 'fixed', amountCents: 500 }],
    ['entity percent as string', { discount: { rateType: 'percent', rate: '7.5' } }, { kind: 'percent', rate: 750 }],
    ['entity exact scope without rate type', { discount: { scope: 'exact', rate: 3 } }, { kind: 'fixed', amountCents: 300 }],
    ['open scope without an amount', { discount: { scope: 'open', rateType: null, rate: null } }, { kind: 'none' }],
    ['entity without rate', { discount: { rateType: 'fixed', rate: null } }, { kind: 'none' }],
    ['entity with zero percent', { discount: { rateType: 'percent', rate: 0, scope: 'exact' } }, { kind: 'none' }],
  ];
  it.each(cases)('%s', (_name, fields, expected) => {
    expect(resolveOrderDiscount(fields)).toEqual(expected);
  });

  it('throws on a malformed amount', () => {
    expect(() => resolveOrderDiscount({ discountAmount: 'ten' })).toThrow(RangeError);
  });
});

describe('cartLineFromWire', () => {
  it.each([
    [{ price: 19.99, quantity: '3', discount: '5', taxes: [{ rate: 16 }], taxIncluded: true }, line(1999, 3000, 500, [1600])],
    [{ price: '4.50', quantity: 1.5 }, line(450, 1500)],
    [{ price: 10, quantity: -2, discount: 0, taxes: [{ rate: '7.25' }], taxIncluded: false }, line(1000, -2000, 0, [725], false)],
    [{ price: 10, quantity: 1, taxIncluded: null, taxes: null }, line(1000, 1000)],
  ])('%j', (wire, expected) => {
    expect(cartLineFromWire(wire)).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------
// Property-style check: a refund cart is the exact negation of its sale cart.

describe('sale vs refund mirroring (seeded random carts)', () => {
  const rand = mulberry32(20240315);
  const int = (min: number, max: number): number => min + Math.floor(rand() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[int(0, list.length - 1)] as T;
  const rates = [0, 500, 725, 1250, 1600, 1650];
  const neg = (x: number): number => (x === 0 ? 0 : -x);

  it('holds for 1000 carts', () => {
    for (let i = 0; i < 1000; i++) {
      const saleLines: CartLineInput[] = Array.from({ length: int(1, 6) }, () => {
        const priceCents = int(0, 200_000);
        const qtyMilli = pick([1000, 2000, 5000, int(1, 20_000)]);
        const gross = Math.round((priceCents * qtyMilli) / 1000);
        return {
          priceCents,
          qtyMilli,
          discountCents: pick([0, 0, int(0, Math.ceil(gross * 1.2)), lineDiscountFromPercent(priceCents, qtyMilli, int(0, 10_000))]),
          taxIncluded: rand() < 0.8,
          taxRates: Array.from({ length: int(0, 2) }, () => pick(rates)),
        };
      });
      const discount: OrderDiscountInput = pick<OrderDiscountInput>([
        { kind: 'none' },
        { kind: 'fixed', amountCents: int(0, 50_000) },
        { kind: 'percent', rate: int(0, 10_000) },
      ]);
      const orderTaxRate = pick([null, 0, ...rates]);
      const saleNoAdj = computeOrderTotals({ lines: saleLines, orderTaxRate, discount });
      const sale = computeOrderTotals({ lines: saleLines, orderTaxRate, discount, adjustmentCents: roundingAdjustment(saleNoAdj.totalCents) });

      // the refund negates quantities; the discount is either copied or mirrored
      const refundLines = saleLines.map((l) => ({ ...l, qtyMilli: neg(l.qtyMilli), discountCents: rand() < 0.5 ? l.discountCents : neg(l.discountCents) }));
      const refundNoAdj = computeOrderTotals({ lines: refundLines, orderTaxRate, discount });
      const refund = computeOrderTotals({ lines: refundLines, orderTaxRate, discount, adjustmentCents: roundingAdjustment(refundNoAdj.totalCents) });

      const { lines: saleLineTotals, ...saleFigures } = sale;
      const { lines: refundLineTotals, ...refundFigures } = refund;
      const negated = Object.fromEntries(Object.entries(saleFigures).map(([k, v]) => [k, neg(v)]));
      expect(refundFigures).toEqual(negated);
      refundLineTotals.forEach((r, j) => {
        const s = saleLineTotals[j] as CartLineTotals;
        expect(r).toEqual({
          grossCents: neg(s.grossCents),
          discountCents: neg(s.discountCents),
          exclusiveCents: neg(s.exclusiveCents),
          taxCents: s.taxCents.map(neg),
          taxesTotalCents: neg(s.taxesTotalCents),
          totalCents: neg(s.totalCents),
        });
      });

      // invariants of the formulas
      expect(sale.subTotalCents).toBe(sale.taxableAmountCents + sale.itemTaxesCents);
      expect(sale.totalCents).toBe(sale.subTotalCents + sale.orderTaxCents - sale.discountTotalCents);
      expect(sale.grandTotalCents % 1000).toBe(0);
      expect(sale.totalCents).toBeGreaterThanOrEqual(0);
    }
  });
});
