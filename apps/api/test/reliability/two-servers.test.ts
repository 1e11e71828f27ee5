/**
 * Issue 20.6: several servers, one database. Two real API processes (server.ts, spawned, real
 * HTTP) run on one PostgreSQL database (a throwaway database on this test run's server: the
 * shop's own engine, or the machine's with TEST_DB=postgres), as a chain's servers behind a load
 * balancer would. Tills sell through both at once, the same store and the same products; then the
 * order numbers are unique and gap-free per store, the stock is exactly the start minus what was
 * sold and equals its ledger, and a sale retried through the other server is stored once. The
 * login throttle is shared (it lives in the database): failures through one server count on the
 * other. Each server has its own data folder; they share JWT_SECRET, as several servers must.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { createThrowawayPg } from '../helpers.ts';
import { saleBody, shopFacts, type ShopFacts } from '../security/fixtures.ts';
import { report } from '../security/support.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const SECRET = crypto.randomBytes(32).toString('base64url');
const MAX_FAILURES = 4;
const TILLS = 16;
const SALES_PER_TILL = 12;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
  });
}

interface Server { url: string; child: ChildProcess; dir: string }

async function startServer(databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-two-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env, NODE_ENV: 'test', DATABASE_URL: databaseUrl, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false',
      JWT_SECRET: SECRET, BCRYPT_ROUNDS: '4', LOGIN_MAX_FAILURES: String(MAX_FAILURES), LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => { out = (out + d).slice(-4000); });
  child.stderr!.on('data', (d) => { out = (out + d).slice(-4000); });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 180_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${out}`);
    try { if ((await fetch(`${url}/api/health`)).ok) return { url, child, dir }; } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${out}`);
}

describe('two API processes on one database', () => {
  let pgdb: Awaited<ReturnType<typeof createThrowawayPg>>;
  let database: Database;
  let facts: ShopFacts;
  const servers: Server[] = [];

  beforeAll(async () => {
    pgdb = await createThrowawayPg('seeded');
    database = await openDatabase({ databaseUrl: pgdb.url, dataDir: '' });
    facts = await shopFacts(database.db);
    servers.push(...await Promise.all([startServer(pgdb.url), startServer(pgdb.url)]));
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((r) => {
      if (s.child.exitCode !== null) return r();
      s.child.once('exit', () => r());
      s.child.kill('SIGTERM');
    })));
    for (const s of servers) fs.rmSync(s.dir, { recursive: true, force: true });
    await database?.close();
    await pgdb?.drop();
  });

  const q = async <T>(text: string) => (await database.db.execute(sql.raw(text)) as unknown as { rows: T[] }).rows;
  const post = async (server: Server, url: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.url}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.status, body: await res.json() as any };
  };

  it('sells through both at once: numbers unique and gap-free per store, stock exact and equal to its ledger, a retry stored once', { timeout: 300_000 }, async () => {
    // One sign-in through the first server; its token works on the second (shared secret, users in the database).
    const login = await post(servers[0], '/api/auth/login_check', { username: 'admin', password: 'admin' });
    expect(login.status).toBe(200);
    const auth = { authorization: `Bearer ${login.body.token}` };
    expect((await fetch(`${servers[1].url}/api/auth/info`, { headers: auth })).status).toBe(200);

    const products = facts.stocked[1].slice(0, 3);
    expect(products).toHaveLength(3);
    const stock = async () => Object.fromEntries((await q<{ product_id: number; quantity: string }>(
      `select product_id, quantity from product_store where store_id = 1 and product_id in (${products.map((p) => p.id).join(',')})`)).map((r) => [r.product_id, Number(r.quantity)]));
    const start = await stock();
    const [{ n: numberedBefore }] = await q<{ n: number }>(`select count(*)::int as n from "order" where store_id = 1 and order_id is not null`);

    const sold = new Map<number, number>(products.map((p) => [p.id, 0]));
    let acknowledged = 0;
    const failures: string[] = [];
    // Every till sells the same three products in the same store, alternating servers.
    await Promise.all(Array.from({ length: TILLS }, async (_, till) => {
      for (let i = 0; i < SALES_PER_TILL; i++) {
        const lines = products.slice(0, 1 + ((till + i) % 3)).map((p) => ({ ...p, quantity: 1 + (i % 2) }));
        const r = await post(servers[(till + i) % 2], '/api/admin/order/create', saleBody(facts, 1, lines), auth);
        if (r.status !== 201) { failures.push(`${r.status} ${JSON.stringify(r.body).slice(0, 200)}`); continue; }
        acknowledged++;
        for (const l of lines) sold.set(l.id, sold.get(l.id)! + l.quantity);
      }
    }));
    // The same sale sent through both servers at once (a till retrying through the other one).
    const twice = saleBody(facts, 1, [{ ...products[0], quantity: 1 }]);
    const retries = await Promise.all(Array.from({ length: 6 }, (_, i) => post(servers[i % 2], '/api/admin/order/create', twice, auth)));
    expect(retries.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(retries.map((r) => r.body.order.id)).size).toBe(1);
    sold.set(products[0].id, sold.get(products[0].id)! + 1);

    expect(failures).toEqual([]);
    expect(acknowledged).toBe(TILLS * SALES_PER_TILL);
    const [{ n: stored }] = await q<{ n: number }>(`select count(*)::int as n from "order" where client_id = '${twice.uuid}'`);
    expect(stored).toBe(1);

    const numbers = (await q<{ order_id: number }>(`select order_id from "order" where store_id = 1 and order_id is not null order by order_id`)).map((r) => r.order_id);
    expect(numbers).toHaveLength(numberedBefore + acknowledged + 1);
    expect(numbers, 'unique and gap-free').toEqual(numbers.map((_, i) => i + 1));

    const end = await stock();
    for (const p of products) expect(end[p.id], `stock of product ${p.id}`).toBe(start[p.id] - sold.get(p.id)!);
    const drift = await q(`select ps.product_id from product_store ps left join stock_movement m on m.product_id = ps.product_id and m.store_id = ps.store_id and m.variant_id is null
      group by ps.product_id, ps.store_id, ps.quantity having ps.quantity <> coalesce(sum(m.quantity), 0)`);
    expect(drift, 'stock equals its ledger everywhere').toEqual([]);
    report(`two servers: ${acknowledged + 1} sales through 2 processes by ${TILLS} tills at once, store 1 numbers 1..${numbers.length} gap-free, stock = start - sold = ledger`);
  });

  it('the login throttle is shared: failures through one server count on the other', { timeout: 60_000 }, async () => {
    const codes: number[] = [];
    for (let i = 0; i < MAX_FAILURES; i++) codes.push((await post(servers[i % 2], '/api/auth/login_check', { username: 'cashier', password: `wrong-${i}-password` })).status);
    expect(codes).toEqual(Array(MAX_FAILURES).fill(401));
    // Over the limit on both servers, even with the right password.
    for (const s of servers) expect((await post(s, '/api/auth/login_check', { username: 'cashier', password: 'cashier' })).status).toBe(429);
  });
});
