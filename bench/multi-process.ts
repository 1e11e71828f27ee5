/**
 * Several API processes behind one PostgreSQL (issue 24, "past one machine"):
 * `npm run bench -- --only processes`.
 *
 *   node --import tsx bench/multi-process.ts [--quick] [--processes 1,2,3] [--pool-total 10 | --pool-each 10]
 *                                            [--seconds S] [--runs R] [--db <url>] [--keep]
 *
 * One throwaway database (bench/generate-catalogue.ts: 100,000 products, 20,000 with --quick), then
 * for N = 1, 2, 3 API processes (apps/api/dist/server.js, each on its own port, the same
 * DATABASE_URL and the same JWT secret, as a shop would run them) the 20-till closed-loop sale load
 * of the sale bench (bench/sales.ts: the reference client's body, whole catalogue, Zipf draw; till
 * k on its own terminal), the tills spread round-robin over the processes' URLs (no load balancer).
 * The N values are interleaved run by run (1, 2, 3, 1, 2, 3, ...) so a drift of the machine or of
 * the growing order table falls on every N alike; each (run, N) starts fresh processes, signs the
 * tills in on their process, warms up, then measures.
 *
 * Per run: sales/s, p50/p95 latency, and CPU per sale of each part, from /proc (user + system):
 *   - API: every API process (summed, and each one's);
 *   - PostgreSQL: every process of the cluster (children of the postmaster: the bench database's
 *     backends, walwriter, checkpointer, background writer, autovacuum...), less the monitor's own
 *     backend and any backend of another database (counted apart, as "others");
 *   - the load generator: this process (process.cpuUsage), sale bodies, HTTP and all.
 * Also: the machine's CPU busy share during the run, and pg_stat_activity sampled every 100 ms
 * (state and wait event of the bench database's client backends): lock waits growing with N would
 * mean the processes queue on each other in PostgreSQL, not on the CPU.
 *
 * Projection: on C cores, with the load generator elsewhere, throughput ≤ C × 1000 / (API + PostgreSQL
 * CPU ms per sale), if nothing but CPU limits (checked with the waits and PostgreSQL's CPU per sale
 * as N grows). → bench/out/processes.json; scripts/bench.mjs adds it to bench/results.md.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, cleanupOnExit, cpuMsOf, createThrowawayDb, dropAll, log, login, median, metric, percentile, pgReachable, request, round,
  sleep, startServer, stopAllServers, waitQuiet, writeResults, type Metric, type Server,
} from './lib.ts';
import { closedLoop, loadSaleCatalogue, rng, saleBody, type CachedProduct, type Till } from './sales.ts';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const CFG = {
  products: Number(arg('--products') ?? (QUICK ? 20_000 : 100_000)),
  runs: Number(arg('--runs') ?? (QUICK ? 2 : 3)),
  seconds: Number(arg('--seconds') ?? (QUICK ? 8 : 20)),
  warmupSeconds: QUICK ? 2 : 3,
  tills: 20,
  processes: (arg('--processes') ?? '1,2,3').split(',').map(Number).filter((n) => n >= 1),
  /** PostgreSQL connections of all the processes together (divided, rounded up), unless --pool-each. */
  poolTotal: Number(arg('--pool-total') ?? process.env.PG_POOL_MAX ?? 10),
  poolEach: arg('--pool-each') ? Number(arg('--pool-each')) : undefined,
  cores: [4, 8],
};
const poolOf = (n: number) => CFG.poolEach ?? Math.ceil(CFG.poolTotal / n);
const SECTION = 'Several API processes behind one PostgreSQL (issue 24)';

// ------------------------------------------------------------------------------------------------
// CPU from /proc
// ------------------------------------------------------------------------------------------------

/** Parent pid of a process (Linux /proc), NaN when gone. */
function ppidOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch { return NaN; }
}

/** The postmaster and every process it forked (the whole PostgreSQL cluster), with their CPU ms so far. */
function clusterCpu(postmaster: number): Map<number, number> {
  const out = new Map<number, number>([[postmaster, cpuMsOf(postmaster)]]);
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const pid = Number(d);
    if (ppidOf(pid) === postmaster) out.set(pid, cpuMsOf(pid));
  }
  return out;
}

