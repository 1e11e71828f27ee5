import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { statementTimeoutNow, withStatementTimeout } from '../db/statement-timeout.ts';

/**
 * Every statement has a time limit for its class (issue 30, point 2). Here reads and sales may
 * run 400 ms per statement. A second connection of the test holds a table lock the request's real
 * statement needs, so the statement waits past its limit (the timeout counts lock waits): the
 * server cancels it and answers 503 BUSY + Retry-After, never a 500, and a cancelled sale leaves
 * nothing written.
 */
let t: TestApp;
let cashier: Record<string, string>;
let admin: Record<string, string>;
let other: pg.Client;

beforeAll(async () => {
  t = await createTestApp({ admission: { read: { statementTimeoutMs: 400 }, sale: { statementTimeoutMs: 400 } } });
  cashier = await t.login('cashier');
  admin = await t.login('admin');
  other = new pg.Client({ connectionString: t.database.url });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
  await t?.close();
});

/** Holds an exclusive lock on `table` (in an open transaction of the test's own connection) while `fn` runs. */
async function whileLocked<T>(table: string, fn: () => Promise<T>): Promise<T> {
  await other.query(`begin; lock table ${table} in access exclusive mode`);
  try {
    return await fn();
  } finally {
    await other.query('rollback');
  }
}

const sale = (uuid: string) => t.app.inject({
  method: 'POST', url: '/api/admin/order/create', headers: { ...cashier, 'content-type': 'application/json', 'idempotency-key': uuid },
  payload: { items: [{ item: { id: 1 }, quantity: 1, price: 10.75, discount: 0 }], payments: [{ received: 20, total: 10.75, due: 9.25, type: { id: 1 } }], store: 1, terminal: 1, total: 10.75, status: 'Completed' },
});

const count = async (text: string) => Number((await other.query(text)).rows[0].n);

describe('statement time limits by class', () => {
  it('a list whose statement waits past the read limit is answered 503 BUSY with Retry-After, then works again', async () => {
    const before = t.app.admissionStats().read.timedOut;
    const started = Date.now();
    const res = await whileLocked('customer', () => t.app.inject({ method: 'GET', url: '/api/customers?page=1&itemsPerPage=5', headers: admin }));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toEqual({ code: 'BUSY', message: expect.stringMatching(/busy/) });
    // Cancelled by its limit, not left to wait for the lock (which lasted as long as the request).
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(t.app.admissionStats().read.timedOut).toBe(before + 1);
    // The connection it ran on is fine, and so is the next request.
    expect((await t.app.inject({ method: 'GET', url: '/api/customers?page=1&itemsPerPage=5', headers: admin })).statusCode).toBe(200);
  });

  it('a sale cancelled by its limit is a 503 with nothing written; the till sends it again and it is stored once', async () => {
    const orders = await count('select count(*) as n from "order"');
    const lines = await count('select count(*) as n from order_product');
    const counter = (await other.query('select coalesce(sum(last_order_id), 0) as n from store_counter')).rows[0].n;
    const res = await whileLocked('order_payment', () => sale('c2f1b8a4-6a53-4b4e-9a4d-timeout-1'));
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json()).toMatchObject({ code: 'BUSY' });
    expect(await count('select count(*) as n from "order"')).toBe(orders);
    expect(await count('select count(*) as n from order_product')).toBe(lines);
    expect((await other.query('select coalesce(sum(last_order_id), 0) as n from store_counter')).rows[0].n).toBe(counter);

    // The outbox's retry (same key) goes in once the server is free.
    const again = await sale('c2f1b8a4-6a53-4b4e-9a4d-timeout-1');
    expect(again.statusCode, again.body).toBe(201);
    expect(await count('select count(*) as n from "order"')).toBe(orders + 1);
    expect(t.app.admissionStats().sale.timedOut).toBeGreaterThanOrEqual(1);
  });

  it('a report may run six times the read limit (a year by product): cancelled only past 2.4 s here, still a 503', async () => {
    const started = Date.now();
    const res = await whileLocked('"order"', () => t.app.inject({ method: 'GET', url: '/api/reports/sales?group=product&from=2026-01-01&to=2026-03-31', headers: admin }));
    const took = Date.now() - started;
    expect(res.statusCode, res.body).toBe(503);
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(30_000);
  });

  it('the health route reports what each class admitted, shed and timed out', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { admission: Record<string, { admitted: number; shed: number; timedOut: number }> };
    expect(body.admission.sale.admitted).toBeGreaterThanOrEqual(2);
    expect(body.admission.read.timedOut).toBeGreaterThanOrEqual(1);
    expect(Object.keys(body.admission).sort()).toEqual(['read', 'sale', 'sync', 'write']);
  });

  it('work outside a request has no limit; inside, the class limit is the one in force', async () => {
    expect(statementTimeoutNow()).toBe(0);
    const seen = await withStatementTimeout(250, async () => {
      const { rows } = await t.database.db.execute(sql`show statement_timeout`) as unknown as { rows: { statement_timeout: string }[] };
      return rows[0].statement_timeout;
    });
    expect(seen).toBe('250ms');
    const { rows } = await t.database.db.execute(sql`show statement_timeout`) as unknown as { rows: { statement_timeout: string }[] };
    expect(rows[0].statement_timeout).toBe('0');
  });
});
