/**
 * Issue 21 "How it is shown": the permission matrix, generated from app.routeTable.
 * Every route and method x {Owner, Manager, Cashier, a custom role, no token, a manager of
 * another store}. What each caller may do comes from THIS file's policy (what the shop was
 * promised, written independently of the routes' declarations); whether it succeeded is judged
 * from what the server did: the status, whether any row changed, whether data came back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Permission } from '@pos/domain/permissions';
import { createTestApp, type TestApp } from '../helpers.ts';
import { apiRoutes, countDiff, fillPath, idOf, inject, membersOf, paramNames, recordOf, report, rowCounts, WRITE_METHODS, type Route } from './support.ts';

let t: TestApp;
let app: FastifyInstance;
let routes: Route[];

/**
 * The promise to the shop, route by route: the permission a route needs, 'user' (any signed-in
 * user) or 'public'. First match wins; a route that matches nothing fails the test (review it here).
 */
const POLICY: [method: RegExp, url: RegExp, need: Permission | 'user' | 'public'][] = [
  [/get|post/, /^\/api\/(auth\/(login_check|refresh|logout|forgot-password|reset-password)|token\/refresh|health|docs(\.json)?|setup)$/, 'public'],
  [/get/, /^\/api\/audit_log$/, 'audit.view'],
  [/post|put|patch|delete/, /^\/api\/roles/, 'users'],
  [/post|put|patch|delete/, /^\/api\/(admin\/user|users)(\/|$)/, 'users'],
  [/./, /^\/api\/(purchases|purchase_orders|purchase_items|supplier_payments)(\/|$)/, 'purchasing'],
  [/get/, /^\/api\/suppliers\/:id\/(payments|purchases|purchase_orders|ledger)$/, 'purchasing'],
  [/post|put|patch|delete/, /^\/api\/suppliers(\/|$)/, 'purchasing'],
  [/post/, /^\/api\/admin\/stock\/(adjustment\/create|count\/:id\/approve)$/, 'stock.adjust'],
  [/post/, /^\/api\/admin\/stock\//, 'purchasing'],
  [/./, /^\/api\/(admin\/product\/(export|import)|products\/import)$/, 'products.manage'],
  [/post|put|patch|delete/, /^\/api\/(products|product_variants|barcodes|brands|categories|departments|discounts|taxes)(\/|$)/, 'products.manage'],
  [/post|put|patch|delete/, /^\/api\/(stores|terminals|devices|payments|settings|admin\/terminal)(\/|$)/, 'settings'],
  [/post/, /^\/api\/admin\/order\/restore\//, 'sale.void'],
  [/post/, /^\/api\/admin\/order\/refund\//, 'sale.refund'],
  [/post/, /^\/api\/customer_payments$/, 'customer.payments'],
  [/post/, /^\/api\/customers\/:id\/erase$/, 'customer.creditTerms'],
  [/delete/, /^\/api\/admin\/expense\//, 'expenses'],
  [/./, /^\/api\//, 'user'],
];

const needOf = (r: Route) => POLICY.find(([m, u]) => m.test(r.method) && u.test(r.url))?.[2];

interface Caller { name: string; headers: Record<string, string>; permissions: readonly string[] | null; storeIds: number[] }
let callers: Caller[];

beforeAll(async () => {
  t = await createTestApp();
  app = t.app;
  routes = apiRoutes(app);
  const owner = await t.login('admin');
  const make = async (username: string, role: string | number, stores: number[]) => {
    const password = `${username}-Secret-3391`;
    const res = await app.inject({ method: 'POST', url: '/api/admin/user/create', headers: owner, payload: { username, password, displayName: username, email: `${username}@example.com`, role, stores: stores.map(String) } });
    if (res.statusCode !== 200) throw new Error(res.body);
    return t.login(username, password);
  };
  const custom = (await app.inject({ method: 'POST', url: '/api/roles', headers: owner, payload: { name: 'Matrix stock clerk', permissions: ['purchasing', 'cost.view'] } })).json().role;
  const perms = async (h: Record<string, string>) => (await app.inject({ method: 'GET', url: '/api/auth/info', headers: h })).json().user.permissions as string[];
  const managerA = await make('mx_manager_a', 'manager', [1]);
  const cashierA = await make('mx_cashier_a', 'cashier', [1]);
  const customA = await make('mx_custom_a', custom.id, [1]);
  const managerB = await make('mx_manager_b', 'manager', [2]);
  callers = [
    { name: 'Owner', headers: owner, permissions: await perms(owner), storeIds: [1, 2] },
    { name: 'Manager of A', headers: managerA, permissions: await perms(managerA), storeIds: [1] },
    { name: 'Cashier of A', headers: cashierA, permissions: await perms(cashierA), storeIds: [1] },
    { name: 'custom role (purchasing, cost.view) of A', headers: customA, permissions: await perms(customA), storeIds: [1] },
    { name: 'no token', headers: {}, permissions: null, storeIds: [] },
    { name: 'Manager of store B', headers: managerB, permissions: await perms(managerB), storeIds: [2] },
  ];
});
afterAll(async () => { await t?.close(); });

/** May this caller use the route, by the policy above? */
function allowed(c: Caller, need: string): boolean {
  if (need === 'public') return true;
  if (c.permissions === null) return false;
  return need === 'user' || c.permissions.includes(need);
}

/** What the answer carries: a record or list members (data handed out). */
function dataIn(body: string): boolean {
  let json: unknown;
  try { json = JSON.parse(body); } catch { return body.length > 0 && !body.startsWith('{'); }
  return (membersOf(json)?.length ?? 0) > 0 || recordOf(json) != null || (Array.isArray(json) && json.length > 0);
}

describe('permission matrix (from app.routeTable)', () => {
  it('every route is in the policy', () => {
    const missing = routes.filter((r) => needOf(r) === undefined);
    expect(missing.map((r) => `${r.method} ${r.url}`)).toEqual([]);
  });

  it('0 unauthorised successes: every route x Owner, Manager, Cashier, custom role, no token, another store', async () => {
    // A real id for item routes: the first record the owner sees in the list of that collection.
    const ids = new Map<string, number>();
    for (const r of routes) {
      if (!paramNames(r.url).length) continue;
      const base = r.url.replace(/\/:[^/]+.*$/, '');
      for (const list of [base, `${base}/list`]) {
        if (!routes.some((x) => x.method === 'get' && x.url === list)) continue;
        const res = await inject(app, 'get', list, callers[0].headers);
        const first = membersOf(res.statusCode === 200 ? res.json() : null)?.map(idOf).find((x) => x != null);
        if (first) { ids.set(r.url, first); break; }
      }
    }
    const violations: string[] = [];
    let refused = 0; let cases = 0;
    for (const r of routes) {
      const need = needOf(r)!;
      for (const c of callers) {
        if (allowed(c, need)) continue; // what allowed callers may do is each module's own tests
        cases++;
        const url = fillPath(r.url, ids.get(r.url) ?? 1);
        const before = WRITE_METHODS.has(r.method) ? await rowCounts(app.db) : null;
        // A write is sent with a plausible body: the record as the owner sees it (or an empty object).
        let body: unknown;
        if (WRITE_METHODS.has(r.method) && r.method !== 'delete') {
          const own = ids.has(r.url) ? await inject(app, 'get', fillPath(r.url.replace(/\/(send|receive|cancel|approve|lines|erase|refund|restore|dispatch)$/, ''), ids.get(r.url)!), callers[0].headers) : null;
          body = own && own.statusCode === 200 ? recordOf(own.json()) ?? {} : {};
        }
        const res = await inject(app, r.method, url, c.headers, body);
        const status = res.statusCode;
        const what = `${r.method.toUpperCase()} ${url} [needs ${need}] as ${c.name}`;
        if (status < 400) violations.push(`${what}: succeeded with ${status}`);
        else if (status >= 500) violations.push(`${what}: server error ${status}`);
        else if (c.permissions === null && status !== 401) violations.push(`${what}: expected 401, got ${status}`);
        else if (c.permissions !== null && status !== 403) violations.push(`${what}: expected 403, got ${status}`);
        else refused++;
        if (status >= 400 && dataIn(res.body)) violations.push(`${what}: data in a refusal: ${res.body.slice(0, 120)}`);
        if (before) {
          const diff = countDiff(before, await rowCounts(app.db));
          delete diff.audit_log; // a refused approval or sign-in may be logged; nothing else may change
          if (Object.keys(diff).length) violations.push(`${what}: rows changed ${JSON.stringify(diff)}`);
        }
      }
    }
    // The same requests from callers the policy allows are not refused for want of a permission:
    // the refusals above are about who asks, not about the request.
    const owner = callers[0];
    let controls = 0;
    for (const r of routes) {
      const need = needOf(r)!;
      if (need === 'public' || need === 'user') continue;
      const res = await inject(app, r.method, fillPath(r.url, ids.get(r.url) ?? 999999), owner.headers, WRITE_METHODS.has(r.method) && r.method !== 'delete' ? {} : undefined);
      controls++;
      if (res.statusCode === 401 || res.statusCode === 403) violations.push(`${r.method.toUpperCase()} ${r.url}: the owner was refused (${res.statusCode}) ${res.body.slice(0, 120)}`);
    }
    report(`permission matrix: ${routes.length} routes x ${callers.length} callers; ${cases} requests a caller had no right to make, ${refused} refused (401/403) with no row changed and no data; ${controls} owner controls; ${violations.length} violations`);
    expect(violations).toEqual([]);
    expect(cases).toBeGreaterThan(200);
  });
});
