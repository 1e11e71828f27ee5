/**
 * The current store's money settings and the formatters built on them (issue 19). Every amount
 * on screen goes through `useMoney()` (or `getMoney()` outside React): the chosen store's currency
 * with exactly its minor-unit digits, the store's locale conventions in the UI language's digits.
 * A server that does not send the settings yet gives the old behaviour: USD, en-US, UTC, no
 * cash rounding. The app's amounts are the database's hundredths ("cents", as @pos/domain/money
 * keeps them for every currency); the helpers here convert to the currency's minor units.
 */
import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { centsToMinor, formatMoney, moneyInputText, moneyLocale, parseMoneyInput, decimalSeparator, getDisplayLocale } from '@pos/domain/format';
import { currencyDigits, isCurrencyCode, isTimeZone } from '@pos/domain/currency';
import { tryParseScaled } from '@pos/domain/money';
import { getSession, subscribeSession, type Store } from './session';

export interface MoneySettings {
  currency: string;
  /** The store's locale (BCP 47). */
  storeLocale: string;
  timeZone: string;
  /** Minor units of the currency; 0 = no cash rounding. */
  cashRoundingStep: number;
  pricesIncludeTax: boolean;
  legacyTaxBase: boolean;
}

export const DEFAULT_MONEY_SETTINGS: MoneySettings = {
  currency: 'USD', storeLocale: 'en-US', timeZone: 'UTC', cashRoundingStep: 0, pricesIncludeTax: false, legacyTaxBase: false,
};

/** The settings of a store as the server sent it; each missing or unusable field takes the old default. */
export function moneySettingsOf(store: Partial<Store> | null | undefined): MoneySettings {
  if (!store) return DEFAULT_MONEY_SETTINGS;
  const d = DEFAULT_MONEY_SETTINGS;
  return {
    currency: isCurrencyCode(store.currency) ? store.currency : d.currency,
    storeLocale: typeof store.locale === 'string' && store.locale ? store.locale : d.storeLocale,
    timeZone: isTimeZone(store.timeZone) ? store.timeZone : d.timeZone,
    cashRoundingStep: Number.isSafeInteger(store.cashRoundingStep) && (store.cashRoundingStep ?? 0) > 0 ? (store.cashRoundingStep as number) : 0,
    pricesIncludeTax: store.pricesIncludeTax === true,
    legacyTaxBase: store.legacyTaxBase === true,
  };
}

/** The chosen store; the back office has none chosen, then the user's first store. */
function currentStore(): Store | null {
  const s = getSession();
  return s.store ?? s.user?.stores?.[0] ?? null;
}

export interface Money extends MoneySettings {
  /** The locale amounts are written in (store conventions, UI language digits). */
  locale: string;
  /** Minor-unit digits of the currency (USD 2, JPY 0, KWD 3). */
  digits: number;
  /**
   * Hundredths ("cents") -> "$10.75" / "¥1,075" / "10,75 €". Only for figures still kept in hundredths
   * (an old cart's one-tap rounding adjustment, the static demo dashboard); everything else uses `formatMinor`.
   */
  format(cents: number): string;
  /** A wire amount (major units, number or decimal string) -> formatted; junk shows as 0. */
  formatWire(value: unknown): string;
  /** A wire amount -> minor units of the currency (KWD 1.275 -> 1275): exact sums for ledgers. */
  minor(value: unknown): number;
  /** The locale's decimal separator for inputs. */
  separator: string;
  /** Minor units of the currency (KWD 1275 fils) -> "KWD 1.275": the till's figures, exact for every currency. */
  formatMinor(minor: number): string;
  /** Minor units -> the text of a money input ("1.275" in KWD, "1075" in JPY). */
  inputTextMinor(minor: number): string;
  /** A money input's text -> minor units; null when it is not an amount with at most `digits` decimals. */
  parseInputMinor(text: string): number | null;
}

export function moneyFor(settings: MoneySettings, uiLanguage: string): Money {
  const locale = moneyLocale(settings.storeLocale, uiLanguage);
  const opts = { currency: settings.currency, locale };
  const inputOpts = { currency: settings.currency, locale: moneyLocale(settings.storeLocale, 'en') };
  const format = (cents: number) => formatMoney(centsToMinor(cents, settings.currency), opts);
  return {
    ...settings,
    locale,
    digits: currencyDigits(settings.currency),
    format,
    // A wire amount is read to the currency's own digits, so a KWD 1.275 shows all three.
    formatWire: (value) => formatMoney(wireMinor(value, settings.currency), opts),
    minor: (value) => wireMinor(value, settings.currency),
    separator: decimalSeparator(inputOpts.locale),
    formatMinor: (minor) => formatMoney(minor, opts),
    inputTextMinor: (minor) => moneyInputText(minor, inputOpts),
    parseInputMinor: (text) => (text.trim() === '' ? null : parseMoneyInput(text, inputOpts)),
  };
}

const cache = new Map<string, Money>();

function cachedMoney(settings: MoneySettings, uiLanguage: string): Money {
  // Every amount on screen asks: a plain key, no serialising per call.
  const key = `${Object.values(settings).join('|')}|${uiLanguage}`;
  let m = cache.get(key);
  if (!m) {
    m = moneyFor(settings, uiLanguage);
    cache.set(key, m);
  }
  return m;
}

/** The current store's money, outside React (CSV export, printing). */
export function getMoney(): Money {
  return cachedMoney(moneySettingsOf(currentStore()), getDisplayLocale());
}

/**
 * The current store's money in the UI language; re-renders when the store or the language changes.
 * `own`: a record's own store (an order's `store`): its settings win when it carries a currency.
 */
export function useMoney(own?: Partial<Store> | null): Money {
  const { i18n } = useTranslation();
  const store = useSyncExternalStore(subscribeSession, currentStore, currentStore);
  return cachedMoney(moneySettingsOf(own?.currency ? own : store), i18n.language || 'en');
}

/** A wire amount in minor units of `currency` (exact to its digits); anything else 0. */
export function wireMinor(value: unknown, currency: string): number {
  if (typeof value !== 'number' && typeof value !== 'string') return 0;
  return tryParseScaled(value, currencyDigits(currency)) ?? 0;
}
