/**
 * Diagnosis: the SQL behind the measured reads, with EXPLAIN (ANALYZE, BUFFERS) plans.
 *
 *   node --import tsx bench/explain.ts <database url> [products|history|closing|all]
 *
 * Calls the app's own query code (resource engine, sale history, closing) on a Drizzle instance
 * that records every statement, then explains each one (inside a rolled-back transaction).
 * Writes bench/out/plans-<what>.txt and prints a one-line summary per statement.
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import * as schema from '../apps/api/src/db/schema/index.ts';
import type { Db } from '../apps/api/src/db/client.ts';
import { loadAuthInfo } from '../apps/api/src/plugins/auth.ts';
import { listResource, parseListQuery } from '../apps/api/src/resources/engine.ts';
import { productsResource } from '../apps/api/src/modules/catalogue/products.resource.ts';
import { listOrders } from '../apps/api/src/modules/sales/orders.query.ts';
import { saleSchema } from '@pos/domain/schemas/sale';
import { createSale, requestHash } from '../apps/api/src/modules/sales/sales.service.ts';
import { presentOrderById } from '../apps/api/src/modules/sales/order.presenter.ts';
import { OUT_DIR } from './lib.ts';

const [url, what = 'all'] = process.argv.slice(2);
if (!url) { console.error('usage: explain.ts <database url> [products|history|closing|all]'); process.exit(2); }

pg.types.setTypeParser(20, (v: string) => Number(v));
const pool = new pg.Pool({ connectionString: url, max: 4 });
const captured: { sql: string; params: unknown[] }[] = [];
const db = drizzle(pool, { schema, logger: { logQuery: (sql, params) => { captured.push({ sql, params }); } } }) as unknown as Db;

async function userId(name: string) {
  const { rows } = await pool.query('select id from user_account where username = $1', [name]);
  return rows[0].id as number;
}

async function explainAll(label: string, run: () => Promise<unknown>) {
  captured.length = 0;
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const out: string[] = [`### ${label}: ${captured.length} statements, ${ms.toFixed(1)} ms end to end (cold-ish, one run)`];
  const c = await pool.connect();
  try {
    for (const q of captured) {
      if (/^\s*(insert|update|delete|begin|commit|rollback|set|start|savepoint|release)/i.test(q.sql)) continue;
      await c.query('begin');
      const { rows } = await c.query(`explain (analyze, buffers, format text) ${q.sql}`, q.params as unknown[]);
      await c.query('rollback');
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      const exec = /Execution Time: ([\d.]+) ms/.exec(plan)?.[1];
      out.push(`\n-- ${exec} ms\n${q.sql}\n-- params: ${JSON.stringify(q.params).slice(0, 300)}\n${plan}`);
      console.log(`${label}: ${exec?.padStart(8)} ms  ${q.sql.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
  } finally { c.release(); }
  return out.join('\n');
}

const sections: string[] = [];
const till = (await loadAuthInfo(db, await userId('till01')))!;
const admin = (await loadAuthInfo(db, await userId('admin')))!;
const total = Number((await pool.query('select count(*) n from product')).rows[0].n);
const last = Math.ceil(total / 100);

if (what === 'all' || what === 'products') {
  for (const page of [1, last]) {
    sections.push(await explainAll(`products page ${page}`, () => listResource(productsResource,
      parseListQuery({ itemsPerPage: '100', page: String(page), isActive: 'true' }), { db, auth: till })));
  }
}
if (what === 'all' || what === 'history') {
  const now = new Date();
  const today0 = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const y0 = new Date(today0.getTime() - 86_400_000);
  const fmt = (d: Date) => d.toISOString().slice(0, 16);
  sections.push(await explainAll('history default', () => listOrders(db, { page: '1', itemsPerPage: '10', 'order[orderId]': 'desc', dateTimeFrom: fmt(y0), dateTimeTo: fmt(new Date(today0.getTime() + 86_340_000)) }, admin)));
  sections.push(await explainAll('history 30 days', () => listOrders(db, { page: '1', itemsPerPage: '10', 'order[orderId]': 'desc', dateTimeFrom: fmt(new Date(today0.getTime() - 30 * 86_400_000)) }, admin)));
  sections.push(await explainAll('closing summary', () => listOrders(db, { page: '1', itemsPerPage: '10', store: String(till.storeIds[0]), dateTimeFrom: today0.toISOString() }, till)));
}
if (what === 'all' || what === 'sale') {
  // One 5-line cash sale through the service, as the route runs it (auth lookups excluded).
  const { rows: prods } = await pool.query(`select p.id from product p where not exists (select 1 from product_price pp where pp.product_id = p.id)
    and not exists (select 1 from product_variant v where v.product_id = p.id) order by p.id limit 5 offset 1000`);
  const { rows: [cash] } = await pool.query(`select id from payment where type = 'cash' limit 1`);
  const { rows: [t] } = await pool.query(`select id from terminal where store_id = $1 order by id limit 1`, [till.storeIds[0]]);
  const body = { items: prods.map((p) => ({ item: { id: p.id }, quantity: 1 })), payments: [{ received: 100000, type: cash.id }], store: till.storeIds[0], terminal: t.id, status: 'Completed' };
  captured.length = 0;
  const t0 = performance.now();
  const input = saleSchema.parse(body);
  const res = await createSale(db, input, till, { requestHash: requestHash(body) });
  const mid = captured.length;
  await presentOrderById(db, res.id);
  const ms = performance.now() - t0;
  const lines = [`### sale: ${mid} statements in createSale + ${captured.length - mid} in presentOrderById, ${ms.toFixed(1)} ms (one run, pool of 4)`];
  captured.forEach((q, i) => lines.push(`${String(i + 1).padStart(3)}. ${q.sql.replace(/\s+/g, ' ').slice(0, 160)}`));
  console.log(lines.join('\n'));
  sections.push(lines.join('\n'));
}
fs.mkdirSync(OUT_DIR, { recursive: true });
const file = path.join(OUT_DIR, `plans-${what}.txt`);
fs.writeFileSync(file, sections.join('\n\n'));
console.log(`plans: ${path.relative(process.cwd(), file)}`);
await pool.end();
