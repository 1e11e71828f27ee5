/**
 * Issues 11 and 28: crash safety. The real server runs as a child process (the shop's own
 * PostgreSQL in a data folder, or a throwaway PostgreSQL database with TEST_DB=postgres); several
 * clients write over HTTP (sales from tills, goods receipts, CSV imports, and plain reference-data
 * writes that exist from day one); mid-flight either the server (even rounds) or, on the shop's
 * own engine, its PostgreSQL postmaster (odd rounds) is killed with SIGKILL; the server is
 * restarted on the same data (ready within 2 s), the tills retry what was never answered, and then:
 *   - every write that was acknowledged (2xx) is there, whole: a sale with its items, payments and
 *     stock movements; a purchase with its lines; an import with all its rows;
 *   - no partial write exists (no order without items, no import half applied);
 *   - stock equals the ledger, for every product in every store and every variant.
 * npm test kills 4 times per engine; npm run soak (FUZZ_RUNS set) kills CRASH_ROUNDS times (default 50).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { seedDemoShop } from '../../src/setup/demo-shop.ts';
import { createTokenService } from '../../src/plugins/auth.ts';
import { createThrowawayPg, engine } from '../helpers.ts';
import { purchaseBody, saleBody, shopFacts, type ShopFacts } from '../security/fixtures.ts';
import { report, SOAK } from '../security/support.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const ROUNDS = SOAK ? Number(process.env.CRASH_ROUNDS ?? 50) : 4;
/** After a kill, the shop's PostgreSQL must be ready again within this many ms. */
const READY_MS = 2000;
// A fresh secret per run: a secret printed in the source is refused at start (src/secret.ts).
const SECRET = crypto.randomBytes(32).toString('base64url');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
    s.on('error', reject);
  });
}

/** The real server (server.ts) in a child process on a fixed data location. */
class ServerProcess {
  child: ChildProcess | null = null;
  log = '';
  port = 0;
  /** "PostgreSQL ready in N ms" of the last start (embedded engine). */
  dbReadyMs: number | undefined;
  constructor(private env: Record<string, string>) {}
  get url() { return `http://127.0.0.1:${this.port}`; }

