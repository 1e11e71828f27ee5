import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { loadAuthInfo } from '../../plugins/auth.ts';
import { applyUserUpdate } from './users.service.ts';
import { api, messageAt, storeAdmin, type Api } from './test-support.ts';

/**
 * Issue 21 point 3, written as the attacks: an administrator of one store (Harbour Mall) tries to
 * take over the owner (admin of every store), a peer administrator, or a cashier who also works in
 * another store; and the rules nobody may break on themselves or on the last administrator.
 */
let t: TestApp;
let owner: Api;
let mall: Api;
let mallId: number;

const signIn = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username, password } });

async function createUser(username: string, roles: string[], stores: string[]) {
  return (await createStaff(t, { username, password: `${username}-Secret9`, roles, stores })).user as { id: number; username: string };
}

beforeAll(async () => {
  t = await createTestApp();
  const o = await t.login('admin');
  owner = api(t, () => o);
  const m = await storeAdmin(t, 'harbourboss', [2]);
  mall = api(t, () => m);
  mallId = (await mall.get('/api/auth/info')).json().user.id;
});
afterAll(async () => { await t?.close(); });

describe('an administrator of one store cannot take over users they do not own', () => {
  it('cannot reset the owner\'s password, then sign in as the owner', async () => {
    const res = await mall.put('/api/admin/user/1', { password: 'taken-over-9' });
    expect(res.statusCode).toBe(403);
    expect((await signIn('admin', 'taken-over-9')).statusCode).toBe(401);
    expect((await signIn('admin', 'admin')).statusCode).toBe(200);
  });

  it('cannot demote, deactivate or delete the owner', async () => {
    expect((await mall.put('/api/users/1', { roles: ['ROLE_USER'] })).statusCode).toBe(403);
    expect((await mall.put('/api/users/1', { isActive: false })).statusCode).toBe(403);
    expect((await mall.put('/api/admin/user/1', { isActive: false })).statusCode).toBe(403);
    expect((await mall.del('/api/admin/user/1')).statusCode).toBe(403);
    const me = (await owner.get('/api/admin/user/1')).json().user;
    expect(me).toMatchObject({ isActive: true, roles: ['ROLE_ADMIN', 'ROLE_USER'] });
  });

  it('cannot reset the password of, or delete, a peer administrator of the same store', async () => {
    const peer = await createUser('harbourpeer', ['ROLE_ADMIN'], ['2']);
    expect((await mall.put(`/api/admin/user/${peer.id}`, { password: 'peer-taken-9' })).statusCode).toBe(403);
    expect((await mall.put(`/api/users/${peer.id}`, { isActive: false })).statusCode).toBe(403);
    expect((await mall.del(`/api/admin/user/${peer.id}`)).statusCode).toBe(403);
    expect((await signIn('harbourpeer', 'harbourpeer-Secret9')).statusCode).toBe(200);
  });

  it('cannot reset the password of a cashier who also works in another store', async () => {
    const both = await createUser('floater', ['ROLE_USER'], ['1', '2']);
    expect((await mall.put(`/api/admin/user/${both.id}`, { password: 'floater-taken-9' })).statusCode).toBe(403);
    expect((await mall.put(`/api/users/${both.id}`, { displayName: 'Renamed' })).statusCode).toBe(403);
    expect((await mall.del(`/api/admin/user/${both.id}`)).statusCode).toBe(403);
    expect((await signIn('floater', 'floater-Secret9')).statusCode).toBe(200);
  });

  it('cannot create an administrator nor promote a cashier (only the owner grants ROLE_ADMIN)', async () => {
    const made = await mall.post('/api/admin/user/create', { username: 'sneaky', password: 'sneaky-Secret9', displayName: 'S', email: 's@example.com', roles: ['ROLE_ADMIN'], stores: ['2'] });
    expect(made.statusCode).toBe(403);
    expect((await signIn('sneaky', 'sneaky-Secret9')).statusCode).toBe(401);
    const c = await createUser('mallcash', ['ROLE_USER'], ['2']);
    expect((await mall.put(`/api/users/${c.id}`, { roles: ['ROLE_ADMIN'] })).statusCode).toBe(403);
    expect((await owner.get(`/api/admin/user/${c.id}`)).json().user.roles).toEqual(['ROLE_USER']);
  });

  it('still manages the cashiers of their own store', async () => {
    const c = await createUser('mallonly', ['ROLE_USER'], ['2']);
    expect((await mall.put(`/api/admin/user/${c.id}`, { password: 'mallonly-New9' })).statusCode).toBe(200);
    expect((await signIn('mallonly', 'mallonly-New9')).statusCode).toBe(200);
    expect((await mall.put(`/api/users/${c.id}`, { isActive: false })).statusCode).toBe(200);
    expect((await mall.del(`/api/admin/user/${c.id}`)).statusCode).toBe(200);
    const mine = await mall.post('/api/admin/user/create', { username: 'mallnew', password: 'mallnew-Secret9', displayName: 'N', email: 'n@example.com', roles: ['ROLE_USER'], stores: ['2'] });
    expect(mine.statusCode).toBe(200);
  });
});

