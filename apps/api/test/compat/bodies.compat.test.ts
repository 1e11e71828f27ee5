/**
 * The reference client sets `content-type: application/json` on every call, bodiless POSTs and
 * DELETEs included. Point 1 of the old-client issue: on every route and every method an empty body
 * with that content type is no body (never "Body cannot be empty", never a 5xx), while a body that is
 * present but malformed is still a 400 that names the problem.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOldClientServer, type OldClient, type OldClientServer } from './old-client.ts';

let s: OldClientServer;
let admin: OldClient;
let routes: { method: string; url: string }[];
beforeAll(async () => {
  s = await startOldClientServer();
  admin = await s.signIn('admin', 'admin', 'ROLE_ADMIN');
  routes = s.t.app.routeTable
    .filter((r) => ['post', 'put', 'patch', 'delete'].includes(r.method) && r.url !== '/api/auth/logout')
    .map((r) => ({ method: r.method.toUpperCase(), url: r.url.replace(/:[A-Za-z_]+/g, '999999') }));
});
afterAll(async () => { await s?.close(); });

describe('bodiless requests with a JSON content type', () => {
  it('every write route reads an empty body as no body', async () => {
    expect(routes.length).toBeGreaterThan(30);
    const bad: string[] = [];
    for (const r of routes) {
      const res = await admin.call(r.method, r.url);
      const body = res.text ? JSON.parse(res.text) : null;
      if (res.status >= 500 || /empty/i.test(body?.message ?? '') || body?.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') bad.push(`${r.method} ${r.url}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(bad).toEqual([]);
  });

  it('whitespace only is no body too; a malformed body is a 400 naming the problem, and nothing is written', async () => {
    const res = await fetch(`${s.base}/api/admin/order/refund/999999`, { method: 'POST', headers: { authorization: `Bearer ${admin.jwt}`, 'content-type': 'application/json' }, body: ' \n' });
    expect(res.status).toBe(404);
    for (const r of [{ method: 'POST', url: '/api/customers' }, { method: 'PUT', url: '/api/products/1' }, { method: 'DELETE', url: '/api/admin/order/1' }]) {
      const broken = await fetch(`${s.base}${r.url}`, { method: r.method, headers: { authorization: `Bearer ${admin.jwt}`, 'content-type': 'application/json' }, body: '{"name": ' });
      expect(broken.status, `${r.method} ${r.url}`).toBe(400);
      expect(((await broken.json()) as { message: string }).message).toMatch(/JSON/i);
    }
    const customers = await admin.call('GET', '/api/customers?page=1&itemsPerPage=100');
    expect(customers.json['hydra:member'].length).toBe(5);
  });
});
