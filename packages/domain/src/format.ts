/**
 * Display formatting: money in a store's currency with exactly its minor-unit digits (issue 19:
 * USD 2, JPY 0, KWD 3) in the UI language's digits, the matching input text and its parser, and
 * dd-MM-yyyy [hh:mm a] dates. Amounts are handed to Intl as exact decimal strings built from
 * integers, so nothing is ever rounded on a binary float.
 *
 * Two units meet here: the currency's MINOR units (`formatMoney`, `parseMoneyInput`: 1075 JPY is
 * ¥1,075, 1075 KWD is KWD 1.075) and the hundredths the database and `@pos/domain/money` keep for
 * every currency (numeric(20,2), "cents"); `centsToMinor` / `minorToCents` convert between them.
 */
import { localParts, toDate } from './calendar.ts';
import { currencyDigits, isCurrencyCode } from './currency.ts';
import { divRoundHalfAway, toSafeNumber } from './money.ts';

const RLM = '\u200F';
const LRM = '\u200E';

/**
 * The locale used when a caller passes none: the web app sets it when the language changes, so every
 * amount and date on screen follows the UI language (the server never calls this and stays 'en').
 */
let displayLocale = 'en';
export function setDisplayLocale(locale: string): void { displayLocale = locale || 'en'; }
export function getDisplayLocale(): string { return displayLocale; }

/** Which currency, and which locale's conventions, an amount is written in. */
export interface MoneyFormatOptions {
  /** ISO 4217 code; an unknown or missing code falls back to USD (what every store had before). */
  currency?: string | null;
  /** BCP 47 tag; default: the display locale. Arabic locales write Arabic-Indic digits. */
  locale?: string | null;
}

const moneyFormatters = new Map<string, Intl.NumberFormat>();

const currencyOf = (code: string | null | undefined): string => (code && isCurrencyCode(code) ? code : 'USD');

/**
 * Per-locale answers kept for the next call: canonicalising a tag and asking Intl for a separator
 * cost more than the formatting itself, and a till formats every amount of the cart per frame.
 * Bounded (a handful of locales in practice; junk tags cannot grow it past the cap).
 */
function memo(fn: (locale: string) => string): (locale: string) => string {
  const cache = new Map<string, string>();
  return (locale) => {
    let v = cache.get(locale);
    if (v === undefined) {
      v = fn(locale);
      if (cache.size >= 256) cache.clear();
      cache.set(locale, v);
    }
    return v;
  };
}

/** Arabic locales get Arabic-Indic digits unless the tag names a numbering system ('ar' alone is Latin in CLDR). */
const withDigits = memo((locale: string): string => {
  let tag = 'en';
  try {
    tag = Intl.getCanonicalLocales(locale)[0] ?? 'en';
  } catch {
    return 'en';
  }
  return tag.split('-')[0] === 'ar' && !/-u(-[a-z0-9]+)*-nu-/.test(tag) ? `${tag}-u-nu-arab` : tag;
});

/**
 * The locale money is written in for a store locale and the UI language: the store's own
 * conventions (de-DE: "10,75 €"), but always in the UI language's digits; an Arabic UI in a
 * non-Arabic store writes 'ar' (right to left, Arabic digits).
 */
export function moneyLocale(storeLocale: string | null | undefined, uiLanguage: string | null | undefined): string {
  const ui = (uiLanguage || 'en').split('-')[0]!;
  const store = storeLocale || 'en-US';
  const storeLanguage = store.split('-')[0];
  if (ui === 'ar') return storeLanguage === 'ar' ? store : 'ar';
  return storeLanguage === 'ar' || /-u(-[a-z0-9]+)*-nu-/.test(store) ? `${store.split('-u-')[0]}-u-nu-latn` : store;
}

/** The minor units as an exact decimal string with exactly `digits` fraction digits: (1075, 2) -> "10.75". */
export function minorToDecimalString(minor: number, digits: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`amount must be a safe integer, got ${minor}`);
  const negative = minor < 0;
  const text = Math.abs(minor).toString().padStart(digits + 1, '0');
  const int = text.slice(0, text.length - digits);
  const frac = text.slice(text.length - digits);
  return `${negative ? '-' : ''}${int}${digits ? `.${frac}` : ''}`;
}

function moneyFormatter(locale: string, currency: string, style: 'currency' | 'decimal'): Intl.NumberFormat {
  const key = `${style}|${locale}|${currency}`;
  let f = moneyFormatters.get(key);
  if (!f) {
    const digits = currencyDigits(currency);
    f = new Intl.NumberFormat(locale, {
      ...(style === 'currency' ? { style, currency } : { useGrouping: false }),
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      signDisplay: 'negative',
    });
    moneyFormatters.set(key, f);
  }
  return f;
}

