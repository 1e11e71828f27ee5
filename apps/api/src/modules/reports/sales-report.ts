/**
 * Sales by day, hour, product, variant, category, brand, cashier, store, payment type or tax rate
 * (issue 25.6), one statement per report, from the stored line figures of the sale engine:
 *   net = Σ line taxable (after line and order discounts, without tax), tax = Σ line taxes,
 *   gross = net + tax, discount = Σ line discount + the line's share of the order discount,
 *   refunds = the gross of return orders (negative: a return's lines are negative), cost = Σ unit
 *   cost × quantity, margin = net − cost.
 * Orders counted: completed, dispatched, (partially) returned, and returns (on the day of the
 * return, under the cashier who made it); voided (Deleted), held and pending orders are not sales.
 * `orders` counts sales, not returns. Dates and hours are the store's local time; each store's
 * bounds come from its own time zone, so the order index (store_id, created_at) is used per store.
 */
import { sql, type SQL } from 'drizzle-orm';
import { parseMinor } from '@pos/domain/money';
import type { Db, Tx } from '../../db/client.ts';
import { rowsOf } from '../../db/raw.ts';
import type { ReportScope, SalesGroup } from './reports.params.ts';
import { rangeCtes } from './report-ctes.ts';
import { KIND, LINE_BRAND, LINE_CATEGORY, readLive, readRolled, unionCtes, type Bounds } from './rollups.ts';

export interface SalesRow {
  key: string | null;
  label: string;
  orders: number;
  quantity: number;
  net: number;
  tax: number;
  gross: number;
  discount: number;
  refunds: number;
  cost?: number;
  margin?: number;
}

const lineFigures = sql`count(distinct g.id) filter (where not g.is_return) as orders, sum(g.quantity) as quantity,
  sum(g.taxable) as net, sum(g.taxes_total) as tax, sum(g.discount) as discount,
  coalesce(sum(g.taxable + g.taxes_total) filter (where g.is_return), 0) as refunds, sum(g.cost) as cost`;

/**
 * Each line grouping: the group id of a line (`gid`), and the key and label of a group from its id
 * (`label` over the tables `join` brings in). Lines are aggregated first and named after (only the
 * groups kept are joined to their names: a page's 500 by index; a CSV's 32,000 products, which the
 * planner, blind to a CTE's row count, also looks up one by one: ~50 ms of the 10M shop's day by
 * product in session 53, where a hash join was seen before); a product counts under its first category /
 * brand, so a line counts once. A variant is named by its value ("Tee — S"), as on receipts and
 * labels: its `name` is often the product's own name.
 */
const BY_SALES = sql`g.net_sort desc, g.gid`;
/** A variant's group id: product id × 2³¹ + variant id (0: none); ids are positive int4, so the order is the pair's. */
const PAIR = sql.raw('2147483648');
const variantGid = (product: SQL, variant: SQL) => sql`(${product}::bigint * ${PAIR} + ${variant})`;
export type LineGroup = { gid: SQL; key: SQL; label: SQL; order: SQL; join?: SQL };
/** The groups whose rows are lines grouped by a key (not payment or tax). */
export type LineGroupName = Exclude<SalesGroup, 'payment' | 'tax'>;
const byId = (table: string, alias: string, id: SQL = sql`g.gid`) => sql`left join ${sql.raw(`${table} ${alias}`)} on ${sql.raw(alias)}.id = ${id}`;
const LINE_GROUPS: Record<LineGroupName, LineGroup> = {
  day: { gid: sql`to_char(l.local, 'YYYY-MM-DD')`, key: sql`g.gid`, label: sql`g.gid`, order: sql`g.gid` },
  hour: { gid: sql`extract(hour from l.local)::int`, key: sql`g.gid::text`, label: sql`lpad(g.gid::text, 2, '0') || ':00'`, order: sql`g.gid` },
  product: { gid: sql`l.product_id`, key: sql`g.gid::text`, label: sql`p.name`, order: BY_SALES, join: byId('product', 'p') },
  variant: {
    // (product, variant) as one bigint, ordered as the pair: sorting and grouping 50,000 arrays cost a
    // day's variant report at 10,000,000 orders 100 ms of its 200.
    gid: variantGid(sql`l.product_id`, sql`coalesce(l.variant_id, 0)`),
    key: sql`(g.gid / ${PAIR}) || '-' || coalesce(nullif(g.gid % ${PAIR}, 0)::text, '')`,
    label: sql`p.name || coalesce(' — ' || coalesce(nullif(v.attribute_value, ''), v.name), '')`,
    order: BY_SALES,
    join: sql`${byId('product', 'p', sql`(g.gid / ${PAIR})::int`)} ${byId('product_variant', 'v', sql`(g.gid % ${PAIR})::int`)}`,
  },
  category: { gid: LINE_CATEGORY, key: sql`g.gid::text`, label: sql`coalesce(c.name, '')`, order: BY_SALES, join: byId('category', 'c') },
  brand: { gid: LINE_BRAND, key: sql`g.gid::text`, label: sql`coalesce(b.name, '')`, order: BY_SALES, join: byId('brand', 'b') },
  cashier: { gid: sql`l.user_id`, key: sql`g.gid::text`, label: sql`coalesce(u.display_name, u.username, '')`, order: BY_SALES, join: byId('user_account', 'u') },
  store: { gid: sql`l.store_id`, key: sql`g.gid::text`, label: sql`st.name`, order: BY_SALES, join: byId('store', 'st') },
};

