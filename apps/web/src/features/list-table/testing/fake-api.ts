/**
 * Test helper: a fake /api behind `fetch`. Routes are "METHOD /path" (no query) -> handler; every
 * request is recorded with its parsed query and JSON body. Only imported by tests.
 */
import { vi } from 'vitest';
import { selectStoreTerminal, startSession, type Store, type Terminal, type User } from '@/lib/session';

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
}

type Handler = (req: FakeRequest) => unknown | Promise<unknown>;

export function fakeApi(routes: Record<string, Handler | unknown>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api/, '');
    let body: unknown = undefined;
    if (typeof init?.body === 'string') body = JSON.parse(init.body);
    else if (init?.body instanceof FormData) body = init.body;
    const req: FakeRequest = { method, path, query: url.searchParams, body };
    requests.push(req);
    const key = `${method} ${path}`;
    const route = key in routes ? routes[key] : Object.entries(routes).find(([k]) => new RegExp(`^${k.replace(/:\w+/g, '[^/]+')}$`).test(key))?.[1];
    if (route === undefined) return new Response(JSON.stringify({ message: `no route ${key}` }), { status: 404, headers: { 'content-type': 'application/json' } });
    const result = typeof route === 'function' ? await (route as Handler)(req) : route;
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result ?? {}), { status: method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    requests,
    find: (method: string, path: string) => requests.filter((r) => r.method === method && r.path === path),
  };
}

export const hydra = <T>(rows: T[]) => ({ 'hydra:member': rows, 'hydra:totalItems': rows.length });

export const unprocessable = (violations: Array<{ propertyPath: string; message: string }>, errorMessage = 'Validation failed') =>
  new Response(JSON.stringify({ code: 'VALIDATION_FAILED', message: errorMessage, errorMessage, violations }), {
    status: 422,
    headers: { 'content-type': 'application/json' },
  });

/** A signed-in admin on store 1 (Main Street), terminal 1 (T1). */
/** Signs the admin in at store 1, terminal 1; `storeSettings` sets the store's money settings (currency, locale...). */
export function signIn(storeSettings: Partial<Store> = {}) {
  const terminal: Terminal = { id: 1, code: 'T1' };
  const store: Store = { id: 1, name: 'Main Street', terminals: [terminal], ...storeSettings };
  const user: User = { id: 7, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'], stores: [store] };
  startSession(user);
  selectStoreTerminal(store, terminal);
  return { user, store, terminal };
}
