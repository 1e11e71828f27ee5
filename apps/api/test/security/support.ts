/**
 * Shared helpers of the security and reliability suites: principals, route-table walking, the
 * error-shape check, database snapshots. Everything here is generic: it reads app.routeTable so a
 * route added tomorrow is attacked by the same tests without anyone editing them.
 */
import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import bcrypt from 'bcryptjs';
import { createTokenService } from '../../src/plugins/auth.ts';
import { userAccount, userStore } from '../../src/db/schema/index.ts';
import type { Db } from '../../src/db/client.ts';
import { buildApp } from '../../src/app.ts';
import type { AppConfig } from '../../src/config.ts';
import { sqlState } from '../../src/plugins/errors.ts';
import { captureMailer, openTestDatabase } from '../helpers.ts';

export type Access = 'public' | 'user' | 'admin';
export interface Route { method: string; url: string; auth: string }

/** How many cases a property runs: FUZZ_RUNS scales everything (npm run soak sets 50 000). */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 0) || 0;
export const SOAK = FUZZ_RUNS > 0;

export const WRITE_METHODS = new Set(['post', 'put', 'patch', 'delete']);

/** Every /api route of the app (method lower-case), deduplicated, in registration order. */
export function apiRoutes(app: FastifyInstance): Route[] {
  const seen = new Set<string>();
  const out: Route[] = [];
  for (const r of app.routeTable) {
    const key = `${r.method} ${r.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ method: r.method.toLowerCase(), url: r.url, auth: r.auth });
  }
  return out;
}

/** Names of the path parameters of a Fastify URL ("/api/x/:id(\\d+)/y/:other" -> ["id", "other"]). */
export function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
}

/** Fills every path parameter (and a trailing wildcard) with a value. */
export function fillPath(url: string, value: string | number | ((name: string) => string | number)): string {
  const pick = typeof value === 'function' ? value : () => value;
  return url
    .replace(/:([A-Za-z0-9_]+)(\([^)]*\))?/g, (_m, name: string) => encodeURIComponent(String(pick(name))))
    .replace(/\*$/, 'x');
}

/** The rows of a list answer, whatever its envelope: hydra, {list}, a bare array. */
export function membersOf(body: unknown): Record<string, any>[] | null {
  if (Array.isArray(body)) return body.filter((x) => x && typeof x === 'object');
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  for (const key of ['hydra:member', 'member', 'list', 'items', 'data']) {
    if (Array.isArray(b[key])) return (b[key] as unknown[]).filter((x): x is Record<string, any> => !!x && typeof x === 'object');
  }
  return null;
}

/** The total a list answer announces (hydra:totalItems, total), if any. */
export function totalOf(body: unknown): number | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return Array.isArray(body) ? body.length : null;
  const b = body as Record<string, unknown>;
  for (const key of ['hydra:totalItems', 'totalItems', 'total', 'count']) if (typeof b[key] === 'number') return b[key] as number;
  return null;
}

/** The numeric id of a record as the API shows it (id, or the tail of @id). */
export function idOf(rec: unknown): number | null {
  if (!rec || typeof rec !== 'object') return null;
  const r = rec as Record<string, unknown>;
  if (typeof r.id === 'number' && Number.isInteger(r.id)) return r.id;
  if (typeof r['@id'] === 'string') {
    const m = /\/(\d+)$/.exec(r['@id']);
    if (m) return Number(m[1]);
  }
  return null;
}

/** A single-record answer: the record itself, or the one object inside {order: {...}}-style wrappers. */
export function recordOf(body: unknown): Record<string, any> | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as Record<string, any>;
  if (idOf(b) != null) return b;
  const objects = Object.values(b).filter((v) => v && typeof v === 'object' && !Array.isArray(v) && idOf(v) != null);
  return objects.length === 1 ? (objects[0] as Record<string, any>) : null;
}

/**
 * What is wrong with an error answer, or null: every refusal is JSON {code: string, message: string},
 * a 422 also carries violations [{propertyPath, message}], and nothing shows a stack or SQL.
 */
export function errorShapeProblem(res: LightMyRequestResponse): string | null {
  let body: any;
  try { body = JSON.parse(res.body); } catch { return `not JSON: ${res.body.slice(0, 200)}`; }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `not an object: ${res.body.slice(0, 200)}`;
  if (typeof body.code !== 'string' || !body.code) return `no string code: ${res.body.slice(0, 200)}`;
  if (typeof body.message !== 'string') return `no string message: ${res.body.slice(0, 200)}`;
  if (res.statusCode === 422) {
    if (!Array.isArray(body.violations)) return `422 without a violations array: ${res.body.slice(0, 200)}`;
    for (const v of body.violations) {
      if (!v || typeof v.propertyPath !== 'string' || typeof v.message !== 'string') return `bad violation ${JSON.stringify(v).slice(0, 200)}`;
    }
  }
  if (leaksInternals(res.body)) return `leaks internals: ${res.body.slice(0, 300)}`;
  return null;
}

/** A stack frame, a source path, or SQL text in a body meant for a client. */
export function leaksInternals(text: string): boolean {
  return /\bat [\w.<>]+ \(|node_modules|\.ts:\d+|\/work\/|Failed query|\bselect .* from\b|\binsert into\b|\bstack\b/i.test(text);
}

/** Asserts a refusal: 4xx (never 5xx) in the one error shape. */
export function expectRefusal(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
  expect(errorShapeProblem(res), what).toBeNull();
}

export interface Principal { name: string; headers: Record<string, string>; userId?: number; storeIds?: number[] }

export interface Principals {
  anonymous: Principal;
  expired: Principal;
  tampered: Principal;
  forged: Principal;
  foreign: Principal;
  algNone: Principal;
  inactive: Principal;
  cashierA: Principal;
  adminA: Principal;
  adminB: Principal;
  adminBoth: Principal;
}

export async function ensureUser(db: Db, username: string, roles: string[], storeIds: number[], active = true): Promise<number> {
  const hash = await bcrypt.hash(`${username}-pw`, 4);
  const [row] = await db.insert(userAccount).values({ username, password: hash, displayName: username, roles, isActive: active })
    .onConflictDoUpdate({ target: userAccount.username, set: { roles, isActive: active } })
    .returning({ id: userAccount.id });
  await db.delete(userStore).where(sql`${userStore.userId} = ${row.id}`);
  if (storeIds.length) await db.insert(userStore).values(storeIds.map((storeId) => ({ userId: row.id, storeId })));
  return row.id;
}

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/**
 * The callers of the matrix. Store A = 1 'Main Street', store B = 2 'Harbour Mall' (demo seed).
 * Admin of A and admin of B are created here (ROLE_ADMIN, one store each); tokens are signed with
 * the app's own service so no login throttling gets in the way.
 */
export async function makePrincipals(app: FastifyInstance, secret: string): Promise<Principals> {
  const db = app.db;
  const [cashier] = await db.select().from(userAccount).where(sql`${userAccount.username} = 'cashier'`);
  const [admin] = await db.select().from(userAccount).where(sql`${userAccount.username} = 'admin'`);
  const adminA = await ensureUser(db, 'sec_admin_a', ['ROLE_ADMIN', 'ROLE_USER'], [1]);
  const adminB = await ensureUser(db, 'sec_admin_b', ['ROLE_ADMIN', 'ROLE_USER'], [2]);
  const inactive = await ensureUser(db, 'sec_inactive', ['ROLE_ADMIN', 'ROLE_USER'], [1, 2], false);
  const bearer = async (id: number, username: string, roles: string[]) => ({ authorization: `Bearer ${await app.tokens.sign({ id, username, roles })}` });
  const cashierToken = await app.tokens.sign({ id: cashier.id, username: 'cashier', roles: cashier.roles });
  const flipped = flipSignature(cashierToken);
  // A token claiming to be the admin, but with the cashier's signature (payload swapped).
  const [h, , s] = cashierToken.split('.');
  const forged = `${h}.${b64url({ sub: String(admin.id), username: 'admin', roles: ['ROLE_ADMIN'], exp: Math.floor(Date.now() / 1000) + 3600 })}.${s}`;
  const expired = await createTokenService(secret, -60).sign({ id: admin.id, username: 'admin', roles: admin.roles });
  const foreign = await createTokenService('some-other-secret', 3600).sign({ id: admin.id, username: 'admin', roles: admin.roles });
  const algNone = `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url({ sub: String(admin.id), exp: Math.floor(Date.now() / 1000) + 3600 })}.`;
  return {
    anonymous: { name: 'no token', headers: {} },
    expired: { name: 'expired token', headers: { authorization: `Bearer ${expired}` } },
    tampered: { name: 'tampered token (signature bytes changed)', headers: { authorization: `Bearer ${flipped}` } },
    forged: { name: 'forged token (admin payload, cashier signature)', headers: { authorization: `Bearer ${forged}` } },
    foreign: { name: 'token signed with another secret', headers: { authorization: `Bearer ${foreign}` } },
    algNone: { name: 'alg=none token', headers: { authorization: `Bearer ${algNone}` } },
    inactive: { name: 'deactivated admin', headers: await bearer(inactive, 'sec_inactive', ['ROLE_ADMIN']), userId: inactive },
    cashierA: { name: 'cashier of store A', headers: { authorization: `Bearer ${cashierToken}` }, userId: cashier.id, storeIds: [1] },
    adminA: { name: 'admin of store A', headers: await bearer(adminA, 'sec_admin_a', ['ROLE_ADMIN']), userId: adminA, storeIds: [1] },
    adminB: { name: 'admin of store B', headers: await bearer(adminB, 'sec_admin_b', ['ROLE_ADMIN']), userId: adminB, storeIds: [2] },
    adminBoth: { name: 'admin of both stores', headers: await bearer(admin.id, 'admin', admin.roles), userId: admin.id, storeIds: [1, 2] },
  };
}

/** A token whose signature bytes are flipped (not just its payload swapped). */
export function flipSignature(token: string): string {
  const sig = token.split('.')[2];
  return token.slice(0, -sig.length) + (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
}

let tableCache: WeakMap<object, string[]> = new WeakMap();

/** Tables of the public schema (cached per db). */
export async function tableNames(db: Db): Promise<string[]> {
  const cached = tableCache.get(db);
  if (cached) return cached;
  const res: any = await db.execute(sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`);
  const names = (res.rows ?? res).map((r: any) => String(r.table_name));
  tableCache.set(db, names);
  return names;
}
export function resetTableCache() { tableCache = new WeakMap(); }

