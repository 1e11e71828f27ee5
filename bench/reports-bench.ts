/**
 * The reports part of `npm run bench` (`--only reports`, issue 25.6): every report over
 * 1,000,000 orders and 100,000 products answers p95 <= 200 ms.
 *
 *   node --import tsx bench/reports-bench.ts [--quick] [--keep] [--db <url>] [--orders N] [--case <id prefix>]
 *
 * A throwaway database gets the catalogue (generate-catalogue.ts) and the sale history
 * (generate-orders.ts: 365 days, ~2,700 orders a day over 3 stores); then one order in 20 of those
 * with a customer is turned into a credit sale (the customer ageing reads credit payments) and each
 * supplier gets credit purchases over the year. Each report is asked for yesterday (the page's
 * default) over all stores, as the owner: 3 runs of 20 sequential requests, medians of each run's
 * p50 and p95. Wider ranges (30 and 365 days of sales by day, a year by product) are informational
 * lines, measured after their first request rolled the closed days up (that first request is its own line).
 * The stock movement history of one busy product (GET /api/stock/movements, its newest page over
 * all stores) runs over a ledger given to one product: BUSY_ROWS rows over the year (sales, and
 * every 50th a transfer, count or adjustment row with its document), as a best-seller has.
 * Results: bench/out/reports.json (scripts/bench.mjs puts them in bench/results.md); with --orders N
 * other than 1,000,000, bench/out/reports-<N>.json (issue 24 asks for 10,000,000).
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { rollClosedDays } from '../apps/api/src/modules/reports/rollups.ts';
import { rowsOf } from '../apps/api/src/db/raw.ts';
import { generateCatalogue } from './generate-catalogue.ts';
import { generateOrders } from './generate-orders.ts';
import {
  QUICK, cleanupOnExit, createThrowawayDb, cpuCost, dropAll, log, login, median, metric, percentile, pgReachable, request, round,
  startServer, stopAllServers, waitQuiet, writeResults, type Metric,
} from './lib.ts';

const arg = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const KEEP = process.argv.includes('--keep');
const CFG = {
  products: QUICK ? 20_000 : 100_000,
  orders: Number(arg('--orders') ?? (QUICK ? 100_000 : 1_000_000)),
  requests: QUICK ? 10 : 20,
  runs: 3,
  busyRows: QUICK ? 30_000 : 120_000,
};
/** --orders N other than 1M (issue 24: 10,000,000): results in bench/out/reports-<N>.json and their own section. */
const SCALED = arg('--orders') !== undefined && !QUICK && CFG.orders !== 1_000_000;
const OUT_FILE = SCALED ? `reports-${CFG.orders}.json` : 'reports.json';
const SECTION = SCALED ? `Reports at ${CFG.orders.toLocaleString('en')} orders` : 'Reports';
const metrics: Metric[] = [];
const extra: Record<string, unknown> = { config: CFG };

async function addLedgers(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    // Credit sales: one customer order in 20 paid on credit (customers' ageing has something to age).
    await c.query(`update order_payment p set type_id = (select id from payment where type = 'credit' order by id limit 1)
      from "order" o where o.id = p.order_id and o.customer_id is not null and o.id % 20 = 0`);
    // Every supplier: a credit purchase a month in each store over the year, and a payment.
    await c.query(`insert into purchase (supplier_id, store_id, purchased_by_id, purchase_number, purchase_mode, payment_type_id, total, created_at, updated_at)
      select s.id, st.id, (select min(id) from user_account), 'B-' || s.id || '-' || st.id || '-' || m, 'direct',
        (select id from payment where type = 'credit' order by id limit 1), 100 + m * 10, now() - (m * 30 || ' days')::interval, now()
      from supplier s cross join store st cross join generate_series(0, 11) m`);
    await c.query(`insert into supplier_payment (supplier_id, amount, description) select id, 500, 'bench' from supplier`);
    await c.query('vacuum analyze order_payment, purchase, supplier_payment');
  } finally {
    await c.end();
  }
}

