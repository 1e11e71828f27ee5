import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { allocateProportional, priceOrder, taxModeOf, type PricedOrderInput, type TaxMode, type TaxedLineInput } from './tax.ts';

// ---- An independent reference, written here with plain BigInt rationals (not the code under test) ----
/** round(n / d) half away from zero, d > 0. */
function refRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = (r < 0n ? -r : r) * 2n;
  if (twice >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}
const big = BigInt;

interface RefLine { gross: bigint; disc: bigint; net: bigint }
function refLines(lines: readonly TaxedLineInput[]): RefLine[] {
  return lines.map((l) => {
    const gross = refRound(big(l.priceCents) * big(l.qtyMilli), 1000n);
    const mag = gross < 0n ? -gross : gross;
    let d = big(Math.abs(l.discountCents));
    if (gross >= 0n && l.discountCents < 0) d = 0n;
    if (d > mag) d = mag;
    const disc = gross < 0n ? -d : d;
    return { gross, disc, net: gross - disc };
  });
}

/**
 * The legacy base by the reference (cart.ts header, the spec's order of operations): item tax is
 * rate % of the gross (before the line discount); subTotal = sum of (net + taxes); the order tax is
 * rate % of the sum of nets; the order discount (a fixed amount capped to subTotal + orderTax with
 * its sign, or a percent of it) comes after tax.
 */
function refLegacy(order: PricedOrderInput) {
  const ref = refLines(order.lines);
  let subTotal = 0n, taxable = 0n, itemTaxes = 0n;
  const lineTaxes = ref.map((l, i) => {
    const line = order.lines[i];
    const taxes = line.taxIncluded ? line.taxRates.reduce((s, r) => s + refRound(l.gross * big(r), 10000n), 0n) : 0n;
    subTotal += l.net + taxes;
    taxable += l.net;
    itemTaxes += taxes;
    return taxes;
  });
  const orderTax = order.orderTaxRate ? refRound(taxable * big(order.orderTaxRate), 10000n) : 0n;
  const base = subTotal + orderTax;
  let D = 0n;
  const d = order.discount ?? { kind: 'none' as const };
  if (d.kind === 'fixed') {
    const mag = base < 0n ? -base : base;
    let a = big(base >= 0n ? Math.max(d.amountCents, 0) : Math.abs(d.amountCents));
    if (a > mag) a = mag;
    D = base < 0n ? -a : a;
  }
  if (d.kind === 'percent') D = refRound(base * big(Math.min(Math.max(d.rate, 0), 10000)), 10000n);
  return { lineTaxes, subTotal, taxable, itemTaxes, orderTax, D, total: base - D };
}

const lineArb = (sign: 1 | -1) => fc.record({
  priceCents: fc.integer({ min: 0, max: 500_000 }),
  qtyMilli: fc.integer({ min: 1, max: 20_000 }).map((q) => q * sign),
  discountCents: fc.integer({ min: 0, max: 100_000 }),
  taxIncluded: fc.boolean(),
  taxRates: fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 3 }),
});
const discountArb = fc.oneof(
  fc.constant({ kind: 'none' as const }),
  fc.integer({ min: 0, max: 2_000_000 }).map((amountCents) => ({ kind: 'fixed' as const, amountCents })),
  fc.integer({ min: 0, max: 10_000 }).map((rate) => ({ kind: 'percent' as const, rate })),
);
const orderArb = (mode: TaxMode) => fc.record({
  lines: fc.array(lineArb(1), { minLength: 1, maxLength: 8 }),
  orderTaxRate: fc.option(fc.integer({ min: 1, max: 2500 }), { nil: null }),
  discount: discountArb,
  mode: fc.constant(mode),
});

