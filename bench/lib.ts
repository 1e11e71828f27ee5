/**
 * Shared helpers of the benchmark: throwaway PostgreSQL databases, the API server as a child
 * process, a keep-alive HTTP client, percentiles and the result format read by scripts/bench.mjs.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SERVER_NODE_FLAGS } from '../scripts/server-flags.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(ROOT, 'bench', 'out');
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

// ---------------------------------------------------------------- statistics

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[i];
}
export const median = (values: number[]) => percentile(values, 50);
export const round = (n: number, d = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** d) / 10 ** d : n);

/** One line of the results table. `median` and `p95` are medians over the runs of the run's p50 / p95. */
export interface Metric {
  id: string;
  section: string;
  metric: string;
  unit: string;
  /** Human text of the budget, e.g. "<= 20 ms". */
  budget: string;
  /** Budget check on the headline value; undefined = informational. */
  limit?: { op: '<=' | '>='; value: number };
  /** Which figure the budget applies to. */
  on: 'median' | 'p95';
  median: number | null;
  p95: number | null;
  runs: number;
  note?: string;
  /** Set when the metric could not be measured (route missing, till not ready...). */
  skipped?: string;
  /** Share of the machine's CPU busy (0-100) just before the measurement, while the bench was idle: other people's work. */
  backgroundBusy?: number;
}

export function metric(m: Omit<Metric, 'on' | 'median' | 'p95' | 'runs'> & Partial<Pick<Metric, 'on' | 'median' | 'p95' | 'runs'>>): Metric {
  return { on: 'p95', median: null, p95: null, runs: 0, ...(m.skipped ? {} : { backgroundBusy: lastBackground }), ...m };
}

export function passOf(m: Metric): 'pass' | 'FAIL' | 'info' | 'not measured' {
  if (m.skipped) return 'not measured';
  if (!m.limit) return 'info';
  const v = m.on === 'p95' ? m.p95 : m.median;
  if (v == null || !Number.isFinite(v)) return 'FAIL';
  return (m.limit.op === '<=' ? v <= m.limit.value : v >= m.limit.value) ? 'pass' : 'FAIL';
}

export function writeResults(file: string, metrics: Metric[], extra: Record<string, unknown> = {}) {
  fs.mkdirSync(OUT_DIR, { recursive: true });
  fs.writeFileSync(path.join(OUT_DIR, file), JSON.stringify({ part: file.replace(/\.json$/, ''), at: new Date().toISOString(), quick: QUICK, command: process.env.BENCH_COMMAND, machine: machine(), metrics, ...extra }, null, 2));
}

