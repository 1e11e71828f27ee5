import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/pos_perf_sales', dataDir: '', inMemory: false } as any);
const app = await buildApp({ env: {}, database, logger: { level: 'error' }, config: { seedDemo: true, bcryptRounds: 4, jwtSecret: 'x' } });
await app.ready();
const login = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
const h = { authorization: `Bearer ${login.json().token}` };
const day = new Date(Date.now() - 86400_000);
const local = `${day.getFullYear()}-${String(day.getMonth()+1).padStart(2,'0')}-${String(day.getDate()).padStart(2,'0')}T00:00`;
for (const url of [
  '/api/admin/order/list?page=1&itemsPerPage=10&order[orderId]=desc',
  `/api/admin/order/list?dateTimeFrom=${local}&store=1&page=1&itemsPerPage=10`,
  `/api/admin/order/list?dateTimeFrom=${local}&page=1&itemsPerPage=10&order[orderId]=desc`,
  '/api/admin/order/list?q=Cust%2042&page=1&itemsPerPage=10',
  '/api/admin/order/list?q=Aisha&page=1&itemsPerPage=10',
  '/api/admin/order/list?q=Aisha&page=1&itemsPerPage=10&order[customer]=asc',
]) {
  for (let k = 0; k < 2; k++) {
    const t0 = Date.now();
    const r = await app.inject({ method: 'GET', url, headers: h });
    const j = r.json();
    if (k === 1) console.log(r.statusCode, Date.now() - t0, 'ms', url, j.total, JSON.stringify(j.payments ?? ''));
  }
}
await app.close(); await database.close();
