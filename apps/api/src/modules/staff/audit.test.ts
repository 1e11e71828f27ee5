/**
 * Issue 21.4: the audit log. Append-only in the database itself (UPDATE, DELETE and TRUNCATE are
 * refused whoever asks); written with the action (sign-ins and failures, product changes with
 * before/after, settings, user changes); read through GET /api/audit_log ('audit.view') with
 * filters and as CSV.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { parseCsv } from '../../lib/csv.ts';
import { staffShop } from './staff.fixtures.ts';
import { multipart } from '../catalogue/test-support.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
});
afterAll(async () => { await t?.close(); });

describe('append-only, enforced by the database', () => {
  it('UPDATE, DELETE and TRUNCATE of audit_log fail; the rows stay as written', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'not-the-password' } });
    const [before] = ((await s.db.execute(sql`select count(*)::int as n, max(id) as last from audit_log`)) as any).rows as { n: number; last: number }[];
    expect(before.n).toBeGreaterThan(0);
    const refusal = (q: Promise<unknown>) => q.then(() => 'accepted', (e) => String(e?.cause?.message ?? e?.message));
    expect(await refusal(s.db.execute(sql`update audit_log set actor_name = 'someone else' where id = ${before.last}`))).toMatch(/append-only \(UPDATE refused\)/);
    expect(await refusal(s.db.execute(sql`delete from audit_log where id = ${before.last}`))).toMatch(/append-only \(DELETE refused\)/);
    expect(await refusal(s.db.execute(sql`truncate audit_log`))).toMatch(/append-only \(TRUNCATE refused\)/);
    const [after] = ((await s.db.execute(sql`select count(*)::int as n from audit_log`)) as any).rows as { n: number }[];
    expect(after.n).toBe(before.n);
  });
});

describe('what is recorded', () => {
  it('sign-ins and failed sign-ins, with the address', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'cashier', password: 'wrong-password-9' } });
    await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'cashier', password: 'cashier' } });
    const failed = (await s.auditRows('auth.loginFailed')).filter((r) => (r.details as any).username === 'cashier');
    expect(failed.at(-1)).toMatchObject({ actorName: 'Cashier', address: '127.0.0.1', details: { reason: 'password' } });
    expect((await s.auditRows('auth.login')).some((r) => r.actorName === 'Cashier')).toBe(true);
  });

  it('a price change, with the price before and after', async () => {
    const res = await s.inject('PUT', `/api/products/${s.product.id}`, s.owner, { basePrice: '12.50' });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = (await s.auditRows('product.updated')).filter((r) => r.entityId === String(s.product.id));
    expect(row).toMatchObject({ actorName: 'Admin', before: { basePrice: 10 }, after: { basePrice: 12.5 } });
    await s.inject('PUT', `/api/products/${s.product.id}`, s.owner, { basePrice: '10.00' });
  });

  it('a refused write leaves no entry', async () => {
    const before = (await s.auditRows('product.updated')).length;
    expect((await s.inject('PUT', `/api/products/${s.product.id}`, s.cashier, { basePrice: '0.01' })).statusCode).toBe(403);
    expect((await s.inject('PUT', `/api/products/${s.product.id}`, s.owner, { basePrice: 'abc' })).statusCode).toBe(422);
    expect((await s.auditRows('product.updated')).length).toBe(before);
  });

  it("a store setting and a user's change", async () => {
    await s.inject('PUT', `/api/stores/${s.main}`, s.owner, { maxDiscountPercent: 15 });
    expect((await s.auditRows('store.updated')).at(-1)).toMatchObject({ before: { maxDiscountPercent: 20 }, after: { maxDiscountPercent: 15 } });
    await s.inject('PUT', `/api/stores/${s.main}`, s.owner, { maxDiscountPercent: 20 });
    const u = await s.staffUser('audited', 'cashier');
    await s.inject('PUT', `/api/admin/user/${u.id}`, s.owner, { role: 'manager' });
    expect((await s.auditRows('user.updated')).at(-1)).toMatchObject({ entityId: String(u.id), before: { role: 'cashier' }, after: { role: 'Manager' } });
  });

  it('a product import, with what it did', async () => {
    const m = multipart('ID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit\n,Audited Tea,7700000000099,1,1.20,2.40,0,pcs,pcs\n');
    const res = await t.app.inject({ method: 'POST', url: '/api/products/import', payload: m.payload, headers: { ...s.owner, ...m.headers } });
    expect(res.statusCode, res.body).toBe(200);
    expect((await s.auditRows('product.imported')).at(-1)).toMatchObject({ actorName: 'Admin', details: { created: 1, total: 1 } });
  });
});

describe('GET /api/audit_log', () => {
  it("needs 'audit.view'", async () => {
    expect((await s.inject('GET', '/api/audit_log', s.cashier)).statusCode).toBe(403);
    expect((await s.inject('GET', '/api/audit_log', s.owner)).statusCode).toBe(200);
  });

  it('filters by who, what (or its prefix), store and date; bad values are a 422 naming them', async () => {
    const byWhat = (await s.inject('GET', '/api/audit_log?action=auth.loginFailed', s.owner)).json();
    expect(byWhat.total).toBeGreaterThan(0);
    expect(byWhat.list.every((r: any) => r.action === 'auth.loginFailed')).toBe(true);
    const prefix = (await s.inject('GET', '/api/audit_log?action=auth.', s.owner)).json();
    expect(new Set(prefix.list.map((r: any) => r.action))).toEqual(new Set(['auth.login', 'auth.loginFailed']));
    const who = (await s.inject('GET', '/api/audit_log?who=Cashier', s.owner)).json();
    expect(who.list.length).toBeGreaterThan(0);
    expect(who.list.every((r: any) => /cashier/i.test(`${r.actor?.name} ${r.approver?.name}`))).toBe(true);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await s.inject('GET', `/api/audit_log?from=${tomorrow}`, s.owner)).json().total).toBe(0);
    expect((await s.inject('GET', `/api/audit_log?store=${s.main}`, s.owner)).json().list.every((r: any) => r.store === s.main)).toBe(true);
    const bad = await s.inject('GET', '/api/audit_log?from=yesterday&store=x', s.owner);
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations.map((v: any) => v.propertyPath).sort()).toEqual(['from', 'store']);
  });

  it('exports the filtered entries as CSV', async () => {
    const res = await s.inject('GET', '/api/audit_log?action=auth.loginFailed&format=csv', s.owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    const { rows } = parseCsv(res.body);
    expect(rows[0]).toEqual(['Time', 'Action', 'User', 'Approved by', 'Store', 'Entity', 'Entity ID', 'Before', 'After', 'Details', 'Address']);
    const total = (await s.inject('GET', '/api/audit_log?action=auth.loginFailed', s.owner)).json().total;
    expect(rows.length - 1).toBe(total);
    expect(rows.slice(1).every((r) => r[1] === 'auth.loginFailed')).toBe(true);
  });
});
