/**
 * The API half of `npm run bench`: catalogue generator, product pages, sale history / day-closing
 * over many orders, and 20 tills selling at once against PostgreSQL next to a plain-SQL ceiling.
 *
 *   node --import tsx bench/api-bench.ts [--quick] [--keep] [--db <url>] [--only products,history,sales,ceiling] [--orders N]
 *
 * Everything runs on this machine over loopback: PostgreSQL (throwaway databases, dropped at the
 * end unless --keep), the API server as its own process (apps/api/dist/server.js, production mode),
 * and the load generator (this process). Results go to bench/out/api.json; scripts/bench.mjs
 * turns them into bench/results.md.
 */
import pg from 'pg';
import { generateCatalogue } from './generate-catalogue.ts';
import { generateOrders } from './generate-orders.ts';
import { pgSessionOptions } from '../apps/api/src/db/client.ts';
import { plainSale } from './ceiling.ts';
import { closedLoop, loadSaleCatalogue, rng, saleBody, ZIPF_S, type CachedProduct, type LoadResult, type Till } from './sales.ts';
import {
  QUICK, cleanupOnExit, createThrowawayDb, dropAll, log, login, median, metric, percentile, pgReachable, request, round,
  cpuCost, sleep, startServer, stopAllServers, waitQuiet, writeResults, type Metric, type Server, type ThrowawayDb,
} from './lib.ts';

const KEEP = process.argv.includes('--keep');
const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const CFG = QUICK
  ? { products: 20_000, catalogueRuns: 1, orders: 100_000, pageRequests: 60, pageRuns: 2, historyRequests: 10, historyRuns: 3, tills: 20, saleSeconds: 5, saleRuns: 1 }
  : { products: 100_000, catalogueRuns: 3, orders: 1_000_000, pageRequests: 200, pageRuns: 3, historyRequests: 20, historyRuns: 5, tills: 20, saleSeconds: 20, saleRuns: 3 };

// --orders N (issue 24 asks for 10,000,000): the history over N orders; with `--only history` its
// results go to bench/out/history-<N>.json and their own section beside the 1M run's.
if (arg('--orders') !== undefined) CFG.orders = Number(arg('--orders'));
const SCALED = arg('--orders') !== undefined && !QUICK && CFG.orders !== 1_000_000;
const HISTORY = SCALED ? `History at ${CFG.orders.toLocaleString('en')} orders` : 'History';

const metrics: Metric[] = [];
let DB_NAME = '';
const cpuNote = (c: { nodeMs: number; pgMs: number }, n: number, what = 'request') =>
  `CPU per ${what}: ${round((c.nodeMs + c.pgMs) / n, 1)} ms (API ${round(c.nodeMs / n, 1)} + PostgreSQL ${round(c.pgMs / n, 1)})`;
const extra: Record<string, unknown> = { config: CFG };

/** Runs `fn` `runs` times, each giving a list of samples: returns the medians over runs of p50 and p95. */
function summarise(runs: number[][]) {
  return { median: round(median(runs.map((r) => median(r))), 1), p95: round(median(runs.map((r) => percentile(r, 95))), 1), runs: runs.length };
}

/**
 * Sequential GETs (one client, keep-alive): latency samples in ms. Fails on a non-2xx. Bounded:
 * `n` requests or `maxSeconds`, whichever comes first (a slow or busy machine cannot stall the bench).
 */