export function machine() {
  return {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? '?',
    memoryGb: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

// ---------------------------------------------------------------- machine load (shared machine)

function cpuTimes(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (line[3] ?? 0) + (line[4] ?? 0);
  const total = line.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Share (0-100) of all CPUs busy during the next `ms`. */
export async function cpuBusy(ms = 1000): Promise<number> {
  try {
    const a = cpuTimes();
    await sleep(ms);
    const b = cpuTimes();
    return round((100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total), 0);
  } catch { return NaN; }
}

/** CPU time (user + system, ms) a process has used so far; NaN when gone. Linux /proc, 10 ms ticks. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // utime, stime in clock ticks (USER_HZ = 100)
  } catch { return NaN; }
}

/** PostgreSQL backends connected to a database (their pids), read through the admin connection. */
export async function backendsOf(dbName: string): Promise<number[]> {
  return admin(async (c) => (await c.query('select pid from pg_stat_activity where datname = $1', [dbName])).rows.map((r) => r.pid as number));
}

/**
 * CPU cost of a piece of work, independent of how busy the (shared) machine is: CPU time used by
 * the API server process and by the PostgreSQL backends of the bench database while `fn` runs.
 */
export async function cpuCost<T>(serverPid: number | null, dbName: string, fn: () => Promise<T>): Promise<{ result: T; nodeMs: number; pgMs: number }> {
  const snap = async () => {
    const pids = await backendsOf(dbName);
    return { server: serverPid ? cpuMsOf(serverPid) : 0, pg: new Map(pids.map((p) => [p, cpuMsOf(p)])) };
  };
  const a = await snap();
  const result = await fn();
  const b = await snap();
  let pgMs = 0;
  for (const [pid, after] of b.pg) {
    const before = a.pg.get(pid) ?? 0; // a backend opened during the work counts whole
    if (Number.isFinite(after)) pgMs += after - before;
  }
  return { result, nodeMs: b.server - a.server, pgMs };
}

let lastBackground = NaN;
/**
 * Waits (up to `maxWaitS`) until the machine is quiet — less than `maxBusy`% of all CPUs busy over
 * 2 s while the bench itself idles — so other work on a shared machine does not skew a measurement.
 * Returns the last reading; metrics record it as `backgroundBusy`.
 */
export async function waitQuiet(label: string, maxBusy = Number(process.env.BENCH_MAX_BUSY ?? 30), maxWaitS = Number(process.env.BENCH_QUIET_WAIT ?? 60)): Promise<number> {
  const t0 = Date.now();
  let busy = await cpuBusy(2000);
  while (busy > maxBusy && Date.now() - t0 < maxWaitS * 1000) {
    log(`${label}: machine busy ${busy}% (others' work), waiting for < ${maxBusy}%...`);
    busy = await cpuBusy(5000);
  }
  if (busy > maxBusy) log(`${label}: still ${busy}% busy after ${maxWaitS} s; measuring anyway (flagged)`);
  lastBackground = busy;
  return busy;
}
export const background = () => lastBackground;

export function log(...args: unknown[]) {
  console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
}

// ---------------------------------------------------------------- PostgreSQL

export async function pgReachable(): Promise<boolean> {
  const u = new URL(PG_ADMIN_URL);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port || 5432) });
    s.setTimeout(2000);
    s.on('connect', () => { s.destroy(); resolve(true); });
    s.on('error', () => resolve(false));
    s.on('timeout', () => { s.destroy(); resolve(false); });
  });
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try { return await fn(c); } finally { await c.end(); }
}

export interface ThrowawayDb { name: string; url: string; drop(): Promise<void> }

