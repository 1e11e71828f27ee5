/**
 * The reference client (`/work/shared/spec/reference-client.md`) as it talks to a server, over real
 * HTTP with Node's fetch (the same WHATWG fetch the browser has): every call carries
 * `content-type: application/json` (its `jsonRequest`, bodiless POSTs and DELETEs included) and
 * `Authorization: Bearer <JWT cookie>` — the literal `Bearer undefined` once the cookie is gone.
 * Query strings are built the three ways it builds them (qs, URLSearchParams with "undefined"/"null"
 * strings, templates). Not a test file itself.
 */
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, as the client's `response.json()` would; throws when the body is not JSON. */
  json: any;
}

export interface OldClient {
  /** The JWT cookie value; `undefined` after logout (the header then reads `Bearer undefined`). */
  jwt: string | undefined;
  call(method: string, path: string, body?: unknown): Promise<Reply>;
  /** `request()` with a FormData body (the CSV import): the browser sets the multipart boundary. */
  upload(path: string, form: FormData): Promise<Reply>;
  /** A navigation opened in a new tab (the product export): no Authorization header at all. */
  open(path: string): Promise<Reply>;
}

export interface OldClientServer {
  t: TestApp;
  base: string;
  /** Signs in as the POS (or admin build) does and returns a client holding the JWT cookie. */
  signIn(username: string, password?: string, role?: 'ROLE_USER' | 'ROLE_ADMIN'): Promise<OldClient>;
  close(): Promise<void>;
}

async function reply(res: Response): Promise<Reply> {
  const text = await res.text();
  let json: unknown;
  let parsed = false;
  return {
    status: res.status,
    headers: res.headers,
    text,
    get json() {
      if (!parsed) { json = JSON.parse(text); parsed = true; }
      return json;
    },
  };
}

/** The real app on its own database, listening on a loopback port, with the reference client's transport. */
export async function startOldClientServer(): Promise<OldClientServer> {
  const t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;

  function client(jwt: string | undefined): OldClient {
    const c: OldClient = {
      jwt,
      async call(method, path, body) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { authorization: `Bearer ${c.jwt}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return reply(res);
      },
      async upload(path, form) {
        const res = await fetch(`${base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${c.jwt}` }, body: form });
        return reply(res);
      },
      async open(path) {
        return reply(await fetch(`${base}${path}`));
      },
    };
    return c;
  }

  return {
    t,
    base,
    async signIn(username, password = username, role = 'ROLE_USER') {
      const anonymous = client(undefined);
      // The admin build sends ?role=ROLE_ADMIN but still role "ROLE_USER" in the body.
      const res = await anonymous.call('POST', `/api/auth/login_check?role=${role}`, { username, password, role: 'ROLE_USER' });
      expect(res.status, `sign in ${username}: ${res.text}`).toBe(200);
      expect(typeof res.json.token).toBe('string');
      expect(typeof res.json.refresh_token).toBe('string');
      return client(res.json.token);
    },
    async close() { await t.close(); },
  };
}

/** Asserts a 2xx answer and returns its JSON (every fetchJson call must get a JSON body). */
export function ok(r: Reply, what: string): any {
  expect(r.status, `${what}: ${r.status} ${r.text.slice(0, 300)}`).toBeGreaterThanOrEqual(200);
  expect(r.status, `${what}: ${r.status} ${r.text.slice(0, 300)}`).toBeLessThan(300);
  expect(() => r.json, `${what}: the body must be JSON`).not.toThrow();
  return r.json;
}

/** A hydra collection as the client reads it: `hydra:member` (array) and `hydra:totalItems` (number). */
export function hydra(r: Reply, what: string): any[] {
  const body = ok(r, what);
  expect(Array.isArray(body['hydra:member']), `${what}: hydra:member`).toBe(true);
  expect(typeof body['hydra:totalItems'], `${what}: hydra:totalItems`).toBe('number');
  return body['hydra:member'];
}

/** The generic table's query: filters, then page/itemsPerPage, then one order[...] with brackets encoded. */
export function table(filters: Record<string, string> = {}, sort?: [string, 'asc' | 'desc'], page = 1, size = 10): string {
  const q = new URLSearchParams(filters);
  q.append('page', String(page));
  q.append('itemsPerPage', String(size));
  if (sort) q.append(`order[${sort[0]}]`, sort[1]);
  return q.toString();
}

/** 422 with violations as an array and the named field among them (what the client maps to its form). */
export function violation(r: Reply, path: string): string {
  expect(r.status, r.text.slice(0, 300)).toBe(422);
  expect(Array.isArray(r.json.violations)).toBe(true);
  const v = (r.json.violations as { propertyPath: string; message: string }[]).find((x) => x.propertyPath === path);
  expect(v, `violation at ${path} in ${r.text.slice(0, 300)}`).toBeDefined();
  return v!.message;
}
