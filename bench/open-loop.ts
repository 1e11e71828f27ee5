/**
 * The mixed open-loop benchmark (issue 30, point 4): `npm run bench -- --only openloop`.
 *
 * Requests arrive at a FIXED rate whatever the server does (open loop): 80% sales
 * (POST /api/admin/order/create, 5 lines, cash, 20 tills), 15% back-office searches and lists
 * (a product name search, a customer name search, the day's order list), 5% the till's catalogue
 * sync (GET /api/catalogue/sync?since=<cursor>, the delta every running till asks for). Latency is
 * measured from the SCHEDULED send time, not from when the request actually left (no coordinated
 * omission: a request the load generator could only send late counts its wait). Each step runs at
 * one rate; rates rise past the knee (the highest rate whose accepted sales keep p99 ≤ 100 ms
 * with under 1% shed), then the server is offered twice the most it completed in a step (the rate it can sustain).
 *
 * Reports per step: offered and completed rates by kind (completions ÷ the time until the last answer), 503s (shed) and how fast they came back,
 * accepted latencies, peak RSS of the server; then the knee, goodput at 2× the sustained rate against the peak sale
 * rate, and the CPU per request kind (API process + PostgreSQL backends, measured alone at a low
 * rate). The server runs with its default admission limits unless ADMISSION_* / PG_POOL_MAX are set.
 *
 *   node --import tsx bench/open-loop.ts [--quick] [--products N] [--db <url>] [--step-seconds S] [--rates 100,200,...] [--over R]
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, ROOT, cleanupOnExit, cpuCost, createThrowawayDb, dropAll, log, login, metric, percentile, pgReachable, request, round,
  sleep, startServer, stopAllServers, waitQuiet, writeResults, type Metric, type Server,
} from './lib.ts';
import { loadSaleCatalogue, rng, saleBody, type Till } from './sales.ts';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const PRODUCTS = Number(arg('--products') ?? (QUICK ? 20_000 : 100_000));
const STEP_S = Number(arg('--step-seconds') ?? (QUICK ? 4 : 8));
const RATES = (arg('--rates') ?? '').split(',').filter(Boolean).map(Number);
/** --products N other than 100k: results in bench/out/openloop-<N>.json, beside the 100k run's openloop.json. */
const OUT_FILE = arg('--products') && PRODUCTS !== 100_000 ? `openloop-${PRODUCTS}.json` : 'openloop.json';
const MIX = { sale: 0.8, read: 0.15, sync: 0.05 } as const;
type Kind = keyof typeof MIX;
const KINDS: Kind[] = ['sale', 'read', 'sync'];

/** A connection per request in flight, as many tills and offices would open: the client never queues. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: 256 });

/** ms: from the scheduled send (judged); late: how late the generator sent it (its own CPU, not the server's). */
interface Sample { kind: Kind; status: number; ms: number; late: number; front?: boolean }

/** The status, and whether the server's front thread answered it (a 503 it refused itself: `x-shed-by: front`). */
function send(method: string, url: string, payload: Buffer | undefined, headers: Record<string, string>): Promise<{ status: number; front: boolean }> {
  return new Promise((resolve) => {
    const req = http.request(url, {
      method, agent,
      headers: { accept: 'application/json', 'accept-encoding': 'identity', ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}), ...headers },
    }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode ?? 0, front: res.headers['x-shed-by'] === 'front' }));
      res.on('error', () => resolve({ status: 0, front: false }));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve({ status: 0, front: false }));
    if (payload) req.write(payload);
    req.end();
  });
}

interface Ctx {
  server: Server;
  tills: Till[];
  admin: Record<string, string>;
  cat: Awaited<ReturnType<typeof loadSaleCatalogue>>;
  cash: Record<string, unknown>;
  cursor: string;
  terms: string[];
}

interface Planned { kind: Kind; method: string; url: string; payload?: Buffer; headers: Record<string, string> }

