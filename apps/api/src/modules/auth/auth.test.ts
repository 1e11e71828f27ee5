import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { eq } from 'drizzle-orm';
import { userAccount } from '../../db/schema/index.ts';
import { hashPassword } from '../../lib/passwords.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('auth', () => {
  it('logs in the demo cashier and returns a token pair', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login_check?role=ROLE_USER', payload: { username: 'cashier', password: 'cashier', role: 'ROLE_USER' } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(typeof body.token).toBe('string');
    expect(typeof body.refresh_token).toBe('string');
  });

  it('answers the same 401 for a wrong password and an unknown user', async () => {
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'cashier', password: 'nope' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'ghost', password: 'nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({ code: 'INVALID_CREDENTIALS', message: 'Invalid credentials.' });
  });

  it('rejects a malformed login body with 422 naming the field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 5 } });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(Array.isArray(body.violations)).toBe(true);
    expect(body.violations.map((v: any) => v.propertyPath)).toEqual(expect.arrayContaining(['username', 'password']));
  });

  it('refuses a cashier at the admin portal with the server message', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login_check?role=ROLE_ADMIN', payload: { username: 'cashier', password: 'cashier', role: 'ROLE_USER' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Cannot login in this portal');
    const admin = await t.app.inject({ method: 'POST', url: '/api/auth/login_check?role=ROLE_ADMIN', payload: { username: 'admin', password: 'admin', role: 'ROLE_USER' } });
    expect(admin.statusCode).toBe(200);
  });

  it('auth/info returns the user with stores and their terminals; 401 without or with a junk token', async () => {
    const h = await t.login('cashier');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/info?role=ROLE_USER', headers: h });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user.username).toBe('cashier');
    expect(user.password).toBeUndefined();
    expect(user.stores).toHaveLength(1);
    expect(user.stores[0].terminals.map((x: any) => x.code)).toEqual(['T1']);
    for (const headers of [{}, { authorization: 'Bearer undefined' }, { authorization: 'Bearer abc.def.ghi' }]) {
      const r = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers });
      expect(r.statusCode).toBe(401);
      expect(typeof r.json().message).toBe('string');
    }
    const admin = await t.login('admin');
    const a = await t.app.inject({ method: 'GET', url: '/api/auth/info?role=ROLE_ADMIN', headers: admin });
    expect(a.json().user.stores).toHaveLength(2);
    const denied = await t.app.inject({ method: 'GET', url: '/api/auth/info?role=ROLE_ADMIN', headers: h });
    expect(denied.statusCode).toBe(403);
  });

  it('rejects a tampered token and an expired one', async () => {
    const h = await t.login('cashier');
    const token = h.authorization.slice(7);
    const tampered = token.slice(0, -3) + (token.endsWith('aaa') ? 'bbb' : 'aaa');
    const r1 = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: { authorization: `Bearer ${tampered}` } });
    expect(r1.statusCode).toBe(401);
    const expired = await t.app.tokens.sign({ id: 2, username: 'cashier', roles: [] });
    // A token service with a negative lifetime produces an already-expired token.
    const { createTokenService } = await import('../../plugins/auth.ts');
    const old = await createTokenService('test-secret', -10).sign({ id: 2, username: 'cashier', roles: [] });
    const r2 = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: { authorization: `Bearer ${old}` } });
    expect(r2.statusCode).toBe(401);
    expect(r2.json().message).toBe('Expired JWT Token');
    expect(expired).toBeTruthy();
  });

  it('logout answers 200 without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { authorization: 'Bearer undefined' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out' });
  });

  it('refresh token gives a new pair once (rotation)', async () => {
    const login = (await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } })).json();
    const r1 = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh_token: login.refresh_token } });
    expect(r1.statusCode).toBe(200);
    expect(r1.json().token).toBeTruthy();
    const again = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh_token: login.refresh_token } });
    expect(again.statusCode).toBe(401);
    const info = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: { authorization: `Bearer ${r1.json().token}` } });
    expect(info.statusCode).toBe(200);
  });

  it('forgot and reset password: the link works once, then the new password logs in', async () => {
    const before = t.mail.sent.length;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { username: 'cashier', role: 'ROLE_USER' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('An email has been sent to you, please follow the instructions');
    const ghost = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { username: 'ghost' } });
    expect(ghost.json()).toEqual(res.json());
    expect(t.mail.sent.length).toBe(before + 1);
    const token = /reset-password\/([A-Za-z0-9_-]+)/.exec(t.mail.sent[before].text)![1];
    const reset = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { resetToken: token, password: 'Till-Keeper-42', role: 'ROLE_USER' } });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe('Password reset was successful');
    const reuse = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { resetToken: token, password: 'Another-Pass-42' } });
    expect(reuse.statusCode).toBe(422);
    expect(reuse.json().errorMessage).toBe('Invalid password reset request');
    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'cashier', password: 'Till-Keeper-42' } });
    expect(ok.statusCode).toBe(200);
    const short = await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { resetToken: 'x', password: '1' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().violations[0].propertyPath).toBe('password');
    // put the demo password back for the other tests (the seed's short password, below today's minimum: written directly)
    await t.app.db.update(userAccount).set({ password: await hashPassword('cashier', 4) }).where(eq(userAccount.username, 'cashier'));
  });

  it('profile update changes the caller and reports a taken username under its field', async () => {
    const h = await t.login('admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/profile/update', headers: h, payload: { displayName: 'Boss', email: 'boss@example.com', username: 'admin' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.displayName).toBe('Boss');
    const taken = await t.app.inject({ method: 'POST', url: '/api/admin/profile/update', headers: h, payload: { username: 'cashier' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().violations).toEqual([{ propertyPath: 'username', message: 'This value is already used.' }]);
    const badEmail = await t.app.inject({ method: 'POST', url: '/api/admin/profile/update', headers: h, payload: { email: 'nope' } });
    expect(badEmail.json().violations[0]).toEqual({ propertyPath: 'email', message: 'This value is not a valid email address.' });
  });

  it('locale is remembered', async () => {
    const h = await t.login('admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/locale', headers: h, payload: { locale: 'ar' } });
    expect(res.statusCode).toBe(200);
    const bad = await t.app.inject({ method: 'POST', url: '/api/locale', headers: h, payload: { locale: 'xx' } });
    expect(bad.statusCode).toBe(422);
    const info = await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h });
    expect(info.json().user.locale).toBe('ar');
  });

  it('rate-limits repeated failures per user', async () => {
    const { app } = t;
    let last = 0;
    for (let i = 0; i < 12; i++) {
      last = (await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'victim', password: 'x' } })).statusCode;
    }
    expect(last).toBe(429);
  });
});

describe('system', () => {
  it('health is public and says ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('ok');
  });
  it('unknown API routes are a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
  it('serves an OpenAPI document listing the routes with their access rule', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/auth/login_check'].post['x-access']).toBe('public');
    expect(doc.paths['/api/taxes'].post['x-access']).toBe('products.manage');
    expect(doc.paths['/api/audit_log'].get['x-access']).toBe('audit.view');
  });
});
