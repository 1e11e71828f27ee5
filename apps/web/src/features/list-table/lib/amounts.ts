/** Wire amounts (JSON numbers or numeric strings) to exact cents / milli for display and sums. */
import { tryParseMoney, tryParseScaled } from '@pos/domain/money';
import { formatCurrency } from '@pos/domain/format';

export function cents(value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') return 0;
  return tryParseMoney(value) ?? 0;
}

export function milli(value: unknown): number {
  if (typeof value !== 'number' && typeof value !== 'string') return 0;
  return tryParseScaled(value, 3) ?? 0;
}

/** formatCurrency of a wire amount. */
export function money(value: unknown, locale = 'en'): string {
  return formatCurrency(cents(value), locale);
}
