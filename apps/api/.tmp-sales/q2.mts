import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/pos_perf_sales' });
await c.connect();
const from = new Date(Date.now() - 86400_000).toISOString();
const agg = `select p.type, sum(op.total) from order_payment op join "order" o on o.id = op.order_id left join payment p on p.id = op.type_id where o.store_id = 1 and o.created_at >= '${from}' and o.status in ('Completed','Dispatched','Returned') group by p.type`;
const agg2 = `select p.type, sum(op.total) from order_payment op left join payment p on p.id = op.type_id where op.order_id = any(array(select o.id from "order" o where o.store_id = 1 and o.created_at >= '${from}' and o.status in ('Completed','Dispatched','Returned'))) group by p.type`;
for (const [label, pre, q] of [['default', '', agg], ['rpc1.1', 'set random_page_cost = 1.1', agg], ['any-array', 'set random_page_cost = 4', agg2]]) {
  if (pre) await c.query(pre);
  const t0 = Date.now(); await c.query(q); const t1 = Date.now(); await c.query(q);
  console.log(label, t1 - t0, Date.now() - t1, 'ms');
}
await c.end();
