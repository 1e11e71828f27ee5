import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  centsToMinor, decimalSeparator, formatAmount, formatDate, formatDateTime, formatMoney, minorToCents,
  minorToDecimalString, moneyInputText, moneyLocale, parseMoneyInput,
} from './format.ts';

const NBSP = '\u00A0';

describe('formatMoney: the currency\'s minor-unit digits through Intl', () => {
  it.each([
    [1075, 'USD', 'en-US', '$10.75'],
    [1200, 'USD', 'en-US', '$12.00'],
    [123456, 'USD', 'en-US', '$1,234.56'],
    [-450, 'USD', 'en-US', '-$4.50'],
    [0, 'USD', 'en-US', '$0.00'],
    [123450, 'EUR', 'de-DE', `1.234,50${NBSP}€`],
    [1075, 'EUR', 'de-DE', `10,75${NBSP}€`],
    [1075, 'JPY', 'en-US', '¥1,075'],
    [1075, 'JPY', 'ja-JP', '￥1,075'],
    [1075, 'KWD', 'en-US', `KWD${NBSP}1.075`],
    [5, 'KWD', 'en-US', `KWD${NBSP}0.005`],
  ])('%i %s %s -> %s', (minor, currency, locale, expected) => {
    expect(formatMoney(minor, { currency, locale })).toBe(expected);
  });

  it('writes Arabic-Indic digits in Arabic (ar-SA and plain ar)', () => {
    expect(formatMoney(1075, { currency: 'SAR', locale: 'ar-SA' })).toMatch(/١٠٫٧٥/);
    expect(formatMoney(1075, { currency: 'USD', locale: 'ar' })).toBe('\u200F١٠٫٧٥\u00A0US$\u200E');
    expect(formatMoney(1075, { currency: 'JPY', locale: 'ar' })).toMatch(/١٬٠٧٥/);
    expect(formatMoney(1075, { currency: 'KWD', locale: 'ar-SA' })).toMatch(/١٫٠٧٥/);
  });

  it('falls back to USD for a missing or unknown currency, and to the display locale', () => {
    expect(formatMoney(1075)).toBe('$10.75');
    expect(formatMoney(1075, { currency: null })).toBe('$10.75');
    expect(formatMoney(1075, { currency: 'XYZW' })).toBe('$10.75');
  });

  it('never rounds through a float', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, { currency: 'USD', locale: 'en-US' })).toBe('$90,071,992,547,409.91');
  });
});

describe('formatAmount: digits of the currency, no symbol, no grouping', () => {
  it.each([
    [123456, 'USD', 'en-US', '1234.56'],
    [1200, 'USD', 'en-US', '12.00'],
    [123450, 'EUR', 'de-DE', '1234,50'],
    [107500, 'JPY', 'en-US', '107500'],
    [1075, 'KWD', 'en-US', '1.075'],
    [-1235, 'USD', 'en-US', '-12.35'],
    [1075, 'SAR', 'ar-SA', '١٠٫٧٥'],
  ])('%i %s %s -> %s', (minor, currency, locale, expected) => {
    expect(formatAmount(minor, { currency, locale })).toBe(expected);
  });
});

