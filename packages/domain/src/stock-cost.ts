import { divRoundHalfAway, toSafeNumber } from './money.ts';

/**
 * Weighted-average (moving-average) unit cost of a product in one store (issue 25.5), in integer
 * minor units of the store's currency; quantities in milli-units (3 decimals, as stored).
 *
 *   new = (onHand x avg + Σ received_i x unitCost_i) / (onHand + Σ received_i)
 *
 * computed exactly (BigInt) and rounded ONCE, half away from zero, to a minor unit. Rules for the
 * edges (ARCHITECTURE.md "Stock valuation"):
 * - stock on hand at or below zero (sold before it was received) carries no value: the receipt's
 *   own average becomes the cost;
 * - a receipt of nothing (Σ received <= 0) leaves the average as it is;
 * - no average yet (`avg` null) with stock on hand: that stock is valued at `fallback` (the
 *   product's catalogue cost, what it was valued at until now).
 */
export interface Receipt { qtyMilli: number; unitMinor: number }

export function weightedAverage(onHandMilli: number, avg: number | null, fallback: number, receipts: readonly Receipt[]): number | null {
  let qty = 0n; let value = 0n;
  for (const r of receipts) {
    if (r.qtyMilli <= 0) continue;
    qty += BigInt(r.qtyMilli);
    value += BigInt(r.qtyMilli) * BigInt(r.unitMinor);
  }
  if (qty === 0n) return avg;
  if (onHandMilli > 0) {
    qty += BigInt(onHandMilli);
    value += BigInt(onHandMilli) * BigInt(avg ?? fallback);
  }
  return toSafeNumber(divRoundHalfAway(value, qty));
}