/**
 * One request of a kind, built before the step starts: the sale bodies (each line's whole product,
 * as the tills send them) are serialised ahead, so the generator's own CPU at send time is small
 * and its lateness (counted in every latency) is not the bench's artifact.
 */
function plan(ctx: Ctx, kind: Kind, i: number, rnd: () => number): Planned {
  const till = ctx.tills[i % ctx.tills.length];
  const base = ctx.server.url;
  if (kind === 'sale') return { kind, method: 'POST', url: `${base}/api/admin/order/create`, payload: Buffer.from(JSON.stringify(saleBody(ctx.cat, till, ctx.cash, rnd))), headers: till.headers };
  if (kind === 'sync') return { kind, method: 'GET', url: `${base}/api/catalogue/sync?since=${encodeURIComponent(ctx.cursor)}`, headers: till.headers };
  const term = ctx.terms[Math.floor(rnd() * ctx.terms.length)];
  const which = i % 3;
  if (which === 0) return { kind, method: 'GET', url: `${base}/api/products?name=${encodeURIComponent(term)}&itemsPerPage=20&page=1`, headers: ctx.admin };
  if (which === 1) return { kind, method: 'GET', url: `${base}/api/customers?name=${encodeURIComponent(term.slice(0, 3))}&page=1&itemsPerPage=20`, headers: ctx.admin };
  return { kind, method: 'GET', url: `${base}/api/admin/order/list?page=1&itemsPerPage=10&store=${till.storeId}`, headers: till.headers };
}

/** Offers `rate` requests/s of the mix (or one kind) for `seconds`; latency from each scheduled send. */
async function openLoop(ctx: Ctx, rate: number, seconds: number, only?: Kind): Promise<{ samples: Sample[]; peakRssMb: number; lateMs: number; wallS: number; loop: StepResult['loop'] }> {
  const rnd = rng(rate * 7 + seconds);
  const samples: Sample[] = [];
  const pending: Promise<void>[] = [];
  const interval = 1000 / rate;
  const total = Math.round(rate * seconds);
  const planned: Planned[] = [];
  for (let j = 0; j < total; j++) {
    const x = rnd();
    planned.push(plan(ctx, only ?? (x < MIX.sale ? 'sale' : x < MIX.sale + MIX.read ? 'read' : 'sync'), j, rnd));
  }
  const from = Date.now();
  let peakRssMb = ctx.server.rssMb();
  const rssTimer = setInterval(() => { peakRssMb = Math.max(peakRssMb, ctx.server.rssMb()); }, 200);
  let lateMs = 0;
  const t0 = performance.now() + 5;
  let i = 0;
  while (i < total) {
    const now = performance.now();
    // Everything due by now leaves now (a late tick sends a batch; their latency counts from their slot).
    while (i < total && t0 + i * interval <= now) {
      const scheduled = t0 + i * interval;
      const late = now - scheduled;
      lateMs = Math.max(lateMs, late);
      const r = planned[i];
      pending.push(send(r.method, r.url, r.payload, r.headers).then(({ status, front }) => { samples.push({ kind: r.kind, status, ms: performance.now() - scheduled, late, front }); }));
      i++;
    }
    const next = t0 + i * interval - performance.now();
    await sleep(Math.max(0, Math.min(next, 5)));
  }
  await Promise.all(pending);
  // Wall time until the last answer: a server that queues without bound finishes its step late.
  const wallS = Math.max(seconds, (performance.now() - t0) / 1000);
  clearInterval(rssTimer);
  peakRssMb = Math.max(peakRssMb, ctx.server.rssMb());
  return { samples, peakRssMb, lateMs, wallS, loop: loopBetween(from, Date.now()) };
}

/** BENCH_GENERATOR_NICE: the sending thread's nice value (-5 by default; 0 to leave it). */
const GENERATOR_NICE = Number(process.env.BENCH_GENERATOR_NICE ?? -5);
/** The nice values the run had: the generator's sending thread, and the server's threads (distinct values, lowest first). */
const PRIORITIES = { generator: 0, server: '' };

