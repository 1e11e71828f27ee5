/**
 * Issue 11: the authorisation matrix, generated from app.routeTable.
 * Every route x {no token, expired, tampered, forged, foreign-secret, alg=none, deactivated user,
 * cashier of store A, admin of store A, admin of store B}; then store isolation of every item route;
 * then the start-up guard that refuses a route without an access rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { createTestApp, type TestApp } from '../helpers.ts';
import { knownBodies, shopFacts } from './fixtures.ts';
import { CASHIER_PERMISSIONS, PERMISSIONS } from '@pos/domain/permissions';
import {
  apiRoutes, countDiff, errorShapeProblem, fillPath, idOf, inject, makePrincipals, membersOf, paramNames, recordOf,
  report, rowCounts, stable, totalOf, WRITE_METHODS, type Principal, type Principals, type Route,
} from './support.ts';

let t: TestApp;
let app: FastifyInstance;
let P: Principals;
let routes: Route[];
/** 'public', 'user', or a permission (issue 21.1: what used to be 'admin'). */
const ACCESS = ['public', 'user', ...PERMISSIONS];
/** Permissions the built-in Cashier role holds: its routes are till routes. */
const cashierHas = (access: string) => (CASHIER_PERMISSIONS as readonly string[]).includes(access);
const NOT_FOUND_ID = 999999;

/**
 * Writes a signed-in cashier (ROLE_USER) may make: the till's own work. Any other write open to
 * 'user' is back-office data in a cashier's hands and fails the test until it is reviewed here.
 */
const TILL_WRITES: RegExp[] = [
  /^\/api\/auth\//, /^\/api\/token\/refresh$/, /^\/api\/locale$/, /^\/api\/admin\/profile\/update$/,
  /^\/api\/admin\/order(\/|$)/, /^\/api\/orders(\/|$)/,
  /^\/api\/admin\/customer(\/|$)/, /^\/api\/customers(\/|$)/, /^\/api\/customer_payments(\/|$)/,
  /^\/api\/admin\/closing(\/|$)/, /^\/api\/closings(\/|$)/,
  /^\/api\/admin\/expense(\/|$)/, /^\/api\/expenses(\/|$)/,
  /^\/api\/print\/(order|job)\//,
  // Issue 26: the day's X/Z report printed from the till's closing dialog (the day of its own store).
  /^\/api\/print\/closing\//,
  // Issue 21: a manager's approval asked at the till; one's own PIN.
  /^\/api\/approvals$/, /^\/api\/admin\/profile\/pin$/,
];

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  P = await makePrincipals(app, 'test-secret');
  routes = apiRoutes(app);
});
afterAll(async () => { await t?.close(); });

/** A real id for GET item routes (first row the all-stores admin sees), 999999 for writes. */
async function idsForRoutes(): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const r of routes) {
    if (r.method !== 'get' || paramNames(r.url).length === 0) continue;
    const base = r.url.replace(/\/:[^/]+.*$/, '');
    let id = 1;
    for (const list of [base, `${base}/list`]) {
      if (!routes.some((x) => x.method === 'get' && x.url === list)) continue;
      const res = await inject(app, 'get', list, P.adminBoth.headers);
      const first = membersOf(res.statusCode === 200 ? res.json() : null)?.map(idOf).find((x) => x != null);
      if (first) { id = first; break; }
    }
    out.set(`${r.method} ${r.url}`, id);
  }
  return out;
}

type Who = keyof Principals;
const UNAUTHENTICATED: Who[] = ['anonymous', 'expired', 'tampered', 'forged', 'foreign', 'algNone', 'inactive'];
const SIGNED_IN: Who[] = ['cashierA', 'adminA', 'adminB'];

/**
 * Public routes that take another credential than a user's token: the print agent's key (header
 * X-Print-Agent-Key). No user's token opens them: every caller of the matrix must be refused.
 */
const OWN_CREDENTIAL = /^\/api\/print\/agent\//;

/** Admin routes for the owner only (an administrator of every store): an admin of some stores gets 403. */
const OWNER_ONLY: RegExp[] = [/^\/api\/admin\/backups(\/|$)/];

