/**
 * The engines part of `npm run bench` (issues 28.6 and 20.3), on the production build
 * (apps/api/dist/server.js, built here first, run with plain node):
 *   - start-up of the production server on the shop's own PostgreSQL: first start of a new data
 *     folder (initdb + migrations) and restarts, each to /api/health answering; the same restart
 *     through tsx from the sources (how `npm start` ran before the build) for comparison;
 *   - sales/s with 20 tills on the shop's own PostgreSQL beside the machine's PostgreSQL: the same
 *     generated shop loaded into each, the same server build, the same sale bodies (same seeds),
 *     one after the other in this run.
 *
 *   node --import tsx bench/engine-bench.ts [--quick]
 *
 * Results go to bench/out/engines.json; scripts/bench.mjs adds them to bench/results.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../apps/api/src/db/embedded.ts';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, ROOT, cleanupOnExit, cpuMsOf, createThrowawayDb, dropAll, freePort, log, login, median, metric, percentile, pgReachable, request, round,
  sleep, waitQuiet, writeResults, type Metric, type Server,
} from './lib.ts';
import { closedLoop, loadSaleCatalogue, rng, saleBody, type Till } from './sales.ts';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';

const CFG = QUICK ? { products: 5_000, tills: 20, saleSeconds: 5, saleRuns: 1, restarts: 3 } : { products: 20_000, tills: 20, saleSeconds: 15, saleRuns: 2, restarts: 5 };
const metrics: Metric[] = [];
const extra: Record<string, unknown> = { config: CFG };
const SECTION = 'Engines and start-up (production build)';
const dirs: string[] = [];
const tmpDir = (label: string) => { const d = fs.mkdtempSync(path.join(os.tmpdir(), `pos-bench-${label}-`)); dirs.push(d); return d; };

interface Started extends Server { readyMs: number; cpuMs: number }
const running = new Set<Started>();

/** A server process (`node dist/server.js`, or tsx on the sources) until /api/health answers. */
async function start(env: Record<string, string>, how: 'build' | 'tsx' = 'build'): Promise<Started> {
  const port = await freePort();
  // The production build runs as `npm start` runs it: with the server's node flags (scripts/server-flags.mjs).
  const args = how === 'build' ? [...SERVER_NODE_FLAGS, path.join(ROOT, 'apps/api/dist/server.js')] : ['--import', 'tsx', path.join(ROOT, 'apps/api/src/server.ts')];
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env, NODE_OPTIONS: '', NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn',
      JWT_SECRET: crypto.randomBytes(48).toString('base64url'), BCRYPT_ROUNDS: '4', LOGIN_MAX_FAILURES: '1000', ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => { output = (output + d).slice(-8000); });
  child.stderr!.on('data', (d) => { output = (output + d).slice(-8000); });
  const url = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 120_000; ;) {
    if (child.exitCode != null) throw new Error(`server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`server did not start in 120 s:\n${output}`); }
    try { if ((await request('GET', `${url}/api/health`)).status === 200) break; } catch { /* not yet */ }
    await sleep(10);
  }
  const s: Started = {
    url, port, pid: child.pid!, child, rssMb: () => NaN, readyMs: performance.now() - t0, cpuMs: cpuMsOf(child.pid!),
    stop: async () => {
      running.delete(s);
      if (child.exitCode != null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await done;
      clearTimeout(t);
    },
  };
  running.add(s);
  return s;
}

// ------------------------------------------------------------------ start-up
async function benchStartup() {
  const dir = tmpDir('start');
  await waitQuiet('first start');
  const first = await start({ DATA_DIR: dir, DATABASE_URL: '' });
  await first.stop();
  metrics.push(metric({ id: 'start.first', section: SECTION, metric: 'Production server, first start of a new data folder (initdb + migrations) -> /api/health answers', unit: 's', budget: 'info', on: 'median', median: round(first.readyMs / 1000, 2), p95: round(first.readyMs / 1000, 2), runs: 1, note: `node apps/api/dist/server.js, shop's own PostgreSQL; server CPU ${first.cpuMs} ms` }));
  for (const how of ['build', 'tsx'] as const) {
    const ready: number[] = [];
    const cpu: number[] = [];
    await waitQuiet(`restarts (${how})`);
    for (let i = 0; i < CFG.restarts; i++) {
      const s = await start({ DATA_DIR: dir, DATABASE_URL: '' }, how);
      ready.push(s.readyMs); cpu.push(s.cpuMs);
      await s.stop();
    }
    log(`restarts (${how}): ${ready.map((x) => Math.round(x)).join(', ')} ms`);
    metrics.push(metric(how === 'build'
      ? { id: 'start.restart', section: SECTION, metric: 'Production server start (existing data folder) -> /api/health answers', unit: 's', budget: '< 2 s', limit: { op: '<=', value: 2 }, on: 'median',
        median: round(median(ready) / 1000, 2), p95: round(Math.max(...ready) / 1000, 2), runs: ready.length, note: `node apps/api/dist/server.js (plain node); p95 column = slowest; server CPU to ready ${round(median(cpu), 0)} ms` }
      : { id: 'start.tsx', section: SECTION, metric: 'The same start through tsx from the TypeScript sources (before the production build)', unit: 's', budget: 'info', on: 'median',
        median: round(median(ready) / 1000, 2), p95: round(Math.max(...ready) / 1000, 2), runs: ready.length, note: `node --import tsx apps/api/src/server.ts; server CPU to ready ${round(median(cpu), 0)} ms` }));
  }
}

// ------------------------------------------------------------------ 20 tills on each engine
async function tillsOf(server: Server, url: string): Promise<{ tills: Till[]; cash: Record<string, unknown> }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const names = Array.from({ length: CFG.tills }, (_, i) => `till${String(i + 1).padStart(2, '0')}`);
  const { rows } = await c.query(`select u.username, us.store_id, t.id as terminal_id from user_account u join user_store us on us.user_id = u.id
    join terminal t on t.code = 'T' || substr(u.username, 5) where u.username = any($1) order by u.username`, [names]);
  const { rows: [p] } = await c.query(`select id, name, type, can_have_change_due from payment where type = 'cash' order by id limit 1`);
  await c.end();
  const tills: Till[] = [];
  for (const r of rows) tills.push({ user: r.username, headers: await login(server.url, r.username, 'till'), storeId: r.store_id, terminalId: r.terminal_id });
  return { tills, cash: { '@id': `/api/payments/${p.id}`, id: p.id, name: p.name, type: p.type, canHaveChangeDue: p.can_have_change_due, isActive: true } };
}

