import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';

/** Issue 21 point 5, written as the attacks on accounts. */
let t: TestApp;
const MAX = 10;
beforeAll(async () => { t = await createTestApp({ config: { loginMaxFailures: MAX } }); });
afterAll(async () => { await t?.close(); });

const post = (url: string, payload: unknown, headers: Record<string, string> = {}, ip = '192.0.2.1') =>
  t.app.inject({ method: 'POST', url, payload: payload as any, headers, remoteAddress: ip });
const signIn = (username: string, password: string, ip = '192.0.2.1') => post('/api/auth/login_check', { username, password }, {}, ip);
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const info = (token: string) => t.app.inject({ method: 'GET', url: '/api/auth/info', headers: bearer(token) });

async function makeUser(username: string, roles = ['ROLE_USER']) {
  return (await createStaff(t, { username, password: `${username}-Secret9`, roles, stores: [1] })).user;
}

describe('login throttling is per (user name, address)', () => {
  it('eleven anonymous failures for ADMIN from one address do not lock the admin out at the till', async () => {
    for (let i = 0; i < MAX + 1; i++) await signIn(i % 2 ? 'ADMIN' : 'Admin', 'guess', '203.0.113.66');
    expect((await signIn('admin', 'admin', '203.0.113.66')).statusCode).toBe(429);
    expect((await signIn('admin', 'admin', '192.0.2.50')).statusCode).toBe(200);
  });
});

