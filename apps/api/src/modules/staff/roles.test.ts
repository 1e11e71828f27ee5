/**
 * Issue 21.1: roles. Built-in Owner / Manager / Cashier, custom roles made of named permissions;
 * bad input (an unknown permission, more than the creator holds) is a 422 naming the field with
 * nothing written; the old ROLE_ADMIN / ROLE_USER keep meaning Owner / Cashier; a custom role's
 * permissions are what the server enforces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PERMISSIONS } from '@pos/domain/permissions';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { staffRole } from '../../db/schema/index.ts';
import { staffShop } from './staff.fixtures.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
});
afterAll(async () => { await t?.close(); });

const roleCount = async () => (await s.db.select().from(staffRole)).length;

describe('roles', () => {
  it('lists the built-in roles with their permissions; the session carries the caller role and permissions', async () => {
    const list = (await s.inject('GET', '/api/roles', s.cashier)).json().list;
    expect(list.map((r: any) => r.builtin)).toEqual(expect.arrayContaining(['owner', 'manager', 'cashier']));
    expect(list.find((r: any) => r.builtin === 'owner').permissions).toEqual([...PERMISSIONS]);
    const owner = (await s.inject('GET', '/api/auth/info', s.owner)).json().user;
    expect(owner).toMatchObject({ roles: expect.arrayContaining(['ROLE_ADMIN']), role: { key: 'owner' }, permissions: [...PERMISSIONS] });
    const cashier = (await s.inject('GET', '/api/auth/info', s.cashier)).json().user;
    expect(cashier).toMatchObject({ roles: ['ROLE_USER'], role: { key: 'cashier' } });
    expect(cashier.permissions).not.toContain('discount.overLimit');
    expect(cashier.permissions).not.toContain('cost.view');
  });

  it('an unknown permission is a 422 naming permissions[i]; nothing written', async () => {
    const before = await roleCount();
    const res = await s.inject('POST', '/api/roles', s.owner, { name: 'Odd', permissions: ['sale.refund', 'launch.rockets'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual([{ propertyPath: 'permissions[1]', message: '"launch.rockets" is not a permission.' }]);
    expect(await roleCount()).toBe(before);
  });

  it('a role granting more than its creator holds is a 422 naming the permission; nothing written', async () => {
    const lead = await s.staffUser('teamlead', (await s.inject('POST', '/api/roles', s.owner, { name: 'Team lead', permissions: ['users', 'sale.refund', 'customer.payments'] })).json().role.id);
    const before = await roleCount();
    const res = await s.inject('POST', '/api/roles', lead.headers, { name: 'Self-made boss', permissions: ['sale.refund', 'settings'] });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual([{ propertyPath: 'permissions[1]', message: "You cannot grant 'settings': you do not have it." }]);
    expect(await roleCount()).toBe(before);
    // Within what they hold it works.
    expect((await s.inject('POST', '/api/roles', lead.headers, { name: 'Refunder', permissions: ['sale.refund'] })).statusCode).toBe(201);
    // And they cannot hand themselves or others a stronger role.
    expect((await s.inject('PUT', `/api/admin/user/${lead.id}`, lead.headers, { role: 'manager' })).statusCode).toBe(422);
    const clerk = await s.staffUser('leadclerk', 'cashier');
    const promote = await s.inject('PUT', `/api/admin/user/${clerk.id}`, lead.headers, { role: 'manager' });
    expect(promote.statusCode).toBe(403);
    expect(promote.json().message).toMatch(/^role: /);
  });

  it('a cashier cannot create roles; built-in roles cannot be changed or deleted; a role in use cannot be deleted', async () => {
    expect((await s.inject('POST', '/api/roles', s.cashier, { name: 'Mine', permissions: [] })).statusCode).toBe(403);
    const owner = (await s.inject('GET', '/api/roles', s.owner)).json().list.find((r: any) => r.builtin === 'owner');
    expect((await s.inject('PUT', `/api/roles/${owner.id}`, s.owner, { permissions: [] })).statusCode).toBe(422);
    expect((await s.inject('DELETE', `/api/roles/${owner.id}`, s.owner)).statusCode).toBe(422);
    const role = (await s.inject('POST', '/api/roles', s.owner, { name: 'Stock keeper', permissions: ['purchasing'] })).json().role;
    await s.staffUser('keeper', role.id);
    const del = await s.inject('DELETE', `/api/roles/${role.id}`, s.owner);
    expect(del.statusCode).toBe(422);
    expect((await s.db.select().from(staffRole).where(eq(staffRole.id, role.id))).length).toBe(1);
    expect((await s.auditRows('role.created')).map((r) => (r.after as any).name)).toContain('Stock keeper');
  });

  it("a custom role's permissions are what the server enforces", async () => {
    const role = (await s.inject('POST', '/api/roles', s.owner, { name: 'Catalogue clerk', permissions: ['products.manage'] })).json().role;
    const u = await s.staffUser('catclerk', role.id);
    const made = await s.inject('POST', '/api/brands', u.headers, { name: 'Clerk brand', stores: [`/api/stores/${s.main}`] });
    expect(made.statusCode, made.body).toBe(201);
    expect((await s.inject('POST', '/api/taxes', u.headers, { name: 'Clerk tax', rate: '5', stores: [`/api/stores/${s.main}`] })).statusCode).toBe(201);
    expect((await s.inject('POST', '/api/payments', u.headers, { name: 'Clerk cash', type: 'cash', stores: [`/api/stores/${s.main}`] })).statusCode).toBe(403);
    expect((await s.inject('GET', '/api/purchases', u.headers)).statusCode).toBe(403);
    // The role changes: the next request is judged on the new permissions.
    await s.inject('PUT', `/api/roles/${role.id}`, s.owner, { permissions: ['purchasing'] });
    expect((await s.inject('POST', '/api/brands', u.headers, { name: 'Too late', stores: [`/api/stores/${s.main}`] })).statusCode).toBe(403);
    expect((await s.inject('GET', '/api/purchases', u.headers)).statusCode).toBe(200);
    // A custom role with a back-office permission may enter the admin portal.
    expect((await s.inject('GET', '/api/auth/info?role=ROLE_ADMIN', u.headers)).statusCode).toBe(200);
    expect((await s.inject('GET', '/api/auth/info?role=ROLE_ADMIN', s.cashier)).statusCode).toBe(403);
  });

  it("the old client's ROLE_ADMIN / ROLE_USER still make an Owner / a Cashier", async () => {
    const res = await s.inject('POST', '/api/admin/user/create', s.owner, { username: 'oldstyle', password: 'oldstyle-Secret-77', displayName: 'Old Style', email: 'o@example.com', roles: ['ROLE_ADMIN'], stores: [String(s.main)] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ roles: ['ROLE_ADMIN'], role: { key: 'owner' } });
    const demoted = await s.inject('PUT', `/api/admin/user/${res.json().user.id}`, s.owner, { roles: ['ROLE_USER'] });
    expect(demoted.json().user).toMatchObject({ roles: ['ROLE_USER'], role: { key: 'cashier' } });
  });
});
