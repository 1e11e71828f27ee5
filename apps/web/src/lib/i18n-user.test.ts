import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from '@testing-library/react';
import { COOKIE, writeCookie } from './cookies';
import i18n, { LOCALE_STORAGE_KEY, setLanguage } from './i18n';
import { endSession, resetSession, startSession, type User } from './session';

const user = (id: number, locale: string | null): User => ({ id, username: `u${id}`, displayName: `User ${id}`, roles: ['ROLE_USER'], locale, stores: [] });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  resetSession();
  fetchMock.mockReset();
  fetchMock.mockImplementation(async () => new Response(JSON.stringify({ locale: 'ar' }), { headers: { 'content-type': 'application/json' } }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(async () => {
  endSession();
  await setLanguage('en');
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('the language is remembered per user (issue 23)', () => {
  it('a switch while signed in is sent to the server for this user (POST /api/locale)', async () => {
    writeCookie(COOKIE.token, 'jwt');
    startSession(user(1, null));
    await setLanguage('ar');
    expect(fetchMock).toHaveBeenCalledWith('/api/locale', expect.objectContaining({ method: 'POST', body: JSON.stringify({ locale: 'ar' }) }));
  });

  it("signing in applies the user's own language, and it survives signing out", async () => {
    startSession(user(1, 'ar'));
    await waitFor(() => expect(i18n.language).toBe('ar'));
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('ar');
    endSession();
    expect(i18n.language).toBe('ar');
    // Another user who chose English gets English; the first one gets Arabic back on the next sign-in.
    startSession(user(2, 'en'));
    await waitFor(() => expect(i18n.language).toBe('en'));
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    endSession();
    startSession(user(1, 'ar'));
    await waitFor(() => expect(i18n.language).toBe('ar'));
  });

  it('a language picked on the login page wins at sign-in and becomes the user\'s own', async () => {
    await setLanguage('ar'); // signed out: the login page's switch
    expect(fetchMock).not.toHaveBeenCalled();
    writeCookie(COOKIE.token, 'jwt');
    startSession(user(4, 'en'));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledWith('/api/locale', expect.objectContaining({ method: 'POST', body: JSON.stringify({ locale: 'ar' }) })));
    expect(i18n.language).toBe('ar');
    // Only that sign-in: the next user gets their own language again.
    endSession();
    startSession(user(5, 'en'));
    await waitFor(() => expect(i18n.language).toBe('en'));
  });

  it('a user who never chose keeps the language of this device', async () => {
    await setLanguage('ar');
    startSession(user(3, null));
    expect(i18n.language).toBe('ar');
    endSession();
    await setLanguage('en');
    startSession(user(3, null));
    expect(i18n.language).toBe('en');
  });

  it('the same user again (a profile update) does not override a switch made since', async () => {
    startSession(user(4, 'en'));
    await setLanguage('ar');
    startSession(user(4, 'en'));
    expect(i18n.language).toBe('ar');
  });
});
