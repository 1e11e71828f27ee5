import { useSyncExternalStore } from 'react';
import { SESSION_EXPIRED_EVENT } from './api-client';
import { COOKIE, readJsonCookie, readToken, removeCookie, writeCookie } from './cookies';

/** Wire shapes of GET /api/auth/info (spec 3). Only the fields the app reads are typed. */
export interface Terminal {
  '@id'?: string;
  id: number;
  code: string;
  description?: string | null;
  isActive?: boolean;
  /** Removed before the terminal is stored in its cookie. */
  store?: unknown;
}

export interface Store {
  '@id'?: string;
  id: number;
  name: string;
  location?: string | null;
  isActive?: boolean;
  /** Money settings (issue 19); absent on an older server: USD, en-US, UTC, no rounding (lib/money.ts). */
  currency?: string | null;
  locale?: string | null;
  timeZone?: string | null;
  cashRoundingStep?: number | null;
  pricesIncludeTax?: boolean | null;
  legacyTaxBase?: boolean | null;
  /** Emptied before the store is stored in its cookie. */
  terminals: Terminal[];
}

export interface User {
  '@id'?: string;
  id: number;
  username: string;
  displayName: string;
  email?: string | null;
  roles: string[];
  /** Issue 21.1: the user's role and what it grants (older servers send neither). */
  role?: { id: number | null; key: string; name: string } | null;
  permissions?: string[];
  hasPin?: boolean;
  locale?: string | null;
  stores: Store[];
}

export interface AuthTokens {
  token: string;
  refresh_token?: string;
}

/**
 * booting: the app has not asked /auth/info yet; anonymous: logged out; authenticated: a user,
 * maybe without store/terminal (then the chooser shows); failed: /auth/info failed other than 401.
 */
export type SessionStatus = 'booting' | 'anonymous' | 'authenticated' | 'failed';

export interface SessionState {
  status: SessionStatus;
  user: User | null;
  store: Store | null;
  terminal: Terminal | null;
}

let state: SessionState = { status: 'booting', user: null, store: null, terminal: null };
const listeners = new Set<() => void>();

function setState(patch: Partial<SessionState>) {
  state = { ...state, ...patch };
  for (const listener of listeners) listener();
}

export function getSession(): SessionState {
  return state;
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True when the user may use the till: signed in with a store and a terminal. */
export const isSessionReady = (s: SessionState): boolean => s.status === 'authenticated' && !!s.user && !!s.store && !!s.terminal;

/** The current session; re-renders on change. Read `user`, `store`, `terminal`, `status`. */
export function useSession(): SessionState & { ready: boolean } {
  const s = useSyncExternalStore(subscribeSession, getSession, getSession);
  return { ...s, ready: isSessionReady(s) };
}

export const hasToken = (): boolean => !!readToken();

/**
 * Step 1 of login: keep the access token so /auth/info (and a reload during the chooser) is
 * authorised. The refresh token is not kept by script: the server sets it as an HttpOnly cookie
 * (issue 21.5), which the logout POST carries by itself.
 */
export function saveTokens(tokens: AuthTokens): void {
  writeCookie(COOKIE.token, tokens.token);
}

/** Drops the token cookies script can reach (a refresh_token written by an older release included). */
export function removeTokens(): void {
  removeCookie(COOKIE.token);
  removeCookie(COOKIE.refreshToken);
}

/**
 * Step 2 (login or app start): the user from /auth/info. At app start (`restore`) the store and
 * terminal come back from their cookies when they still belong to this user; otherwise (and always
 * right after a login) they are null and the chooser shows.
 */
export function startSession(user: User, { restore = true }: { restore?: boolean } = {}): void {
  const savedStore = restore ? readJsonCookie<Store>(COOKIE.store) : null;
  const savedTerminal = restore ? readJsonCookie<Terminal>(COOKIE.terminal) : null;
  const store = user.stores.find((s) => s.id === savedStore?.id) ?? null;
  const terminal = store?.terminals.find((t) => t.id === savedTerminal?.id) ?? null;
  setState({
    status: 'authenticated',
    user,
    store: store && terminal ? withoutTerminals(store) : null,
    terminal: store && terminal ? withoutStore(terminal) : null,
  });
}

/** Step 3: the chooser's pick. Cookies hold the store without terminals and the terminal without store. */
export function selectStoreTerminal(store: Store, terminal: Terminal): void {
  const s = withoutTerminals(store);
  const t = withoutStore(terminal);
  writeCookie(COOKIE.store, JSON.stringify(s));
  writeCookie(COOKIE.terminal, JSON.stringify(t));
  setState({ store: s, terminal: t });
}

/** Replace the signed-in user (profile update) keeping store and terminal. */
export function updateUser(user: User): void {
  if (state.user) setState({ user });
}

/**
 * Local logout: removes every session cookie and forgets the user. The server call
 * (GET /auth/logout) and the navigation live in features/auth (useLogout).
 */
export function endSession(): void {
  removeTokens();
  removeCookie(COOKIE.store);
  removeCookie(COOKIE.terminal);
  setState({ status: 'anonymous', user: null, store: null, terminal: null });
}

/** App start could not reach /auth/info (other than 401). */
export function failSession(): void {
  setState({ status: 'failed' });
}

/** Back to the state before app start (tests, retry after a failed start). */
export function resetSession(): void {
  setState({ status: 'booting', user: null, store: null, terminal: null });
}

const withoutTerminals = (store: Store): Store => ({ ...store, terminals: [] });
const withoutStore = (terminal: Terminal): Terminal => {
  const { store: _store, ...rest } = terminal;
  return rest;
};

// Any authorised call answered 401 (token expired or revoked) ends the session everywhere.
if (typeof window !== 'undefined') {
  window.addEventListener(SESSION_EXPIRED_EVENT, () => {
    if (state.status === 'authenticated') endSession();
  });
}
