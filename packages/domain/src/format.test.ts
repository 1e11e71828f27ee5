import { describe, expect, it } from 'vitest';
import { formatAmount, formatCurrency, formatDate, formatDateTime } from './format.ts';

describe('formatCurrency (USD, at most 1 fraction digit)', () => {
  it.each([
    [1250, '$12.5'],
    [1200, '$12.0'],
    [123456, '$1,234.6'],
    [1235, '$12.4'], // 12.35 rounds half away from zero on the exact decimal
    [1225, '$12.3'],
    [-1235, '-$12.4'],
    [-4, '$0.0'],
    [0, '$0.0'],
    [30, '$0.3'],
  ])('%i -> %s', (cents, expected) => {
    expect(formatCurrency(cents)).toBe(expected);
  });

  it('takes a locale', () => {
    expect(formatCurrency(123456, 'en-US')).toBe('$1,234.6');
    expect(formatCurrency(123456, 'ar')).toMatch(/US\$|\$/);
    // Right-to-left: a left-to-right mark keeps 'US$' together next to the amount.
    expect(formatCurrency(1075, 'ar')).toBe('\u200F10.8\u00A0US$\u200E');
  });
});

describe('formatAmount (at most 1 fraction digit, no grouping)', () => {
  it.each([
    [123456, '1234.6'],
    [1200, '12'],
    [1250, '12.5'],
    [100000000, '1000000'],
    [-1235, '-12.4'],
    [0, '0'],
  ])('%i -> %s', (cents, expected) => {
    expect(formatAmount(cents)).toBe(expected);
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
    const { setDisplayLocale, formatDateTime: fdt, formatCurrency: fc } = await import('./format.ts');
    const d = new Date(Date.UTC(2024, 2, 5, 14, 7));
    try {
      setDisplayLocale('ar');
      expect(fdt(d, 'UTC')).toBe('05-03-2024 02:07 م');
      expect(fc(1200)).not.toBe('$12.0');
      setDisplayLocale('en');
      expect(fdt(d, 'UTC')).toBe('05-03-2024 02:07 PM');
      expect(fc(1200)).toBe('$12.0');
    } finally {
      setDisplayLocale('en');
    }
  });
});
