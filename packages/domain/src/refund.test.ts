/**
 * Refund maths (issue 19) against an independent reference written here with BigInt rationals:
 * partial returns give back exactly what was charged, each return within one minor unit of its
 * exact share; refunds to the original tenders; cash rounding of the cash part.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { priceReturn, proRata, returnSlice, type ReturnOriginal } from './refund.ts';
import { priceOrder, type PricedOrderInput } from './tax.ts';
import { cashRounding, splitRefund } from './tender.ts';

const big = BigInt;
const abs = (x: bigint) => (x < 0n ? -x : x);

/** A quantity `sold` (milli) cut into 1-6 returns, each at least 1 milli, adding up to it. */
const returnsArb = fc.integer({ min: 1, max: 50_000 }).chain((sold) =>
  fc.array(fc.integer({ min: 1, max: 1_000 }), { minLength: 1, maxLength: 6 }).map((weights) => {
    const parts = weights.map((w) => Math.max(1, Math.floor((sold * w) / weights.reduce((a, b) => a + b, 0))));
    let left = sold - parts.reduce((a, b) => a + b, 0);
    while (left < 0) { const i = parts.findIndex((p) => p > 1); parts[i] -= 1; left += 1; }
    parts[parts.length - 1] += left;
    return { sold, parts: parts.filter((p) => p > 0) };
  }).filter(({ sold, parts }) => parts.reduce((a, b) => a + b, 0) === sold && parts.length <= sold));

describe('partial returns', () => {
  it('the returns of a line add up to the amount exactly; each within one minor unit of amount x returned / sold', () => {
    fc.assert(fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), returnsArb, (amount, { sold, parts }) => {
      let before = 0;
      let total = 0;
      for (const want of parts) {
        const s = returnSlice(amount, before, want, sold);
        // |s x sold - amount x want| <= sold: two roundings of half a unit each at most.
        expect(abs(big(s) * big(sold) - big(amount) * big(want)) <= big(sold)).toBe(true);
        before += want;
        total += s;
      }
      expect(total).toBe(amount);
    }));
  });

  it('proRata rounds half away from zero, like the reference', () => {
    fc.assert(fc.property(fc.integer({ min: -1e9, max: 1e9 }), fc.integer({ min: 0, max: 100_000 }), fc.integer({ min: 1, max: 100_000 }), (amount, part, whole) => {
      const n = big(amount) * big(part);
      const d = big(whole);
      const q = n / d;
      const r = abs(n % d) * 2n;
      const ref = r >= d && r !== 0n ? (n < 0n ? q - 1n : q + 1n) : q;
      expect(proRata(amount, part, whole)).toBe(Number(ref));
    }));
  });

  it('a priced sale returned line by line in pieces gives back exactly what was charged, taxes and discount shares too', () => {
    const lineArb = fc.record({
      priceCents: fc.integer({ min: 0, max: 100_000 }),
      qtyMilli: fc.integer({ min: 1, max: 10_000 }),
      discountCents: fc.integer({ min: 0, max: 5_000 }),
      taxIncluded: fc.constant(true),
      taxRates: fc.array(fc.integer({ min: 0, max: 2500 }), { maxLength: 2 }),
    });
    const orderArb = fc.record({
      lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
      discount: fc.oneof(fc.constant({ kind: 'none' as const }), fc.integer({ min: 0, max: 3000 }).map((rate) => ({ kind: 'percent' as const, rate }))),
      mode: fc.constantFrom('exclusive' as const, 'inclusive' as const),
    });
    fc.assert(fc.property(orderArb, fc.integer({ min: 2, max: 4 }), (order: PricedOrderInput, pieces) => {
      const sale = priceOrder(order);
      let charged = 0;
      let taxes = 0;
      let shares = 0;
      sale.lines.forEach((l, i) => {
        const sold = order.lines[i].qtyMilli;
        const cut = Array.from({ length: pieces }, (_, k) => Math.floor((sold * (k + 1)) / pieces) - Math.floor((sold * k) / pieces)).filter((x) => x > 0);
        let before = 0;
        for (const want of cut) {
          charged += returnSlice(l.chargedCents, before, want, sold);
          taxes += l.taxCents.reduce((s, t) => s + returnSlice(t, before, want, sold), 0);
          shares += returnSlice(l.shareCents, before, want, sold);
          before += want;
        }
      });
      expect(charged).toBe(sale.lines.reduce((s, l) => s + l.chargedCents, 0));
      expect(taxes).toBe(sale.itemTaxesCents);
      expect(shares).toBe(sale.discountTotalCents);
    }));
  });
});

