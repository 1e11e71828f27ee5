/**
 * Display formatting (spec section 9): US dollars with at most 1 fraction digit, a plain
 * formatter with at most 1 fraction digit and no grouping, and dd-MM-yyyy [hh:mm a] dates.
 * Amounts are handed to Intl as exact decimal strings, so rounding for display is done on
 * the true value (half away from zero), never on a binary float.
 */
import { localParts, toDate } from './calendar.ts';
import { toDecimalString } from './money.ts';

const currencyFormatters = new Map<string, Intl.NumberFormat>();
const plainFormatters = new Map<string, Intl.NumberFormat>();

function cached(map: Map<string, Intl.NumberFormat>, locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  let f = map.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    map.set(locale, f);
  }
  return f;
}

const RLM = '\u200F';
const LRM = '\u200E';

/** 1250 -> "$12.5", 123456 -> "$1,234.6", 1200 -> "$12.0" (en); "‏1,234.6 US$" (ar). */
/**
 * The locale used when a caller passes none: the web app sets it when the language changes, so every
 * amount and date on screen follows the UI language (the server never calls this and stays 'en').
 */
let displayLocale = 'en';
export function setDisplayLocale(locale: string): void { displayLocale = locale || 'en'; }
export function getDisplayLocale(): string { return displayLocale; }

export function formatCurrency(cents: number, locale = displayLocale): string {
  const text = cached(currencyFormatters, locale, {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 1,
    signDisplay: 'negative', // -0.04 shows as $0.0, not -$0.0
  }).format(toDecimalString(cents) as Intl.StringNumericLiteral);
  // Right-to-left locales: the '$' ending 'US$' is a bidi neutral and would drift to the far side
  // of the amount ('$US 10.8'); a left-to-right mark after it keeps 'US$' in one piece.
  return text.includes(RLM) ? text.replace(/([A-Za-z])(\p{Sc})/u, `$1$2${LRM}`) : text;
}

/** 123456 -> "1234.6", 1200 -> "12" (en): no currency, no grouping. */
export function formatAmount(cents: number, locale = displayLocale): string {
  return cached(plainFormatters, locale, {
    maximumFractionDigits: 1,
    useGrouping: false,
    signDisplay: 'negative',
  }).format(toDecimalString(cents) as Intl.StringNumericLiteral);
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** 'dd-MM-yyyy'; '' for an unparseable value. */
export function formatDate(value: Date | string | number, timeZone?: string): string {
  const d = toDate(value);
  if (!d) return '';
  const p = localParts(d, timeZone);
  return `${pad2(p.day)}-${pad2(p.month)}-${String(p.year).padStart(4, '0')}`;
}

const dayPeriods = new Map<string, readonly [string, string]>();

/** The locale's AM and PM markers ('AM'/'PM' in English, 'ص'/'م' in Arabic). */
function dayPeriodsOf(locale: string): readonly [string, string] {
  let pair = dayPeriods.get(locale);
  if (!pair) {
    const f = new Intl.DateTimeFormat(locale, { hour: 'numeric', hour12: true, timeZone: 'UTC' });
    const mark = (hour: number) => f.formatToParts(Date.UTC(2024, 0, 1, hour)).find((p) => p.type === 'dayPeriod')?.value;
    pair = [mark(9) ?? 'AM', mark(21) ?? 'PM'];
    dayPeriods.set(locale, pair);
  }
  return pair;
}

/**
 * 'dd-MM-yyyy hh:mm a', e.g. '05-03-2024 02:07 PM'; '' for an unparseable value. The pattern is
 * fixed (spec 9); `locale` only names the AM/PM marker ('05-03-2024 02:07 م' in Arabic).
 */
export function formatDateTime(value: Date | string | number, timeZone?: string, locale = displayLocale): string {
  const d = toDate(value);
  if (!d) return '';
  const p = localParts(d, timeZone);
  const hour12 = p.hour % 12 === 0 ? 12 : p.hour % 12;
  const [am, pm] = locale.startsWith('en') ? (['AM', 'PM'] as const) : dayPeriodsOf(locale);
  return `${formatDate(d, timeZone)} ${pad2(hour12)}:${pad2(p.minute)} ${p.hour < 12 ? am : pm}`;
}
