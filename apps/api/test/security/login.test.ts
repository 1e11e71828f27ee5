/**
 * Issue 11: login protection. Rate limits per user and per address (shared through the database),
 * one answer for an unknown user and a wrong password (same body, same cost), bcrypt hashes,
 * hashed single-use short-lived reset tokens, sessions that follow the account's state.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import bcrypt from 'bcryptjs';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../helpers.ts';
import { passwordReset, refreshToken, userAccount } from '../../src/db/schema/index.ts';
import { apiRoutes, ensureUser, fillPath, report } from './support.ts';

let t: TestApp;
const MAX = 5;
beforeAll(async () => { t = await createTestApp({ config: { loginMaxFailures: MAX } }); });
afterAll(async () => { await t?.close(); });

let ipSeq = 10;
const freshIp = () => `198.51.100.${ipSeq++}`;
const login = (username: string, password: string, ip = freshIp()) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login_check', remoteAddress: ip, payload: { username, password } });
const volatile = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'content-length', 'x-request-id'].includes(k)));

describe('rate limiting', () => {
  it('locks one (user, address) pair after repeated failures, even with the right password; the user elsewhere and others are not locked (issue 21)', async () => {
    await ensureUser(t.app.db, 'sec_victim', ['ROLE_USER'], [1]);
    const ip = '198.51.100.200';
    for (let i = 0; i < MAX; i++) expect((await login('sec_victim', 'wrong', ip)).statusCode).toBe(401);
    const locked = await login('sec_victim', 'sec_victim-pw', ip);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ code: 'RATE_LIMITED', message: expect.any(String) });
    // The same user from their own till's address is not locked out; another user from the attacker's address neither.
    expect((await login('sec_victim', 'sec_victim-pw', '198.51.100.201')).statusCode).toBe(200);
    expect((await login('admin', 'admin', ip)).statusCode).toBe(200);
  });

  it('the user key is case-insensitive (no bypass by changing the case of the name)', async () => {
    await ensureUser(t.app.db, 'sec_case', ['ROLE_USER'], [1]);
    const names = ['sec_case', 'SEC_CASE', 'Sec_Case', 'sEc_cAsE', 'SEC_case'];
    for (let i = 0; i < MAX; i++) await login(names[i % names.length], 'wrong', '198.51.100.202');
    expect((await login('sec_case', 'sec_case-pw', '198.51.100.202')).statusCode).toBe(429);
  });

  it('locks one address after failures across many user names (3 x the per-pair limit), without locking other addresses', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < MAX * 3; i++) expect((await login(`nobody${i}`, 'x', ip)).statusCode).toBe(401);
    expect((await login('admin', 'admin', ip)).statusCode).toBe(429);
    expect((await login('admin', 'admin', '203.0.113.78')).statusCode).toBe(200);
  });

  it('counts concurrent failures exactly (no lost increments: the counter is one atomic upsert)', async () => {
    await ensureUser(t.app.db, 'sec_burst', ['ROLE_USER'], [1]);
    const results = await Promise.all(Array.from({ length: MAX * 3 }, () => login('sec_burst', 'wrong', '198.51.100.203')));
    const statuses = results.map((r) => r.statusCode);
    report(`login burst: ${MAX * 3} concurrent wrong passwords -> ${statuses.filter((s) => s === 401).length} x 401 (password checked), ${statuses.filter((s) => s === 429).length} x 429`);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
    expect((await login('sec_burst', 'sec_burst-pw', '198.51.100.203')).statusCode).toBe(429);
    // An attacker who sends guesses in parallel must not get more than the limit checked.
    expect(statuses.filter((s) => s === 401).length, 'passwords checked despite the limit').toBeLessThanOrEqual(MAX);
  });
});

describe('one answer for an unknown user and a wrong password', () => {
  it('same status, same body, same headers', async () => {
    const wrong = await login('cashier', 'not-the-password');
    const unknown = await login('no-such-user-at-all', 'not-the-password');
    const disabledUser = await ensureUser(t.app.db, 'sec_disabled', ['ROLE_USER'], [1], false);
    const disabledWrong = await login('sec_disabled', 'wrong');
    expect(disabledUser).toBeGreaterThan(0);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.body).toBe(wrong.body);
    expect(disabledWrong.body).toBe(wrong.body); // a disabled account is only revealed to whoever knows its password
    expect(volatile(unknown.headers)).toEqual(volatile(wrong.headers));
  });

  it('forgot-password answers the same for a known and an unknown user', async () => {
    const known = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: freshIp(), payload: { username: 'admin' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: freshIp(), payload: { username: 'no-such-user-at-all' } });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
  });
});

/**
 * Median CPU time (this process: the app; PostgreSQL works in its own) of two kinds of login,
 * interleaved. CPU time, not wall time: a busy machine stretches wall time at random, but the work
 * a bcrypt comparison does stays the same, and that work is what must not differ.
 */