async function timeGets(url: string, headers: Record<string, string>, n: number, maxSeconds = 30): Promise<number[]> {
  const out: number[] = [];
  const end = performance.now() + maxSeconds * 1000;
  for (let i = 0; i < n && (i < 5 || performance.now() < end); i++) {
    const r = await request('GET', url, undefined, headers);
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.body.slice(0, 300)}`);
    out.push(r.ms);
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// 1. Catalogue generator
// ------------------------------------------------------------------------------------------------
async function benchGenerator(): Promise<ThrowawayDb> {
  const times: number[] = [];
  let keep: ThrowawayDb | undefined;
  for (let run = 0; run < CFG.catalogueRuns; run++) {
    await waitQuiet('catalogue generator');
    const db = await createThrowawayDb('cat');
    const stats = await generateCatalogue(db.url, { products: CFG.products });
    times.push(stats.ms.total);
    log(`catalogue run ${run + 1}: ${stats.products} products, ${stats.variants} variants, ${stats.productStores} stock rows, ${stats.movements} ledger rows in ${stats.ms.total} ms ${JSON.stringify(stats.ms)}`);
    extra.catalogue = stats;
    if (keep) await keep.drop();
    keep = db;
  }
  metrics.push(metric({
    id: 'catalogue.generate', section: 'Catalogue', metric: `Generate ${CFG.products.toLocaleString('en')} products (variants, 3 stores, stock, ledger, taxes, categories)`,
    unit: 's', budget: '< 60 s', limit: { op: '<=', value: 60 }, on: 'median',
    median: round(median(times) / 1000, 1), p95: round(Math.max(...times) / 1000, 1), runs: times.length, note: 'p95 column = slowest run',
  }));
  return keep!;
}

// ------------------------------------------------------------------------------------------------
// 2. GET /api/products pages of 100
// ------------------------------------------------------------------------------------------------
async function benchProductPages(server: Server, till: Record<string, string>, admin: Record<string, string>) {
  const first = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=1&isActive=true`, undefined, till);
  if (first.status !== 200) {
    for (const page of ['first', 'middle', 'last']) {
      metrics.push(metric({ id: `products.page.${page}`, section: 'Catalogue', metric: `GET /api/products page (${page}) of 100`, unit: 'ms', budget: 'p95 <= 20 ms', skipped: `route answered ${first.status}` }));
    }
    return;
  }
  const total = JSON.parse(first.body)['hydra:totalItems'] as number;
  const last = Math.max(1, Math.ceil(total / 100));
  extra.productPageBytes = first.body.length;
  // Warm-up: JIT, pool, caches.
  await timeGets(`${server.url}/api/products?itemsPerPage=100&page=2&isActive=true`, till, 30);
  const pages: [string, number][] = [['first', 1], ['middle', Math.ceil(last / 2)], ['last', last]];
  for (const [label, page] of pages) {
    const url = `${server.url}/api/products?itemsPerPage=100&page=${page}&isActive=true`;
    const runs: number[][] = [];
    let cpu = { nodeMs: 0, pgMs: 0 };
    for (let r = 0; r < CFG.pageRuns; r++) {
      await waitQuiet(`products page ${page}`);
      const c = await cpuCost(server.pid, DB_NAME, () => timeGets(url, till, CFG.pageRequests));
      runs.push(c.result);
      cpu = { nodeMs: cpu.nodeMs + c.nodeMs, pgMs: cpu.pgMs + c.pgMs };
    }
    metrics.push(metric({
      id: `products.page.${label}`, section: 'Catalogue', metric: `GET /api/products?itemsPerPage=100&isActive=true, page ${page} of ${last} (till user)`,
      unit: 'ms', budget: 'p95 <= 20 ms', limit: { op: '<=', value: 20 }, ...summarise(runs), note: cpuNote(cpu, CFG.pageRuns * CFG.pageRequests),
    }));
  }
  // Admin (all stores) on the settings table, the middle page sorted by name: measured like the till's pages.
  {
    const page = Math.ceil(last / 2);
    const url = `${server.url}/api/products?itemsPerPage=100&page=${page}&order%5Bname%5D=asc`;
    await waitQuiet('products admin sorted');
    await timeGets(url, admin, 30); // warm-up, as for the till's pages
    const runs: number[][] = [];
    let cpu = { nodeMs: 0, pgMs: 0 };
    for (let r = 0; r < CFG.pageRuns; r++) {
      await waitQuiet(`products admin sorted page ${page}`);
      const c = await cpuCost(server.pid, DB_NAME, () => timeGets(url, admin, CFG.pageRequests));
      runs.push(c.result);
      cpu = { nodeMs: cpu.nodeMs + c.nodeMs, pgMs: cpu.pgMs + c.pgMs };
    }
    metrics.push(metric({
      id: 'products.page.admin-sorted', section: 'Catalogue', metric: `GET /api/products page ${page} sorted by name (admin, 3 stores)`,
      unit: 'ms', budget: 'p95 <= 20 ms', limit: { op: '<=', value: 20 }, ...summarise(runs), note: cpuNote(cpu, CFG.pageRuns * CFG.pageRequests),
    }));
  }
  // The reference client's cold start: every page, one after another, until an empty page.
  {
    await waitQuiet('reference walk');
    const t0 = performance.now();
    const cap = 180; // seconds; past it the walk is projected from the pages done
    let page = 1;
    let rows = 0;
    let bytes = 0;
    let done = false;
    let walkError = '';
    while (performance.now() - t0 < cap * 1000) {
      const r = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=${page}&isActive=true`, undefined, till);
      if (r.status !== 200) { walkError = `page ${page} answered ${r.status}: ${r.body.slice(0, 120)}`; break; }
      const n = (JSON.parse(r.body)['hydra:member'] as unknown[]).length;
      bytes += r.body.length;
      if (!n) { done = true; break; }
      rows += n;
      page++;
    }
    const s = (performance.now() - t0) / 1000;
    const projected = done ? s : (s * (last + 1)) / page;
    metrics.push(metric({ id: 'products.walk', section: 'Catalogue', metric: `Reference-client walk: all ${last + 1} pages of 100 one after another, until an empty page`, unit: 's', budget: 'info (the till uses its own sync)', on: 'median', median: round(projected, 1), p95: round(projected, 1), runs: 1,
      note: `${walkError ? `${walkError}; ` : ''}${done ? '' : `stopped after ${cap} s at page ${page} (${rows.toLocaleString('en')} products), projected; `}${round(bytes / page / 1024, 0)} KB of JSON per page` }));
  }
}

// ------------------------------------------------------------------------------------------------
// 3. Sale history and day closing over many orders
// ------------------------------------------------------------------------------------------------
const pad = (n: number) => String(n).padStart(2, '0');
const localMinute = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

async function benchHistory(server: Server, admin: Record<string, string>, till: Record<string, string>, ids: { store: number; terminal: number }) {
  const now = new Date();
  const today0 = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const yesterday0 = new Date(today0.getTime() - 86_400_000);
  const today2359 = new Date(today0.getTime() + 86_400_000 - 60_000);
  const monthAgo = new Date(today0.getTime() - 30 * 86_400_000);
  const e = encodeURIComponent;
  const cases: { id: string; label: string; path: string; headers: Record<string, string>; budget?: boolean }[] = [
    { id: 'history.default', label: 'Sale history, default view (yesterday 00:00 - today 23:59, newest first, page 1 of 10, all stores)',
      path: `/api/admin/order/list?page=1&itemsPerPage=10&order%5BorderId%5D=desc&dateTimeFrom=${e(localMinute(yesterday0))}&dateTimeTo=${e(localMinute(today2359))}`, headers: admin, budget: true },
    { id: 'history.search', label: 'Sale history, search q=Customer 1 over 2 days',
      path: `/api/admin/order/list?page=1&itemsPerPage=10&order%5BorderId%5D=desc&q=${e('Customer 1')}&dateTimeFrom=${e(localMinute(yesterday0))}&dateTimeTo=${e(localMinute(today2359))}`, headers: admin, budget: true },
    { id: 'history.page5', label: 'Sale history, 2 days, page 5 of 25 per page',
      path: `/api/admin/order/list?page=5&itemsPerPage=25&order%5BorderId%5D=desc&dateTimeFrom=${e(localMinute(yesterday0))}&dateTimeTo=${e(localMinute(today2359))}`, headers: admin, budget: true },
    { id: 'history.30d', label: 'Sale history, last 30 days (all stores)',
      path: `/api/admin/order/list?page=1&itemsPerPage=10&order%5BorderId%5D=desc&dateTimeFrom=${e(localMinute(monthAgo))}&dateTimeTo=${e(localMinute(today2359))}`, headers: admin, budget: false },
    { id: 'closing.summary', label: 'Day-closing summary: order list since today 00:00 for one store (payments aggregate)',
      path: `/api/admin/order/list?dateTimeFrom=${e(today0.toISOString())}&store=${ids.store}&page=1&itemsPerPage=10`, headers: till, budget: true },
    { id: 'closing.opened', label: 'GET /api/admin/closing/opened (store, terminal)',
      path: `/api/admin/closing/opened?store=${ids.store}&terminal=${ids.terminal}`, headers: till, budget: true },
  ];
  for (const c of cases) {
    const url = `${server.url}${c.path}`;
    const probe = await request('GET', url, undefined, c.headers);
    if (probe.status !== 200) {
      metrics.push(metric({ id: c.id, section: HISTORY, metric: c.label, unit: 'ms', budget: '<= 200 ms', skipped: `answered ${probe.status}: ${probe.body.slice(0, 120)}` }));
      continue;
    }
    if (c.id === 'history.default') {
      const b = JSON.parse(probe.body);
      extra.historyDefault = { total: b.total, count: b.count, payments: b.payments };
    }
    await timeGets(url, c.headers, 3);
    const runs: number[][] = [];
    let cpu = { nodeMs: 0, pgMs: 0 };
    for (let r = 0; r < CFG.historyRuns; r++) {
      await waitQuiet(c.id);
      const k = await cpuCost(server.pid, DB_NAME, () => timeGets(url, c.headers, CFG.historyRequests));
      runs.push(k.result);
      cpu = { nodeMs: cpu.nodeMs + k.nodeMs, pgMs: cpu.pgMs + k.pgMs };
    }
    metrics.push(metric({ id: c.id, section: HISTORY, metric: `${c.label} — ${CFG.orders.toLocaleString('en')} orders`, unit: 'ms',
      ...(c.budget ? { budget: 'p95 <= 200 ms', limit: { op: '<=' as const, value: 200 } } : { budget: 'info (wider than the default view)' }), ...summarise(runs), note: cpuNote(cpu, CFG.historyRuns * CFG.historyRequests) }));
  }
}

// ------------------------------------------------------------------------------------------------
// 4. Sales: 20 tills at once, and the plain-SQL ceiling
// ------------------------------------------------------------------------------------------------
async function benchSales(server: Server, dbUrl: string, tills: Till[], cash: Record<string, any>, which = { ours: true, ceiling: true }) {
  const probe = await request('GET', `${server.url}/api/admin/order/list?page=1&itemsPerPage=1`, undefined, tills[0].headers);
  const cat = await loadSaleCatalogue(server, tills[0].headers, Infinity); // the whole catalogue; sales draw from it by Zipf (sales.ts)
  extra.saleCatalogue = cat.length;
  const body0 = saleBody(cat, tills[0], cash, rng(1));
  const first = await request('POST', `${server.url}/api/admin/order/create`, body0, tills[0].headers);
  if (first.status !== 201 || probe.status !== 200) {
    const why = `POST /api/admin/order/create answered ${first.status}: ${first.body.slice(0, 200)}`;
    for (const id of ['sales.p95', 'sales.throughput', 'sales.ratio', 'sales.rss']) metrics.push(metric({ id, section: 'Sales', metric: id, unit: '', budget: '', skipped: why }));
    return;
  }
  extra.saleBodyBytes = JSON.stringify(body0).length;

  let tput: number[] = [];
  if (which.ours) {
    // Warm-up at full concurrency, then the measured runs.
    const once = (w: number) => {
      const till = tills[w % tills.length];
      const rnd = rngs[w];
      const b = saleBody(cat, till, cash, rnd);
      for (const l of b.items as any[]) touched.add(l.item.id);
      return request('POST', `${server.url}/api/admin/order/create`, b, till.headers).then((r) => {
        if (r.status !== 201) throw new Error(`${r.status} ${r.body.slice(0, 200)}`);
      });
    };
    const rngs = tills.map((_, i) => rng(1000 + i));
    const touched = new Set<number>();
    // One till alone: the service time of a sale, without queueing behind 19 others.
    await waitQuiet('one till');
    const solo = await closedLoop(1, QUICK ? 3 : 8, once);
    metrics.push(metric({ id: 'sales.single', section: 'Sales', metric: 'One till alone: POST /api/admin/order/create latency (service time, no queueing)', unit: 'ms', budget: 'info', median: round(percentile(solo.latencies, 50), 1), p95: round(percentile(solo.latencies, 95), 1), runs: 1, note: `${solo.ok} sales, ${round(solo.ok / solo.seconds, 0)}/s from one till` }));
    await closedLoop(CFG.tills, 2, once);
    const runs: LoadResult[] = [];
    const rss: number[] = [];
    let cpu = { nodeMs: 0, pgMs: 0, clientMs: 0, sales: 0 };
    for (let r = 0; r < CFG.saleRuns; r++) {
      await waitQuiet(`sales run ${r + 1}`);
      let peak = 0;
      const timer = setInterval(() => { peak = Math.max(peak, server.rssMb()); }, 200);
      const self0 = process.cpuUsage();
      const k = await cpuCost(server.pid, DB_NAME, () => closedLoop(CFG.tills, CFG.saleSeconds, once));
      const self = process.cpuUsage(self0);
      const res = k.result;
      cpu = { nodeMs: cpu.nodeMs + k.nodeMs, pgMs: cpu.pgMs + k.pgMs, clientMs: cpu.clientMs + (self.user + self.system) / 1000, sales: cpu.sales + res.ok };
      clearInterval(timer);
      peak = Math.max(peak, server.rssMb());
      rss.push(peak);
      runs.push(res);
      log(`sales run ${r + 1}: ${res.ok} sales, ${res.errors} errors in ${res.seconds.toFixed(1)} s = ${(res.ok / res.seconds).toFixed(0)}/s, p50 ${percentile(res.latencies, 50).toFixed(1)} ms, p95 ${percentile(res.latencies, 95).toFixed(1)} ms, peak RSS ${peak.toFixed(0)} MB${res.firstError ? `; first error: ${res.firstError}` : ''}`);
      await sleep(1000);
    }
    tput = runs.map((r) => r.ok / r.seconds);
    const errors = runs.reduce((s, r) => s + r.errors, 0);
    const perSale = { node: cpu.nodeMs / cpu.sales, pg: cpu.pgMs / cpu.sales, client: cpu.clientMs / cpu.sales };
    extra.saleCpu = perSale;
    metrics.push(metric({ id: 'sales.p95', section: 'Sales', metric: `POST /api/admin/order/create, ${CFG.tills} tills at once, 5-line cash sales (latency)`, unit: 'ms', budget: 'p95 <= 50 ms', limit: { op: '<=', value: 50 }, ...summarise(runs.map((r) => r.latencies)), note: errors ? `${errors} errors: ${runs.find((r) => r.firstError)?.firstError}` : undefined }));
    const cores = (await import('node:os')).cpus().length;
    metrics.push(metric({ id: 'sales.throughput', section: 'Sales', metric: `Sales per second, ${CFG.tills} tills`, unit: 'sales/s', budget: '>= 300 /s', limit: { op: '>=', value: 300 }, on: 'median', median: round(median(tput), 0), p95: round(Math.min(...tput), 0), runs: runs.length,
      note: `p95 column = worst run; sales drew on ${touched.size.toLocaleString('en')} distinct products of the ${cat.length.toLocaleString('en')} sold (Zipf s=${ZIPF_S} over the whole catalogue). ${cpuNote({ nodeMs: cpu.nodeMs, pgMs: cpu.pgMs }, cpu.sales, 'sale')} + load generator ${round(perSale.client, 1)}; CPU-bound limit of this machine if idle ≈ ${round((cores * 1000) / (perSale.node + perSale.pg + perSale.client), 0)}/s` }));
    metrics.push(metric({ id: 'sales.rss', section: 'Sales', metric: 'API server memory (peak RSS) under the sale load', unit: 'MB', budget: '<= 150 MB', limit: { op: '<=', value: 150 }, on: 'median', median: round(median(rss), 0), p95: round(Math.max(...rss), 0), runs: rss.length, note: 'p95 column = highest run' }));
  }

  // The ceiling: the same rows through plain pg transactions, same concurrency.
  if (!which.ceiling) return;
  const ceiling = await benchCeiling(dbUrl, tills, cat, cash);
  metrics.push(metric({ id: 'sales.ceiling', section: 'Sales', metric: `Ceiling: the same sale by hand (same reads, rows and constraints; one transaction; pg driver, ${CFG.tills} connections)`, unit: 'sales/s', budget: 'info', on: 'median', median: round(median(ceiling.tput), 0), p95: round(ceiling.p95, 1), runs: ceiling.tput.length, note: `p95 column = latency p95 ${round(ceiling.p95, 1)} ms; CPU per sale: PostgreSQL ${round(ceiling.cpu.pg, 1)} ms + driver/load generator ${round(ceiling.cpu.client, 1)} ms` }));
  if (!tput.length) return;
  const ratio = median(tput) / median(ceiling.tput);
  metrics.push(metric({ id: 'sales.ratio', section: 'Sales', metric: 'Our sales/s as a share of the plain-SQL ceiling', unit: '×', budget: '>= 0.5', limit: { op: '>=', value: 0.5 }, on: 'median', median: round(ratio, 2), p95: round(ratio, 2), runs: 1 }));
}

/** The plain-SQL ceiling (bench/ceiling.ts: the same reads, rows and constraints, one transaction), same concurrency. */
async function benchCeiling(dbUrl: string, tills: Till[], cat: CachedProduct[], cash: Record<string, any>) {
  const pool = new pg.Pool({ connectionString: dbUrl, max: CFG.tills });
  const { rows: users } = await pool.query('select id, username from user_account where username = any($1)', [tills.map((t) => t.user)]);
  const withIds = tills.map((t) => ({ ...t, userId: users.find((u) => u.username === t.user)!.id as number }));
  const rngs = tills.map((_, i) => rng(5000 + i));
  const once = (w: number) => plainSale(pool, withIds[w % withIds.length], cat, cash, rngs[w]);
  await closedLoop(CFG.tills, 2, once);
  const tput: number[] = [];
  const p95s: number[] = [];
  let cpu = { pgMs: 0, clientMs: 0, sales: 0 };
  for (let r = 0; r < CFG.saleRuns; r++) {
    await waitQuiet(`ceiling run ${r + 1}`);
    const self0 = process.cpuUsage();
    const k = await cpuCost(null, DB_NAME, () => closedLoop(CFG.tills, CFG.saleSeconds, once));
    const self = process.cpuUsage(self0);
    const res = k.result;
    cpu = { pgMs: cpu.pgMs + k.pgMs, clientMs: cpu.clientMs + (self.user + self.system) / 1000, sales: cpu.sales + res.ok };
    tput.push(res.ok / res.seconds);
    p95s.push(percentile(res.latencies, 95));
    log(`ceiling run ${r + 1}: ${res.ok} sales, ${res.errors} errors = ${(res.ok / res.seconds).toFixed(0)}/s, p50 ${percentile(res.latencies, 50).toFixed(1)} ms, p95 ${percentile(res.latencies, 95).toFixed(1)} ms${res.firstError ? `; first error: ${res.firstError}` : ''}`);
    await sleep(1000);
  }
  await pool.end();
  return { tput, p95: median(p95s), cpu: { pg: cpu.pgMs / cpu.sales, client: cpu.clientMs / cpu.sales } };
}

// ------------------------------------------------------------------------------------------------

async function main() {
  cleanupOnExit();
  if (!(await pgReachable())) {
    log('PostgreSQL is not reachable: API bench not measured');
    metrics.push(metric({ id: 'api', section: 'API', metric: 'API bench', unit: '', budget: '', skipped: 'PostgreSQL not reachable at 127.0.0.1:5432' }));
    writeResults('api.json', metrics, extra);
    return;
  }
  // --db <url>: reuse a database made by an earlier run (--keep) instead of generating one.
  const dbArg = arg('--db');
  const only = arg('--only')?.split(',');
  const want = (s: string) => !only || only.includes(s);
  const db: Pick<ThrowawayDb, 'name' | 'url'> = dbArg
    ? { url: dbArg, name: new URL(dbArg).pathname.slice(1) }
    : await benchGenerator();
  DB_NAME = db.name;
  let server = await startServer(db.url);
  try {
    let adminH = await login(server.url, 'admin', 'admin');
    const tillNames = Array.from({ length: CFG.tills }, (_, i) => `till${pad(i + 1)}`);
    // Read with the API pool's own session settings, so the table shows what its statements ran with.
    const c = new pg.Client({ connectionString: db.url, options: pgSessionOptions() });
    await c.connect();
    const { rows } = await c.query(`select u.username, us.store_id, t.id as terminal_id from user_account u join user_store us on us.user_id = u.id
      join terminal t on t.code = 'T' || substr(u.username, 5) where u.username = any($1)`, [tillNames]);
    const { rows: [cash] } = await c.query(`select id, name, type, can_have_change_due from payment where type = 'cash' order by id limit 1`);
    const { rows: [{ n: orderCount }] } = await c.query('select count(*)::int as n from "order"');
    // The PostgreSQL settings the API's statements ran with (its pool's options, PGOPTIONS included).
    const { rows: settings } = await c.query(`select name, setting, unit from pg_settings where name in
      ('server_version', 'shared_buffers', 'work_mem', 'jit', 'max_parallel_workers_per_gather', 'random_page_cost', 'synchronous_commit', 'fsync', 'max_connections')`);
    extra.postgres = Object.fromEntries(settings.map((r) => [r.name, r.unit && r.unit !== '' ? `${r.setting}${r.unit === '8kB' ? ` x 8kB` : r.unit}` : r.setting]));
    extra.env = { PGOPTIONS: process.env.PGOPTIONS ?? '', PG_POOL_MAX: process.env.PG_POOL_MAX ?? '(default 10)' };
    await c.end();
    const tills: Till[] = [];
    for (const r of rows) tills.push({ user: r.username, headers: await login(server.url, r.username, 'till'), storeId: r.store_id, terminalId: r.terminal_id });
    tills.sort((a, b) => a.user.localeCompare(b.user));

    if (want('products')) await benchProductPages(server, tills[0].headers, adminH);

    if (want('history') || want('sales')) {
      if (orderCount < CFG.orders * 0.9) {
        log(`generating ${CFG.orders.toLocaleString('en')} orders...`);
        const orders = await generateOrders(db.url, { orders: CFG.orders });
        extra.ordersGenerated = orders;
        log(`orders generated in ${orders.ms} ms`);
        await server.stop(); // fresh process after the bulk load (plans, caches)
        server = await startServer(db.url);
        // A new server signs with a new JWT secret (lib startServer): sign everyone in again.
        adminH = await login(server.url, 'admin', 'admin');
        for (const t of tills) t.headers = await login(server.url, t.user, 'till');
      }
    }
    if (want('history')) await benchHistory(server, adminH, tills[0].headers, { store: tills[0].storeId, terminal: tills[0].terminalId });

    const cashObj = { '@id': `/api/payments/${cash.id}`, id: cash.id, name: cash.name, type: cash.type, canHaveChangeDue: cash.can_have_change_due, isActive: true };
    if (want('sales') || want('ceiling')) await benchSales(server, db.url, tills, cashObj, { ours: want('sales'), ceiling: want('ceiling') || want('sales') });
  } finally {
    await stopAllServers();
    if (KEEP || dbArg) log(`kept database: ${db.url}`);
    else await dropAll();
  }
  // A partial run (--db / --only) does not replace the full results the report is built from.
  writeResults(SCALED && only?.join() === 'history' ? `history-${CFG.orders}.json`
    : dbArg || only ? `api-partial${only ? `-${only.join('+')}` : ''}.json` : 'api.json', metrics, extra);
  for (const m of metrics) log(`${m.id}: median ${m.median} p95 ${m.p95} ${m.unit}${m.skipped ? ` (not measured: ${m.skipped})` : ''}`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!KEEP) await dropAll();
  process.exit(1);
});