/** The distinct nice values of a process's threads (the front thread's raised one among them), from /proc. */
function threadNices(pid: number): string {
  try {
    const nices = fs.readdirSync(`/proc/${pid}/task`).map((tid) => Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]));
    return [...new Set(nices)].sort((a, b) => a - b).join(' and ');
  } catch { return 'unknown'; }
}

/** Where the server's loop monitor writes (bench/loop-monitor.mjs). */
const LOOP_FILE = path.join(os.tmpdir(), `pos-bench-loop-${process.pid}.jsonl`);

/** The API's event loop over a step: the mean share of time busy, the median 250-ms interval's delay p99, and the longest delay. */
function loopBetween(from: number, to: number): StepResult['loop'] {
  let lines: Array<{ t: number; busy: number; p99: number; max: number; shed?: number[] }> = [];
  try { lines = fs.readFileSync(LOOP_FILE, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)); } catch { /* no monitor */ }
  const inStep = lines.filter((l) => l.t > from + 250 && l.t <= to);
  if (!inStep.length) return { busy: NaN, p99: NaN, max: NaN, shedServerP99: NaN };
  const shed = inStep.flatMap((l) => l.shed ?? []);
  return {
    shedServerP99: shed.length ? round(percentile(shed, 99), 2) : NaN,
    busy: round(inStep.reduce((a, l) => a + l.busy, 0) / inStep.length, 2),
    p99: round(percentile(inStep.map((l) => l.p99), 50), 1),
    max: Math.max(...inStep.map((l) => l.max)),
  };
}

interface StepResult {
  offered: number;
  seconds: number;
  byKind: Record<Kind, { offered: number; ok: number; shed: number; failed: number; okPerS: number; p50: number; p99: number; shedP99: number; shedSentP99: number; shedFront: number; shedFrontP99: number }>;
  /** From the first scheduled send to the last answer. */
  wallS: number;
  /** Share of the CPUs busy with other people's work just before the step (lib.ts waitQuiet). */
  bg?: number;
  peakRssMb: number;
  lateMs: number;
  /**
   * The API's event loop during the step (bench/loop-monitor.mjs): mean busy share, the median 250-ms
   * interval's delay p99, the longest delay (ms); the p99 of the server's own time over a 503 (request parsed → answer written).
   */
  loop: { busy: number; p99: number; max: number; shedServerP99: number };
}

function summarise(offered: number, seconds: number, run: Awaited<ReturnType<typeof openLoop>>): StepResult {
  const byKind = {} as StepResult['byKind'];
  for (const kind of KINDS) {
    const s = run.samples.filter((x) => x.kind === kind);
    const ok = s.filter((x) => x.status >= 200 && x.status < 300);
    const shed = s.filter((x) => x.status === 503);
    const byFront = shed.filter((x) => x.front);
    byKind[kind] = {
      offered: s.length, ok: ok.length, shed: shed.length, failed: s.length - ok.length - shed.length,
      okPerS: round(ok.length / run.wallS, 0),
      p50: round(percentile(ok.map((x) => x.ms), 50), 1), p99: round(percentile(ok.map((x) => x.ms), 99), 1),
      shedP99: round(percentile(shed.map((x) => x.ms), 99), 1),
      // The same answers timed from when the generator actually sent them (a diagnostic, not judged).
      shedSentP99: round(percentile(shed.map((x) => x.ms - x.late), 99), 1),
      // Refused by the server's front thread (net/front.ts) rather than by the API's own thread.
      shedFront: byFront.length,
      shedFrontP99: round(percentile(byFront.map((x) => x.ms), 99), 1),
    };
  }
  return { offered, seconds, byKind, wallS: round(run.wallS, 1), peakRssMb: round(run.peakRssMb, 0), lateMs: round(run.lateMs, 1), loop: run.loop };
}