/** A fresh, empty database named pos_bench_<pid>_<random>; drop() removes it (also on exit via dropAll). */
export async function createThrowawayDb(label = 'db'): Promise<ThrowawayDb> {
  const name = `pos_bench_${label}_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  await admin((c) => c.query(`create database ${name}`));
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const db: ThrowawayDb = {
    name, url,
    drop: async () => {
      created.delete(db);
      await admin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
  created.add(db);
  return db;
}
const created = new Set<ThrowawayDb>();
export async function dropAll() {
  for (const db of [...created]) await db.drop().catch(() => {});
}

// ---------------------------------------------------------------- the API server as a child process

export interface Server { url: string; port: number; pid: number; child: ChildProcess; stop(): Promise<void>; rssMb(): number }

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Reads VmRSS of a process in MB (Linux /proc). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch { return NaN; }
}

let apiBuilt = false;
/**
 * The server a shop runs (`npm start`): the compiled apps/api/dist, built once per bench run (not
 * the sources through tsx, whose loader alone holds ~55 MB and would count in the memory figures).
 */
function builtApi(): string {
  // BENCH_API_ENTRY: an API built elsewhere (another commit's dist, to compare builds on one machine): run as is.
  if (process.env.BENCH_API_ENTRY) return path.resolve(ROOT, process.env.BENCH_API_ENTRY);
  const entry = path.join(ROOT, 'apps/api/dist/server.js');
  if (!apiBuilt) {
    const r = spawnSync('npm', ['run', 'build', '-w', '@pos/api'], { cwd: ROOT, stdio: 'ignore' });
    if (r.status !== 0) throw new Error('npm run build -w @pos/api failed');
    apiBuilt = true;
  }
  return entry;
}

/**
 * Starts apps/api/dist/server.js (the production build, with the node flags `npm start` gives it) on a free loopback
 * port, in its own process (plain node, so the pid is the server itself), production mode, request
 * logs at `warn`.
 */
export async function startServer(databaseUrl: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  // BENCH_SERVER_NODE_ARGS: extra node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=bench/out/prof".
  const extraArgs = [...nodeArgs, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  // The memory flags `npm start` runs the server with (scripts/server-flags.mjs);
  // BENCH_NODE_DEFAULT_HEAP=1 leaves node's defaults, to measure what they change.
  const heapFlags = process.env.BENCH_NODE_DEFAULT_HEAP === '1' ? [] : SERVER_NODE_FLAGS;
  const child = spawn(process.execPath, [...heapFlags, ...extraArgs, '--enable-source-maps', builtApi()], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      JWT_SECRET: crypto.randomBytes(48).toString('base64url'), // a fresh one per run: no secret printed in the source
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      BCRYPT_ROUNDS: '4',
      LOGIN_MAX_FAILURES: '1000',
      // No background roll-up pass (modules/reports/rollups.ts) running under a measurement: a bench
      // times what it asks for; the reports bench times the roll itself as its own line.
      REPORT_ROLLUP_EVERY_MS: '0',
      // Nor the daily backup, which a server starts 60 s after it starts when the day has none: on a
      // 10M-order shop it took both cores for minutes (Node at 120 %) in the middle of a run, and on
      // the 100k shop it overlapped the open loop's 2× step (the first run of a day on each shop).
      DAILY_BACKUPS: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => { output = (output + d).slice(-20000); });
  child.stderr!.on('data', (d) => { output = (output + d).slice(-20000); });
  const url = `http://127.0.0.1:${port}`;
  // A first start on a big kept shop runs the migrations it lacks (0017 rewrites the product table: ~1-2 min at 1M).
  const deadline = Date.now() + 300_000;
  for (;;) {
    if (child.exitCode != null) throw new Error(`API server exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) { child.kill('SIGKILL'); throw new Error(`API server did not start in 300 s:\n${output}`); }
    try {
      const r = await request('GET', `${url}/api/health`);
      if (r.status === 200) break;
    } catch { /* not listening yet */ }
    await sleep(200);
  }
  const server: Server = {
    url, port, pid: child.pid!, child,
    rssMb: () => rssOf(child.pid!),
    stop: async () => {
      servers.delete(server);
      if (child.exitCode != null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await done;
      clearTimeout(t);
    },
  };
  servers.add(server);
  return server;
}
const servers = new Set<Server>();
export async function stopAllServers() {
  for (const s of [...servers]) await s.stop().catch(() => {});
}

// ---------------------------------------------------------------- HTTP over loopback with keep-alive

export const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Res { status: number; body: string; ms: number; headers: http.IncomingHttpHeaders }

/** One HTTP request; `ms` is the time from send to the last byte of the body. */
export function request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const t0 = performance.now();
    const req = http.request(url, {
      method, agent,
      headers: { accept: 'application/json', ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - t0, headers: res.headers }));
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout ${method} ${url}`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

export async function login(baseUrl: string, username: string, password: string): Promise<Record<string, string>> {
  const r = await request('POST', `${baseUrl}/api/auth/login_check`, { username, password });
  if (r.status !== 200) throw new Error(`login ${username}: ${r.status} ${r.body.slice(0, 300)}`);
  return { authorization: `Bearer ${JSON.parse(r.body).token}` };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Stop children and drop databases on Ctrl-C or a crash. */
export function cleanupOnExit() {
  // --keep keeps the generated databases even when the run is stopped (a 10M-order shop takes minutes to make).
  const keep = process.argv.includes('--keep');
  const bail = async (code: number) => {
    await stopAllServers();
    if (keep) for (const db of created) log(`kept database: ${db.url}`);
    else await dropAll();
    process.exit(code);
  };
  process.once('SIGINT', () => void bail(130));
  process.once('SIGTERM', () => void bail(143));
}
