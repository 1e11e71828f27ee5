import Cookies from 'js-cookie';

/** Cookie names of spec 3, shared with the old client so a browser can switch between the two. */
export const COOKIE = {
  token: 'JWT',
  refreshToken: 'refresh_token',
  store: 'store',
  terminal: 'terminal',
} as const;

// `secure` only on https: browsers drop Secure cookies written by document.cookie on plain http
// (a LAN till, the e2e server on 127.0.0.1), which would silently log everybody out.
const attributes = (): Cookies.CookieAttributes => ({
  path: '/',
  sameSite: 'strict',
  secure: typeof location !== 'undefined' && location.protocol === 'https:',
});

export function readCookie(name: string): string | undefined {
  return Cookies.get(name);
}

export function writeCookie(name: string, value: string): void {
  Cookies.set(name, value, attributes());
}

export function removeCookie(name: string): void {
  Cookies.remove(name, { path: '/' });
}

/** JSON cookie that never throws: a missing or corrupt value is `null` (the old client crashed here). */
export function readJsonCookie<T>(name: string): T | null {
  const raw = Cookies.get(name);
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** The bearer token, read by the API client on every call. */
export function readToken(): string | undefined {
  return Cookies.get(COOKIE.token) || undefined;
}
