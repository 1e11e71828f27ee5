import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/pos_perf_sales' });
await c.connect();
const from = new Date(Date.now() - 86400_000).toISOString();
for (const q of [
 `explain analyze select count(*)::int from "order" where "order".store_id = 1 and "order".created_at >= '${from}'`,
 `explain analyze select p.type, sum(op.total) from order_payment op join "order" o on o.id = op.order_id left join payment p on p.id = op.type_id where o.store_id = 1 and o.created_at >= '${from}' and o.status in ('Completed','Dispatched','Returned') group by p.type`,
 `explain analyze select * from "order" where "order".store_id = 1 and "order".created_at >= '${from}' order by created_at desc, id desc limit 10`,
]) { const r = await c.query(q); console.log(r.rows.map((x: any) => x['QUERY PLAN']).join('\n')); console.log('---'); }
await c.end();