type RawRow = { key: string | null; label: string | null; total: number; groups?: number; orders: number; quantity: string | null; net: string | null;
  tax: string | null; discount: string | null; refunds: string | null; cost: string | null };

/**
 * What a line group's statement answers from its aggregated rows `agg` (one per group, and the total
 * with total = 1): by default the rows, ordered and cut to `limit` (named); a CSV, one text (sales-csv.ts).
 */
export type LineTail = (d: LineGroup, limit: number | null) => SQL;

/** `limit`: the line groups' rows kept (the largest first; null = all, as in a CSV); the total always covers every line. */
export function statementFor(group: SalesGroup, scope: ReportScope, limit: number | null = null, tail: LineTail = named): SQL {
  const ctes = rangeCtes(scope);
  if (group === 'payment') {
    // What was paid, by payment type: gross = Σ payments (a return's are negative), refunds = those of returns.
    return sql`with ${ctes}
      select pt.id::text as key, coalesce(pt.name, '') as label, grouping(pt.id, pt.name) as total,
        count(distinct o.id) filter (where not o.is_return) as orders, null as quantity, null as net, null as tax, null as discount,
        sum(p.total)::text as gross, coalesce(sum(p.total) filter (where o.is_return), 0)::text as refunds, null as cost
      from o join order_payment p on p.order_id = o.id left join payment pt on pt.id = p.type_id
      group by grouping sets ((pt.id, pt.name), ()) order by grouping(pt.id, pt.name), sum(p.total) desc, pt.id`;
  }
  if (group === 'tax') {
    // Per tax and rate: the taxed lines' net and that tax's amount; lines without tax under "" (key null).
    return sql`with ${ctes},
      t as (
        select l.id, l.is_return, l.quantity, l.taxable, coalesce(lt.amount, 0) as amount, l.discount, l.cost,
          lt.tax_id, lt.rate, coalesce(tx.name || ' ' || trim(trailing '.' from trim(trailing '0' from lt.rate::text)) || '%', '') as label
        from l left join order_product_tax lt on lt.order_product_id = l.line_id left join tax tx on tx.id = lt.tax_id
      )
      select case when t.tax_id is null then null else t.tax_id || '@' || t.rate end as key, t.label, grouping(t.tax_id, t.rate, t.label) as total,
        count(distinct t.id) filter (where not t.is_return) as orders, sum(t.quantity)::text as quantity, sum(t.taxable)::text as net,
        sum(t.amount)::text as tax, sum(t.discount)::text as discount,
        coalesce(sum(t.taxable + t.amount) filter (where t.is_return), 0)::text as refunds, sum(t.cost)::text as cost
      from t group by grouping sets ((t.tax_id, t.rate, t.label), ()) order by grouping(t.tax_id, t.rate, t.label), t.label, t.tax_id, t.rate`;
  }
  const d = LINE_GROUPS[group];
  return sql`with ${ctes}, g as (select l.*, ${d.gid} as gid from l),
    agg as (
      select g.gid, grouping(g.gid) as total, count(*) over () - 1 as groups, sum(g.taxable) as net_sort, ${lineFigures}
      from g group by grouping sets ((g.gid), ())
    )
    ${tail(d, limit)}`;
}

/** Aggregated (`agg`), ordered and cut first; only the rows kept are named. */
const named: LineTail = (d, limit) => sql`
    select ${d.key} as key, ${d.label} as label, g.total, g.groups, g.orders, g.quantity::text, g.net::text, g.tax::text, g.discount::text, g.refunds::text, g.cost::text
    from (select * from agg g order by g.total desc, ${d.order} ${limit === null ? sql`` : sql`limit ${limit + 1}`}) g ${d.join ?? sql``}
    order by g.total desc, ${d.order}`;