describe('nobody changes their own role or deactivates themselves; the last admin stays', () => {
  it('the owner cannot change their own roles, deactivate or delete themselves', async () => {
    // The same role sent back is no change (the old client sends the roles it read).
    expect((await owner.put('/api/users/1', { roles: ['ROLE_ADMIN'] })).statusCode).toBe(200);
    const res = await owner.put('/api/users/1', { roles: ['ROLE_USER'] });
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'roles')).toBe('You cannot change your own roles.');
    expect((await owner.put('/api/admin/user/1', { isActive: false })).statusCode).toBe(422);
    expect((await owner.del('/api/admin/user/1')).statusCode).toBe(422);
    expect((await owner.get('/api/admin/user/1')).json().user.roles).toEqual(['ROLE_ADMIN', 'ROLE_USER']);
  });

  it('a store administrator cannot change their own roles either', async () => {
    expect((await mall.put(`/api/users/${mallId}`, { roles: ['ROLE_USER'] })).statusCode).toBe(422);
    expect((await mall.put(`/api/users/${mallId}`, { role: 'cashier' })).statusCode).toBe(422);
    expect((await mall.put(`/api/users/${mallId}`, { roles: ['ROLE_ADMIN'], displayName: 'Harbour boss' })).statusCode).toBe(200);
  });

  it('two owners demoting each other at once leave one active administrator', async () => {
    // Only two active admins: the owner and a second owner (the store admins are deactivated first).
    for (const name of ['harbourboss', 'harbourpeer']) {
      const id = (await owner.get(`/api/admin/user/list?username=${name}`)).json().list[0].id;
      expect((await owner.put(`/api/users/${id}`, { isActive: false })).statusCode).toBe(200);
    }
    const boss = await createUser('secondowner', ['ROLE_ADMIN'], ['1', '2']);
    // The race, made deterministic: the second owner's request was authenticated (as an admin)
    // just before the owner's demotion of them committed; its write runs after.
    const secondAuth = (await loadAuthInfo(t.app.db, boss.id))!;
    expect((await owner.put(`/api/users/${boss.id}`, { roles: ['ROLE_USER'] })).statusCode).toBe(200);
    const late = t.app.db.transaction((tx) => applyUserUpdate(tx, 1, { roles: ['ROLE_USER'] }, { db: t.app.db, auth: secondAuth }, null));
    await expect(late).rejects.toMatchObject({ status: 422, violations: [{ propertyPath: 'roles', message: expect.stringMatching(/last active owner/) }] });
    expect((await owner.get('/api/admin/user/1')).json().user).toMatchObject({ isActive: true, roles: ['ROLE_ADMIN', 'ROLE_USER'] });
  });
});
