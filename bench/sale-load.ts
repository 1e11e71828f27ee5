/**
 * A sale load against an existing bench database, for profiling (not part of `npm run bench`):
 *
 *   BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=bench/out/prof" \
 *     node --import tsx bench/sale-load.ts <database url> [seconds] [tills]
 *
 * Starts the server on that database, runs `tills` concurrent 5-line cash sales for `seconds`,
 * prints throughput, latency and CPU per sale, then stops the server (writing its profile).
 */
import pg from 'pg';
import { computeOrderTotals } from '@pos/domain/cart';
import { parseMoney, parseRate, toDecimal } from '@pos/domain/money';
import { cpuCost, log, login, percentile, request, startServer } from './lib.ts';

const [url, secondsArg = '15', tillsArg = '20'] = process.argv.slice(2);
if (!url) { console.error('usage: sale-load.ts <database url> [seconds] [tills]'); process.exit(2); }
const seconds = Number(secondsArg);
const nTills = Number(tillsArg);
const dbName = new URL(url).pathname.slice(1);

const server = await startServer(url);
try {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const { rows: tills } = await c.query(`select u.username, us.store_id, t.id as terminal_id from user_account u join user_store us on us.user_id = u.id
    join terminal t on t.code = 'T' || substr(u.username, 5) where u.username like 'till%' order by u.username limit $1`, [nTills]);
  const { rows: [cash] } = await c.query(`select id, name, type, can_have_change_due from payment where type = 'cash' order by id limit 1`);
  await c.end();
  const heads = await Promise.all(tills.map((t) => login(server.url, t.username, 'till')));
  const cat: any[] = [];
  for (let i = 0; i < 20; i++) {
    const r = await request('GET', `${server.url}/api/products?itemsPerPage=100&page=${1 + i * 37}&isActive=true`, undefined, heads[0]);
    cat.push(...JSON.parse(r.body)['hydra:member'].filter((p: any) => !(p.prices ?? []).length));
  }
  let seed = 7;
  const rnd = () => { seed = (seed * 1664525 + 1013904223) >>> 0; return seed / 2 ** 32; };
  const body = (w: number) => {
    const items: any[] = []; const lines: any[] = []; const used = new Set();
    while (items.length < 5) {
      const p = cat[Math.floor(rnd() * cat.length)];
      if (used.has(p.id)) continue; used.add(p.id);
      const v = p.variants?.length ? p.variants[Math.floor(rnd() * p.variants.length)] : null;
      const price = v?.price != null ? parseMoney(v.price) : parseMoney(p.basePrice);
      items.push({ item: p, variant: v, quantity: 1, price: toDecimal(price), discount: 0, taxIncluded: true, taxes: p.taxes, stock: 0 });
      lines.push({ priceCents: price, qtyMilli: 1000, discountCents: 0, taxIncluded: true, taxRates: p.taxes.map((t: any) => parseRate(t.rate)) });
    }
    const total = computeOrderTotals({ lines, orderTaxRate: null, discount: { kind: 'none' }, adjustmentCents: 0 }).totalCents;
    return { items, payments: [{ received: toDecimal(Math.ceil(total / 1000) * 1000), type: { id: cash.id, '@id': `/api/payments/${cash.id}`, name: cash.name, type: cash.type } }],
      store: tills[w].store_id, terminal: tills[w].terminal_id, total: toDecimal(total), adjustment: 0, status: 'Completed', customer: '', uuid: crypto.randomUUID() };
  };
  const lat: number[] = []; let ok = 0; let err = 0; let firstErr = '';
  const t0 = performance.now();
  const k = await cpuCost(server.pid, dbName, () => Promise.all(tills.map(async (_, w) => {
    while (performance.now() - t0 < seconds * 1000) {
      const r = await request('POST', `${server.url}/api/admin/order/create`, body(w), heads[w]);
      if (r.status === 201) { ok++; lat.push(r.ms); } else { err++; firstErr ||= `${r.status} ${r.body.slice(0, 200)}`; }
    }
  })));
  const s = (performance.now() - t0) / 1000;
  log(`${ok} sales (${err} errors${firstErr ? `: ${firstErr}` : ''}) in ${s.toFixed(1)} s = ${(ok / s).toFixed(0)}/s; p50 ${percentile(lat, 50).toFixed(1)} ms p95 ${percentile(lat, 95).toFixed(1)} ms; CPU per sale: API ${(k.nodeMs / ok).toFixed(2)} ms, PostgreSQL ${(k.pgMs / ok).toFixed(2)} ms; RSS ${server.rssMb().toFixed(0)} MB`);
} finally {
  await server.stop();
}