describe('priceReturn (the one return pricing of till and server)', () => {
  it('any order, returned in pieces over several returns, gives back exactly its total; each return is the mirror of its share', () => {
    const lineArb = fc.record({
      priceCents: fc.integer({ min: 0, max: 100_000 }),
      qtyMilli: fc.integer({ min: 1, max: 10_000 }),
      discountCents: fc.integer({ min: 0, max: 5_000 }),
      taxIncluded: fc.constant(true),
      taxRates: fc.array(fc.integer({ min: 0, max: 2500 }), { maxLength: 2 }),
    });
    const orderArb = fc.record({
      lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
      orderTaxRate: fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }),
      discount: fc.oneof(fc.constant({ kind: 'none' as const }), fc.integer({ min: 0, max: 3000 }).map((rate) => ({ kind: 'percent' as const, rate }))),
      mode: fc.constantFrom('exclusive' as const, 'inclusive' as const, 'legacy' as const),
    });
    fc.assert(fc.property(orderArb, fc.integer({ min: 1, max: 3 }), (order, pieces) => {
      const sale = priceOrder(order);
      // What the server stores of the sale, as a return reads it.
      const original: ReturnOriginal = {
        mode: order.mode,
        lines: order.lines.map((l, i) => ({
          priceMinor: l.priceCents, soldMilli: l.qtyMilli, returnedMilli: 0, discount: sale.lines[i].discountCents, orderDiscount: sale.lines[i].shareCents,
          taxable: sale.lines[i].taxableCents, taxAmounts: sale.lines[i].taxCents, taxesTotal: sale.lines[i].taxesTotalCents,
        })),
        orderTax: sale.orderTaxCents, orderDiscount: sale.discountTotalCents, adjustment: 0,
      };
      let given = 0;
      let returned = order.lines.map(() => 0);
      for (let p = 0; p < pieces; p++) {
        const takes = order.lines.map((l, i) => ({ line: i, want: Math.floor((l.qtyMilli * (p + 1)) / pieces) - returned[i] })).filter((x) => x.want > 0);
        if (!takes.length) continue;
        const r = priceReturn({ ...original, lines: original.lines.map((l, i) => ({ ...l, returnedMilli: returned[i] })) }, takes);
        expect(r.totalCents).toBe(r.subTotalCents + r.orderTaxCents - r.discountTotalCents);
        expect(r.totalCents).toBeLessThanOrEqual(0);
        given += r.totalCents;
        returned = returned.map((x, i) => x + (takes.find((t) => t.line === i)?.want ?? 0));
        expect(r.complete).toBe(p === pieces - 1);
      }
      expect(given).toBe(sale.totalCents === 0 ? 0 : -sale.totalCents);
    }));
  });
});

describe('refunds to the original tenders', () => {
  it('splitRefund: shares add up to what can be given back, never more than a tender has, within one unit of its proportion', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 1, maxLength: 5 }), (refund, available) => {
      const shares = splitRefund(refund, available);
      const whole = available.reduce((a, b) => a + b, 0);
      const amount = whole <= 0 || refund <= 0 ? 0 : Math.min(refund, whole);
      expect(shares.reduce((a, b) => a + b, 0)).toBe(amount);
      shares.forEach((s, i) => {
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(available[i]);
        if (whole > 0) expect(abs(big(s) * big(whole) - big(amount) * big(available[i])) < big(whole)).toBe(true);
      });
    }));
  });
});

describe('cash rounding of the cash part', () => {
  it('moves the cash part to the nearest multiple of the step (half away from zero), mirrored for refunds', () => {
    fc.assert(fc.property(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.constantFrom(1, 5, 10, 25, 50, 100, 500, 1000), (cash, step) => {
      const r = cashRounding(cash, step);
      // Reference: the multiple of the step nearest to |cash|, ties away from zero.
      const m = Math.abs(cash);
      const down = m - (m % step);
      const nearest = (m - down) * 2 >= step && m !== down ? down + step : down;
      const expected = cash < 0 ? -(nearest - m) : nearest - m;
      expect(r).toBe(expected === 0 ? 0 : expected);
      expect((cash + r) % step === 0).toBe(true);
      expect(cashRounding(-cash, step)).toBe(r === 0 ? 0 : -r);
    }));
    expect(cashRounding(1047, 5)).toBe(-2); // 10.47 -> 10.45
    expect(cashRounding(1048, 5)).toBe(2); // 10.48 -> 10.50
    expect(cashRounding(1047, 0)).toBe(0); // no rounding
  });
});