const line = (r: StepResult) => `${r.offered}/s offered: ` + KINDS.map((k) => {
  const b = r.byKind[k];
  return `${k} ${b.okPerS}/s ok (p50 ${b.p50} p99 ${b.p99} ms), ${b.shed} shed (p99 ${b.shedP99} ms, ${b.shedSentP99} from the actual send; ${b.shedFront} by the front, p99 ${b.shedFrontP99} ms)${b.failed ? `, ${b.failed} FAILED` : ''}`;
}).join('; ') + `; machine ${r.bg ?? '?'}% busy before; last answer at ${r.wallS} s of ${r.seconds}; peak RSS ${r.peakRssMb} MB; generator late ≤ ${r.lateMs} ms; API loop ${Math.round(100 * r.loop.busy)}% busy, delay p99 ${r.loop.p99} ms (longest ${r.loop.max}); a 503 on the server p99 ${r.loop.shedServerP99} ms`;

/** The knee: accepted sales at p99 ≤ 100 ms and under 1% of the sales shed. */
const healthy = (r: StepResult) => r.byKind.sale.p99 <= 100 && r.byKind.sale.shed <= 0.01 * r.byKind.sale.offered && r.byKind.sale.failed === 0;

async function setup(): Promise<{ ctx: Ctx; dbUrl: string; dbName: string }> {
  const dbArg = arg('--db');
  let dbUrl = dbArg;
  if (!dbUrl) {
    const db = await createThrowawayDb('openloop');
    log(`generating ${PRODUCTS.toLocaleString('en')} products...`);
    const stats = await generateCatalogue(db.url, { products: PRODUCTS });
    log(`generated in ${stats.ms.total} ms`);
    dbUrl = db.url;
  }
  // The API's event loop, every 250 ms (loop-monitor.mjs): what a shed request waits behind.
  fs.rmSync(LOOP_FILE, { force: true });
  const server = await startServer(dbUrl, { BENCH_LOOP_FILE: LOOP_FILE }, ['--import', path.join(ROOT, 'bench', 'loop-monitor.mjs')]);
  // The generator stands in for tills on their own devices: its sending thread goes ahead of the
  // server's threads and PostgreSQL where it may (nice -5), so its own wait for a core (every
  // latency counts it, from the scheduled send) is less this machine's artifact. With FRONT=on the
  // server's front thread asks for the same (FRONT_NICE); both are stated in the shed line's note.
  try { os.setPriority(GENERATOR_NICE); } catch { /* not permitted: stays at 0 */ }
  PRIORITIES.generator = os.getPriority();
  PRIORITIES.server = threadNices(server.pid);
  log(`generator thread at nice ${PRIORITIES.generator}; the server's threads at nice ${PRIORITIES.server}`);
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  const { rows } = await c.query(`select u.username, us.store_id, t.id as terminal_id from user_account u join user_store us on us.user_id = u.id
    join terminal t on t.code = 'T' || substr(u.username, 5) where u.username like 'till%' order by u.username limit 20`);
  const { rows: [cash] } = await c.query(`select id, name, type, can_have_change_due from payment where type = 'cash' order by id limit 1`);
  // Search terms: a word of real product names (a few hundred, spread over the catalogue).
  const { rows: names } = await c.query(`select split_part(name, ' ', 1 + (id % 2)) as w from product where id % 397 = 0 limit 300`);
  await c.end();
  const tills: Till[] = [];
  for (const r of rows) tills.push({ user: r.username, headers: await login(server.url, r.username, 'till'), storeId: r.store_id, terminalId: r.terminal_id });
  const admin = await login(server.url, 'admin', 'admin');
  const cat = await loadSaleCatalogue(server, tills[0].headers, QUICK ? 10 : 30);
  const full = await request('GET', `${server.url}/api/catalogue/sync`, undefined, tills[0].headers);
  if (full.status !== 200) throw new Error(`catalogue sync: ${full.status}`);
  const cursor = JSON.parse(full.body).cursor as string;
  const terms = names.map((r) => String(r.w)).filter((w) => w.length >= 3);
  const cashObj = { '@id': `/api/payments/${cash.id}`, id: cash.id, name: cash.name, type: cash.type, canHaveChangeDue: cash.can_have_change_due, isActive: true };
  return { ctx: { server, tills, admin, cat, cash: cashObj, cursor, terms }, dbUrl, dbName: new URL(dbUrl).pathname.slice(1) };
}