async function medians(a: () => Promise<unknown>, b: () => Promise<unknown>, n = 7): Promise<[number, number]> {
  const ta: number[] = [];
  const tb: number[] = [];
  const cpu = async (f: () => Promise<unknown>) => {
    const c0 = process.cpuUsage();
    await f();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000;
  };
  for (let i = 0; i < n; i++) {
    ta.push(await cpu(a));
    tb.push(await cpu(b));
  }
  const med = (x: number[]) => x.sort((p, q) => p - q)[Math.floor(x.length / 2)];
  return [med(ta), med(tb)];
}

describe('password hashing and comparison', () => {
  it('stores bcrypt hashes at the configured cost, never the password', async () => {
    const users = await t.app.db.select().from(userAccount);
    for (const u of users) {
      expect(u.password, u.username).toMatch(/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/);
      expect(bcrypt.getRounds(u.password)).toBeGreaterThanOrEqual(4);
    }
    // A password changed through the API is hashed too.
    const h = await t.login('admin');
    await t.app.inject({ method: 'POST', url: '/api/admin/profile/update', headers: h, payload: { password: 'admin' } });
    const [admin] = await t.app.db.select().from(userAccount).where(eq(userAccount.username, 'admin'));
    expect(admin.password).toMatch(/^\$2[aby]\$/);
    expect(admin.password).not.toContain('admin');
  });

  it('compares hashes in constant time (bcryptjs safeStringCompare) and never compares raw tokens', () => {
    const require = createRequire(import.meta.url);
    const source = readFileSync(require.resolve('bcryptjs'), 'utf8');
    expect(source).toMatch(/safeStringCompare/);
    // Refresh and reset tokens are looked up by their SHA-256 (an index lookup, not a string compare of the secret).
    const service = readFileSync(new URL('../../src/modules/auth/auth.service.ts', import.meta.url), 'utf8');
    expect(service).toMatch(/sha256\(refreshTokenValue\)/);
    expect(service).toMatch(/sha256\(token\)/);
  });

  it('an unknown user costs a full bcrypt comparison at the default cost (10)', { timeout: 120_000 }, async () => {
    const app10 = await createTestApp({ config: { bcryptRounds: 10, loginMaxFailures: 1000 } });
    try {
      const [unknown, wrong] = await medians(
        () => app10.app.inject({ method: 'POST', url: '/api/auth/login_check', remoteAddress: freshIp(), payload: { username: 'ghost-user', password: 'x' } }),
        () => app10.app.inject({ method: 'POST', url: '/api/auth/login_check', remoteAddress: freshIp(), payload: { username: 'cashier', password: 'x' } }));
      report(`login CPU time at cost 10: unknown user ${unknown.toFixed(1)} ms, wrong password ${wrong.toFixed(1)} ms (median of 7)`);
      expect(unknown / wrong).toBeGreaterThan(0.5);
      expect(unknown / wrong).toBeLessThan(2);
    } finally {
      await app10.close();
    }
  });

  it('an unknown user costs the same as a wrong password at any configured cost (here BCRYPT_ROUNDS=4)', async () => {
    // lib/passwords.ts compares unknown users against a fixed cost-10 hash: with BCRYPT_ROUNDS != 10
    // the time of a failed login tells whether the user exists (user enumeration).
    await ensureUser(t.app.db, 'sec_timing', ['ROLE_USER'], [1]);
    const [unknown, wrong] = await medians(
      () => login('ghost-user-timing', 'x'),
      () => login('sec_timing', 'x'));
    report(`login timing at cost 4: unknown user ${unknown.toFixed(1)} ms, wrong password ${wrong.toFixed(1)} ms (CPU, median of 7)`);
    expect(unknown / wrong).toBeLessThan(2);
    expect(unknown / wrong).toBeGreaterThan(0.5);
  });
});

