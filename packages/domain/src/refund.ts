/**
 * Partial refunds (issue 19): a return takes back, of every stored amount of an original line, the
 * part its quantity stands for, computed so that the returns of a line telescope: what all returns
 * up to now took is `proRata(amount, returned so far, sold)`, so the last return takes the exact
 * remainder and all of them together give back exactly what was charged, to the minor unit.
 */
import { divRoundHalfAway, toSafeNumber } from './money.ts';

/** amount x part / whole, rounded once half away from zero (0 when whole is 0); signs of part/whole ignored. */
export function proRata(amount: number, part: number, whole: number): number {
  if (whole === 0) return 0;
  return toSafeNumber(divRoundHalfAway(BigInt(amount) * BigInt(Math.abs(part)), BigInt(Math.abs(whole))));
}

/** The part of `amount` (for `sold`) that `want` more take back after `before` were returned. */
export function returnSlice(amount: number, before: number, want: number, sold: number): number {
  return proRata(amount, before + want, sold) - proRata(amount, before, sold);
}
