import { afterAll, beforeAll, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { multipart } from './test-support.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

it('perf', async () => {
  const db = t.app.db;
  await db.execute(sql`insert into product (name, barcode, base_price, cost, department_id) select 'Bulk ' || g, 'B' || g, 1, 1, 1 + g % 3 from generate_series(1, 100000) g`);
  await db.execute(sql`insert into product_store (product_id, store_id, quantity) select id, 1 + id % 2, 5 from product where name like 'Bulk %'`);
  await db.execute(sql`insert into product_category (product_id, category_id) select id, 1 + id % 3 from product where name like 'Bulk %'`);
  await db.execute(sql`analyze`);
  const h = await t.login('admin');
  const c = await t.login('cashier');
  for (const [url, hh] of [['/api/products?page=1&itemsPerPage=100&isActive=true', h], ['/api/products?page=900&itemsPerPage=100&isActive=true', h], ['/api/products?page=300&itemsPerPage=100&isActive=true', c], ['/api/products?name=bulk 99&page=1&itemsPerPage=10', h], ['/api/products?categories.name=food&order[name]=asc&page=2&itemsPerPage=10', h], ['/api/products?order[department_name]=asc&page=2&itemsPerPage=10', h], ['/api/admin/product/keywords?page=1&itemsPerPage=9999999', h], ['/api/admin/product/export', h]] as const) {
    const s = Date.now();
    const r = await t.app.inject({ method: 'GET', url, headers: hh });
    console.log(url, r.statusCode, Date.now() - s, 'ms', r.body.length);
  }
  const exp = await t.app.inject({ method: 'GET', url: '/api/admin/product/export', headers: h });
  const mp = multipart(exp.body);
  let s = Date.now();
  const r = await t.app.inject({ method: 'POST', url: '/api/products/import', headers: { ...h, ...mp.headers }, payload: mp.payload });
  console.log('import unchanged', r.statusCode, Date.now() - s, 'ms', r.body.slice(0, 200));
  const bad = multipart(exp.body.replace(',Bulk 500,', ',,'));
  s = Date.now();
  const rb = await t.app.inject({ method: 'POST', url: '/api/products/import', headers: { ...h, ...bad.headers }, payload: bad.payload });
  console.log('import bad', rb.statusCode, Date.now() - s, 'ms', rb.body.slice(0, 200));
  const term = await t.app.inject({ method: 'POST', url: '/api/admin/terminal/create', headers: h, payload: { code: 'ALL', store: 1, excludeProducts: [1] } });
  console.log('term', term.statusCode, term.body.slice(0, 300));
  const ids = term.json().terminal.products.map((p: any) => p.value);
  s = Date.now();
  const ed = await t.app.inject({ method: 'PUT', url: `/api/admin/terminal/${term.json().terminal.id}`, headers: h, payload: { products: ids } });
  console.log('terminal edit', ids.length, ed.statusCode, Date.now() - s, 'ms');
}, 600_000);