  async start(): Promise<void> {
    this.port = await freePort();
    this.log = '';
    this.dbReadyMs = undefined;
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PORT: String(this.port), SEED_DEMO: 'true', BCRYPT_ROUNDS: '4', JWT_SECRET: SECRET, LOG_LEVEL: 'info', WEB_DIST: '/nonexistent', ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout!.on('data', (d) => {
      const m = /PostgreSQL ready in (\d+) ms/.exec(String(d));
      if (m) this.dbReadyMs = Number(m[1]);
      this.log = (this.log + d).slice(-4000);
    });
    child.stderr!.on('data', (d) => { this.log = (this.log + d).slice(-4000); });
    const deadline = Date.now() + 180_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} during start-up:\n${this.log}`);
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok) return;
      } catch { /* not listening yet */ }
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`server did not become healthy:\n${this.log}`);
  }

  async kill9(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    this.child = null;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(timer);
    this.child = null;
  }
}

interface Acked { kind: 'sale' | 'purchase' | 'import' | 'tax'; id?: number; key: string; lines: number; stocked: number }

interface Store {
  env: Record<string, string>;
  /** The shop's own engine's data folder (undefined with TEST_DB=postgres). */
  dir?: string;
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

async function prepareStore(): Promise<Store> {
  if (engine === 'postgres') {
    const pgdb = await createThrowawayPg();
    return { env: { DATABASE_URL: pgdb.url }, open: () => openDatabase({ databaseUrl: pgdb.url, dataDir: '' }), cleanup: pgdb.drop };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-crash-'));
  return {
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    dir,
    open: () => openDatabase({ dataDir: dir }, { log: () => {} }),
    cleanup: async () => {
      const pid = postmasterPid(dir);
      if (pid) try { process.kill(pid, 'SIGQUIT'); } catch { /* not running */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const rowsOf = (res: any): any[] => res.rows ?? res;
const postmasterPid = (dir: string) => { try { return Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || 0; } catch { return 0; } };

/** Every invariant of a database after a crash; returns the problems found. */
async function verify(db: Database['db'], acked: Acked[]): Promise<{ problems: string[]; lost: number }> {
  const problems: string[] = [];
  let lost = 0;
  const q = async (text: string) => rowsOf(await db.execute(sql.raw(text)));
  const tables = new Set((await q(`select table_name from information_schema.tables where table_schema = 'public'`)).map((r) => r.table_name));

  for (const a of acked) {
    if (a.kind === 'tax') {
      const rows = await q(`select id from tax where id = ${a.id} and name = '${a.key}'`);
      if (!rows.length) { lost++; problems.push(`acknowledged tax ${a.key} (#${a.id}) is missing`); }
    } else if (a.kind === 'sale') {
      const [o] = await q(`select o.id, (select count(*)::int from order_product p where p."orderId" = o.id) as items,
        (select count(*)::int from order_payment p where p.order_id = o.id) as payments,
        (select count(*)::int from stock_movement m where m.order_id = o.id) as moves
        from "order" o where o.id = ${a.id}`);
      if (!o) { lost++; problems.push(`acknowledged sale #${a.id} (${a.key}) is missing`); continue; }
      if (o.items !== a.lines) problems.push(`sale #${a.id}: ${o.items} items, sent ${a.lines}`);
      if (o.payments < 1) problems.push(`sale #${a.id}: no payment`);
      if (o.moves < a.stocked) problems.push(`sale #${a.id}: ${o.moves} stock movements for ${a.stocked} stocked lines`);
    } else if (a.kind === 'purchase') {
      const [p] = await q(`select p.id, (select count(*)::int from purchase_item i where i.purchase_id = p.id) as items,
        (select count(*)::int from stock_movement m where m.purchase_id = p.id) as moves from purchase p where p.id = ${a.id}`);
      if (!p) { lost++; problems.push(`acknowledged purchase #${a.id} (${a.key}) is missing`); continue; }
      if (p.items !== a.lines) problems.push(`purchase #${a.id}: ${p.items} lines, sent ${a.lines}`);
      if (p.moves < a.stocked) problems.push(`purchase #${a.id}: ${p.moves} stock movements for ${a.stocked} lines`);
    } else if (a.kind === 'import') {
      const [r] = await q(`select count(*)::int as n from product where barcode like '${a.key}-%'`);
      if (r.n !== a.lines) { lost += a.lines - r.n; problems.push(`acknowledged import ${a.key}: ${r.n} of ${a.lines} rows`); }
    }
  }

  // No partial writes, acknowledged or not.
  if (tables.has('order')) {
    const empty = await q(`select id from "order" o where not exists (select 1 from order_product p where p."orderId" = o.id)`);
    if (empty.length) problems.push(`orders without items: ${empty.map((r) => r.id).join(', ')}`);
    const unpaid = await q(`select id from "order" o where o.status = 'Completed' and not exists (select 1 from order_payment p where p.order_id = o.id)`);
    if (unpaid.length) problems.push(`completed orders without payments: ${unpaid.map((r) => r.id).join(', ')}`);
  }
  const partialImports = await q(`select split_part(barcode, '-', 1) as k, count(*)::int as n from product where barcode like 'CRASHIMP%' group by 1`);
  for (const r of partialImports) if (r.n !== IMPORT_ROWS) problems.push(`import ${r.k} half applied: ${r.n} of ${IMPORT_ROWS} rows`);

  // Stock is the sum of its ledger, everywhere.
  const drift = await q(`select ps.product_id, ps.store_id, ps.quantity, coalesce(sum(m.quantity), 0) as ledger
    from product_store ps left join stock_movement m on m.product_id = ps.product_id and m.store_id = ps.store_id and m.variant_id is null
    group by ps.product_id, ps.store_id, ps.quantity having ps.quantity <> coalesce(sum(m.quantity), 0)`);
  for (const d of drift.slice(0, 10)) problems.push(`stock drift: product ${d.product_id} store ${d.store_id}: stock ${d.quantity}, ledger ${d.ledger}`);
  const vdrift = await q(`select v.id, v.quantity, coalesce(sum(m.quantity), 0) as ledger from product_variant v
    left join stock_movement m on m.variant_id = v.id group by v.id, v.quantity having v.quantity <> coalesce(sum(m.quantity), 0)`);
  for (const d of vdrift.slice(0, 10)) problems.push(`stock drift: variant ${d.id}: stock ${d.quantity}, ledger ${d.ledger}`);
  return { problems, lost };
}