/** The first row of one statement, on a connection of its own. */
async function firstRow<T>(url: string, text: string, values: unknown[] = []): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(text, values)).rows[0] as T;
  } finally { await c.end(); }
}

/** Whether every store's `day` is rolled up (a closed day, rolled by the request that asked or by the pass). */
const rolledUp = async (url: string, day: string) => (await firstRow<{ all: boolean }>(url,
  'select count(*) = (select count(*) from store) as all from report_day_done where day = $1::date', [day])).all;

/** Orders since today's 00:00 in the stores' zone (the generated shop's stores share one). */
const ordersToday = async (url: string) => (await firstRow<{ n: number }>(url, `select count(*)::int as n from "order" o join store s on s.id = o.store_id
  where o.created_at >= (now() at time zone s.time_zone)::date::timestamp at time zone s.time_zone`)).n;

/** A best-seller's ledger: `rows` movements of one product over the year in every store; answers the product's id. */
async function addBusyProduct(url: string, rows: number): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: [{ id }] } = await c.query(`select id from product where manage_inventory order by id limit 1`);
    await c.query(`insert into stock_movement (product_id, store_id, quantity, reason, order_id, document_kind, document_id, user_id, created_at)
      select $1::int, st.id, case when g % 50 = 0 then 40 else -1 end,
        case when g % 150 = 0 then 'transfer_in' when g % 100 = 0 then 'count' when g % 50 = 0 then 'found' else 'sale' end,
        case when g % 50 = 0 then null else (select min(id) from "order") + g end,
        case when g % 150 = 0 then 'transfer' when g % 100 = 0 then 'count' when g % 50 = 0 then 'adjustment' end,
        case when g % 50 = 0 then g end, (select min(id) from user_account),
        now() - interval '2 minutes' - (($2::int - g)::float8 * 365 * 86400 / $2::int) * interval '1 second'
      from generate_series(1, $2::int) g join (select id, row_number() over (order by id) - 1 as k from store) st on st.k = g % 3`, [id, rows]);
    await c.query(`update product_store ps set quantity = ps.quantity + m.q
      from (select store_id, sum(quantity) as q from stock_movement where product_id = $1 and reason <> 'opening' and created_at > now() - interval '366 days' group by 1) m
      where ps.product_id = $1 and ps.store_id = m.store_id`, [id]);
    await c.query('vacuum analyze stock_movement');
    return Number(id);
  } finally {
    await c.end();
  }
}

/** The product with the most ledger rows (the busy one, also in a kept database). */
const busiestProduct = async (url: string) => Number((await firstRow<{ product_id: number }>(url,
  'select product_id from stock_movement where variant_id is null group by 1 order by count(*) desc limit 1')).product_id);

async function timeGets(url: string, headers: Record<string, string>, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await request('GET', url, undefined, headers);
    if (r.status !== 200) throw new Error(`GET ${url}: ${r.status} ${r.body.slice(0, 300)}`);
    out.push(r.ms);
  }
  return out;
}

