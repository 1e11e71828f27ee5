import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { userAccount } from '../db/schema/index.ts';
import { createTokenService } from './auth.ts';

describe('token verification is remembered, never what it grants', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('a remembered token still expires on time', async () => {
    const tokens = createTokenService('s', 60);
    const token = await tokens.sign({ id: 7, username: 'x', roles: [] });
    expect(await tokens.verify(token)).toEqual({ userId: 7 });
    expect(await tokens.verify(token)).toEqual({ userId: 7 }); // from memory
    vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
    try {
      await expect(tokens.verify(token)).rejects.toMatchObject({ status: 401, code: 'TOKEN_EXPIRED' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a tampered copy of a remembered token and a token of another secret are refused', async () => {
    const tokens = createTokenService('s', 60);
    const token = await tokens.sign({ id: 7, username: 'x', roles: [] });
    await tokens.verify(token);
    const tampered = token.slice(0, -3) + (token.endsWith('aaa') ? 'bbb' : 'aaa');
    await expect(tokens.verify(tampered)).rejects.toMatchObject({ status: 401 });
    const foreign = await createTokenService('other', 60).sign({ id: 7, username: 'x', roles: [] });
    await expect(tokens.verify(foreign)).rejects.toMatchObject({ status: 401 });
  });

  it('a deactivated user is refused at the next request although their token signature is remembered', async () => {
    const h = await t.login('cashier');
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h })).statusCode).toBe(200);
    await t.app.db.update(userAccount).set({ isActive: false }).where(eq(userAccount.username, 'cashier'));
    try {
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/order/list', headers: h })).statusCode).toBe(401);
    } finally {
      await t.app.db.update(userAccount).set({ isActive: true }).where(eq(userAccount.username, 'cashier'));
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/order/list', headers: h })).statusCode).toBe(200);
  });
});