describe('sessions', () => {
  it('a POST logout revokes the refresh token (body or cookie); the old client\'s bodiless GET stays 2xx', async () => {
    const a = (await signIn('cashier', 'cashier')).json();
    expect((await post('/api/auth/logout', { refresh_token: a.refresh_token }, bearer(a.token))).statusCode).toBe(200);
    expect((await post('/api/auth/refresh', { refresh_token: a.refresh_token })).statusCode).toBe(401);
    const b = (await signIn('cashier', 'cashier')).json();
    expect((await post('/api/auth/logout', undefined, { cookie: `JWT=x; refresh_token=${b.refresh_token}` })).statusCode).toBe(200);
    expect((await post('/api/auth/refresh', { refresh_token: b.refresh_token })).statusCode).toBe(401);
    const old = await t.app.inject({ method: 'GET', url: '/api/auth/logout', headers: { authorization: 'Bearer undefined' } });
    expect(old.statusCode).toBe(200);
  });

  it('the refresh token cookie is HttpOnly, SameSite=Strict, sent only to /api/auth, Secure over https; refresh and logout read it; logout clears it', async () => {
    const res = await signIn('cashier', 'cashier');
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^refresh_token=${res.json().refresh_token}; Path=/api/auth; HttpOnly; SameSite=Strict; Max-Age=\\d+$`));
    // Refresh from the cookie alone (no body): a new pair, a new cookie.
    const next = await post('/api/auth/refresh', undefined, { cookie: `refresh_token=${res.json().refresh_token}` });
    expect(next.statusCode, next.body).toBe(200);
    expect(String(next.headers['set-cookie'])).toContain(`refresh_token=${next.json().refresh_token}; Path=/api/auth; HttpOnly`);
    // Logout with the cookie alone revokes it and clears the cookie.
    const out = await post('/api/auth/logout', undefined, { cookie: `refresh_token=${next.json().refresh_token}` });
    expect(String(out.headers['set-cookie'])).toMatch(/^refresh_token=; Path=\/api\/auth; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect((await post('/api/auth/refresh', { refresh_token: next.json().refresh_token })).statusCode).toBe(401);
    // Behind https (a TLS-terminating proxy the server trusts): Secure.
    const tls = await createTestApp({ config: { trustProxy: true } });
    try {
      const secure = await tls.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'cashier', password: 'cashier' }, headers: { 'x-forwarded-proto': 'https' } });
      expect(String(secure.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Strict; Max-Age=\d+; Secure$/);
    } finally {
      await tls.close();
    }
  });

  it('a password change needs the current password and ends every other session', async () => {
    await makeUser('pwchanger');
    const other = (await signIn('pwchanger', 'pwchanger-Secret9')).json();
    const mine = (await signIn('pwchanger', 'pwchanger-Secret9')).json();
    const stolen = await post('/api/admin/profile/update', { password: 'Stolen-Pass-77' }, bearer(mine.token));
    expect(stolen.statusCode).toBe(422);
    expect(stolen.json().violations[0].propertyPath).toBe('currentPassword');
    const wrong = await post('/api/admin/profile/update', { password: 'Stolen-Pass-77', currentPassword: 'nope' }, bearer(mine.token));
    expect(wrong.statusCode).toBe(422);
    const ok = await post('/api/admin/profile/update', { password: 'Fresh-Pass-77', currentPassword: 'pwchanger-Secret9' }, bearer(mine.token));
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await info(other.token)).statusCode).toBe(401);
    expect((await post('/api/auth/refresh', { refresh_token: other.refresh_token })).statusCode).toBe(401);
    expect((await info(ok.json().token)).statusCode).toBe(200);
    expect((await signIn('pwchanger', 'Fresh-Pass-77')).statusCode).toBe(200);
  });

  it('a reset ends every session and voids the other reset links', async () => {
    await makeUser('resetme');
    const session = (await signIn('resetme', 'resetme-Secret9')).json();
    for (let i = 0; i < 2; i++) await post('/api/auth/forgot-password', { username: 'resetme' }, {}, `198.18.0.${i + 1}`);
    await new Promise((r) => setTimeout(r, 50));
    const links = t.mail.sent.filter((m) => m.to === 'resetme@example.com').map((m) => /reset-password\/(\S+)/.exec(m.text)![1]);
    expect(links).toHaveLength(2);
    expect((await post('/api/auth/reset-password', { resetToken: links[1], password: 'After-Reset-55' })).statusCode).toBe(200);
    expect((await info(session.token)).statusCode).toBe(401);
    expect((await post('/api/auth/reset-password', { resetToken: links[0], password: 'Older-Link-55' })).statusCode).toBe(422);
    expect((await signIn('resetme', 'After-Reset-55')).statusCode).toBe(200);
  });
});

describe('forgot-password', () => {
  it('is rate-limited per address and per user name', async () => {
    const codes = [];
    for (let i = 0; i < 7; i++) codes.push((await post('/api/auth/forgot-password', { username: `nobody${i}` }, {}, '198.18.1.1')).statusCode);
    expect(codes.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(codes.at(-1)).toBe(429);
    const perName = [];
    for (let i = 0; i < 7; i++) perName.push((await post('/api/auth/forgot-password', { username: 'cashier' }, {}, `198.18.2.${i + 1}`)).statusCode);
    expect(perName.at(-1)).toBe(429);
  });
});

describe('passwords and names', () => {
  it('new passwords: at least 8 characters and not a common one; the demo seed still signs in', async () => {
    const admin = await t.login('admin');
    const short = await post('/api/admin/user/create', { username: 'shorty', password: 'abc12', displayName: 'S', email: 's@example.com', roles: ['ROLE_USER'], stores: ['1'] }, admin);
    expect(short.json().violations).toContainEqual({ propertyPath: 'password', message: 'This value is too short. It should have 8 characters or more.' });
    const common = await post('/api/admin/user/create', { username: 'commoner', password: 'Password1', displayName: 'C', email: 'c@example.com', roles: ['ROLE_USER'], stores: ['1'] }, admin);
    expect(common.json().violations[0]).toMatchObject({ propertyPath: 'password', message: expect.stringMatching(/too common/) });
    expect((await signIn('cashier', 'cashier', '192.0.2.77')).statusCode).toBe(200);
  });

  it('a cashier cannot rename themselves (user name) nor take an admin\'s display name', async () => {
    const c = await t.login('cashier');
    const rename = await post('/api/admin/profile/update', { username: 'admin2' }, c);
    expect(rename.statusCode).toBe(422);
    expect(rename.json().violations[0].propertyPath).toBe('username');
    const lookalike = await post('/api/admin/profile/update', { displayName: 'ADMIN' }, c);
    expect(lookalike.statusCode).toBe(422);
    expect(lookalike.json().violations[0].propertyPath).toBe('displayName');
    expect((await post('/api/admin/profile/update', { displayName: 'Cashier Two', username: 'cashier' }, c)).statusCode).toBe(200);
  });
});