async function main() {
  cleanupOnExit();
  const metrics: Metric[] = [];
  const section = `Overload: sales first (open loop, ${PRODUCTS.toLocaleString('en')} products)`;
  if (!(await pgReachable())) {
    metrics.push(metric({ id: 'openloop', section, metric: 'Open-loop mix', unit: '', budget: '', skipped: 'PostgreSQL not reachable at 127.0.0.1:5432' }));
    writeResults(OUT_FILE, metrics);
    return;
  }
  const { ctx, dbName } = await setup();
  const extra: Record<string, unknown> = { products: PRODUCTS, stepSeconds: STEP_S, mix: MIX, env: Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('ADMISSION_') || k === 'PG_POOL_MAX')) };
  try {
    // CPU per request kind, each alone at a low rate (CPU time of the API process + PostgreSQL backends).
    const cpu: Record<string, number> = {};
    for (const [kind, rate] of [['sale', 60], ['read', 20], ['sync', 20]] as [Kind, number][]) {
      await openLoop(ctx, rate, 1, kind);
      const k = await cpuCost(ctx.server.pid, dbName, () => openLoop(ctx, rate, QUICK ? 2 : 4, kind));
      const n = k.result.samples.length;
      cpu[kind] = round((k.nodeMs + k.pgMs) / n, 2);
      log(`CPU per ${kind}: ${cpu[kind]} ms (API ${round(k.nodeMs / n, 2)} + PostgreSQL ${round(k.pgMs / n, 2)}), ${n} requests`);
      extra[`cpu.${kind}`] = { apiMs: round(k.nodeMs / n, 2), pgMs: round(k.pgMs / n, 2) };
    }

    const steps: StepResult[] = [];
    const rates = RATES.length ? RATES : (QUICK ? [100, 200, 300, 400, 500, 600] : [100, 200, 300, 400, 500, 600, 700, 800]);
    let knee = 0;
    let misses = 0;
    for (const rate of rates) {
      const bg = await waitQuiet(`open loop ${rate}/s`, 40, 5);
      const r = { ...summarise(rate, STEP_S, await openLoop(ctx, rate, STEP_S)), bg };
      steps.push(r);
      log(line(r));
      if (healthy(r)) { knee = rate; misses = 0; } else if (++misses >= 2) break; // two steps past the knee are enough
      await sleep(1000);
    }
    const found = knee > 0;
    if (!knee) knee = rates[0];
    // Overload: twice the rate the server can sustain — the most it completed in a step (every kind),
    // not twice the latency knee, which sits well below capacity. --over R offers R (runs compared at one rate).
    const sustained = Math.max(...steps.map((s) => KINDS.reduce((a, k) => a + s.byKind[k].okPerS, 0)));
    const overRate = arg('--over') ? Number(arg('--over')) : 2 * Math.round(sustained / 10) * 10;
    const bg = await waitQuiet('open loop 2x', 40, 5);
    const over = { ...summarise(overRate, STEP_S * 1.5, await openLoop(ctx, overRate, STEP_S * 1.5)), bg };
    log(`2× the sustained rate: ${line(over)}`);
    const peakSale = Math.max(...steps.map((s) => s.byKind.sale.okPerS), over.byKind.sale.okPerS);
    const kneeStep = steps.find((s) => s.offered === knee) ?? steps[0];
    const ratio = round(over.byKind.sale.okPerS / peakSale, 2);
    const shedAll = KINDS.reduce((a, k) => a + over.byKind[k].shed, 0);
    const worstShed = (of: 'shedP99' | 'shedSentP99') => Math.max(...KINDS.map((k) => (over.byKind[k].shed ? over.byKind[k][of] : 0)));
    const shedP99 = worstShed('shedP99');
    const shedSentP99 = worstShed('shedSentP99');
    const peakRss = Math.max(...steps.map((s) => s.peakRssMb), over.peakRssMb);
    extra.steps = steps;
    extra.overload = over;
    const note = `CPU per request: sale ${cpu.sale} ms, search/list ${cpu.read} ms, sync delta ${cpu.sync} ms (API + PostgreSQL); steps of ${STEP_S} s`;
    metrics.push(
      metric({ id: 'openloop.knee', section, metric: 'Knee: highest offered rate (80% sales, 15% searches/lists, 5% syncs) with accepted sales p99 ≤ 100 ms and < 1% shed', unit: 'req/s', budget: 'info', on: 'median', median: knee, p95: knee, runs: 1, note: `${found ? '' : 'NO step met it (the lowest rate is shown); '}sales at the knee: ${kneeStep.byKind.sale.okPerS}/s, p99 ${kneeStep.byKind.sale.p99} ms; ${note}` }),
      metric({ id: 'openloop.goodput', section, metric: `Sales completed at 2× the sustained rate (${overRate}/s offered; the most completed in a step: ${sustained}/s), share of the peak sale rate (${peakSale}/s)`, unit: '', budget: '>= 0.9', limit: { op: '>=', value: 0.9 }, on: 'median', median: ratio, p95: ratio, runs: 1, note: `${over.byKind.sale.okPerS} sales/s completed; ${over.byKind.sale.shed} sales shed (the tills' outboxes send them later)` }),
      metric({ id: 'openloop.sale.p99', section, metric: 'Accepted sales at 2× the sustained rate: p99 latency from the scheduled send', unit: 'ms', budget: 'p99 <= 200 ms', limit: { op: '<=', value: 200 }, on: 'p95', median: over.byKind.sale.p50, p95: over.byKind.sale.p99, runs: 1, note: 'median column holds the p50, p95 column the p99 (judged)' }),
      metric({ id: 'openloop.shed.p99', section, metric: 'Shed requests (503 + Retry-After) at 2× the sustained rate: p99 latency from the scheduled send', unit: 'ms', budget: 'p99 <= 10 ms', limit: { op: '<=', value: 10 }, median: shedP99, p95: shedP99, runs: 1, note: `${shedAll} shed: ${KINDS.map((k) => `${k} ${over.byKind[k].shed}`).join(', ')}; p95 column holds the p99; ${KINDS.map((k) => `${k} ${over.byKind[k].shedFront} refused by the server's front thread (p99 ${over.byKind[k].shedFrontP99} ms)`).join(', ')}; from the generator's actual send ${shedSentP99} ms (it sent up to ${over.lateMs} ms late: its own CPU on the shared cores); generator at nice ${PRIORITIES.generator}, the server's threads at nice ${PRIORITIES.server}; the API's event loop meanwhile ${Math.round(100 * over.loop.busy)}% busy, its delay p99 ${over.loop.p99} ms (longest ${over.loop.max}; 250-ms intervals); on the server, from the request parsed to the 503 written, p99 ${over.loop.shedServerP99} ms: the rest is the wait before the loop read the request` }),
      metric({ id: 'openloop.rss', section, metric: 'Peak server RSS over all steps', unit: 'MB', budget: 'info', on: 'median', median: peakRss, p95: peakRss, runs: 1 }),
    );
  } finally {
    await stopAllServers();
    fs.rmSync(LOOP_FILE, { force: true });
    if (!arg('--db') && !process.argv.includes('--keep')) await dropAll();
  }
  writeResults(OUT_FILE, metrics, extra);
  for (const m of metrics) log(`${m.id}: ${m.median} / ${m.p95} ${m.unit} ${m.note ?? ''}`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  fs.rmSync(LOOP_FILE, { force: true });
  await dropAll();
  process.exit(1);
});
