/**
 * Store money settings shared by till and server: which currencies, locales and time zones exist,
 * and how many minor-unit digits a currency has (ISO 4217 through Intl: USD 2, JPY 0, KWD 3).
 */

const digitsCache = new Map<string, number>();

/** The runtime's ISO 4217 codes, read once (a till formats thousands of amounts a second: no list per call). */
let currencyCodes: ReadonlySet<string> | null | undefined;
function supportedCurrencies(): ReadonlySet<string> | null {
  if (currencyCodes === undefined) {
    const supported = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf;
    currencyCodes = supported ? new Set(supported('currency')) : null;
  }
  return currencyCodes;
}

/** True for an ISO 4217 code this runtime knows ('USD', 'JPY', 'KWD'); case-sensitive, three letters. */
export function isCurrencyCode(code: unknown): code is string {
  if (typeof code !== 'string' || !/^[A-Z]{3}$/.test(code)) return false;
  const known = supportedCurrencies();
  if (known) return known.has(code);
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

/** Minor-unit digits of a currency: USD 2, JPY 0, KWD 3. Throws on an unknown code. */
export function currencyDigits(code: string): number {
  let digits = digitsCache.get(code);
  if (digits === undefined) {
    if (!isCurrencyCode(code)) throw new RangeError(`Unknown currency: ${code}`);
    digits = new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(code, digits);
  }
  return digits;
}

/** Minor units per major unit: USD 100, JPY 1, KWD 1000. */
export function minorPerMajor(code: string): number {
  return 10 ** currencyDigits(code);
}

/**
 * Zones already found valid: building an Intl.DateTimeFormat to test a name costs ~0.1 ms and every
 * money display asks (the IANA list is a few hundred names, so the set stays small; unknown names
 * are not kept, so junk input cannot grow it).
 */
const knownZones = new Set<string>();

/** True for an IANA time zone name this runtime knows ('Pacific/Auckland', 'UTC'). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || zone === '') return false;
  if (knownZones.has(zone)) return true;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    return false;
  }
  if (knownZones.size < 2048) knownZones.add(zone);
  return true;
}

/** True for a BCP 47 locale tag Intl accepts ('en-US', 'de-DE', 'ar-SA'). */
export function isLocaleTag(tag: unknown): tag is string {
  if (typeof tag !== 'string' || tag === '') return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
