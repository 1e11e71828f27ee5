/** Wire amounts (JSON numbers or numeric strings) to exact cents / milli for display and sums. */
import { tryParseMoney, tryParseScaled } from '@pos/domain/money';
import { getMoney } from '@/lib/money';

export function cents(value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') return 0;
  return tryParseMoney(value) ?? 0;
}

export function milli(value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') return 0;
  return tryParseScaled(value, 3) ?? 0;
}

/** A wire amount in the current store's currency, to its own digits (KWD 1.275; `locale` is kept for callers; the UI language is used). */
export function money(value: unknown, _locale?: string): string {
  return getMoney().formatWire(value);
}