async function salesOn(label: string, server: Server, url: string) {
  const { tills, cash } = await tillsOf(server, url);
  const cat = await loadSaleCatalogue(server, tills[0].headers, 10);
  const rngs = tills.map((_, i) => rng(1000 + i));
  const once = async (w: number) => {
    const till = tills[w % tills.length];
    const r = await request('POST', `${server.url}/api/admin/order/create`, saleBody(cat, till, cash, rngs[w]), till.headers);
    if (r.status !== 201) throw new Error(`${r.status} ${r.body.slice(0, 200)}`);
  };
  await closedLoop(CFG.tills, 2, once); // warm-up
  const tput: number[] = [];
  const p95: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  for (let r = 0; r < CFG.saleRuns; r++) {
    await waitQuiet(`${label} sales run ${r + 1}`);
    const res = await closedLoop(CFG.tills, CFG.saleSeconds, once);
    tput.push(res.ok / res.seconds);
    p95.push(percentile(res.latencies, 95));
    errors += res.errors; firstError ??= res.firstError;
    log(`${label} run ${r + 1}: ${res.ok} sales, ${res.errors} errors = ${(res.ok / res.seconds).toFixed(0)}/s, p95 ${percentile(res.latencies, 95).toFixed(1)} ms`);
  }
  return { tput: median(tput), worst: Math.min(...tput), p95: median(p95), errors, firstError };
}