/**
 * 'user' routes whose handler needs a permission a cashier lacks unless a manager approves the one
 * action (issue 21.2: restore needs 'sale.void'): the cashier is refused with 403 before anything is
 * looked up, as permission-matrix.test.ts promises route by route.
 */
const APPROVAL_NEEDED: RegExp[] = [/^\/api\/admin\/order\/restore\//];

/** What a caller may get on a route of this access rule; a string names the violation. */
function judge(access: string, who: Who, status: number, url: string): string | null {
  if (status >= 500) return `server error ${status}`;
  if (access === 'public' && OWN_CREDENTIAL.test(url)) return status === 401 ? null : `print agent route answered ${status} without its key`;
  if (access === 'public') return status === 401 || status === 403 ? `public route refused with ${status}` : null;
  if (UNAUTHENTICATED.includes(who)) return status === 401 ? null : `expected 401, got ${status}`;
  if (access !== 'user' && !cashierHas(access) && who === 'cashierA') return status === 403 ? null : `cashier on a '${access}' route: expected 403, got ${status}`;
  if (OWNER_ONLY.some((re) => re.test(url))) return status === 403 ? null : `admin of some stores on an owner route: expected 403, got ${status}`;
  if (who === 'cashierA' && APPROVAL_NEEDED.some((re) => re.test(url))) return status === 403 ? null : `cashier without the permission on ${url}: expected 403, got ${status}`;
  return status === 401 || status === 403 ? `allowed caller refused with ${status}` : null;
}

describe('authorisation matrix (from app.routeTable)', () => {
  it('every /api route declares public, user or a permission', () => {
    expect(routes.length).toBeGreaterThan(10);
    const bad = routes.filter((r) => !ACCESS.includes(r.auth));
    expect(bad, 'routes without a valid access rule').toEqual([]);
  });

  it('no request succeeds where it should not (every route x every caller)', async () => {
    const ids = await idsForRoutes();
    const failures: string[] = [];
    let cases = 0;
    const whos: Who[] = [...UNAUTHENTICATED, ...SIGNED_IN];
    const send = async (r: Route, who: Who) => {
      const isWrite = WRITE_METHODS.has(r.method);
      const url = fillPath(r.url, isWrite ? NOT_FOUND_ID : (ids.get(`${r.method} ${r.url}`) ?? 1));
      // Signed-in callers only write to ids that do not exist: the matrix must not delete the demo shop.
      const res = await inject(app, r.method, url, P[who].headers, isWrite ? {} : undefined);
      cases++;
      const verdict = judge(r.auth, who, res.statusCode, r.url);
      if (verdict) failures.push(`${r.method.toUpperCase()} ${url} [${r.auth}] as ${P[who].name}: ${verdict} ${res.body.slice(0, 160)}`);
      else if (res.statusCode >= 400) {
        const shape = errorShapeProblem(res);
        if (shape) failures.push(`${r.method.toUpperCase()} ${url} as ${P[who].name}: ${shape}`);
      }
    };
    // 1. Every request that must be refused (no valid session; the cashier on admin routes), between
    //    two snapshots: refused requests leave no trace (failed-login counters aside).
    const refusedOnly = (r: Route, who: Who) => r.auth !== 'public' && (UNAUTHENTICATED.includes(who) || (r.auth !== 'user' && !cashierHas(r.auth) && who === 'cashierA'));
    const before = await rowCounts(app.db);
    for (const r of routes) for (const who of whos) if (refusedOnly(r, who)) await send(r, who);
    const diff = countDiff(before, await rowCounts(app.db));
    if (Object.keys(diff).length) failures.push(`refused requests changed rows: ${JSON.stringify(diff)}`);
    // 2. Everything else.
    for (const r of routes) for (const who of whos) if (!refusedOnly(r, who)) await send(r, who);
    report(`authz matrix: ${routes.length} routes x ${whos.length} callers = ${cases} requests, ${failures.length} violations`);
    expect(failures).toEqual([]);
  });

  it('a cashier cannot write back-office data: every write open to ROLE_USER is a till operation', () => {
    const userWrites = routes.filter((r) => WRITE_METHODS.has(r.method) && (r.auth === 'user' || cashierHas(r.auth)));
    const unreviewed = userWrites.filter((r) => !TILL_WRITES.some((re) => re.test(r.url)));
    expect(unreviewed.map((r) => `${r.method.toUpperCase()} ${r.url}`), 'user-writable routes outside the till').toEqual([]);
    const adminWrites = routes.filter((r) => WRITE_METHODS.has(r.method) && r.auth !== 'user' && r.auth !== 'public' && !cashierHas(r.auth));
    report(`writes: ${adminWrites.length} admin-only (cashier gets 403), ${userWrites.length} till writes open to cashiers: ${userWrites.map((r) => `${r.method.toUpperCase()} ${r.url}`).join(', ')}`);
  });

  it('a refused caller is told so in the error shape, with no detail about the token', async () => {
    const probe = routes.find((r) => r.auth === 'user' && r.method === 'get' && !paramNames(r.url).length)!;
    for (const who of UNAUTHENTICATED) {
      const res = await inject(app, 'get', probe.url, P[who].headers);
      expect(res.statusCode, P[who].name).toBe(401);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body.message).not.toMatch(/signature|secret|alg/i);
    }
  });
});

