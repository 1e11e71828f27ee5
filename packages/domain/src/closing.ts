/**
 * Day closing maths (spec section 9, reference client 4.10). Amounts in integer cents.
 */
import { parseScaled, sumCents, toSafeNumber } from './money.ts';

export interface CashInHandInput {
  openingBalance: number;
  cashAdded: number;
  cashWithdrawn: number;
  expenses: number;
  /** Cash-type sales since the opening. */
  cashSales: number;
}

/** opening + added - withdrawn - expenses + cash sales. */
export function cashInHand(input: CashInHandInput): number {
  return sumCents([input.openingBalance, input.cashAdded, -input.cashWithdrawn, -input.expenses, input.cashSales]);
}

export interface ProfitOrLoss {
  amountCents: number;
  /** Shown as "Loss" when the result is 0 or less. */
  isLoss: boolean;
}

/** sales - cost - expenses; a loss when <= 0. */
export function profitOrLoss(input: { sales: number; cost: number; expenses: number }): ProfitOrLoss {
  const amountCents = sumCents([input.sales, -input.cost, -input.expenses]);
  return { amountCents, isLoss: amountCents <= 0 };
}

export const OPENING_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** True when the day was opened more than 24 hours ago: closing is forced first. */
export function isOpeningStale(openedAt: Date, now: Date): boolean {
  return now.getTime() - openedAt.getTime() > OPENING_MAX_AGE_MS;
}

/**
 * Total of a cash count: keys are note or coin values in currency units ("5000", "0.5"),
 * values are counts (non-negative integers). Returns minor units of a currency with `digits`
 * minor digits (default 2, cents; KWD 3: "0.005" x 3 -> 15 fils).
 */
export function denominationsTotal(
  counts: Readonly<Record<string, number>> | ReadonlyMap<string | number, number>,
  digits = 2,
): number {
  const entries: Array<[string | number, number]> =
    counts instanceof Map ? [...counts.entries()] : Object.entries(counts as Record<string, number>);
  let total = 0n;
  for (const [value, count] of entries) {
    if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`invalid count for ${value}: ${count}`);
    total += BigInt(parseScaled(value, digits)) * BigInt(count);
  }
  return toSafeNumber(total);
}