function machineTimes(): { busy: number; total: number } {
  const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const idle = (line[3] ?? 0) + (line[4] ?? 0);
  const total = line.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

// ------------------------------------------------------------------------------------------------
// pg_stat_activity sampler (its own connection; its backend's CPU is left out of PostgreSQL's)
// ------------------------------------------------------------------------------------------------

interface Waits {
  samples: number;
  /** Per sample, on average: client backends of the bench database... */
  active: number; // running a statement (on CPU or waiting)
  idleInTx: number; // inside a transaction, waiting for the API's next statement
  lock: number; // waiting on a heavyweight lock (row, transaction id, advisory...)
  lwlock: number;
  io: number; // e.g. WALSync / WALWrite: the commit's flush
  /** Every wait event seen, summed over the samples. */
  events: Record<string, number>;
  /** Lock waits by what the blocking backend was doing (its wait event, or its state), summed over the samples. */
  blockers: Record<string, number>;
  /** Tuple locks (a queue on a row) by table, summed over the samples. */
  rowQueues: Record<string, number>;
}

class Monitor {
  private constructor(private c: pg.Client, readonly pid: number, readonly postmaster: number, private db: string) {}
  static async open(url: string, db: string): Promise<Monitor> {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    const pid = (await c.query('select pg_backend_pid() as pid')).rows[0].pid as number;
    const postmaster = ppidOf(pid);
    if (!Number.isFinite(postmaster)) throw new Error(`cannot read /proc/${pid}/stat: is PostgreSQL on this machine?`);
    return new Monitor(c, pid, postmaster, db);
  }
  /** Backends of other databases seen while sampling (their CPU is not ours). */
  readonly others = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private w: Waits = Monitor.empty();
  private static empty(): Waits { return { samples: 0, active: 0, idleInTx: 0, lock: 0, lwlock: 0, io: 0, events: {}, blockers: {}, rowQueues: {} }; }

  start() {
    this.w = Monitor.empty();
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      // For a backend waiting on a lock: what its first blocker is doing (idle in transaction = holding
      // the row until its API process sends the next statement; active = e.g. flushing its commit).
      this.c.query(`select a.pid, a.datname, a.backend_type, a.state, a.wait_event_type, a.wait_event,
          case when a.wait_event_type = 'Lock' then (select coalesce(b.wait_event, b.state) from pg_stat_activity b where b.pid = (pg_blocking_pids(a.pid))[1]) end as blocker
        from pg_stat_activity a where a.pid <> pg_backend_pid()`).then(({ rows }) => {
        const w = this.w;
        w.samples++;
        for (const r of rows) {
          if (r.datname && r.datname !== this.db) { this.others.add(r.pid); continue; }
          if (r.datname !== this.db || r.backend_type !== 'client backend') continue;
          if (r.state === 'idle in transaction') w.idleInTx++;
          if (r.state !== 'active') continue;
          w.active++;
          if (!r.wait_event_type) continue;
          const key = `${r.wait_event_type}:${r.wait_event}`;
          w.events[key] = (w.events[key] ?? 0) + 1;
          if (r.wait_event_type === 'Lock') {
            w.lock++;
            const b = `blocker ${r.blocker ?? 'gone'}`;
            w.blockers[b] = (w.blockers[b] ?? 0) + 1;
          }
          else if (r.wait_event_type === 'LWLock') w.lwlock++;
          else if (r.wait_event_type === 'IO') w.io++;
        }
      }).then(() => this.c.query(`select l.relation::regclass::text as rel, count(*)::int as n from pg_locks l
          where l.locktype = 'tuple' and l.database = (select oid from pg_database where datname = current_database()) group by 1`)).then(({ rows }) => {
        // A backend waiting for a row another transaction updated holds a tuple lock on it: which table the queue is on.
        for (const r of rows) this.w.rowQueues[r.rel] = (this.w.rowQueues[r.rel] ?? 0) + r.n;
      }).catch(() => {}).finally(() => { busy = false; });
    }, 100);
  }
  async stop(): Promise<Waits> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await sleep(150);
    const w = this.w;
    const n = Math.max(1, w.samples);
    return { ...w, active: w.active / n, idleInTx: w.idleInTx / n, lock: w.lock / n, lwlock: w.lwlock / n, io: w.io / n };
  }
  end() { return this.c.end(); }
}

// ------------------------------------------------------------------------------------------------
// One measured run with N processes
// ------------------------------------------------------------------------------------------------