async function benchEngines() {
  // The machine's PostgreSQL: a throwaway database with the generated shop.
  const machineDb = await createThrowawayDb('engines');
  log(`generating ${CFG.products} products on the machine's PostgreSQL...`);
  await generateCatalogue(machineDb.url, { products: CFG.products });
  // The shop's own PostgreSQL: a data folder with the same generated shop.
  const dir = tmpDir('embedded');
  const embedded = await startEmbeddedPostgres(dir);
  const embeddedUrl = embedded.url();
  log(`generating ${CFG.products} products on the shop's own PostgreSQL...`);
  try {
    await generateCatalogue(embeddedUrl, { products: CFG.products });
    const c = new pg.Client({ connectionString: embeddedUrl });
    await c.connect();
    extra.embedded = (await c.query(`select version() as v, current_setting('fsync') as fsync, current_setting('synchronous_commit') as sc`)).rows[0];
    await c.end();
  } finally {
    await embedded.stop();
  }
  const c = new pg.Client({ connectionString: machineDb.url });
  await c.connect();
  extra.machine = (await c.query(`select version() as v, current_setting('fsync') as fsync, current_setting('synchronous_commit') as sc`)).rows[0];
  await c.end();

  const results: Record<string, Awaited<ReturnType<typeof salesOn>>> = {};
  for (const [label, env, url] of [
    ['embedded', { DATA_DIR: dir, DATABASE_URL: '' }, embeddedUrl],
    ['machine', { DATA_DIR: tmpDir('machine'), DATABASE_URL: machineDb.url }, machineDb.url],
  ] as const) {
    const server = await start(env);
    try {
      // The embedded database is reached through the server's own PostgreSQL (started by it).
      results[label] = await salesOn(label, server, url);
    } finally {
      await server.stop();
    }
  }
  const describe = (x: { v: string; fsync: string; sc: string } | undefined) => x ? `${x.v.split(' on ')[0]}, fsync=${x.fsync}, synchronous_commit=${x.sc}` : '?';
  for (const [label, what] of [['embedded', `the shop's own PostgreSQL (no DATABASE_URL; ${describe(extra.embedded as any)}; Unix socket)`], ['machine', `the machine's PostgreSQL (DATABASE_URL; ${describe(extra.machine as any)}; TCP loopback)`]] as const) {
    const r = results[label];
    metrics.push(metric({ id: `engines.${label}`, section: SECTION, metric: `Sales per second, ${CFG.tills} tills, 5-line cash sales, on ${what}`, unit: 'sales/s', budget: 'info (the ≥ 300/s budget: API half)', on: 'median',
      median: round(r.tput, 0), p95: round(r.worst, 0), runs: CFG.saleRuns, note: `p95 column = worst run; latency p95 ${round(r.p95, 1)} ms; ${CFG.products.toLocaleString('en')} generated products, same server build and sale bodies on both${r.errors ? `; ${r.errors} errors: ${r.firstError}` : ''}` }));
  }
  const ratio = results.embedded.tput / results.machine.tput;
  metrics.push(metric({ id: 'engines.ratio', section: SECTION, metric: 'Shop\'s own PostgreSQL as a share of the machine\'s (sales/s, same run)', unit: '×', budget: 'info', on: 'median', median: round(ratio, 2), p95: round(ratio, 2), runs: 1 }));
}

async function main() {
  cleanupOnExit();
  const built = spawnSync(process.execPath, [path.join(ROOT, 'apps/api/scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the API build failed');
  try {
    await benchStartup();
    if (await pgReachable()) await benchEngines();
    else metrics.push(metric({ id: 'engines.machine', section: SECTION, metric: 'Sales per second on both engines', unit: '', budget: '', skipped: 'the machine\'s PostgreSQL is not reachable at 127.0.0.1:5432' }));
  } finally {
    for (const s of [...running]) await s.stop().catch(() => {});
    await dropAll();
    for (const d of dirs) {
      try { const pid = Number(fs.readFileSync(path.join(d, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]); if (pid) process.kill(pid, 'SIGQUIT'); } catch { /* not running */ }
      fs.rmSync(d, { recursive: true, force: true });
    }
  }
  writeResults('engines.json', metrics, extra);
  for (const m of metrics) log(`${m.id}: median ${m.median} p95 ${m.p95} ${m.unit}${m.skipped ? ` (not measured: ${m.skipped})` : ''}`);
}

main().catch(async (e) => {
  console.error(e);
  for (const s of [...running]) await s.stop().catch(() => {});
  await dropAll();
  process.exit(1);
});