describe('allocateProportional', () => {
  it('shares add up exactly and each is within one unit of its exact value', () => {
    fc.assert(fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 10 }), (amount, weights) => {
      const shares = allocateProportional(amount, weights);
      const whole = weights.reduce((s, w) => s + w, 0);
      if (whole === 0) { expect(shares.every((s) => s === 0)).toBe(true); return; }
      expect(shares.reduce((s, x) => s + x, 0)).toBe(amount);
      shares.forEach((s, i) => {
        // |s - amount * w / whole| < 1  <=>  |s * whole - amount * w| < whole
        const diff = big(s) * big(whole) - big(amount) * big(weights[i]);
        expect(diff < 0n ? -diff : diff).toBeLessThan(big(whole));
      });
    }));
  });
});

describe('priceOrder: tax on what is charged', () => {
  it('10.75 with 8.25 % tax and a 10 % line discount: tax on 9.67, total 10.47', () => {
    const o = priceOrder({ mode: 'exclusive', lines: [{ priceCents: 1075, qtyMilli: 1000, discountCents: 108, taxIncluded: true, taxRates: [825] }] });
    expect(o.lines[0]).toMatchObject({ grossCents: 1075, discountCents: 108, taxableCents: 967, taxCents: [80], chargedCents: 1047 });
    expect(o.totalCents).toBe(1047);
    expect(o.taxBreakdown).toEqual([{ key: 825, rate: 825, netCents: 967, taxCents: 80, grossCents: 1047 }]);
    // The legacy base taxes the price before the discount: 1 cent more tax here.
    expect(priceOrder({ mode: 'legacy', lines: [{ priceCents: 1075, qtyMilli: 1000, discountCents: 108, taxIncluded: true, taxRates: [825] }] }).totalCents).toBe(1056);
  });

  it('the order discount is spread over lines by net value and reduces the taxable base', () => {
    const o = priceOrder({
      mode: 'exclusive', discount: { kind: 'fixed', amountCents: 1000 },
      lines: [
        { priceCents: 3000, qtyMilli: 1000, discountCents: 0, taxIncluded: true, taxRates: [1600], taxKeys: [7] },
        { priceCents: 1000, qtyMilli: 1000, discountCents: 0, taxIncluded: true, taxRates: [] },
      ],
    });
    expect(o.lines.map((l) => l.shareCents)).toEqual([750, 250]);
    expect(o.lines[0].taxCents).toEqual([360]); // 16 % of 22.50
    expect(o.totalCents).toBe(2250 + 360 + 750);
    expect(o.taxBreakdown).toEqual([{ key: 7, rate: 1600, netCents: 2250, taxCents: 360, grossCents: 2610 }]);
  });

  it('inclusive prices: the tax contained, split over two rates', () => {
    const o = priceOrder({ mode: 'inclusive', lines: [{ priceCents: 1160, qtyMilli: 1000, discountCents: 0, taxIncluded: true, taxRates: [1000, 600] }] });
    expect(o.lines[0]).toMatchObject({ chargedCents: 1160, taxableCents: 1000, taxCents: [100, 60], taxesTotalCents: 160 });
    expect(o.totalCents).toBe(1160);
    expect(o.itemTaxesCents).toBe(160);
  });

  it('legacy: figures agree with an independent BigInt reference, for sales and refund carts', () => {
    fc.assert(fc.property(orderArb('legacy'), fc.boolean(), (sale, refund) => {
      const order = refund ? { ...sale, lines: sale.lines.map((l) => ({ ...l, qtyMilli: -l.qtyMilli })) } : sale;
      const o = priceOrder(order);
      const ref = refLegacy(order);
      const lines = refLines(order.lines);
      o.lines.forEach((l, i) => {
        expect(l.grossCents).toBe(Number(lines[i].gross));
        expect(l.discountCents).toBe(Number(lines[i].disc));
        expect(l.taxesTotalCents).toBe(Number(ref.lineTaxes[i]));
        expect(l.shareCents).toBe(0);
      });
      expect(o.subTotalCents).toBe(Number(ref.subTotal));
      expect(o.taxableAmountCents).toBe(Number(ref.taxable));
      expect(o.itemTaxesCents).toBe(Number(ref.itemTaxes));
      expect(o.orderTaxCents).toBe(Number(ref.orderTax));
      expect(o.discountTotalCents).toBe(Number(ref.D));
      expect(o.totalCents).toBe(Number(ref.total));
    }));
  });

  for (const mode of ['exclusive', 'inclusive'] as const) {
    it(`${mode}: figures agree with the reference and add up to the minor unit`, () => {
      fc.assert(fc.property(orderArb(mode), (order: PricedOrderInput) => {
        const o = priceOrder(order);
        const ref = refLines(order.lines);
        const netSum = ref.reduce((s, l) => s + l.net, 0n);
        // Order discount, by the reference.
        let D = 0n;
        const d = order.discount!;
        if (d.kind === 'fixed') D = big(d.amountCents) > netSum ? netSum : big(d.amountCents);
        if (d.kind === 'percent') D = refRound(netSum * big(Math.min(d.rate, 10000)), 10000n);
        expect(o.discountTotalCents).toBe(Number(D));
        expect(o.lines.reduce((s, l) => s + l.shareCents, 0)).toBe(Number(D));
        let taxable = 0n;
        let charged = 0n;
        o.lines.forEach((l, i) => {
          expect(l.grossCents).toBe(Number(ref[i].gross));
          expect(l.discountCents).toBe(Number(ref[i].disc));
          if (netSum > 0n) {
            const diff = big(l.shareCents) * netSum - D * ref[i].net;
            expect(diff < 0n ? -diff : diff).toBeLessThan(netSum);
          }
          const c = ref[i].net - big(l.shareCents);
          const rates = order.lines[i].taxIncluded ? order.lines[i].taxRates.map(big) : [];
          const R = rates.reduce((s, r) => s + r, 0n);
          let tax: bigint;
          if (mode === 'exclusive') tax = rates.reduce((s, r) => s + refRound(c * r, 10000n), 0n);
          else tax = R === 0n ? 0n : refRound(c * R, 10000n + R);
          expect(l.taxesTotalCents).toBe(Number(tax));
          const lineTaxable = mode === 'exclusive' ? c : c - tax;
          expect(l.taxableCents).toBe(Number(lineTaxable));
          expect(l.chargedCents).toBe(Number(lineTaxable + tax));
          taxable += lineTaxable;
          charged += lineTaxable + tax;
        });
        const orderTax = order.orderTaxRate ? refRound(taxable * big(order.orderTaxRate), 10000n) : 0n;
        expect(o.orderTaxCents).toBe(Number(orderTax));
        expect(o.totalCents).toBe(Number(charged + orderTax));
        expect(o.subTotalCents + o.orderTaxCents - o.discountTotalCents).toBe(o.totalCents);
        const bdTax = o.taxBreakdown.reduce((s, r) => s + r.taxCents, 0);
        expect(bdTax).toBe(o.itemTaxesCents + o.orderTaxCents);
        for (const r of o.taxBreakdown) expect(r.grossCents).toBe(r.netCents + r.taxCents);
      }));
    });

    it(`${mode}: a refund cart is the exact negation of the sale cart`, () => {
      fc.assert(fc.property(orderArb(mode), (order) => {
        const sale = priceOrder(order);
        const refund = priceOrder({ ...order, lines: order.lines.map((l) => ({ ...l, qtyMilli: -l.qtyMilli })) });
        const neg = (x: number) => (x === 0 ? 0 : -x);
        expect(refund.totalCents).toBe(neg(sale.totalCents));
        expect(refund.itemTaxesCents).toBe(neg(sale.itemTaxesCents));
        expect(refund.discountTotalCents).toBe(neg(sale.discountTotalCents));
        expect(refund.lines.map((l) => l.chargedCents)).toEqual(sale.lines.map((l) => neg(l.chargedCents)));
      }));
    });
  }

  it('taxModeOf: the legacy base wins, then pricesIncludeTax', () => {
    expect(taxModeOf({ legacyTaxBase: true, pricesIncludeTax: true })).toBe('legacy');
    expect(taxModeOf({ legacyTaxBase: false, pricesIncludeTax: true })).toBe('inclusive');
    expect(taxModeOf({ legacyTaxBase: false, pricesIncludeTax: false })).toBe('exclusive');
  });
});
