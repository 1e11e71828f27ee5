/**
 * Quick-cash buttons follow the notes (and large coins) of the store's currency (issue 19). Values
 * are in MINOR units of the currency; a currency not in the table gets 1, 5, 10, 20, 50 and 100
 * major units. Sources: the issuing central banks' current series.
 */
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';

const NOTES: Readonly<Record<string, readonly number[]>> = {
  USD: [500, 1000, 2000, 5000, 10000],
  EUR: [500, 1000, 2000, 5000, 10000, 20000],
  GBP: [500, 1000, 2000, 5000],
  CHF: [1000, 2000, 5000, 10000, 20000],
  CAD: [500, 1000, 2000, 5000, 10000],
  AUD: [500, 1000, 2000, 5000, 10000],
  NZD: [500, 1000, 2000, 5000, 10000],
  JPY: [1000, 2000, 5000, 10000],
  CNY: [1000, 2000, 5000, 10000],
  INR: [1000, 2000, 5000, 10000, 20000, 50000],
  PKR: [1000, 5000, 10000, 50000, 100000, 500000],
  SAR: [500, 1000, 5000, 10000, 50000],
  AED: [500, 1000, 2000, 5000, 10000, 20000],
  KWD: [250, 500, 1000, 5000, 10000, 20000],
  BHD: [500, 1000, 5000, 10000, 20000],
  EGP: [1000, 2000, 5000, 10000, 20000],
};

/** The quick-cash values of a currency, smallest first, in its minor units. */
export function cashNotes(currency: string): readonly number[] {
  const code = isCurrencyCode(currency) ? currency : 'USD';
  const listed = NOTES[code];
  if (listed) return listed;
  const unit = 10 ** currencyDigits(code);
  return [1, 5, 10, 20, 50, 100].map((n) => n * unit);
}
