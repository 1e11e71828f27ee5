import { afterEach, describe, expect, it } from 'vitest';
import i18n, { LOCALE_STORAGE_KEY, setLanguage } from './i18n';

afterEach(async () => {
  await setLanguage('en');
  localStorage.clear();
});

describe('i18n', () => {
  it('loads namespace files and falls back to common', () => {
    expect(i18n.t('auth:login.title')).toBe('Login to Your Account');
    expect(i18n.t('auth:yesPlease')).toBe('Yes, please');
  });

  it('switches to Arabic: stored in localStorage, <html dir="rtl" lang="ar">', async () => {
    await setLanguage('ar');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(i18n.t('auth:login.submit')).toBe('دخول');
    await setLanguage('en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });
});
