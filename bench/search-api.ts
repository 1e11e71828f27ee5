/**
 * Issue 30.1: what a product name search costs through the API (the production build), at the
 * scale of a database made by bench/search-explain.ts (kept with SEARCH_KEEP=1).
 *
 *   node --import tsx bench/search-api.ts <database url> [terms...]
 *
 * Adds an admin user (admin/admin) and a store if the database has none, starts the API on it,
 * then for each term sends GET /api/products?name=<term>&itemsPerPage=10 sequentially (20 warm-up
 * requests, then 200 timed) and prints p50/p95 of the response time (loopback, keep-alive) and the
 * response's total. The database is left as it was found otherwise (drop it yourself).
 */
import pg from 'pg';
import { hashPassword } from '../apps/api/src/lib/passwords.ts';
import { login, percentile, request, round, startServer, stopAllServers } from './lib.ts';

const [url, ...termArgs] = process.argv.slice(2);
if (!url) throw new Error('usage: bench/search-api.ts <database url> [terms...]');
const terms = termArgs.length ? termArgs : ['lipton', 'cola', 'coca zero cola', 'حليب', 'k'];
const c = new pg.Client({ connectionString: url });
await c.connect();
if (!(await c.query(`select 1 from user_account where username = 'admin'`)).rowCount) {
  await c.query(`insert into user_account (username, password, display_name, email, roles) values ('admin', $1, 'Admin', 'admin@example.com', '["ROLE_ADMIN","ROLE_USER"]')`, [await hashPassword('admin', 4)]);
}
if (!(await c.query('select 1 from store')).rowCount) await c.query(`insert into store (name, location) values ('Main Street', '12 Main Street')`);
await c.query(`insert into user_store (user_id, store_id) select u.id, s.id from user_account u, store s where u.username = 'admin' on conflict do nothing`);
await c.end();
const server = await startServer(url);
try {
  const headers = await login(server.url, 'admin', 'admin');
  console.log('| search | total | p50 (ms) | p95 (ms) |');
  console.log('|---|---|---|---|');
  for (const term of terms) {
    const path = `${server.url}/api/products?name=${encodeURIComponent(term)}&itemsPerPage=10`;
    const ms: number[] = [];
    let total = 0;
    for (let i = 0; i < 220; i++) {
      const res = await request('GET', path, undefined, headers);
      if (res.status !== 200) throw new Error(`${res.status} ${res.body.slice(0, 300)}`);
      if (i >= 20) ms.push(res.ms);
      total = JSON.parse(res.body)['hydra:totalItems'];
    }
    console.log(`| ${term} | ${total} | ${round(percentile(ms, 50), 2)} | ${round(percentile(ms, 95), 2)} |`);
  }
} finally {
  await stopAllServers();
}
