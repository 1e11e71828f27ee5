/**
 * The stock part of `npm run bench` (issue 25): "a count of 10,000 scanned lines approves in <= 2 s".
 *
 *   node --import tsx bench/stock-bench.ts [--quick] [--keep]
 *
 * A generated shop (bench/generate-catalogue.ts: half the products track stock, every product is
 * stocked in every store) on a throwaway database, the API server as its own process (production
 * mode), over loopback. Per run: a full count of one store is opened, 10,000 products are scanned
 * by barcode in 10 requests of 1,000 lines (as tablets upload), two thirds of them off by one
 * (so approval books ~6,700 ledger rows), then POST .../approve is timed. Median of 3 runs.
 * Results go to bench/out/stock.json.
 */
import pg from 'pg';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, cleanupOnExit, cpuCost, createThrowawayDb, dropAll, log, login, median, metric, pgReachable, request, round, startServer, stopAllServers,
  waitQuiet, writeResults, type Metric,
} from './lib.ts';

const KEEP = process.argv.includes('--keep');
const CFG = QUICK ? { products: 4_000, lines: 1_000, runs: 1 } : { products: 22_000, lines: 10_000, runs: 3 };
const metrics: Metric[] = [];

async function main() {
  cleanupOnExit();
  const id = 'stock.count.approve';
  const label = `Approve a full stock count of ${CFG.lines.toLocaleString('en')} scanned lines (POST /api/admin/stock/count/:id/approve)`;
  if (!(await pgReachable())) {
    metrics.push(metric({ id, section: 'Stock', metric: label, unit: 'ms', budget: '<= 2000 ms', skipped: 'PostgreSQL not reachable at 127.0.0.1:5432' }));
    writeResults('stock.json', metrics);
    return;
  }
  const db = await createThrowawayDb('stock');
  const stats = await generateCatalogue(db.url, { products: CFG.products });
  log(`catalogue: ${stats.products} products, ${stats.productStores} stock rows in ${stats.ms.total} ms`);
  const server = await startServer(db.url);
  try {
    const admin = await login(server.url, 'admin', 'admin');
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    const { rows: [{ id: storeId }] } = await c.query('select id from store order by id limit 1');
    const { rows: products } = await c.query(`select p.barcode, ps.quantity::float8 as q from product p join product_store ps on ps.product_id = p.id and ps.store_id = $1
      where p.manage_inventory and p.barcode is not null order by p.id limit $2`, [storeId, CFG.lines]);
    if (products.length < CFG.lines) throw new Error(`only ${products.length} stock-tracked products with a barcode`);
    const times: number[] = []; const booked: number[] = []; const cpu: number[] = []; const answers: number[] = [];
    for (let run = 0; run < CFG.runs; run++) {
      const open = await request('POST', `${server.url}/api/admin/stock/count/create`, { store: storeId, note: `bench ${run + 1}` }, admin);
      if (open.status !== 201) throw new Error(`count create: ${open.status} ${open.body.slice(0, 300)}`);
      const countId = JSON.parse(open.body).count.id;
      const { rows: now } = await c.query(`select p.barcode, ps.quantity::float8 as q from product p join product_store ps on ps.product_id = p.id and ps.store_id = $1
        where p.barcode = any($2)`, [storeId, products.map((p) => p.barcode)]);
      const have = new Map(now.map((r) => [r.barcode, Number(r.q)]));
      for (let i = 0; i < products.length; i += 1_000) {
        const lines = products.slice(i, i + 1_000).map((p, j) => ({ barcode: p.barcode, quantity: Math.max(0, have.get(p.barcode)! + (((i + j + run) % 3) - 1)) }));
        const scan = await request('POST', `${server.url}/api/admin/stock/count/${countId}/lines`, { lines }, admin);
        if (scan.status !== 200) throw new Error(`count lines: ${scan.status} ${scan.body.slice(0, 300)}`);
      }
      const { rows: [{ n: before }] } = await c.query(`select count(*)::int as n from stock_movement where reason = 'count'`);
      await waitQuiet('count approval');
      const { result: res, nodeMs, pgMs } = await cpuCost(server.pid, db.name, () => request('POST', `${server.url}/api/admin/stock/count/${countId}/approve`, {}, admin));
      if (res.status !== 200) throw new Error(`approve: ${res.status} ${res.body.slice(0, 300)}`);
      const { rows: [{ n: after }] } = await c.query(`select count(*)::int as n from stock_movement where reason = 'count'`);
      // The same answer read again (GET): how much of the approval is the 10,000-line answer itself.
      const answer = await request('GET', `${server.url}/api/admin/stock/count/${countId}`, undefined, admin);
      times.push(res.ms); booked.push(after - before); cpu.push(nodeMs + pgMs); answers.push(answer.ms);
      log(`count run ${run + 1}: ${CFG.lines} lines approved in ${round(res.ms, 0)} ms (CPU: API ${round(nodeMs, 0)} ms + PostgreSQL ${round(pgMs, 0)} ms; ${after - before} ledger rows booked; the answer alone, read again: ${round(answer.ms, 0)} ms, ${round(answer.body.length / 1e6, 1)} MB)`);
    }
    await c.end();
    metrics.push(metric({
      id, section: 'Stock', metric: label, unit: 'ms', budget: '<= 2000 ms', limit: { op: '<=', value: 2000 }, on: 'median',
      median: round(median(times), 0), p95: round(Math.max(...times), 0), runs: times.length,
      note: `p95 column = slowest run; CPU per approval (API + PostgreSQL) median ${round(median(cpu), 0)} ms; ${booked.join(' / ')} ledger rows booked per run; `
        + `the answer carries all ${CFG.lines.toLocaleString('en')} lines with variances at cost (read again alone: median ${round(median(answers), 0)} ms)`,
    }));
  } finally {
    await stopAllServers();
    if (KEEP) log(`kept database: ${db.url}`);
    else await dropAll();
  }
  writeResults('stock.json', metrics, { config: CFG });
  for (const m of metrics) log(`${m.id}: median ${m.median} p95 ${m.p95} ${m.unit}`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!KEEP) await dropAll();
  process.exit(1);
});
