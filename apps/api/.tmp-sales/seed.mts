import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { openDatabase } from '../src/db/client.ts';
import { sql } from 'drizzle-orm';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await admin.connect(); await admin.query('drop database if exists pos_perf_sales with (force)'); await admin.query('create database pos_perf_sales'); await admin.end();
const database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/pos_perf_sales', dataDir: '', inMemory: false } as any);
const app = await buildApp({ env: {}, database, logger: { level: 'error' }, config: { seedDemo: true, bcryptRounds: 4, jwtSecret: 'x' } });
await app.ready();
const N = 1000000;
await app.db.execute(sql.raw(`insert into "order" (order_id, store_id, terminal_id, user_id, status, total, sub_total, created_at, customer_name, customer_id)
  select g, 1 + (g % 2), 1, 1, case when g % 10 = 0 then 'Deleted' else 'Completed' end, 10, 10, now() - (g || ' seconds')::interval, case when g % 3 = 0 then 'Cust ' || (g % 1000) end, case when g % 7 = 0 then 1 + g % 5 end
  from generate_series(1, ${N}) g`));
await app.db.execute(sql.raw(`insert into order_payment (order_id, type_id, total, received, due) select id, 1 + (id % 3), 10, 10, 0 from "order"`));
await app.db.execute(sql.raw(`analyze`));
await app.close(); await database.close();
