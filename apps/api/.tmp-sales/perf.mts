import { buildApp } from '/work/main/apps/api/src/app.ts';
import { openDatabase } from '/work/main/apps/api/src/db/client.ts';
import { createThrowawayPg } from '/work/main/apps/api/test/helpers.ts';
import { sql } from 'drizzle-orm';
const pg = await createThrowawayPg();
const database = await openDatabase({ databaseUrl: pg.url, dataDir: '', inMemory: false } as any);
const app = await buildApp({ env: {}, database, logger: { level: 'error' }, config: { seedDemo: true, bcryptRounds: 4, jwtSecret: 'x' } });
await app.ready();
const N = Number(process.env.N ?? 1000000);
let t0 = Date.now();
await app.db.execute(sql.raw(`insert into "order" (order_id, store_id, terminal_id, user_id, status, total, sub_total, created_at, customer_name)
  select g, 1 + (g % 2), 1, 1, case when g % 10 = 0 then 'Deleted' else 'Completed' end, 10, 10, now() - (g || ' seconds')::interval, 'Cust ' || (g % 1000)
  from generate_series(1, ${N}) g`));
await app.db.execute(sql.raw(`insert into order_payment (order_id, type_id, total, received, due) select id, 1 + (id % 3), 10, 10, 0 from "order"`));
await app.db.execute(sql.raw(`analyze`));
console.log('seeded', N, 'in', Date.now() - t0, 'ms');
const login = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
const h = { authorization: `Bearer ${login.json().token}` };
for (const url of [
  '/api/admin/order/list?page=1&itemsPerPage=10&order[orderId]=desc',
  `/api/admin/order/list?dateTimeFrom=${new Date(Date.now() - 86400_000).toISOString().slice(0,16)}&store=1&page=1&itemsPerPage=10`,
  '/api/admin/order/list?q=Cust%2042&page=1&itemsPerPage=10',
  '/api/orders?status=Pending&store.id=1&terminal.id=1&itemsPerPage=100',
]) {
  t0 = Date.now();
  const r = await app.inject({ method: 'GET', url, headers: h });
  const j = r.json();
  console.log(r.statusCode, Date.now() - t0, 'ms', url, j.total ?? j['hydra:totalItems'], JSON.stringify(j.payments ?? ''));
}
await app.close(); await database.close(); await pg.drop();
