/** Wire amounts (JSON numbers or numeric strings) written in the current store's currency. */
import { getMoney } from '@/lib/money';

/** A wire amount in the current store's currency, to its own digits (KWD 1.275; `locale` is kept for callers; the UI language is used). */
export function money(value: unknown, _locale?: string): string {
  return getMoney().formatWire(value);
}
