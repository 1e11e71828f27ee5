/**
 * Issue 25.6: every report is answered through indexes on a large database (the style of
 * search-plans.test.ts). One database, generated once with set-based SQL: 20,000 products in 3
 * stores, 200,000 orders over ~140 days with 2 lines and a payment each (one in 50 on credit),
 * ANALYZE after. Each report is called through the real app (inject); every statement it sends is
 * recorded at the driver and re-planned with EXPLAIN (FORMAT JSON) on the same parameters. A Seq
 * Scan of orders, their lines or payments (or of the stock rows) fails the test.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers.ts';
import { pgSessionOptions } from '../src/db/client.ts';
import { rollClosedDays } from '../src/modules/reports/rollups.ts';

const PRODUCTS = 20_000;
const ORDERS = 200_000;
const LARGE = new Map([['product', PRODUCTS], ['order', ORDERS], ['order_product', 2 * ORDERS], ['order_payment', ORDERS], ['product_store', 2 * PRODUCTS],
  ['report_day_sales', 0]]); // its size once rolled (beforeAll)

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
type Captured = { text: string; values: unknown[] };
const captured: Captured[] = [];
const clientQuery = pg.Client.prototype.query;

let t: TestApp;
let admin: Record<string, string>;
let explainer: pg.Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  explainer = new pg.Client({ connectionString: t.database.url, options: pgSessionOptions() });
  await explainer.connect();
  const q = (s: string, v: unknown[] = []) => explainer.query(s, v);
  const { rows: indexes } = await q(`select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def from pg_index i
    where i.indrelid::regclass::text in ('product', '"order"', 'order_product', 'order_payment', 'product_store')
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
  await q('begin');
  await q('set local session_replication_role = replica');
  for (const i of indexes) await q(`drop index ${i.name}`);
  await q(`insert into product (name, sku, base_price, cost, created_at, updated_at)
    select 'Bench product ' || g, 'RP-' || g, 1 + g % 50, 1, now(), now() from generate_series(1, ${PRODUCTS}) g`);
  // Two stores' stock rows, most products stocked.
  await q(`insert into product_store (product_id, store_id, quantity)
    select p.id, s.id, (p.id % 7)::numeric from product p cross join (select id from store order by id limit 2) s
    where p.sku like 'RP-%' on conflict do nothing`);
  await q(`insert into "order" (order_id, customer_id, user_id, store_id, terminal_id, status, sub_total, item_taxes, total, adjustment, created_at, updated_at)
    select 2000000 + g, case when g % 10 = 0 then (select min(id) from customer) end, (select min(id) from user_account),
      (select min(id) from store), (select min(id) from terminal),
      case when g % 50 = 0 then 'Deleted' else 'Completed' end, 10, 0, 10, 0, now() - (g || ' minutes')::interval, now() - (g || ' minutes')::interval
    from generate_series(1, ${ORDERS}) g`);
  await q(`insert into order_product ("orderId", product_id, quantity, price, cost, taxable, created_at, updated_at)
    select o.id, (select min(id) from product) + (o.id * 7 + k) % ${PRODUCTS}, 1, 5, 1, 5, o.created_at, o.created_at
    from "order" o cross join generate_series(1, 2) k where o.order_id > 2000000`);
  await q(`insert into order_payment (order_id, type_id, total, received, due, created_at, updated_at)
    select o.id, case when o.id % 50 = 0 then (select id from payment where type = 'credit' order by id limit 1) else (select min(id) from payment) end,
      o.total, o.total, 0, o.created_at, o.created_at from "order" o where o.order_id > 2000000`);
  await q("set local maintenance_work_mem = '256MB'");
  for (const i of indexes) await q(i.def);
  await q('commit');
  // The closed days older than the range tests' 60 are rolled up, as the server's background pass
  // would have done (30 s after start: without this the table's size at the first test depended on
  // how long the set-up took, and an almost empty table is rightly read sequentially).
  const { rows: stores } = await q('select id from store order by id');
  await rollClosedDays(t.app.db, { storeIds: stores.map((r) => Number(r.id)), from: day(-150), to: day(-62) });
  await q('analyze');
  const { rows: [rolled] } = await q('select count(*)::int as n from report_day_sales');
  expect(rolled.n).toBeGreaterThan(10_000);
  LARGE.set('report_day_sales', rolled.n);
  pg.Client.prototype.query = function (this: pg.Client, config: any, values?: any, cb?: any) {
    if (this !== explainer) {
      const text = typeof config === 'string' ? config : config?.text;
      if (typeof text === 'string') captured.push({ text, values: (typeof config === 'object' && config.values) || (Array.isArray(values) ? values : []) });
    }
    return (clientQuery as any).call(this, config, values, cb);
  } as any;
}, 240_000);

afterAll(async () => {
  pg.Client.prototype.query = clientQuery;
  await explainer?.end();
  await t?.close();
});

interface PlanNode { 'Node Type': string; 'Relation Name'?: string; Filter?: string; Plans?: PlanNode[] }

function seqScans(node: PlanNode, whole: ReadonlySet<string> = new Set()): string[] {
  const relation = node['Relation Name'] ?? '';
  const here = node['Node Type'].includes('Seq Scan') && LARGE.has(relation) && !whole.has(relation)
    ? [`${node['Node Type']} on ${node['Relation Name']}${node.Filter ? ` (filter ${node.Filter})` : ''}`] : [];
  return [...here, ...(node.Plans ?? []).flatMap((n) => seqScans(n, whole))];
}

/**
 * Tables a route may read whole: a CSV names every group it has (no page), and a day's product CSV
 * here names ~3,000 of the 20,000 products, which the planner rightly does by hashing the product
 * table (cost 701) rather than 3,000 index probes (sales-report.ts chose it for the 32,000 of a
 * big shop). The test passed only at the hours when the histogram under-estimated the day's orders.
 */