/** The line groups read from roll-ups: the grain, and the group id of a roll-up row `g` (the live gid's value). */
const ROLLED: Record<SalesGroup, { kind: number; gid: SQL }> = {
  day: { kind: KIND.day, gid: sql`to_char(g.day, 'YYYY-MM-DD')` },
  hour: { kind: KIND.hour, gid: sql`g.k1` },
  product: { kind: KIND.product, gid: sql`g.k1` },
  variant: { kind: KIND.variant, gid: variantGid(sql`g.k1`, sql`g.k2`) },
  category: { kind: KIND.category, gid: sql`g.k1` },
  brand: { kind: KIND.brand, gid: sql`g.k1` },
  cashier: { kind: KIND.cashier, gid: sql`g.k1` },
  store: { kind: KIND.day, gid: sql`g.store_id` },
  tax: { kind: KIND.tax, gid: sql`null` },
  payment: { kind: KIND.payment, gid: sql`null` },
};

/**
 * statementFor's answer from the roll-up rows `u` (rollups.ts) of the marked days and the live
 * ones of the other days (`live`): each group sums its grain's rows; the total's `orders` is the
 * day grain's (an order counts once however many groups it is in), a payment total's the `paid` one.
 */
export function rolledStatementFor(group: SalesGroup, scope: ReportScope, live: Bounds, limit: number | null = null, tail: LineTail = named): SQL {
  const r = ROLLED[group];
  const totalKind = group === 'payment' ? KIND.paid : KIND.day;
  const ctes = unionCtes(scope, live, [...new Set([r.kind, totalKind])]);
  const totalOrders = sql`(select coalesce(sum(x.orders), 0) from u x where x.kind = ${totalKind})`;
  const orders = (grouping: SQL, sum: SQL) => sql`case when ${grouping} <> 0 then ${totalOrders} else ${sum} end`;
  if (group === 'payment') {
    return sql`with ${ctes}
      select pt.id::text as key, coalesce(pt.name, '') as label, grouping(pt.id, pt.name) as total, ${orders(sql`grouping(pt.id, pt.name)`, sql`sum(u.orders)`)} as orders,
        null as quantity, null as net, null as tax, null as discount, sum(u.gross)::text as gross, sum(u.refunds)::text as refunds, null as cost
      from u left join payment pt on pt.id = u.k1 where u.kind = ${KIND.payment}
      group by grouping sets ((pt.id, pt.name), ()) order by grouping(pt.id, pt.name), sum(u.gross) desc, pt.id`;
  }
  if (group === 'tax') {
    const g = sql`grouping(t.k1, t.rate, t.label)`;
    return sql`with ${ctes},
      t as (
        select u.*, coalesce(tx.name || ' ' || trim(trailing '.' from trim(trailing '0' from u.rate::text)) || '%', '') as label
        from u left join tax tx on tx.id = u.k1 where u.kind = ${KIND.tax}
      )
      select case when t.k1 is null then null else t.k1 || '@' || t.rate end as key, t.label, ${g} as total, ${orders(g, sql`sum(t.orders)`)} as orders,
        sum(t.quantity)::text as quantity, sum(t.net)::text as net, sum(t.tax)::text as tax, sum(t.discount)::text as discount,
        sum(t.refunds)::text as refunds, sum(t.cost)::text as cost
      from t group by grouping sets ((t.k1, t.rate, t.label), ()) order by ${g}, t.label, t.k1, t.rate`;
  }
  // Each group's sums, then the total from them (a grouping set and a window over the rows cost a
  // day's product report at 10,000,000 orders a third of its time); figures turned into text only
  // for the rows kept (named).
  return sql`with ${ctes},
    grp as (
      select ${r.gid} as gid, sum(g.net) as net_sort, sum(g.orders) as orders, sum(g.quantity) as quantity, sum(g.net) as net,
        sum(g.tax) as tax, sum(g.discount) as discount, sum(g.refunds) as refunds, sum(g.cost) as cost
      from u g where g.kind = ${r.kind} group by 1
    ),
    agg as (
      select g.gid, 0 as total, null::bigint as groups, g.net_sort, g.orders, g.quantity, g.net, g.tax, g.discount, g.refunds, g.cost from grp g
      union all
      select null, 1, count(*), null, ${totalOrders}, sum(g.quantity), sum(g.net), sum(g.tax), sum(g.discount), sum(g.refunds), sum(g.cost) from grp g
    )
    ${tail(LINE_GROUPS[group as LineGroupName], limit)}`;
}