describe('password reset tokens', () => {
  async function requestReset(username: string): Promise<string> {
    const before = t.mail.sent.length;
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', remoteAddress: freshIp(), payload: { username } });
    expect(t.mail.sent.length).toBe(before + 1);
    return /reset-password\/([A-Za-z0-9_-]+)/.exec(t.mail.sent.at(-1)!.text)![1];
  }
  const reset = (resetToken: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/reset-password', remoteAddress: freshIp(), payload: { resetToken, password } });

  it('are random, stored only as a hash, and live at most one hour', async () => {
    await ensureUser(t.app.db, 'sec_reset', ['ROLE_USER'], [1]);
    const token = await requestReset('sec_reset');
    expect(token.length).toBeGreaterThanOrEqual(40);
    const rows = await t.app.db.select().from(passwordReset);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    const row = rows.at(-1)!;
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBeLessThanOrEqual(3600_000 + 5000);
  });

  it('work once, and end the sessions of the account', async () => {
    await ensureUser(t.app.db, 'sec_reset2', ['ROLE_USER'], [1]);
    const session = await login('sec_reset2', 'sec_reset2-pw');
    expect(session.statusCode).toBe(200);
    const token = await requestReset('sec_reset2');
    expect((await reset(token, 'brand-new-1')).statusCode).toBe(200);
    const again = await reset(token, 'brand-new-2');
    expect(again.statusCode).toBe(422);
    expect((await login('sec_reset2', 'brand-new-2')).statusCode).toBe(401);
    expect((await login('sec_reset2', 'brand-new-1')).statusCode).toBe(200);
    // The refresh token issued before the reset is gone.
    const refreshed = await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh_token: session.json().refresh_token } });
    expect(refreshed.statusCode).toBe(401);
  });

  it('are refused once expired', async () => {
    await ensureUser(t.app.db, 'sec_reset3', ['ROLE_USER'], [1]);
    const token = await requestReset('sec_reset3');
    await t.app.db.update(passwordReset).set({ expiresAt: new Date(Date.now() - 1000) }).where(sql`${passwordReset.usedAt} is null`);
    expect((await reset(token, 'brand-new-1')).statusCode).toBe(422);
  });

  it('two concurrent uses of one token: exactly one wins', async () => {
    await ensureUser(t.app.db, 'sec_reset4', ['ROLE_USER'], [1]);
    const token = await requestReset('sec_reset4');
    const results = await Promise.all([reset(token, 'race-one-1'), reset(token, 'race-two-2'), reset(token, 'race-three-3')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
  });
});

describe('sessions follow the account', () => {
  it('a demoted admin loses admin routes at once; a deactivated or deleted user loses everything', async () => {
    const id = await ensureUser(t.app.db, 'sec_demote', ['ROLE_ADMIN', 'ROLE_USER'], [1]);
    const h = { authorization: `Bearer ${await t.app.tokens.sign({ id, username: 'sec_demote', roles: ['ROLE_ADMIN'] })}` };
    const adminProbe = () => t.app.inject({ method: 'POST', url: '/api/taxes', headers: h, payload: {} });
    expect((await adminProbe()).statusCode).toBe(422);
    await t.app.db.update(userAccount).set({ roles: ['ROLE_USER'] }).where(eq(userAccount.id, id));
    expect((await adminProbe()).statusCode).toBe(403);
    await t.app.db.update(userAccount).set({ isActive: false }).where(eq(userAccount.id, id));
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h })).statusCode).toBe(401);
    await t.app.db.delete(refreshToken).where(eq(refreshToken.userId, id));
    await t.app.db.delete(userAccount).where(eq(userAccount.id, id));
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h })).statusCode).toBe(401);
  });

  it('a token in the query string is ignored on ordinary routes', async () => {
    const token = (await t.login('admin')).authorization.slice(7);
    const res = await t.app.inject({ method: 'GET', url: `/api/auth/info?bearer=${token}` });
    expect(res.statusCode).toBe(401);
  });

  it('?bearer= is accepted on the product export alone (issue 21.5), judged by what every GET route answers', async () => {
    const token = (await t.login('admin')).authorization.slice(7);
    const accepted: string[] = [];
    for (const r of apiRoutes(t.app).filter((x) => x.method === 'get' && x.auth !== 'public')) {
      const res = await t.app.inject({ method: 'GET', url: `${fillPath(r.url, 1)}?bearer=${token}` });
      if (res.statusCode !== 401) accepted.push(r.url);
    }
    expect(accepted).toEqual(['/api/admin/product/export']);
  });

  it('a refresh token works once (rotation) and not after logout', async () => {
    const first = (await login('admin', 'admin')).json();
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', payload: { refresh_token: first.refresh_token } });
    expect((await t.app.inject({ method: 'POST', url: '/api/token/refresh', payload: { refresh_token: first.refresh_token } })).statusCode).toBe(401);
  });
});