describe('minor units, hundredths and input text', () => {
  it('converts the database hundredths to minor units and back', () => {
    expect(centsToMinor(107500, 'JPY')).toBe(1075);
    expect(centsToMinor(107550, 'JPY')).toBe(1076); // half away from zero
    expect(centsToMinor(1075, 'USD')).toBe(1075);
    expect(centsToMinor(1075, 'KWD')).toBe(10750);
    expect(minorToCents(1075, 'JPY')).toBe(107500);
    expect(minorToCents(10750, 'KWD')).toBe(1075);
    expect(minorToCents(-1075, 'USD')).toBe(-1075);
  });

  it('writes exact decimal strings', () => {
    expect(minorToDecimalString(5, 2)).toBe('0.05');
    expect(minorToDecimalString(-5, 3)).toBe('-0.005');
    expect(minorToDecimalString(1075, 0)).toBe('1075');
  });

  it('parses exactly the currency\'s decimals with the locale\'s separator', () => {
    expect(parseMoneyInput('10.75', { currency: 'USD', locale: 'en-US' })).toBe(1075);
    expect(parseMoneyInput('10.7', { currency: 'USD', locale: 'en-US' })).toBe(1070);
    expect(parseMoneyInput('10', { currency: 'USD', locale: 'en-US' })).toBe(1000);
    expect(parseMoneyInput('10.755', { currency: 'USD', locale: 'en-US' })).toBeNull();
    expect(parseMoneyInput('10,75', { currency: 'EUR', locale: 'de-DE' })).toBe(1075);
    expect(parseMoneyInput('1075', { currency: 'JPY', locale: 'ja-JP' })).toBe(1075);
    expect(parseMoneyInput('1075.5', { currency: 'JPY', locale: 'ja-JP' })).toBeNull();
    expect(parseMoneyInput('1.075', { currency: 'KWD', locale: 'en-US' })).toBe(1075);
    expect(parseMoneyInput('١٠٫٧٥', { currency: 'SAR', locale: 'ar-SA' })).toBe(1075);
    expect(parseMoneyInput('-4.5', { currency: 'USD', locale: 'en-US' })).toBe(-450);
    expect(parseMoneyInput('', { currency: 'USD' })).toBeNull();
    expect(parseMoneyInput('1,234.50', { currency: 'USD', locale: 'en-US' })).toBeNull();
    expect(parseMoneyInput('abc', { currency: 'USD' })).toBeNull();
  });

  it('gives the input text of an amount', () => {
    expect(moneyInputText(1075, { currency: 'USD', locale: 'en-US' })).toBe('10.75');
    expect(moneyInputText(1075, { currency: 'EUR', locale: 'de-DE' })).toBe('10,75');
    expect(moneyInputText(1075, { currency: 'JPY', locale: 'en-US' })).toBe('1075');
    expect(decimalSeparator('de-DE')).toBe(',');
    // Kept per locale: asking in turn gives each its own answer, again and again.
    for (let i = 0; i < 2; i++) {
      expect(decimalSeparator('en-US')).toBe('.');
      expect(decimalSeparator('de-DE')).toBe(',');
      expect(decimalSeparator('ar')).toBe('\u066B');
      expect(formatMoney(1075, { currency: 'SAR', locale: 'ar-SA' })).toMatch(/١٠٫٧٥/);
      expect(formatMoney(1075, { currency: 'EUR', locale: 'de-DE' })).toBe('10,75\u00A0€');
    }
  });

  it('picks the store locale in the UI language\'s digits', () => {
    expect(moneyLocale('de-DE', 'en')).toBe('de-DE');
    expect(moneyLocale('en-US', 'ar')).toBe('ar');
    expect(moneyLocale('ar-SA', 'ar')).toBe('ar-SA');
    expect(moneyLocale('ar-SA', 'en')).toBe('ar-SA-u-nu-latn');
    expect(moneyLocale(null, undefined)).toBe('en-US');
    expect(formatMoney(1075, { currency: 'SAR', locale: moneyLocale('ar-SA', 'en') })).toMatch(/10\.75/);
  });
});

