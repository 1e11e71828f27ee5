/**
 * The notes and coins of a currency (issue 19), in its MINOR units: what the day closing counts in
 * the drawer (the till's quick-cash buttons, a few larger notes each, are apps/web quick-cash.ts). Sources:
 * the issuing central banks' current series. A currency not listed gets a 1-2-5 series (genericSeries).
 */
import { currencyDigits, isCurrencyCode } from './currency.ts';

interface Series {
  /** Banknotes, in minor units, largest first. */
  notes: readonly number[];
  /** Coins, in minor units, largest first (a coin of the same value as a note is listed once). */
  coins: readonly number[];
}

const SERIES: Readonly<Record<string, Series>> = {
  USD: { notes: [10000, 5000, 2000, 1000, 500, 200, 100], coins: [50, 25, 10, 5, 1] },
  EUR: { notes: [50000, 20000, 10000, 5000, 2000, 1000, 500], coins: [200, 100, 50, 20, 10, 5, 2, 1] },
  GBP: { notes: [5000, 2000, 1000, 500], coins: [200, 100, 50, 20, 10, 5, 2, 1] },
  CHF: { notes: [100000, 20000, 10000, 5000, 2000, 1000], coins: [500, 200, 100, 50, 20, 10, 5] },
  CAD: { notes: [10000, 5000, 2000, 1000, 500], coins: [200, 100, 25, 10, 5] },
  AUD: { notes: [10000, 5000, 2000, 1000, 500], coins: [200, 100, 50, 20, 10, 5] },
  NZD: { notes: [10000, 5000, 2000, 1000, 500], coins: [200, 100, 50, 20, 10] },
  JPY: { notes: [10000, 5000, 2000, 1000], coins: [500, 100, 50, 10, 5, 1] },
  CNY: { notes: [10000, 5000, 2000, 1000, 500, 100], coins: [50, 10] },
  INR: { notes: [50000, 20000, 10000, 5000, 2000, 1000], coins: [500, 200, 100] },
  PKR: { notes: [500000, 100000, 50000, 10000, 5000, 2000, 1000], coins: [500, 200, 100] },
  SAR: { notes: [50000, 10000, 5000, 1000, 500], coins: [200, 100, 50, 25, 10, 5] },
  AED: { notes: [100000, 50000, 20000, 10000, 5000, 2000, 1000, 500], coins: [100, 50, 25] },
  QAR: { notes: [50000, 20000, 10000, 5000, 1000, 500, 100], coins: [50, 25, 10] },
  EGP: { notes: [20000, 10000, 5000, 2000, 1000, 500], coins: [100, 50, 25] },
  KWD: { notes: [20000, 10000, 5000, 1000, 500, 250], coins: [100, 50, 20, 10, 5] },
  BHD: { notes: [20000, 10000, 5000, 1000, 500], coins: [100, 50, 25, 10, 5] },
  OMR: { notes: [50000, 20000, 10000, 5000, 1000, 500, 100], coins: [50, 25, 10, 5] },
  JOD: { notes: [50000, 20000, 10000, 5000, 1000], coins: [500, 250, 100, 50, 10] },
  MXN: { notes: [100000, 50000, 20000, 10000, 5000, 2000], coins: [1000, 500, 200, 100, 50] },
};

const codeOf = (currency: string | null | undefined): string => (currency && isCurrencyCode(currency) ? currency : 'USD');

/**
 * A 1-2-5 series in minor units, largest first: from 100 major units (10,000 for a currency without
 * minor units, whose notes run large) down to the smallest unit.
 */
function genericSeries(digits: number): Series {
  const unit = 10 ** digits;
  const all: number[] = [];
  for (let decade = digits === 0 ? 10_000 : 100 * unit; decade >= 1; decade /= 10) {
    for (const f of [1, 0.5, 0.2]) {
      if (Number.isInteger(decade * f)) all.push(decade * f);
    }
  }
  const notes = all.filter((v) => v >= unit);
  const coins = all.filter((v) => v < unit);
  return { notes, coins };
}

function seriesOf(currency: string | null | undefined): Series {
  const code = codeOf(currency);
  return SERIES[code] ?? genericSeries(currencyDigits(code));
}

/** Every note and coin of a currency in its minor units, largest first (the day closing's cash count). */
export function cashDenominations(currency: string | null | undefined): readonly number[] {
  const { notes, coins } = seriesOf(currency);
  return [...notes, ...coins];
}