const readWhole = (url: string): ReadonlySet<string> => new Set(url.includes('format=csv') ? ['product'] : []);

const yesterday = day(-1);
const ROUTES = [
  ...['day', 'hour', 'product', 'variant', 'category', 'brand', 'cashier', 'store', 'payment', 'tax'].map((g) => `/api/reports/sales?group=${g}&from=${yesterday}&to=${yesterday}`),
  `/api/reports/sales?group=product&from=${yesterday}&to=${yesterday}&format=csv`,
  `/api/reports/products?sort=top&from=${yesterday}&to=${yesterday}`,
  `/api/reports/products?sort=slow&from=${yesterday}&to=${yesterday}`,
  '/api/reports/customers',
  '/api/reports/suppliers',
  // Ranges: the first call rolls the closed days (the roll's INSERT … SELECT is planned too), the second reads the roll-up.
  ...[1, 2].flatMap(() => ['day', 'product', 'payment', 'tax'].map((g) => `/api/reports/sales?group=${g}&from=${day(-60)}&to=${day(1)}`)),
  `/api/reports/products?sort=top&from=${day(-60)}&to=${day(1)}`,
];

describe('report plans on a large database (issue 25.6)', () => {
  it.each(ROUTES)('%s reads no large table sequentially', async (url) => {
    captured.length = 0;
    const res = await t.app.inject({ method: 'GET', url, headers: admin });
    expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    const reads = captured.filter((c) => /^\s*(select|with|insert into report_day_sales|delete from report_day_sales)\b/i.test(c.text));
    expect(reads.length).toBeGreaterThan(0);
    const found: string[] = [];
    for (const c of reads) {
      const { rows } = await explainer.query(`explain (format json) ${c.text}`, c.values as unknown[]);
      for (const s of seqScans(rows[0]['QUERY PLAN'][0].Plan as PlanNode, readWhole(url))) found.push(`${s}\n    in: ${c.text.replace(/\s+/g, ' ').slice(0, 240)}`);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('a day of sales adds up: yesterday\'s orders less the voided ones', async () => {
    const r = (await t.app.inject({ method: 'GET', url: `/api/reports/sales?group=day&from=${yesterday}&to=${yesterday}`, headers: admin })).json();
    const { rows } = await explainer.query(`select count(*)::int n from "order" o join store s on s.id = o.store_id
      where o.status = 'Completed' and (o.created_at at time zone s.time_zone)::date = $1::date`, [yesterday]);
    expect(r.totals.orders).toBe(rows[0].n);
    expect(r.totals.orders).toBeGreaterThan(1000);
  });
});