/**
 * Row counts of every table, in one statement. Tables whose rows a refused request may legitimately
 * write are left out: failed-login counters (the point of rate limiting), the audit log (a failed
 * sign-in or a refused approval is recorded: issue 21.4) and drizzle's own.
 */
export async function rowCounts(db: Db, exclude: string[] = ['login_attempt', 'audit_log']): Promise<Record<string, number>> {
  const names = (await tableNames(db)).filter((n) => !exclude.includes(n) && !n.startsWith('__drizzle'));
  const q = `select ${names.map((n) => `(select count(*) from "${n}")::int as "${n}"`).join(', ')}`;
  const res: any = await db.execute(sql.raw(q));
  return { ...(res.rows ?? res)[0] };
}

/** Table -> [before, after] for the tables whose counts differ. */
export function countDiff(a: Record<string, number>, b: Record<string, number>): Record<string, [number, number]> {
  const out: Record<string, [number, number]> = {};
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[k] !== b[k]) out[k] = [a[k], b[k]];
  return out;
}

/** A record as compared before/after a refused write: volatile presentation fields dropped. */
export function stable(rec: unknown): unknown {
  return JSON.parse(JSON.stringify(rec ?? null), (k, v) => (k === 'updatedAt' || k === 'time' ? undefined : v));
}