function rtlSafe(text: string): string {
  // Right-to-left locales: the '$' ending 'US$' is a bidi neutral and would drift to the far side
  // of the amount; a left-to-right mark after it keeps 'US$' in one piece.
  return text.includes(RLM) ? text.replace(/([A-Za-z])(\p{Sc})/u, `$1$2${LRM}`) : text;
}

/**
 * An amount in MINOR units of its currency, with exactly the currency's digits:
 * (1075, USD, en-US) -> "$10.75"; (123450, EUR, de-DE) -> "1.234,50 €"; (1075, JPY) -> "¥1,075";
 * (1075, KWD) -> "KWD 1.075"; (1075, SAR, ar-SA) -> "‏١٠٫٧٥ ر.س.‏".
 */
export function formatMoney(minor: number, options: MoneyFormatOptions = {}): string {
  const currency = currencyOf(options.currency);
  const locale = withDigits(options.locale || displayLocale);
  const text = moneyFormatter(locale, currency, 'currency').format(minorToDecimalString(minor, currencyDigits(currency)) as Intl.StringNumericLiteral);
  return rtlSafe(text);
}

/** Like formatMoney without the currency and without grouping: (123450, EUR, de-DE) -> "1234,50". */
export function formatAmount(minor: number, options: MoneyFormatOptions = {}): string {
  const currency = currencyOf(options.currency);
  const locale = withDigits(options.locale || displayLocale);
  return moneyFormatter(locale, currency, 'decimal').format(minorToDecimalString(minor, currencyDigits(currency)) as Intl.StringNumericLiteral);
}

/** The database's hundredths ("cents", numeric(20,2)) in minor units of `currency`: JPY 107500 -> 1075, KWD 1075 -> 10750. */
export function centsToMinor(cents: number, currency?: string | null): number {
  const digits = currencyDigits(currencyOf(currency));
  if (digits === 2) return cents;
  if (digits > 2) return toSafeNumber(BigInt(cents) * 10n ** BigInt(digits - 2));
  return toSafeNumber(divRoundHalfAway(BigInt(cents), 10n ** BigInt(2 - digits)));
}

/** Minor units of `currency` in hundredths (KWD keeps its third digit only to the hundredth the database stores). */
export function minorToCents(minor: number, currency?: string | null): number {
  const digits = currencyDigits(currencyOf(currency));
  if (digits === 2) return minor;
  if (digits < 2) return toSafeNumber(BigInt(minor) * 10n ** BigInt(2 - digits));
  return toSafeNumber(divRoundHalfAway(BigInt(minor), 10n ** BigInt(digits - 2)));
}

const separatorOf = memo((locale: string) => new Intl.NumberFormat(locale).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ?? '.');

/** The locale's decimal separator ('.' en-US, ',' de-DE, '٫' ar). */
export function decimalSeparator(locale?: string | null): string {
  return separatorOf(withDigits(locale || displayLocale));
}

const ARABIC_INDIC = /[\u0660-\u0669\u06F0-\u06F9]/g;

/**
 * Parses what a cashier typed into MINOR units: Latin or Arabic-Indic digits, an optional minus,
 * and '.' or the locale's decimal separator followed by at most the currency's digits ("10.755"
 * in USD, "10.5" in JPY are refused: null). No grouping. '' is null.
 */
export function parseMoneyInput(text: string, options: MoneyFormatOptions = {}): number | null {
  const currency = currencyOf(options.currency);
  const digits = currencyDigits(currency);
  const sep = decimalSeparator(options.locale);
  let t = text.trim().replace(ARABIC_INDIC, (d) => String((d.charCodeAt(0) & 0xf) % 10)).replace(/\u2212/g, '-');
  if (sep !== '.') t = t.split(sep).join('.');
  t = t.replace(/\u066B/g, '.');
  const m = /^(-)?(\d*)(?:\.(\d*))?$/.exec(t);
  if (!m || (m[2] === '' && !m[3])) return null;
  const frac = m[3] ?? '';
  if (frac.length > digits) return null;
  const minor = Number(`${m[2] || '0'}${frac.padEnd(digits, '0')}`);
  if (!Number.isSafeInteger(minor)) return null;
  return m[1] && minor !== 0 ? -minor : minor;
}

/** The input text of an amount: exactly the currency's digits, the locale's separator, Latin digits, no grouping. */
export function moneyInputText(minor: number, options: MoneyFormatOptions = {}): string {
  const currency = currencyOf(options.currency);
  const text = minorToDecimalString(minor, currencyDigits(currency));
  const sep = decimalSeparator(options.locale);
  return sep === '.' || sep === '\u066B' ? text : text.replace('.', sep);
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