interface Run {
  n: number; run: number; pool: number; sales: number; errors: number; seconds: number; perS: number; p50: number; p95: number;
  /** CPU ms over the run. */
  apiMs: number; apiEachMs: number[]; pgMs: number; pgOthersMs: number; clientMs: number;
  machineBusy: number; bg: number; rssMb: number[]; waits: Waits; firstError?: string;
}

interface Shop { dbUrl: string; dbName: string; tills: Till[]; cash: Record<string, unknown>; cat: CachedProduct[]; secret: string; monitor: Monitor }

async function startProcesses(shop: Shop, n: number): Promise<Server[]> {
  const servers: Server[] = [];
  // One after the other: each start runs the migrations check; the same secret, so any process accepts any till's token.
  for (let i = 0; i < n; i++) servers.push(await startServer(shop.dbUrl, { JWT_SECRET: shop.secret, PG_POOL_MAX: String(poolOf(n)) }));
  return servers;
}

async function measure(shop: Shop, n: number, run: number): Promise<Run> {
  const servers = await startProcesses(shop, n);
  try {
    // Till k sells through process k mod N; it signs in there, as a till pointed at that URL would.
    const tills = shop.tills.map((t, k) => ({ ...t, server: servers[k % n] }));
    for (const t of tills) t.headers = await login(t.server.url, t.user, 'till');
    const rngs = tills.map((_, k) => rng(1000 * run + 100 * n + k));
    const once = async (w: number) => {
      const t = tills[w];
      const r = await request('POST', `${t.server.url}/api/admin/order/create`, saleBody(shop.cat, t, shop.cash, rngs[w]), t.headers);
      if (r.status !== 201) throw new Error(`${r.status} ${r.body.slice(0, 200)}`);
    };
    await closedLoop(CFG.tills, CFG.warmupSeconds, once); // JIT, pools, prepared statements of the fresh processes
    const bg = await waitQuiet(`${n} process${n > 1 ? 'es' : ''}, run ${run}`);

    const rss = servers.map(() => 0);
    const rssTimer = setInterval(() => servers.forEach((s, i) => { rss[i] = Math.max(rss[i], s.rssMb()); }), 200);
    const api0 = servers.map((s) => cpuMsOf(s.pid));
    const pg0 = clusterCpu(shop.monitor.postmaster);
    const m0 = machineTimes();
    const self0 = process.cpuUsage();
    shop.monitor.start();
    const res = await closedLoop(CFG.tills, CFG.seconds, once);
    const waits = await shop.monitor.stop();
    const self = process.cpuUsage(self0);
    const m1 = machineTimes();
    const pg1 = clusterCpu(shop.monitor.postmaster);
    const api1 = servers.map((s) => cpuMsOf(s.pid));
    clearInterval(rssTimer);

    let pgMs = 0;
    let pgOthersMs = 0;
    for (const [pid, after] of pg1) {
      if (pid === shop.monitor.pid || !Number.isFinite(after)) continue;
      const d = after - (pg0.get(pid) ?? 0); // a process started during the run counts whole
      if (shop.monitor.others.has(pid)) pgOthersMs += d; else pgMs += d;
    }
    const apiEachMs = api1.map((a, i) => a - api0[i]);
    const r: Run = {
      n, run, pool: poolOf(n), sales: res.ok, errors: res.errors, seconds: res.seconds, perS: res.ok / res.seconds,
      p50: percentile(res.latencies, 50), p95: percentile(res.latencies, 95),
      apiMs: apiEachMs.reduce((a, b) => a + b, 0), apiEachMs, pgMs, pgOthersMs, clientMs: (self.user + self.system) / 1000,
      machineBusy: (100 * (m1.busy - m0.busy)) / Math.max(1, m1.total - m0.total), bg, rssMb: rss.map((x) => round(x, 0)), waits, firstError: res.firstError,
    };
    const per = (ms: number) => round(ms / Math.max(1, r.sales), 2);
    log(`N=${n} run ${run}: ${r.sales} sales, ${r.errors} errors in ${r.seconds.toFixed(1)} s = ${r.perS.toFixed(0)}/s, p50 ${r.p50.toFixed(1)} p95 ${r.p95.toFixed(1)} ms; `
      + `CPU per sale: API ${per(r.apiMs)} (${apiEachMs.map(per).join(' + ')}), PostgreSQL ${per(r.pgMs)}, load generator ${per(r.clientMs)} ms; machine ${r.machineBusy.toFixed(0)}% busy; `
      + `backends per sample: active ${waits.active.toFixed(2)} (Lock ${waits.lock.toFixed(2)}, LWLock ${waits.lwlock.toFixed(2)}, IO ${waits.io.toFixed(2)}), idle in tx ${waits.idleInTx.toFixed(2)}`
      + `; row queues (tuple locks per sample): ${Object.entries(waits.rowQueues).map(([k, v]) => `${k} ${round(v / Math.max(1, waits.samples), 2)}`).join(', ')}`
      + `; lock waits by blocker: ${Object.entries(waits.blockers).map(([k, v]) => `${k} ${round(v / Math.max(1, waits.samples), 2)}`).join(', ')}`
      + `${r.firstError ? `; first error: ${r.firstError}` : ''}`);
    return r;
  } finally {
    for (const s of servers) await s.stop();
  }
}

