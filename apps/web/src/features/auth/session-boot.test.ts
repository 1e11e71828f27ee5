import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCookies, jsonResponse } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { getSession, resetSession, type User } from '@/lib/session';
import { LAST_USER_KEY, bootSession } from './session-boot';

const fetchMock = vi.fn<typeof fetch>();
const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const tokenFor = (id: number, username: string) => `${b64url({ alg: 'HS256' })}.${b64url({ sub: String(id), username })}.sig`;

const store = { id: 1, name: 'Main Street', terminals: [{ id: 1, code: 'T1' }] };
const cashier: User = { id: 2, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'], stores: [store] };

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  clearCookies();
  localStorage.clear();
  resetSession();
});
afterEach(() => vi.unstubAllGlobals());

function signedInTill() {
  writeCookie(COOKIE.token, tokenFor(2, 'cashier'));
  writeCookie(COOKIE.store, JSON.stringify({ ...store, terminals: [] }));
  writeCookie(COOKIE.terminal, JSON.stringify({ id: 1, code: 'T1' }));
}

describe('app start without network (issue 9)', () => {
  it('remembers the user of a successful start', async () => {
    signedInTill();
    fetchMock.mockResolvedValueOnce(jsonResponse({ user: cashier }));
    await bootSession();
    expect(getSession().status).toBe('authenticated');
    expect(JSON.parse(localStorage.getItem(LAST_USER_KEY)!)).toMatchObject({ id: 2, username: 'cashier' });
  });

  it('no answer: starts with the saved user of this token, store and terminal restored', async () => {
    signedInTill();
    localStorage.setItem(LAST_USER_KEY, JSON.stringify(cashier));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await bootSession();
    const s = getSession();
    expect(s.status).toBe('authenticated');
    expect(s.user?.username).toBe('cashier');
    expect(s.terminal?.code).toBe('T1');
  });

  it('a 503 from a proxy counts as no answer', async () => {
    signedInTill();
    localStorage.setItem(LAST_USER_KEY, JSON.stringify(cashier));
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Service Unavailable' }, 503));
    await bootSession();
    expect(getSession().status).toBe('authenticated');
  });

  it('no saved user, or the saved user is not the token\'s: the fatal start screen', async () => {
    signedInTill();
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await bootSession();
    expect(getSession().status).toBe('failed');
    resetSession();
    localStorage.setItem(LAST_USER_KEY, JSON.stringify({ ...cashier, id: 1, username: 'admin' }));
    await bootSession();
    expect(getSession().status).toBe('failed');
  });

  it('a 401 logs out and forgets the saved user', async () => {
    signedInTill();
    localStorage.setItem(LAST_USER_KEY, JSON.stringify(cashier));
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'UNAUTHORIZED', message: 'Expired JWT Token' }, 401));
    await bootSession();
    expect(getSession().status).toBe('anonymous');
    expect(localStorage.getItem(LAST_USER_KEY)).toBeNull();
  });
});