describe('store isolation (a record of another store is a 404)', () => {
  it('every item route hides the records of stores the caller is not in', async () => {
    const lists = routes.filter((r) => r.method === 'get' && paramNames(r.url).length === 0);
    const failures: string[] = [];
    const figures: string[] = [];
    let checks = 0;
    const listAs = async (url: string, who: Principal) => {
      const res = await inject(app, 'get', `${url}?itemsPerPage=10000&limit=10000`, who.headers);
      if (res.statusCode !== 200) return null;
      const body = res.json();
      const members = membersOf(body);
      if (!members) return null;
      const total = totalOf(body);
      return { members, complete: total == null || total <= members.length };
    };

    // Store B owns one of each till and back-office record with a store of its own.
    const facts = await shopFacts(app.db);
    const knownB = knownBodies(facts, 2);
    const seeded: string[] = [];
    /** The ids of the records this test made in store B, by the list route that lists them. */
    const madeInB = new Map<string, number[]>();
    const madeIn = (list: string, id: number | null) => { if (id != null) madeInB.set(list, [...(madeInB.get(list) ?? []), id]); };
    for (const key of ['post /api/admin/order/create', 'post /api/purchases', 'post /api/purchase_orders', 'post /api/admin/expense/create']) {
      const [method, url] = key.split(' ');
      if (!routes.some((r) => r.method === method && r.url === url)) continue;
      const res = await inject(app, method, url, P.adminB.headers, knownB[key]());
      if (res.statusCode < 300) {
        seeded.push(url);
        const list = url.replace(/\/create$/, '/list');
        if (!routes.some((r) => r.method === 'get' && r.url === list)) failures.push(`no list route ${list} for the store-B record of ${key}`);
        const id = idOf(recordOf(res.json()));
        if (id == null) failures.push(`no id in the answer to ${key}: ${res.body.slice(0, 200)}`);
        madeIn(list, id);
      } else failures.push(`could not create a store-B record with ${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
    }
    // A day opened at a till of store B.
    const closingOpen = routes.find((r) => r.method === 'get' && r.url === '/api/admin/closing/opened');
    if (closingOpen) {
      const res = await inject(app, 'get', `/api/admin/closing/opened?store=2&terminal=${facts.terminals[2][0]}`, P.adminB.headers);
      const closing = res.statusCode === 200 ? recordOf(res.json()) : null;
      if (!closing) failures.push(`could not open a day in store B: ${res.statusCode} ${res.body.slice(0, 200)}`);
      else {
        for (const r of routes.filter((x) => x.url === '/api/admin/closing/:id')) {
          for (const caller of [P.adminA, P.cashierA]) {
            checks++;
            const res2 = await inject(app, r.method, fillPath(r.url, closing.id), caller.headers, r.method === 'get' ? undefined : { ...closing, closingBalance: 1 });
            if (res2.statusCode !== 404) failures.push(`${r.method.toUpperCase()} /api/admin/closing/${closing.id} (store B) as ${caller.name}: ${res2.statusCode} ${res2.body.slice(0, 120)}`);
          }
        }
        seeded.push('/api/admin/closing/opened');
      }
    }
    figures.push(`created in store B first: ${seeded.join(', ')}`);
    const absenceChecked = new Set<string>();

    for (const list of lists) {
      const base = list.url.replace(/\/list$/, '');
      const itemRoutes = routes.filter((r) => r.url.startsWith(`${base}/`) && paramNames(r.url).length === 1 && r.url !== list.url);
      if (!itemRoutes.length) continue;
      const viewB = await listAs(list.url, P.adminB);
      if (!viewB) continue;

      // Make sure store B owns at least one record: clone one and create it as the admin of B.
      const create = routes.find((r) => r.method === 'post' && (r.url === base || r.url === `${base}/create`));
      const template = viewB.members[0] ?? (await listAs(list.url, P.adminBoth))?.members[0];
      let created: number | null = null;
      if (create && template) {
        const res = await inject(app, 'post', create.url, P.adminB.headers, cloneForStore(template, 2));
        if (res.statusCode < 300) created = idOf(recordOf(res.json()));
        // A record of a collection that belongs to a store (it has a store or a list of stores).
        if ('store' in template || 'stores' in template) madeIn(list.url, created);
      }

      // The records made in store B are absent from what store A's admin and the cashier list, whole
      // lists and lists filtered on store B (a leak fails here, whatever the lists look like).
      const ofB = madeInB.get(list.url) ?? [];
      if (ofB.length) absenceChecked.add(list.url);
      for (const caller of ofB.length ? [P.adminA, P.cashierA] : []) {
        for (const query of ['', '&store=2&store.id=2&storeId=2']) {
          const res = await inject(app, 'get', `${list.url}?itemsPerPage=10000&limit=10000${query}`, caller.headers);
          checks++;
          if (res.statusCode >= 500) { failures.push(`GET ${list.url}${query ? ' (store 2)' : ''} as ${caller.name}: ${res.statusCode}`); continue; }
          if (res.statusCode !== 200) continue; // refused to this caller altogether: nothing listed
          const members = membersOf(res.json());
          if (!members) { failures.push(`GET ${list.url} as ${caller.name}: 200 without a list`); continue; }
          const leaked = members.map(idOf).filter((id) => id != null && ofB.includes(id));
          if (leaked.length) failures.push(`GET ${list.url}${query ? ' (store 2)' : ''} as ${caller.name} lists store-B records ${leaked.join(',')}`);
        }
      }

      for (const [mine, theirs, callers] of [
        [P.adminB, P.adminA, [P.adminA, P.cashierA]],
        [P.adminA, P.adminB, [P.adminB]],
      ] as const) {
        const own = await listAs(list.url, mine);
        const other = await listAs(list.url, theirs);
        if (!own || !other || !other.complete) continue;
        const visibleToOther = new Set(other.members.map(idOf));
        // The records made in B are probed whether or not A's list shows them (a leak must not hide them).
        const foreign = [...new Set([...(mine === P.adminB ? ofB : []), ...own.members.map((m) => idOf(m)).filter((id): id is number => id != null && !visibleToOther.has(id))])];
        if (mine === P.adminB) figures.push(`${base}: ${foreign.length} store-B-only (${ofB.length} made in B and checked absent from A's lists)`);
        for (const id of foreign.slice(0, 3)) {
          const ownView = await inject(app, 'get', fillPath(`${base}/:id`, id), mine.headers);
          for (const caller of callers) {
            for (const r of itemRoutes) {
              const url = fillPath(r.url, id);
              checks++;
              if (r.auth !== 'user' && !cashierHas(r.auth) && caller === P.cashierA) {
                // Refused for every record alike, so nothing leaks; covered by the matrix.
                const res = await inject(app, r.method, url, caller.headers, r.method === 'get' || r.method === 'delete' ? undefined : {});
                if (res.statusCode !== 403) failures.push(`${r.method.toUpperCase()} ${url} as ${caller.name}: expected 403, got ${res.statusCode}`);
                continue;
              }
              if (r.method === 'get') {
                const res = await inject(app, 'get', url, caller.headers);
                const exact = /^\/:[^/]+$/.test(r.url.slice(base.length));
                const leaked = res.statusCode < 300 && (exact || (membersOf(res.json())?.length ?? 1) > 0);
                if (leaked || res.statusCode >= 500 || (exact && res.statusCode !== 404)) {
                  failures.push(`GET ${url} as ${caller.name} (record of another store): ${res.statusCode} ${res.body.slice(0, 120)}`);
                }
              } else {
                const body = r.method === 'delete' ? undefined : cloneForStore(recordOf(ownView.statusCode === 200 ? ownView.json() : null) ?? {}, 1);
                const res = await inject(app, r.method, url, caller.headers, body);
                if (res.statusCode < 300 || res.statusCode >= 500) {
                  failures.push(`${r.method.toUpperCase()} ${url} as ${caller.name} (record of another store): ${res.statusCode} ${res.body.slice(0, 120)}`);
                } else if (res.statusCode !== 404 && res.statusCode !== 422 && res.statusCode !== 403) {
                  failures.push(`${r.method.toUpperCase()} ${url} as ${caller.name}: expected 404, got ${res.statusCode}`);
                }
              }
            }
          }
          // The owner still sees the record exactly as before.
          if (ownView.statusCode === 200) {
            const again = await inject(app, 'get', fillPath(`${base}/:id`, id), mine.headers);
            if (JSON.stringify(stable(again.json())) !== JSON.stringify(stable(ownView.json()))) {
              failures.push(`${base}/${id} changed after refused writes by another store: ${again.body.slice(0, 200)}`);
            }
          }
        }
        // Lists filtered on the other store show nothing of it.
        const filtered = await inject(app, 'get', `${list.url}?store=${mine.storeIds![0]}&store.id=${mine.storeIds![0]}&storeId=${mine.storeIds![0]}`, theirs.headers);
        if (filtered.statusCode === 200) {
          const leaked = (membersOf(filtered.json()) ?? []).map(idOf).filter((id) => id != null && foreign.includes(id));
          if (leaked.length) failures.push(`GET ${list.url}?store=${mine.storeIds![0]} as ${theirs.name} lists records of that store: ${leaked.join(',')}`);
        }
      }
    }
    report(`store isolation: ${checks} cross-store requests; ${figures.join('; ')}`);
    expect(failures).toEqual([]);
    // Every list that got a record made in store B was checked for it (a skipped list cannot pass).
    expect([...madeInB.keys()].filter((l) => !absenceChecked.has(l)), 'lists with store-B records never checked').toEqual([]);
    expect(absenceChecked.size, 'lists checked for store-B records').toBeGreaterThanOrEqual(seeded.filter((u) => u !== '/api/admin/closing/opened').length);
    expect(checks).toBeGreaterThan(0);
  });
});

/** A record of one store copied for another: server-owned fields dropped, unique texts made unique. */
export function cloneForStore(rec: Record<string, any>, storeId: number): Record<string, unknown> {
  const tag = crypto.randomBytes(3).toString('hex');
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rec)) {
    if (['@id', '@type', '@context', 'id', 'uuid', 'createdAt', 'updatedAt', 'deletedAt'].includes(k)) continue;
    if (k === 'stores') out[k] = [`/api/stores/${storeId}`];
    else if (k === 'store') out[k] = `/api/stores/${storeId}`;
    else if (typeof v === 'string' && /^(name|code|barcode|sku|username|poNumber|purchaseNumber|phone|displayName)$/.test(k)) out[k] = `${v.slice(0, 40)}-${tag}`;
    else if (k === 'email' && typeof v === 'string') out[k] = `${tag}.${v}`;
    else if (v && typeof v === 'object' && !Array.isArray(v) && typeof v['@id'] === 'string') out[k] = v['@id'];
    else out[k] = v;
  }
  return out;
}

describe('start-up guard', () => {
  it('registering an /api route without an access rule makes the server refuse to start', async () => {
    const fresh = await buildApp({ env: {}, database: t.database, logger: false, config: { seedDemo: false, jwtSecret: 'test-secret' } });
    try {
      expect(() => fresh.get('/api/unguarded', async () => ({ ok: true }))).toThrow(/access rule/);
      expect(() => fresh.post('/api/unguarded-typo', { config: { auth: 'Admin' as any } }, async () => ({ ok: true }))).toThrow(/access rule/);
      expect(() => fresh.get('/api/guarded', { config: { auth: 'settings' } }, async () => ({ ok: true }))).not.toThrow();
    } finally {
      await fresh.close();
    }
  });
});