const IMPORT_ROWS = 25;

function importCsv(key: string): string {
  const head = 'ID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit';
  const rows = Array.from({ length: IMPORT_ROWS }, (_, i) => `,Crash import ${key} ${i},${key}-${i},1,1.00,2.50,5,pcs,pcs`);
  return [head, ...rows].join('\n') + '\n';
}

describe(`crash safety on ${engine} (kill -9 under load, ${ROUNDS} rounds)`, () => {
  let store: Store;
  let facts: ShopFacts;
  let adminId = 1;
  beforeAll(async () => {
    store = await prepareStore();
    const database = await store.open();
    await database.migrate();
    await seedDemoShop(database.db, { bcryptRounds: 4 });
    facts = await shopFacts(database.db);
    adminId = Number(rowsOf(await database.db.execute(sql`select id from user_account where username = 'admin'`))[0].id);
    await database.close();
  }, 300_000);
  afterAll(async () => { await store?.cleanup(); });

  it('loses no acknowledged write and leaves no partial one', { timeout: 1_800_000 }, async () => {
    const server = new ServerProcess(store.env);
    const token = await createTokenService(SECRET, 24 * 3600).sign({ id: adminId, username: 'admin', roles: ['ROLE_ADMIN'] });
    const auth = { authorization: `Bearer ${token}` };
    const acked: Acked[] = [];
    let attempted = 0;
    let serverErrors: string[] = [];
    let refused = 0;
    const refusals = new Map<string, number>();
    const unanswered: ReturnType<typeof saleBody>[] = [];
    const duplicates: string[] = [];
    let retried = 0;
    let kills = 0;
    let dbKills = 0;
    let dbDown = 0;
    const readyMs: number[] = [];
    const dbReadyMs: number[] = [];
    let available: string[] = [];
    const stocked = facts.stocked[1] ?? [];
    const untracked = facts.untracked[1] ?? [];

    for (let round = 0; round < ROUNDS; round++) {
      await server.start();
      if (round === 0) {
        const doc = await (await fetch(`${server.url}/api/docs`)).json() as { paths: Record<string, Record<string, unknown>> };
        const has = (p: string, m: string) => !!doc.paths[p]?.[m];
        available = ['tax', ...(has('/api/admin/order/create', 'post') ? ['sale'] : []), ...(has('/api/purchases', 'post') ? ['purchase'] : []),
          ...(has('/api/products/import', 'post') ? ['import'] : [])];
        // No silent skip (issue 22): a write the test no longer finds fails it instead of going unexercised.
        expect(available, 'sales, purchases and imports are all served').toEqual(['tax', 'sale', 'purchase', 'import']);
      }
      let stop = false;
      let seq = 0;
      const killDb = !!store.dir && round % 2 === 1;
      let dbKilled = false;
      const post = async (url: string, body: string | FormData, headers: Record<string, string>) => {
        attempted++;
        const res = await fetch(`${server.url}${url}`, { method: 'POST', headers: { ...auth, ...headers }, body });
        const text = await res.text();
        // With its database killed under it a request is answered 5xx (or not at all) and not
        // acknowledged: the till keeps it and retries it after the restart.
        if (res.status >= 500 && dbKilled) { dbDown++; throw new Error('database down'); }
        if (res.status >= 500) serverErrors.push(`${url} ${res.status} ${text.slice(0, 120)}`);
        else if (res.status >= 400) {
          refused++;
          const why = `${url} ${res.status} ${text.slice(0, 100)}`;
          refusals.set(why, (refusals.get(why) ?? 0) + 1);
        }
        return res.ok ? JSON.parse(text) : null;
      };
      const json = { 'content-type': 'application/json' };
      const loops: Record<string, () => Promise<void>> = {
        tax: async () => {
          const name = `crash-tax-${round}-${seq++}-${crypto.randomBytes(3).toString('hex')}`;
          const body = await post('/api/taxes', JSON.stringify({ name, rate: 3, stores: ['/api/stores/1'] }), json);
          if (body) acked.push({ kind: 'tax', id: body.id, key: name, lines: 0, stocked: 0 });
        },
        sale: async () => {
          const n = 1 + (seq % 3);
          const lines = Array.from({ length: n }, (_, i) => {
            const pick = i === 0 || !untracked.length ? stocked[(seq * 7 + i * 13) % stocked.length] : untracked[(seq + i) % untracked.length];
            return { ...pick, quantity: 1 };
          });
          seq++;
          const sale = saleBody(facts, 1, lines);
          let body: any;
          try {
            body = await post('/api/admin/order/create', JSON.stringify(sale), json);
          } catch (e) {
            unanswered.push(sale); // the till never heard back: it will retry with the same uuid
            throw e;
          }
          const order = body?.order ?? body;
          if (body) acked.push({ kind: 'sale', id: order.id, key: sale.uuid, lines: n, stocked: lines.filter((l) => stocked.includes(l as any) || stocked.some((s) => s.id === l.id)).length });
        },
        purchase: async () => {
          const lines = stocked.slice((seq * 3) % Math.max(1, stocked.length - 3), ((seq * 3) % Math.max(1, stocked.length - 3)) + 2).map((p) => ({ ...p, quantity: 2 }));
          seq++;
          const p = purchaseBody(facts, 1, lines);
          const body = await post('/api/purchases', JSON.stringify(p), json);
          if (body) acked.push({ kind: 'purchase', id: body.id, key: p.purchaseNumber, lines: lines.length, stocked: lines.length });
        },
        import: async () => {
          const key = `CRASHIMP${round}x${seq++}x${crypto.randomBytes(2).toString('hex')}`;
          const form = new FormData();
          form.append('file', new Blob([importCsv(key)], { type: 'text/csv' }), 'products.csv');
          const body = await post('/api/products/import', form, {});
          if (body !== null) acked.push({ kind: 'import', key, lines: IMPORT_ROWS, stocked: 0 });
        },
      };
      const clients = available.flatMap((kind) => Array.from({ length: kind === 'sale' ? 4 : 1 }, () => kind)).map(async (kind) => {
        while (!stop) {
          try { await loops[kind](); } catch { /* cut off by the kill */ }
        }
      });
      // Let the tills run, then pull the plug while requests are in flight.
      const ackedBefore = acked.length;
      const deadline = Date.now() + 60_000;
      while (acked.length - ackedBefore < 15 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 400)));
      if (killDb) {
        // The database dies under a running server: the server exits (to be restarted by its supervisor).
        dbKilled = true;
        const pid = postmasterPid(store.dir!);
        expect(pid).toBeGreaterThan(0);
        process.kill(pid, 'SIGKILL');
        dbKills++;
        const exited = await Promise.race([new Promise((r) => server.child!.once('exit', () => r(true))), new Promise((r) => setTimeout(() => r(false), 10_000))]);
        expect(exited, 'the server exits when its database dies').toBe(true);
        server.child = null;
      } else {
        await server.kill9();
      }
      kills++;
      stop = true;
      await Promise.all(clients);
      // Restart on the same data: it must come up, quickly (PostgreSQL's recovery, or reuse of the
      // postmaster the killed server left running).
      const restarted = Date.now();
      await server.start();
      readyMs.push(Date.now() - restarted);
      if (store.dir) dbReadyMs.push(server.dbReadyMs ?? Infinity);
      const health = await fetch(`${server.url}/api/health`);
      expect(health.ok).toBe(true);
      // Tills retry the sales they never heard back about, with the same uuid: each is recorded once.
      for (const sale of unanswered.splice(0)) {
        const body = await post('/api/admin/order/create', JSON.stringify(sale), json);
        if (body) {
          retried++;
          const order = body.order ?? body;
          const first = acked.find((a) => a.key === sale.uuid);
          if (first && first.id !== order.id) duplicates.push(`uuid ${sale.uuid}: acknowledged as #${first.id}, retry answered #${order.id}`);
          if (!first) acked.push({ kind: 'sale', id: order.id, key: sale.uuid, lines: sale.items.length, stocked: sale.items.filter((i) => stocked.some((p) => p.id === i.item.id)).length });
        }
      }
      await server.stop();
    }

    const database = await store.open();
    let result: Awaited<ReturnType<typeof verify>>;
    try {
      result = await verify(database.db, acked);
    } finally {
      await database.close();
    }
    if (available.includes('sale')) {
      const check = await store.open();
      try {
        const keys = acked.filter((a) => a.kind === 'sale').map((a) => `'${a.key}'`);
        if (keys.length) {
          const dupes = rowsOf(await check.db.execute(sql.raw(`select client_id, count(*)::int as n from "order" where client_id in (${keys.join(',')}) group by client_id having count(*) <> 1`)));
          for (const d of dupes) duplicates.push(`uuid ${d.client_id} recorded ${d.n} times`);
        }
      } finally {
        await check.close();
      }
    }
    const byKind = (k: string) => acked.filter((a) => a.kind === k).length;
    const pgLog = store.dir ? fs.readFileSync(path.join(store.dir, 'postgres.log'), 'utf8') : '';
    const uniqueErrors = (pgLog.match(/duplicate key value violates unique constraint/g) ?? []).length;
    const sorted = [...readyMs].sort((a, b) => a - b);
    report(`crash (${engine}): restarts ready in ${sorted[0]}-${sorted.at(-1)} ms (median ${sorted[sorted.length >> 1]}), of which PostgreSQL ${dbReadyMs.join(', ') || 'n/a'} ms; ${dbKills} of the kills were of PostgreSQL (${dbDown} requests failed while it was down); ${uniqueErrors} unique-key errors in PostgreSQL's log`);
    report(`crash (${engine}): ${kills} kill -9 survived, ${attempted} writes attempted, ${acked.length} acknowledged (${available.map((k) => `${byKind(k)} ${k}`).join(', ')}), ${refused} refused, ${serverErrors.length} 5xx, data lost: ${result.lost}, problems: ${result.problems.length}; ${retried} unanswered sales retried after restart, ${duplicates.length} duplicates`);
    if (refusals.size) report(`crash: refusals during load: ${[...refusals].slice(0, 5).map(([m, n]) => `${n}x ${m}`).join(' | ')}`);
    if (!available.includes('sale')) report('crash: POST /api/admin/order/create not present yet: sales not exercised');
    if (!available.includes('purchase')) report('crash: POST /api/purchases not present yet');
    if (!available.includes('import')) report('crash: POST /api/products/import not present yet');
    expect(result.problems.slice(0, 20)).toEqual([]);
    expect(duplicates.slice(0, 10), 'a retried sale is recorded once').toEqual([]);
    expect(result.lost).toBe(0);
    expect(serverErrors.slice(0, 10)).toEqual([]);
    expect(acked.length).toBeGreaterThan(0);
    expect(uniqueErrors, 'a retried sale is answered from the stored one: no unique-key error in PostgreSQL\'s log').toBe(0);
    // The database's part of each restart (recovery, or reuse of the running postmaster) is bounded;
    // the whole restart also includes Node + tsx loading the app (seconds on a loaded 2-core box):
    // reported above, not asserted.
    // Median over the rounds (API kills: reuse; PostgreSQL kills: crash recovery), so one restart
    // slowed by a loaded machine does not decide it; every figure is reported above.
    const dbSorted = [...dbReadyMs].sort((a, b) => a - b);
    if (dbSorted.length) expect(dbSorted[dbSorted.length >> 1], `PostgreSQL ready after a kill within ${READY_MS} ms (median)`).toBeLessThanOrEqual(READY_MS);
    serverErrors = [];
  });
});