/**
 * Reads a sales report's statement: closed days from their roll-up (rollups.ts), the others live, or
 * with `live` every day from the orders; `tail` says what it answers (rows, or a CSV: sales-csv.ts).
 * Product and variant (32,000 groups in a day of 10,000,000 orders) are summed sorted, not hashed: a
 * hash of 32,000 groups of eight numeric sums took 67 MB and spilled, and the day's page of 500
 * products took 215-227 ms against 133-138 sorted (docs/performance.md "A day's product CSV at
 * 10,000,000 orders"). The planner's choice stands for the groups with few keys.
 */
export async function readSales(db: Db, scope: ReportScope, group: SalesGroup, limit: number | null, opts: { live?: boolean; tail?: LineTail } = {}) {
  const run = async (tx: Tx, statement: SQL) => {
    if (group === 'product' || group === 'variant') await tx.execute(sql`set local enable_hashagg = off`);
    return tx.execute(statement);
  };
  return !opts.live
    ? readRolled(db, scope, (tx, live) => run(tx, live ? rolledStatementFor(group, scope, live, limit, opts.tail) : statementFor(group, scope, limit, opts.tail)))
    : readLive(db, (tx) => run(tx, statementFor(group, scope, limit, opts.tail)));
}

const DAY_MS = 86_400_000;
const empty = (key: string, label: string): SalesRow => ({ key, label, orders: 0, quantity: 0, net: 0, tax: 0, gross: 0, discount: 0, refunds: 0, cost: 0, margin: 0 });

/** Every day of the range and every hour of the day are rows (zero when nothing was sold): a chart shows the gaps. */
function fill(group: SalesGroup, scope: ReportScope, rows: SalesRow[]): SalesRow[] {
  if (group !== 'hour' && group !== 'day') return rows;
  const by = new Map(rows.map((r) => [r.key, r]));
  if (group === 'hour') return Array.from({ length: 24 }, (_, h) => by.get(String(h)) ?? empty(String(h), `${String(h).padStart(2, '0')}:00`));
  const out: SalesRow[] = [];
  for (let t = Date.parse(scope.from); t <= Date.parse(scope.to); t += DAY_MS) {
    const d = new Date(t).toISOString().slice(0, 10);
    out.push(by.get(d) ?? empty(d, d));
  }
  return out;
}

/**
 * A sales report: closed days read from their roll-up (rollups.ts), the others live; `live`
 * computes every day from the orders (the reference the roll-up tests compare with). A product's
 * category and brand are those it had when its day was rolled (today: now).
 */
export async function salesReport(db: Db, scope: ReportScope, group: SalesGroup, withCost: boolean, limit: number | null = null, opts: { live?: boolean } = {}) {
  const raw = rowsOf<RawRow>(await readSales(db, scope, group, limit, opts));
  const m = (v: string | null) => (v == null ? 0 : parseMinor(v, scope.digits));
  const present = (r: RawRow & { gross?: string | null }): SalesRow => {
    const net = m(r.net);
    const tax = m(r.tax);
    const row: SalesRow = {
      key: r.key, label: r.label ?? '', orders: Number(r.orders), quantity: r.quantity == null ? 0 : Number(r.quantity),
      net, tax, gross: r.gross !== undefined ? m(r.gross) : net + tax, discount: m(r.discount), refunds: m(r.refunds),
    };
    if (withCost) {
      row.cost = m(r.cost);
      row.margin = group === 'payment' ? 0 : net - row.cost;
    }
    return row;
  };
  const rows = raw.filter((r) => Number(r.total) === 0).map(present);
  const totalRaw = raw.find((r) => Number(r.total) !== 0);
  const totals = totalRaw ? present(totalRaw) : { ...empty('', ''), key: null };
  const strip = (r: SalesRow): SalesRow => {
    if (withCost) return r;
    const { cost: _c, margin: _m, ...rest } = r;
    return rest;
  };
  return {
    currency: scope.currency, digits: scope.digits, timeZone: scope.timeZone, from: scope.from, to: scope.to, group,
    rows: fill(group, scope, rows).map(strip), totals: strip({ ...totals, key: null, label: '' }),
    /** How many groups there are in all (rows may hold only the first `limit`). */
    groups: group === 'day' || group === 'hour' || totalRaw?.groups == null ? undefined : Number(totalRaw.groups),
  };
}