describe('formatDate / formatDateTime', () => {
  it.each([
    ['2024-03-05T14:07:00Z', '05-03-2024', '05-03-2024 02:07 PM'],
    ['2024-03-05T00:05:00Z', '05-03-2024', '05-03-2024 12:05 AM'],
    ['2024-12-31T12:00:00Z', '31-12-2024', '31-12-2024 12:00 PM'],
    ['2024-01-09T09:59:59Z', '09-01-2024', '09-01-2024 09:59 AM'],
    ['2024-07-01T23:59:00Z', '01-07-2024', '01-07-2024 11:59 PM'],
  ])('%s (UTC)', (iso, date, dateTime) => {
    expect(formatDate(iso, 'UTC')).toBe(date);
    expect(formatDateTime(new Date(iso), 'UTC')).toBe(dateTime);
    expect(formatDateTime(Date.parse(iso), 'UTC')).toBe(dateTime);
  });

  it('uses the given zone', () => {
    expect(formatDateTime('2024-03-05T22:30:00Z', 'Asia/Karachi')).toBe('06-03-2024 03:30 AM');
  });

  it('uses the local clock by default', () => {
    expect(formatDateTime(new Date(2024, 2, 5, 14, 7))).toBe('05-03-2024 02:07 PM');
    expect(formatDate(new Date(2024, 2, 5, 0, 0))).toBe('05-03-2024');
  });

  it('names AM/PM in the given locale, keeping the pattern', () => {
    expect(formatDateTime('2024-03-05T14:07:00Z', 'UTC', 'en')).toBe('05-03-2024 02:07 PM');
    expect(formatDateTime('2024-03-05T14:07:00Z', 'UTC', 'ar')).toBe('05-03-2024 02:07 م');
    expect(formatDateTime('2024-03-05T09:07:00Z', 'UTC', 'ar')).toBe('05-03-2024 09:07 ص');
  });

  it('gives an empty string for an invalid date', () => {
    expect(formatDate('nonsense')).toBe('');
    expect(formatDateTime(new Date(NaN))).toBe('');
  });
});

describe('display locale', () => {
  it('formats with the locale set by the UI when none is passed', async () => {
    const { setDisplayLocale, formatDateTime: fdt, formatMoney: fm } = await import('./format.ts');
    const d = new Date(Date.UTC(2024, 2, 5, 14, 7));
    try {
      setDisplayLocale('ar');
      expect(fdt(d, 'UTC')).toBe('05-03-2024 02:07 م');
      expect(fm(1200)).toMatch(/١٢٫٠٠/);
      setDisplayLocale('en');
      expect(fdt(d, 'UTC')).toBe('05-03-2024 02:07 PM');
      expect(fm(1200)).toBe('$12.00');
    } finally {
      setDisplayLocale('en');
    }
  });
});

describe('formatMoney, any amount (property, against a reference written here)', () => {
  // Reference: the amount's digits (|minor| padded to one more than the currency's digits), a decimal
  // separator exactly when the currency has minor digits, the minus sign when negative.
  const DIGITS: Record<string, number> = { USD: 2, EUR: 2, JPY: 0, KWD: 3, SAR: 2 };
  const SEPARATOR: Record<string, string> = { 'en-US': '.', 'de-DE': ',', 'ar-SA': '\u066B' };
  it('USD, EUR (de-DE), JPY, KWD, SAR in ar-SA digits: every digit of the amount, exactly the currency\'s decimals', () => {
    fc.assert(fc.property(
      fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), fc.constantFrom('USD', 'EUR', 'JPY', 'KWD', 'SAR'), fc.constantFrom('en-US', 'de-DE', 'ar-SA'),
      (minor, currency, locale) => {
        const text = formatMoney(minor, { currency, locale });
        const digits = DIGITS[currency];
        const ascii = text.replace(/[\u0660-\u0669]/g, (d) => String(d.charCodeAt(0) - 0x660));
        if (locale === 'ar-SA') expect(text).not.toMatch(/[0-9]/); // Arabic-Indic digits only
        expect(ascii.replace(/[^0-9]/g, '')).toBe(String(Math.abs(minor)).padStart(digits + 1, '0'));
        const sep = SEPARATOR[locale] === '.' ? '\\.' : SEPARATOR[locale];
        if (digits === 0) expect(ascii).not.toMatch(new RegExp(`${sep}\\d`)); // no decimal part at all
        else expect(ascii).toMatch(new RegExp(`${sep}\\d{${digits}}(?!\\d)`)); // exactly the currency's decimals
        expect(/[-\u2212]/.test(text) || text.includes('\u061C-')).toBe(minor < 0);
      },
    ));
  });
});