// ------------------------------------------------------------------------------------------------

async function setup(): Promise<Shop> {
  let dbUrl = arg('--db');
  if (!dbUrl) {
    const db = await createThrowawayDb('procs');
    log(`generating ${CFG.products.toLocaleString('en')} products...`);
    const stats = await generateCatalogue(db.url, { products: CFG.products });
    log(`generated in ${stats.ms.total} ms`);
    dbUrl = db.url;
  }
  const dbName = new URL(dbUrl).pathname.slice(1);
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const { rows } = await c.query(`select u.username, us.store_id, t.id as terminal_id from user_account u join user_store us on us.user_id = u.id
    join terminal t on t.code = 'T' || substr(u.username, 5) where u.username like 'till%' order by u.username limit $1`, [CFG.tills]);
  const { rows: [cash] } = await c.query(`select id, name, type, can_have_change_due from payment where type = 'cash' order by id limit 1`);
  await c.end();
  const secret = crypto.randomBytes(48).toString('base64url');
  const tills: Till[] = rows.map((r) => ({ user: r.username, headers: {}, storeId: r.store_id, terminalId: r.terminal_id }));
  // The catalogue the tills sell from: loaded once (the same product objects whichever process serves them).
  const server = await startServer(dbUrl, { JWT_SECRET: secret });
  let cat: CachedProduct[];
  try {
    log('loading the whole catalogue as the tills do...');
    cat = await loadSaleCatalogue(server, await login(server.url, tills[0].user, 'till'), Infinity);
  } finally { await server.stop(); }
  const cashObj = { '@id': `/api/payments/${cash.id}`, id: cash.id, name: cash.name, type: cash.type, canHaveChangeDue: cash.can_have_change_due, isActive: true };
  return { dbUrl, dbName, tills, cash: cashObj, cat, secret, monitor: await Monitor.open(dbUrl, dbName) };
}

async function main() {
  cleanupOnExit();
  if (!(await pgReachable())) {
    const metrics: Metric[] = [];
    metrics.push(metric({ id: 'processes', section: SECTION, metric: 'Several API processes', unit: '', budget: '', skipped: 'PostgreSQL not reachable at 127.0.0.1:5432' }));
    writeResults('processes.json', metrics);
    return;
  }
  const t0 = Date.now();
  // --summarise <file>: rebuild the figures and the projection from the runs a previous run stored (no load).
  const stored = arg('--summarise');
  if (stored) {
    const old = JSON.parse(fs.readFileSync(stored, 'utf8'));
    summarise(old.runs as Run[], old.seconds, old.measuredAt ?? old.at);
    return;
  }
  const shop = await setup();
  const runs: Run[] = [];
  try {
    // One unmeasured pass first, so the first measured run does not pay for cold caches alone.
    const warm = await startProcesses(shop, 1);
    const tw = shop.tills.map((t) => ({ ...t }));
    for (const t of tw) t.headers = await login(warm[0].url, t.user, 'till');
    const rw = tw.map((_, k) => rng(99 + k));
    await closedLoop(CFG.tills, CFG.seconds, async (w) => { await request('POST', `${warm[0].url}/api/admin/order/create`, saleBody(shop.cat, tw[w], shop.cash, rw[w]), tw[w].headers); });
    for (const s of warm) await s.stop();
    for (let run = 1; run <= CFG.runs; run++) {
      for (const n of CFG.processes) runs.push(await measure(shop, n, run));
    }
  } finally {
    await shop.monitor.end().catch(() => {});
    await stopAllServers();
    if (arg('--db') || process.argv.includes('--keep')) log(`kept database: ${shop.dbUrl}`);
    else await dropAll();
  }

  summarise(runs, round((Date.now() - t0) / 1000, 0));
}