async function main() {
  cleanupOnExit();
  if (!(await pgReachable())) {
    metrics.push(metric({ id: 'reports', section: SECTION, metric: 'Reports bench', unit: '', budget: '', skipped: 'PostgreSQL not reachable at 127.0.0.1:5432' }));
    writeResults(OUT_FILE, metrics, extra);
    return;
  }
  const dbArg = arg('--db');
  const db = dbArg ? { url: dbArg, name: new URL(dbArg).pathname.slice(1) } : await createThrowawayDb('reports');
  if (!dbArg) {
    const cat = await generateCatalogue(db.url, { products: CFG.products });
    log(`catalogue: ${cat.products} products in ${cat.ms.total} ms`);
    const orders = await generateOrders(db.url, { orders: CFG.orders, log: (s) => log(s) });
    log(`orders: ${orders.orders} in ${orders.ms} ms`);
    extra.generated = { catalogueMs: cat.ms.total, ordersMs: orders.ms };
    await addLedgers(db.url);
    await addBusyProduct(db.url, CFG.busyRows);
  }
  const busy = await busiestProduct(db.url);
  const server = await startServer(db.url);
  try {
    const admin = await login(server.url, 'admin', 'admin');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const yesterday = day(-1);
    const range = `from=${yesterday}&to=${yesterday}`;
    const cases: { id: string; label: string; path: string; budget: boolean; first?: boolean }[] = [
      ...['day', 'hour', 'product', 'variant', 'category', 'brand', 'cashier', 'store', 'payment', 'tax'].map((g) => ({
        id: `reports.sales.${g}`, label: `GET /api/reports/sales?group=${g}, yesterday, all stores`, path: `/api/reports/sales?group=${g}&${range}`, budget: true,
      })),
      { id: 'reports.sales.csv', label: 'GET /api/reports/sales?group=product&format=csv, yesterday', path: `/api/reports/sales?group=product&${range}&format=csv`, budget: true },
      { id: 'reports.products.top', label: 'GET /api/reports/products?sort=top&limit=20, yesterday', path: `/api/reports/products?sort=top&limit=20&${range}`, budget: true },
      { id: 'reports.products.slow', label: 'GET /api/reports/products?sort=slow&limit=20, yesterday (products with stock)', path: `/api/reports/products?sort=slow&limit=20&${range}`, budget: true },
      // Today is never rolled up: read live from the orders, however many the day holds so far (the note says).
      ...['product', 'category'].map((g) => ({
        id: `reports.sales.${g}.today`, label: `GET /api/reports/sales?group=${g}, today (read live), all stores`, path: `/api/reports/sales?group=${g}&from=${day(0)}&to=${day(0)}`, budget: true,
      })),
      { id: 'reports.customers', label: 'GET /api/reports/customers (balances with ageing)', path: '/api/reports/customers', budget: true },
      { id: 'reports.suppliers', label: 'GET /api/reports/suppliers (balances with ageing)', path: '/api/reports/suppliers', budget: true },
      { id: 'reports.stock.movements', label: `GET /api/stock/movements of one busy product (${CFG.busyRows.toLocaleString('en')} ledger rows), newest page, all stores`, path: `/api/stock/movements?product=${busy}`, budget: true },
      // Ranges (info): measured once the roll-up exists (the probe, timed apart, rolled it); to=today, so today is read live.
      { id: 'reports.sales.day.30', label: 'GET /api/reports/sales?group=day, last 30 days + today, all stores, rolled up', path: `/api/reports/sales?group=day&from=${day(-30)}&to=${day(0)}`, budget: false, first: true },
      { id: 'reports.sales.day.365', label: 'GET /api/reports/sales?group=day, last 365 days + today, all stores, rolled up', path: `/api/reports/sales?group=day&from=${day(-365)}&to=${day(0)}`, budget: false, first: true },
      { id: 'reports.sales.product.365', label: 'GET /api/reports/sales?group=product, last 365 days + today, all stores, rolled up', path: `/api/reports/sales?group=product&from=${day(-365)}&to=${day(0)}`, budget: false, first: true },
    ];
    const only = arg('--case');
    let rolledAll = false;
    for (const c of cases.filter((x) => !only || x.id.startsWith(only))) {
      const url = `${server.url}${c.path}`;
      // A report the server cannot answer within the bench's request timeout is a line "not measured", not the end of the run.
      const probe = await request('GET', url, undefined, admin).catch((e: Error) => ({ status: 0, ms: NaN, body: e.message }));
      if (probe.status !== 200) {
        metrics.push(metric({ id: c.id, section: SECTION, metric: c.label, unit: 'ms', budget: c.budget ? 'p95 <= 200 ms' : 'info (wider than the default day)', skipped: `answered ${probe.status}: ${probe.body.slice(0, 120)}` }));
        continue;
      }
      const n = c.budget ? CFG.requests : 3;
      // A range's first request on a shop whose background pass has not run: it rolls what fits in
      // about a second and reads the rest live (modules/reports/rollups.ts). Timed on its own, as info;
      // then the background pass rolls every closed day (timed once), as it does in a running shop.
      if (c.first) {
        metrics.push(metric({
          id: `${c.id}.first`, section: SECTION, metric: `${c.label}, FIRST request ${rolledAll ? 'after the background pass' : 'before the background pass (rolls ~1 s of days, reads the rest live)'} — ${CFG.orders.toLocaleString('en')} orders`, unit: 'ms',
          budget: 'info (once)', median: round(probe.ms, 1), p95: round(probe.ms, 1), runs: 1,
        }));
        log(`${c.id}.first: ${round(probe.ms, 1)} ms`);
        if (!rolledAll) {
          rolledAll = true;
          const t0 = Date.now();
          const database = await openDatabase({ databaseUrl: db.url, dataDir: '' });
          try {
            const stores = rowsOf<{ id: number }>(await database.db.execute(sql`select id from store`)).map((r) => Number(r.id));
            const days = await rollClosedDays(database.db, { storeIds: stores, from: day(-400), to: day(0) });
            metrics.push(metric({
              id: 'reports.rollup.pass', section: SECTION, metric: `Background pass: every closed day of the last 400 rolled up (${days.toLocaleString('en')} store-days) — ${CFG.orders.toLocaleString('en')} orders`, unit: 's',
              budget: 'info (once; then a day a night)', median: round((Date.now() - t0) / 1000, 1), p95: round((Date.now() - t0) / 1000, 1), runs: 1,
            }));
            log(`background pass: ${days} store-days in ${Date.now() - t0} ms`);
          } finally { await database.close(); }
        }
      }
      await timeGets(url, admin, 2); // warm-up
      const runs: number[][] = [];
      let cpu = { nodeMs: 0, pgMs: 0 };
      for (let r = 0; r < CFG.runs; r++) {
        await waitQuiet(c.id);
        const k = await cpuCost(server.pid, db.name, () => timeGets(url, admin, n));
        runs.push(k.result);
        cpu = { nodeMs: cpu.nodeMs + k.nodeMs, pgMs: cpu.pgMs + k.pgMs };
      }
      const per = CFG.runs * n;
      const read = c.id.endsWith('.today') ? `; today's ${await ordersToday(db.url)} orders so far`
        : c.path.includes(range) ? (await rolledUp(db.url, yesterday) ? '; yesterday read from the roll-up' : '; yesterday read live (not closed yet)') : '';
      metrics.push(metric({
        id: c.id, section: SECTION, metric: `${c.label} — ${CFG.orders.toLocaleString('en')} orders, ${CFG.products.toLocaleString('en')} products`, unit: 'ms',
        ...(c.budget ? { budget: 'p95 <= 200 ms', limit: { op: '<=' as const, value: 200 } } : { budget: 'info (wider than the default day)' }),
        median: round(median(runs.map((x) => median(x))), 1), p95: round(median(runs.map((x) => percentile(x, 95))), 1), runs: runs.length,
        note: `CPU per request: ${round((cpu.nodeMs + cpu.pgMs) / per, 1)} ms (API ${round(cpu.nodeMs / per, 1)} + PostgreSQL ${round(cpu.pgMs / per, 1)}); ${probe.body.length} bytes${read}`,
      }));
      log(`${c.id}: ${JSON.stringify(metrics.at(-1))}`);
    }
  } finally {
    await stopAllServers();
    if (KEEP || dbArg) log(`kept database: ${db.url}`);
    else await dropAll();
  }
  // A partial run (--case) does not replace the full results the report is built from.
  writeResults(arg('--case') ? 'reports-partial.json' : OUT_FILE, metrics, extra);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!KEEP) await dropAll();
  process.exit(1);
});
