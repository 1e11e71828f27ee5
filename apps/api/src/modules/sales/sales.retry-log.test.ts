/**
 * Issue 28.5: a retried sale (same client id) is answered from the stored order without raising an
 * error in PostgreSQL: the shop's own PostgreSQL (db/embedded.ts) runs in a data folder of this
 * test, whose postgres.log is read at the end. Retries one after another and at once, through two
 * API instances with their own pools (two processes' worth of connections), a customer's sale
 * (the transaction path) and a return retried at once; then: one order per key, stock moved once,
 * numbers gap-free, and not one ERROR line in the log while it sold.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { and, asc, eq, sql } from 'drizzle-orm';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { customer, order, productStore } from '../../db/schema/index.ts';
import { saleBody, shopFacts, type ShopFacts } from '../../../test/security/fixtures.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-retry-'));
const postmasterPid = () => { try { return Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || 0; } catch { return 0; } };

describe('a retried sale on the shop\'s own PostgreSQL', () => {
  let database: Database;
  let other: Database;
  const apps: FastifyInstance[] = [];
  const auth: Record<string, string>[] = [];
  let facts: ShopFacts;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: dir }, { log: () => {} });
    await database.migrate();
    // A second pool on the same server: as a second API process would have.
    other = await openDatabase({ databaseUrl: `postgresql://postgres@localhost:5432/pos?host=${encodeURIComponent(path.join(dir, 'pg'))}`, dataDir: '' });
    for (const [i, db] of [database, other].entries()) {
      const app = await buildApp({ env: {}, database: db, logger: false, config: { seedDemo: i === 0, bcryptRounds: 4, jwtSecret: crypto.randomBytes(32).toString('base64url') } });
      await app.ready();
      apps.push(app);
      const res = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
      auth.push({ authorization: `Bearer ${res.json().token}` });
    }
    facts = await shopFacts(database.db);
  }, 300_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    await other?.close();
    await database?.close();
    const pid = postmasterPid();
    if (pid) try { process.kill(pid, 'SIGQUIT'); } catch { /* stopped */ }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const sell = (i: number, body: unknown) => apps[i % 2].inject({ method: 'POST', url: '/api/admin/order/create', payload: body as object, headers: auth[i % 2] });
  const stockOf = async (productId: number) => {
    const [row] = await database.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, 1)));
    return Number(row.quantity);
  };
  const ordersWith = async (key: string) => database.db.select().from(order).where(eq(order.clientId, key));

  it('answers every retry from the stored order, stores it once, and PostgreSQL logs no error', { timeout: 120_000 }, async () => {
    // What PostgreSQL logs from here on (its start-up, polled for readiness, is before).
    const logFrom = fs.statSync(path.join(dir, 'postgres.log')).size;
    const p = facts.stocked[1][0];
    const start = await stockOf(p.id);

    // One after another (a till whose answer was lost), then 12 at once across both instances.
    const first = saleBody(facts, 1, [{ ...p, quantity: 1 }]);
    const answers = [await sell(0, first), await sell(1, first), await sell(0, first)];
    answers.push(...await Promise.all(Array.from({ length: 12 }, (_, i) => sell(i, first))));
    expect(answers.map((r) => r.statusCode)).toEqual([201, ...Array(14).fill(200)]);
    expect(new Set(answers.map((r) => r.json().order.id)).size).toBe(1);

    // Fresh keys sent at once, each 6 times, nobody answered before: one order per key.
    const fresh = Array.from({ length: 4 }, () => saleBody(facts, 1, [{ ...p, quantity: 2 }]));
    const burst = await Promise.all(fresh.flatMap((b) => Array.from({ length: 6 }, (_, i) => sell(i, b))));
    expect(burst.every((r) => r.statusCode === 201 || r.statusCode === 200)).toBe(true);
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(4);

    // A customer's sale (its own transaction, the customer row locked), retried at once.
    const [c] = await database.db.select().from(customer).orderBy(asc(customer.id)).limit(1);
    const withCustomer = saleBody(facts, 1, [{ ...p, quantity: 1 }], { customer: { id: c.id, '@id': `/api/customers/${c.id}` } });
    const cust = await Promise.all(Array.from({ length: 5 }, (_, i) => sell(i, withCustomer)));
    expect(cust.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);

    // A return of the first sale (locks its original), retried at once.
    const sold = answers[0].json().order;
    const giveBack = saleBody(facts, 1, [{ ...p, quantity: -1 }], { refundingFrom: sold.id });
    const returns = await Promise.all(Array.from({ length: 5 }, (_, i) => sell(i, giveBack)));
    expect(returns.map((r) => r.statusCode).sort(), returns.map((r) => r.body).join('\n')).toEqual([200, 200, 200, 200, 201]);

    // A key with quotes and backslashes (the header is free text): found again, stored as sent.
    const odd = `it's a \\ key'); select pg_sleep(1); --`;
    const oddSale = saleBody(facts, 1, [{ ...p, quantity: 1 }]);
    const oddAnswers = [];
    for (const i of [0, 1]) oddAnswers.push(await apps[i].inject({ method: 'POST', url: '/api/admin/order/create', payload: oddSale, headers: { ...auth[i], 'idempotency-key': odd } }));
    expect(oddAnswers.map((r) => r.statusCode)).toEqual([201, 200]);
    expect((await ordersWith(odd)).map((o) => o.id)).toEqual([oddAnswers[0].json().order.id]);

    // The same key with another body is still refused.
    const changed = await sell(1, { ...first, notes: 'another sale' });
    expect(changed.statusCode).toBe(409);

    for (const b of [first, ...fresh, withCustomer, giveBack]) expect(await ordersWith(b.uuid)).toHaveLength(1);
    expect(await stockOf(p.id)).toBe(start - 1 - 8 - 1 + 1 - 1);
    const numbers = (await database.db.select({ n: order.orderId }).from(order).where(and(eq(order.storeId, 1), sql`${order.orderId} is not null`))
      .orderBy(asc(order.orderId))).map((r) => r.n);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));

    const whole = fs.readFileSync(path.join(dir, 'postgres.log'), 'utf8');
    expect(whole).toMatch(/database system is ready to accept connections/);
    const log = whole.slice(logFrom);
    expect(log).not.toMatch(/duplicate key value violates unique constraint/);
    expect(log.split('\n').filter((l) => /\b(ERROR|FATAL|PANIC):/.test(l))).toEqual([]);
  });
});
