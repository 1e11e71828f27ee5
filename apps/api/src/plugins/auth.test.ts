import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import crypto from 'node:crypto';
import Fastify from 'fastify';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { order, paymentType, product, productTax, terminal, userAccount, userStore } from '../db/schema/index.ts';
import { caller, createTokenService, registerAuth } from './auth.ts';

describe('token verification is remembered, never what it grants', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('a remembered token still expires on time', async () => {
    const tokens = createTokenService('s', 60);
    const token = await tokens.sign({ id: 7, username: 'x', roles: [] });
    expect(await tokens.verify(token)).toEqual({ userId: 7, ver: 0 });
    expect(await tokens.verify(token)).toEqual({ userId: 7, ver: 0 }); // from memory
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

describe('the sale route reads its caller in its own first statement (callerInQuery)', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  /** A valid one-line cash sale of the cashier's store, at the server's own price. */
  async function saleBody() {
    const db = t.app.db;
    const [cashier] = await db.select().from(userAccount).where(eq(userAccount.username, 'cashier'));
    const [link] = await db.select().from(userStore).where(eq(userStore.userId, cashier.id));
    const [term] = await db.select().from(terminal).where(eq(terminal.storeId, link.storeId));
    const [cash] = await db.select().from(paymentType).where(eq(paymentType.type, 'cash'));
    const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
    const p = (await db.select().from(product)).find((x) => x.isActive && !taxed.has(x.id) && x.storeIds?.includes(link.storeId))!;
    const price = Number(p.basePrice);
    return {
      cashierId: cashier.id, storeId: link.storeId,
      body: {
        items: [{ item: { id: p.id }, quantity: 1, price, discount: 0, taxIncluded: true }], store: link.storeId, terminal: term.id,
        total: price, adjustment: 0, status: 'Completed', payments: [{ received: price, total: price, due: 0, type: { id: cash.id } }],
      },
    };
  }
  const orders = async () => (await t.app.db.select({ id: order.id }).from(order)).length;
  const sell = (h: Record<string, string>, payload: unknown) => t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: h, payload: payload as any });

  it('sells for an active cashier, and refuses a deactivated one with a 401 whatever the body, writing nothing', async () => {
    const h = await t.login('cashier');
    const { body, cashierId } = await saleBody();
    expect((await sell(h, body)).statusCode).toBe(201);
    const before = await orders();
    await t.app.db.update(userAccount).set({ isActive: false }).where(eq(userAccount.id, cashierId));
    try {
      for (const payload of [body, { ...body, uuid: crypto.randomUUID() }, { ...body, items: 'nonsense' }, { ...body, total: -1 }]) {
        const res = await sell(h, payload);
        expect(res.statusCode, res.body).toBe(401);
        expect(res.json().message).toBe('Invalid JWT Token');
      }
      expect(await orders()).toBe(before);
    } finally {
      await t.app.db.update(userAccount).set({ isActive: true }).where(eq(userAccount.id, cashierId));
    }
    expect((await sell(h, body)).statusCode).toBe(201);
  });

  it('a cashier taken out of the store cannot sell there (422 on store), and no token is a 401', async () => {
    const h = await t.login('cashier');
    const { body, cashierId, storeId } = await saleBody();
    const before = await orders();
    await t.app.db.delete(userStore).where(and(eq(userStore.userId, cashierId), eq(userStore.storeId, storeId)));
    try {
      const res = await sell(h, body);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['store']);
    } finally {
      await t.app.db.insert(userStore).values({ userId: cashierId, storeId });
    }
    expect((await sell({}, body)).statusCode).toBe(401);
    expect(await orders()).toBe(before);
  });

  it('fails closed: on such a route request.auth stays empty, so caller() is a 401 even with a valid token', async () => {
    const app = Fastify();
    const tokens = createTokenService('s', 60);
    registerAuth(app, t.app.db, tokens);
    app.get('/api/probe', { config: { auth: 'user', callerInQuery: true } }, async (request) => ({ userId: caller(request).userId }));
    app.setErrorHandler((e: { status?: number }, _req, reply) => { reply.status(e.status ?? 500).send({}); });
    await app.ready();
    const [cashier] = await t.app.db.select().from(userAccount).where(eq(userAccount.username, 'cashier'));
    const token = await tokens.sign({ id: cashier.id, username: 'cashier', roles: cashier.roles });
    const res = await app.inject({ method: 'GET', url: '/api/probe', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(401);
    await app.close();
  });
});