function summarise(runs: Run[], seconds: number, measuredAt = new Date().toISOString()) {
  const metrics: Metric[] = [];
  // ---------------------------------------------------------------- per N: figures and projection
  const cores = os.cpus().length;
  const byN = [...new Set(runs.map((r) => r.n))].sort((a, b) => a - b).map((n) => {
    const rs = runs.filter((r) => r.n === n);
    const sales = rs.reduce((a, r) => a + r.sales, 0);
    const per = (f: (r: Run) => number) => rs.reduce((a, r) => a + f(r), 0) / Math.max(1, sales);
    const api = per((r) => r.apiMs);
    const pgMs = per((r) => r.pgMs);
    const client = per((r) => r.clientMs);
    const avg = (f: (r: Run) => number) => rs.reduce((a, r) => a + f(r), 0) / Math.max(1, rs.length);
    const events: Record<string, number> = {};
    for (const r of rs) for (const [k, v] of Object.entries(r.waits.events)) events[k] = (events[k] ?? 0) + v;
    const blockers: Record<string, number> = {};
    for (const r of rs) for (const [k, v] of Object.entries(r.waits.blockers)) blockers[k] = (blockers[k] ?? 0) + v;
    const rowQueues: Record<string, number> = {};
    for (const r of rs) for (const [k, v] of Object.entries(r.waits.rowQueues)) rowQueues[k] = (rowQueues[k] ?? 0) + v;
    const samples = rs.reduce((a, r) => a + r.waits.samples, 0);
    const projection = Object.fromEntries([cores, ...CFG.cores].map((c) => [c, {
      // All parts share the c cores: c × 1000 / (API + PostgreSQL) CPU ms per sale, the load generator
      // on other machines (the tills) — or on these cores too (withGenerator).
      cores: round((c * 1000) / (api + pgMs), 0),
      withGenerator: round((c * 1000) / (api + pgMs + client), 0),
      // But a Node process uses at most one core: N processes serve at most N × 1000 / API ms per sale.
      processCap: round((n * 1000) / api, 0),
      apart: round(Math.min((c * 1000) / (api + pgMs), (n * 1000) / api), 0),
    }]));
    return {
      n, pool: rs[0].pool, runs: rs.length, sales, errors: rs.reduce((a, r) => a + r.errors, 0),
      perS: round(median(rs.map((r) => r.perS)), 0), worstPerS: round(Math.min(...rs.map((r) => r.perS)), 0),
      p50: round(median(rs.map((r) => r.p50)), 1), p95: round(median(rs.map((r) => r.p95)), 1),
      cpuPerSale: { api: round(api, 2), apiEach: rs[0]?.apiEachMs.map((_, i) => round(per((r) => r.apiEachMs[i]), 2)), pg: round(pgMs, 2), client: round(client, 2), others: round(per((r) => r.pgOthersMs), 2) },
      machineBusy: round(avg((r) => r.machineBusy), 0), bg: round(avg((r) => r.bg), 0),
      waitsPerSample: { active: round(avg((r) => r.waits.active), 2), lock: round(avg((r) => r.waits.lock), 2), lwlock: round(avg((r) => r.waits.lwlock), 2), io: round(avg((r) => r.waits.io), 2), idleInTx: round(avg((r) => r.waits.idleInTx), 2) },
      rowQueues: Object.entries(rowQueues).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${round(v / Math.max(1, samples), 2)}`),
      lockBlockers: Object.entries(blockers).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${round(v / Math.max(1, samples), 2)}`),
      /** Little's law: backends in a state per sample ÷ sales per second = ms per sale spent in that state. */
      msPerSale: {
        active: round((1000 * avg((r) => r.waits.active)) / avg((r) => r.perS), 1),
        lockWait: round((1000 * avg((r) => r.waits.lock)) / avg((r) => r.perS), 1),
        idleInTx: round((1000 * avg((r) => r.waits.idleInTx)) / avg((r) => r.perS), 1),
      },
      topWaits: Object.entries(events).sort((a, b) => b[1] - a[1]).slice(0, 6).map(([k, v]) => `${k} ${round(v / Math.max(1, samples), 2)}`),
      peakRssMb: Math.max(...rs.flatMap((r) => r.rssMb)),
      projection,
    };
  });

  for (const b of byN) {
    const label = `${b.n} API process${b.n > 1 ? 'es' : ''} (pool ${b.pool} each)`;
    const cpu = b.cpuPerSale;
    metrics.push(
      metric({ id: `processes.${b.n}.throughput`, section: SECTION, metric: `${label}: sales/s, ${CFG.tills} tills round-robin over the processes`, unit: 'sales/s', budget: 'info', on: 'median', median: b.perS, p95: b.worstPerS, runs: b.runs,
        note: `p95 column = worst run; ${b.errors} errors; machine ${b.machineBusy}% busy during the runs; peak RSS per process ${b.peakRssMb} MB` }),
      metric({ id: `processes.${b.n}.latency`, section: SECTION, metric: `${label}: sale latency (p50, p95)`, unit: 'ms', budget: 'info', median: b.p50, p95: b.p95, runs: b.runs }),
      metric({ id: `processes.${b.n}.cpu`, section: SECTION, metric: `${label}: CPU per sale, API processes + PostgreSQL`, unit: 'ms', budget: 'info', on: 'median', median: round(cpu.api + cpu.pg, 2), p95: round(cpu.api + cpu.pg, 2), runs: b.runs,
        note: `API ${cpu.api} (${(cpu.apiEach ?? []).join(' + ')}) + PostgreSQL ${cpu.pg} (whole cluster); load generator ${cpu.client} ms more; PostgreSQL client backends per 100-ms sample: active ${b.waitsPerSample.active}, waiting on a lock ${b.waitsPerSample.lock}, LWLock ${b.waitsPerSample.lwlock}, IO ${b.waitsPerSample.io}; idle in transaction ${b.waitsPerSample.idleInTx}; lock waits by blocker: ${b.lockBlockers.join(', ')}; row queues (tuple locks per sample) by table: ${b.rowQueues.join(', ')}` }),
      ...CFG.cores.map((c) => metric({ id: `processes.${b.n}.projection.${c}`, section: SECTION, metric: `${label}: projected sales/s on ${c} cores = min(${c} × 1000 / CPU ms per sale of API + PostgreSQL, ${b.n} × 1000 / API ms per sale) (tills elsewhere)`, unit: 'sales/s', budget: 'info (CPU-bound arithmetic)', on: 'median',
        median: b.projection[c].apart, p95: Math.min(b.projection[c].withGenerator, b.projection[c].processCap), runs: b.runs, note: `p95 column = all on the ${c} cores, load generator included: ${b.projection[c].withGenerator}/s; cores alone ${b.projection[c].cores}/s, ${b.n} Node process${b.n > 1 ? 'es' : ''} at one core each ${b.projection[c].processCap}/s; this machine (${cores} cores): ${b.projection[cores].withGenerator}/s by the same arithmetic, measured ${b.perS}/s` })),
    );
  }
  writeResults('processes.json', metrics, { config: CFG, measuredAt, byN, runs, seconds });

  console.log('\n| processes (pool each) | sales/s (median, worst) | p50 / p95 ms | CPU ms per sale: API (each) | PostgreSQL | load generator | machine busy | lock waits / sample | top waits | '
    + CFG.cores.map((c) => `${c} cores`).join(' | ') + ' | ms per sale in PostgreSQL: active (of it lock wait) / idle in tx | lock waits by blocker | row queues by table |');
  for (const b of byN) {
    console.log(`| ${b.n} (${b.pool}) | ${b.perS}, ${b.worstPerS} | ${b.p50} / ${b.p95} | ${b.cpuPerSale.api} (${(b.cpuPerSale.apiEach ?? []).join(' + ')}) | ${b.cpuPerSale.pg} | ${b.cpuPerSale.client} | ${b.machineBusy}% | ${b.waitsPerSample.lock} | ${b.topWaits.join(', ')} | `
      + CFG.cores.map((c) => `${b.projection[c].apart}/s`).join(' | ') + ` | ${b.msPerSale.active} (${b.msPerSale.lockWait}) / ${b.msPerSale.idleInTx} | ${b.lockBlockers.join(', ')} | ${b.rowQueues.join(', ')} |`);
  }
  log(`done in ${seconds} s`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!process.argv.includes('--keep')) await dropAll();
  process.exit(1);
});