/** Standard JSON request. */
export function inject(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  const hasBody = payload !== undefined && method !== 'get' && method !== 'delete';
  return app.inject({
    method: method.toUpperCase() as any,
    url,
    headers: hasBody ? { ...headers, 'content-type': 'application/json' } : headers,
    ...(hasBody ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) } : {}),
  });
}

/** One line of figures the suites print, collected by docs/reliability.md. */
export function report(line: string) {
  console.log(`[figures] ${line}`);
}

export interface ObservedApp {
  app: FastifyInstance;
  /** Errors the handler saw, with the request that caused them (the original error, before mapping). */
  errors: { method: string; url: string; sqlState?: string; message: string }[];
  close(): Promise<void>;
}

/**
 * Like createTestApp, but with an onError hook that records the original error of every failed
 * request: a 4xx the database produced (not the validation) is a validation gap worth reporting.
 */
export async function createObservedApp(config: Partial<AppConfig> = {}): Promise<ObservedApp> {
  const database = await openTestDatabase('seeded');
  const app = await buildApp({
    env: {}, database, mailer: captureMailer(), logger: false,
    config: { seedDemo: true, bcryptRounds: 4, jwtSecret: 'test-secret', ...config },
  });
  const errors: ObservedApp['errors'] = [];
  app.addHook('onError', async (request, _reply, error) => {
    errors.push({ method: request.method, url: request.url, sqlState: sqlState(error), message: String(error?.message ?? error).slice(0, 300) });
  });
  await app.ready();
  return { app, errors, async close() { await app.close(); await database.close(); } };
}
