import { describe, expect, it } from 'vitest';
import { currencyDigits, isCurrencyCode, isLocaleTag, isTimeZone, minorPerMajor } from './currency.ts';

describe('currency settings', () => {
  it('knows the minor digits of ISO 4217 currencies', () => {
    expect(currencyDigits('USD')).toBe(2);
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('BHD')).toBe(3);
    expect(minorPerMajor('JPY')).toBe(1);
    expect(minorPerMajor('KWD')).toBe(1000);
  });
  it('refuses codes that are not currencies', () => {
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('XYZ')).toBe(false);
    expect(isCurrencyCode('')).toBe(false);
    expect(() => currencyDigits('ABC')).toThrow(RangeError);
  });
  it('validates time zones and locales', () => {
    expect(isTimeZone('Pacific/Auckland')).toBe(true);
    expect(isTimeZone('America/Los_Angeles')).toBe(true);
    expect(isTimeZone('Mars/Base')).toBe(false);
    expect(isLocaleTag('de-DE')).toBe(true);
    expect(isLocaleTag('not a locale!')).toBe(false);
  });
  it('answers the same when asked again (the answers are kept: every amount on screen asks)', () => {
    for (let i = 0; i < 3; i++) {
      expect(isTimeZone('Asia/Riyadh')).toBe(true);
      expect(isTimeZone('Asia/Nowhere')).toBe(false);
      expect(isTimeZone(' Asia/Riyadh')).toBe(false);
      expect(isCurrencyCode('SAR')).toBe(true);
      expect(isCurrencyCode('SAX')).toBe(false);
    }
  });
});
