/**
 * Sale history generator: N orders (default 1,000,000) over the last 365 days, for the history and
 * day-closing measurements. Runs after generate-catalogue.ts on the same database.
 *
 * Orders are spread evenly in time (about 2,700 a day for 1M), round-robin over the 3 stores and
 * their terminals, numbered per store like the sale engine does (store_counter is moved past them).
 * Each has 1-3 lines of real products (totals add up), one payment (70% cash, 30% card). Status
 * mix: 2% Deleted, ~1% On Hold, ~1% Pending, the rest Completed. Not written: order_product_tax
 * and the stock ledger rows of these old sales (the history and closing reads do not use them).
 */
import pg from 'pg';

export async function generateOrders(databaseUrl: string, opts: { orders?: number; days?: number; log?: (s: string) => void } = {}) {
  const N = opts.orders ?? 1_000_000;
  const days = opts.days ?? 365;
  const say = opts.log ?? (() => {});
  const t0 = performance.now();
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  const q = (text: string, values?: unknown[]) => c.query(text, values);
  let t = performance.now();
  const lap = (s: string) => { const now = performance.now(); say(`${s}: ${Math.round(now - t)} ms`); t = now; };
  try {
    await q('set synchronous_commit = off');
    await q('set maintenance_work_mem = \'256MB\'');
    const { rows: [info] } = await q(`select (select min(id) from product) as pmin, (select count(*) from product)::int as pn,
      (select coalesce(max(id), 0) from "order")::int as base,
      (select id from payment where type = 'cash' order by id limit 1) as cash,
      (select id from payment where type = 'credit card' order by id limit 1) as card`);
    const { pmin, pn, base, cash, card } = info;
    // g -> store k (0..2), the store's terminals and their till users, by rank.
    await q(`create temp table bench_till as
      select s.k, t.rn, t.id as terminal_id, u.id as user_id
      from (select id, row_number() over (order by id) - 1 as k from store) s
      join (select id, code, store_id, row_number() over (partition by store_id order by id) - 1 as rn from terminal) t on t.store_id = s.id
      left join user_account u on u.username = 'till' || substr(t.code, 2)`);
    await q(`create temp table bench_store as select id, row_number() over (order by id) - 1 as k from store`);
    await q('analyze bench_till; analyze bench_store');
    const { rows: [{ tills }] } = await q(`select (count(*) / 3)::int as tills from bench_till`);
    // line k of order g: product pmin + (g*7919 + k*104729) % pn, quantity 1 + (g+k) % 2
    const pick = (g: string, k: string) => `(${pmin} + ((${g})::bigint * 7919 + (${k}) * 104729) % ${pn})::int`;

    // Load fast: secondary indexes are dropped and rebuilt after, FK triggers are skipped
    // (session_replication_role = replica; every reference is valid by construction).
    const { rows: idx } = await q(`select indexname, indexdef from pg_indexes
      where schemaname = 'public' and tablename in ('order', 'order_product', 'order_payment') and indexname not like '%_pkey'`);
    await q('begin');
    await q('set local session_replication_role = replica');
    for (const i of idx) await q(`drop index "${i.indexname}"`);
    await q(`create temp table bench_line on commit drop as
      select g, k, p.id as product_id, (1 + (g + k) % 2)::numeric as quantity, p.base_price as price, p.cost
      from (select g, k, ${pick('g', 'k')} as pid from generate_series(1, $1::int) g cross join lateral generate_series(1, 1 + g % 3) k) x
      join product p on p.id = x.pid`, [N]);
    lap('lines (temp)');
    await q(`insert into "order" (id, order_id, customer_id, user_id, store_id, terminal_id, is_suspended, is_deleted, status, previous_status,
        sub_total, item_taxes, total, adjustment, stock_applied, created_at, updated_at)
      select ${base} + g, (g - 1) / 3 + 1 + coalesce(sc.last_order_id, 0),
        case when g % 10 = 0 then (select min(id) from customer) + (g / 10) % 1000 end,
        bt.user_id, bs.id, bt.terminal_id,
        g % 97 = 0, g % 50 = 0,
        case when g % 50 = 0 then 'Deleted' when g % 97 = 0 then 'On Hold' when g % 101 = 0 then 'Pending' else 'Completed' end,
        case when g % 50 = 0 then 'Completed' end,
        l.total, 0, l.total, 0, g % 50 <> 0 and g % 97 <> 0 and g % 101 <> 0,
        now() - interval '1 minute' - (($1::int - g)::float8 * ${days} * 86400 / $1::int) * interval '1 second',
        now() - interval '1 minute' - (($1::int - g)::float8 * ${days} * 86400 / $1::int) * interval '1 second'
      from (select g, sum(price * quantity) as total from bench_line group by g) l
      join bench_store bs on bs.k = (g - 1) % 3
      left join store_counter sc on sc.store_id = bs.id
      join bench_till bt on bt.k = bs.k and bt.rn = ((g - 1) / 3) % ${tills}
      order by g`, [N]); // heap in time order, as a real shop writes it
    lap(`orders (${N})`);
    await q(`insert into order_product ("orderId", product_id, quantity, price, cost, created_at, updated_at)
      select ${base} + g, product_id, quantity, price, cost,
        now() - interval '1 minute' - (($1::int - g)::float8 * ${days} * 86400 / $1::int) * interval '1 second',
        now() - interval '1 minute' - (($1::int - g)::float8 * ${days} * 86400 / $1::int) * interval '1 second'
      from bench_line order by g, k`, [N]);
    lap('order lines');
    await q(`insert into order_payment (order_id, type_id, total, received, due, created_at, updated_at)
      select o.id, case when o.id % 10 < 7 then ${cash} else ${card} end, o.total, o.total, 0, o.created_at, o.created_at
      from "order" o where o.id > ${base} order by o.id`);
    lap('payments');
    for (const i of idx) await q(i.indexdef);
    lap(`indexes (${idx.length})`);
    await q(`select setval(pg_get_serial_sequence('"order"', 'id'), (select max(id) from "order"))`);
    await q(`insert into store_counter (store_id, last_order_id)
      select store_id, max(order_id) from "order" group by store_id
      on conflict (store_id) do update set last_order_id = excluded.last_order_id`);
    await q('commit');
    // VACUUM too: sets the visibility map (index-only scans) and keeps autovacuum from starting mid-measurement.
    await q('vacuum analyze "order", order_product, order_payment, store_counter');
    lap('analyze');
    return { orders: N, ms: Math.round(performance.now() - t0) };
  } catch (e) {
    await q('rollback').catch(() => {});
    throw e;
  } finally {
    await c.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { log } = await import('./lib.ts');
  const url = process.argv[2];
  const i = process.argv.indexOf('--orders');
  if (!url) { console.error('usage: generate-orders.ts <database url> [--orders N]'); process.exit(2); }
  log(JSON.stringify(await generateOrders(url, { orders: i > 0 ? Number(process.argv[i + 1]) : undefined, log: (s) => log(s) })));
}
