/**
 * Roll-ups of closed store-days for the sales reports (docs/performance.md "Reports"): a range of
 * months costs what a day costs. Per store and local day, `report_day_sales` holds each grain's
 * figures (KIND), summed by the same CTEs the live report reads (rangeCtes); `report_day_done`
 * marks the days whose rows are complete. A report first rolls the closed days of its range that
 * are not marked (lazily, once: the store's roll lock, taken in the database, serialises API
 * processes), then reads, in ONE repeatable-read snapshot, the marked days from the roll-up and
 * every other day (today, days not closed yet, days a write un-marked since) live, and sums both.
 * A day is closed once it ended ROLL_LAG ago in its store's zone; a write to an order created more
 * than an hour ago un-marks its store-day under the same lock (triggers, migration 0016).
 * Every sum is of numeric values, so a rolled report is the live one to the last minor unit.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { pgArray, rowsOf } from '../../db/raw.ts';
import type { ReportScope } from './reports.params.ts';
import { rangeCtes } from './report-ctes.ts';

/** The grains rolled. `store` is read from `day` (per store-day), `paid` is the day's orders with a payment. */
export const KIND = { day: 0, hour: 1, product: 2, variant: 3, cashier: 4, tax: 5, payment: 6, paid: 7, category: 8, brand: 9 } as const;
const ALL_KINDS = Object.values(KIND);
/** How long after a store's local midnight its day is rolled (the triggers catch writes older than an hour). */
const ROLL_LAG = '2 hours';
/** The roll lock of a store: pg_advisory_xact_lock(ROLL_LOCK, store id); the triggers take it shared. */
const ROLL_LOCK = 25006;
/** At most this many days of one store per roll statement (each runs under the request's statement timeout). */
const CHUNK_DAYS = 7;
/**
 * A report request starts no roll chunk after this long: the first look at a year on a shop that
 * never rolled costs the live read plus at most about this, not a minute of rolling; the
 * background pass (scheduleRollups) rolls the rest.
 */
const IN_REQUEST_ROLL_MS = 1000;

export type Bounds = ReportScope['bounds'];
type Run = { id: number; a: string; b: string; lo: string; hi: string };

const orders = (alias: string) => sql.raw(`(count(distinct ${alias}.id) filter (where not ${alias}.is_return))::int`);
const lineSums = sql`sum(l.quantity), sum(l.taxable), sum(l.taxes_total), sum(l.discount),
  coalesce(sum(l.taxable + l.taxes_total) filter (where l.is_return), 0), sum(l.cost), null::numeric`;
/**
 * A line's product's first category / brand (a product in several counts once), as it is when the
 * line is read: a closed day's when the day is rolled, so a day's sales stay under the categories
 * they had that day when a product is moved later (sales-report.ts).
 */
export const LINE_CATEGORY = sql`(select min(pc.category_id) from product_category pc where pc.product_id = l.product_id)`;
export const LINE_BRAND = sql`(select min(pb.brand_id) from product_brand pb where pb.product_id = l.product_id)`;
const LINE_KEYS: Record<number, [SQL, SQL]> = {
  [KIND.day]: [sql`null::int`, sql`null::int`],
  [KIND.hour]: [sql`extract(hour from l.local)::int`, sql`null::int`],
  [KIND.product]: [sql`l.product_id`, sql`null::int`],
  [KIND.variant]: [sql`l.product_id`, sql`coalesce(l.variant_id, 0)`],
  [KIND.cashier]: [sql`l.user_id`, sql`null::int`],
  [KIND.category]: [LINE_CATEGORY, sql`null::int`],
  [KIND.brand]: [LINE_BRAND, sql`null::int`],
};

/** The live CTEs' (o, l) figures of the given grains per store and local day, as roll-up rows. */
export function grainRows(kinds: readonly number[]): SQL {
  const parts: SQL[] = [];
  for (const k of kinds) {
    const line = LINE_KEYS[k];
    if (line) {
      parts.push(sql`select l.store_id, l.local::date, ${sql.raw(String(k))}::smallint, ${line[0]}, ${line[1]}, null::numeric, ${orders('l')}, ${lineSums}
        from l group by 1, 2, 4, 5`);
    } else if (k === KIND.tax) {
      parts.push(sql`select l.store_id, l.local::date, ${sql.raw(String(k))}::smallint, lt.tax_id, null::int, lt.rate, ${orders('l')},
          sum(l.quantity), sum(l.taxable), sum(coalesce(lt.amount, 0)), sum(l.discount),
          coalesce(sum(l.taxable + coalesce(lt.amount, 0)) filter (where l.is_return), 0), sum(l.cost), null::numeric
        from l left join lateral (select * from order_product_tax lt where lt.order_product_id = l.line_id offset 0) lt on true group by 1, 2, 4, 6`);
    } else {
      parts.push(sql`select o.store_id, o.local::date, ${sql.raw(String(k))}::smallint, ${k === KIND.payment ? sql`p.type_id` : sql`null::int`}, null::int, null::numeric,
          ${orders('o')}, null::numeric, null::numeric, null::numeric, null::numeric,
          coalesce(sum(p.total) filter (where o.is_return), 0), null::numeric, sum(p.total)
        from o cross join lateral (select * from order_payment p where p.order_id = o.id offset 0) p group by 1, 2, 4`);
    }
  }
  return sql.join(parts, sql` union all `);
}

const COLUMN_LIST = ['store_id', 'day', 'kind', 'k1', 'k2', 'rate', 'orders', 'quantity', 'net', 'tax', 'discount', 'refunds', 'cost', 'gross'];
const COLUMNS = sql.raw(COLUMN_LIST.join(', '));

/**
 * `u`: the rows of `kinds` over the scope's stores and dates: the marked days' from the roll-up,
 * the other days' computed live within `live` (the instants of the unmarked days, per store).
 */
export function unionCtes(scope: Pick<ReportScope, 'storeIds' | 'from' | 'to'>, live: Bounds, kinds: readonly number[]): SQL {
  // `u` is inlined where it is read (each reader's kind reaches the roll-up index), the live days'
  // rows computed once (materialised): a range up to today read them twice.
  return sql`${rangeCtes({ bounds: live }, { perOrder: true })},
    live_rows as materialized (${grainRows(kinds)}),
    u as not materialized (
      select ${sql.raw(COLUMN_LIST.map((c) => `r.${c}`).join(', '))} from report_day_done d
        join report_day_sales r on r.store_id = d.store_id and r.day = d.day and r.kind = any(${pgArray([...kinds])}::smallint[])
      where d.store_id = any(${pgArray(scope.storeIds)}::int[]) and d.day >= ${scope.from}::date and d.day <= ${scope.to}::date
      union all select * from live_rows
    )`;
}

const INSTANT = `'YYYY-MM-DD"T"HH24:MI:SS"Z"'`;
/** The runs of consecutive unmarked days of the stores in from..to (only closed ones if `closed`), with their instants. */
async function unmarkedRuns(db: Db | Tx, storeIds: number[], from: string, to: string, closed: boolean): Promise<Run[]> {
  return rowsOf<Run>(await db.execute(sql`select x.id, min(x.d)::text as a, max(x.d)::text as b,
      to_char((min(x.d)::timestamp at time zone x.tz) at time zone 'UTC', ${sql.raw(INSTANT)}) as lo,
      to_char(((max(x.d) + 1)::timestamp at time zone x.tz) at time zone 'UTC', ${sql.raw(INSTANT)}) as hi
    from (
      select s.id, s.time_zone as tz, g.d::date as d, g.d::date - (row_number() over (partition by s.id order by g.d))::int as run
      from store s cross join generate_series(${from}::date, ${to}::date, interval '1 day') g(d)
      where s.id = any(${pgArray(storeIds)}::int[])
        and not exists (select 1 from report_day_done x where x.store_id = s.id and x.day = g.d::date)
        ${closed ? sql`and ((g.d::date + 1)::timestamp at time zone s.time_zone) <= now() - ${ROLL_LAG}::interval` : sql``}
    ) x group by x.id, x.tz, x.run order by x.id, a`));
}

const addDays = (day: string, n: number) => new Date(Date.parse(day) + n * 86_400_000).toISOString().slice(0, 10);
const dayList = (runs: Run[]) => `{${runs.flatMap((r) => {
  const out: string[] = [];
  for (let d = r.a; d <= r.b; d = addDays(d, 1)) out.push(d);
  return out;
}).join(',')}}`;

/**
 * Rolls the closed, unmarked days of the range, store by store, CHUNK_DAYS at a time, each chunk
 * in its own transaction under the store's roll lock (whoever waited finds the days marked and
 * rolls nothing). With `budgetMs`, starts no further chunk once that long has passed and some
 * days are rolled (a request rolls what fits, at least one chunk, and reads the rest live).
 * Answers how many store-days it rolled.
 */
export async function rollClosedDays(db: Db, scope: Pick<ReportScope, 'storeIds' | 'from' | 'to'>, opts: { budgetMs?: number } = {}): Promise<number> {
  const t0 = Date.now();
  const missing = await unmarkedRuns(db, scope.storeIds, scope.from, scope.to, true);
  let rolled = 0;
  for (const id of [...new Set(missing.map((r) => r.id))]) {
    const mine = missing.filter((r) => r.id === id);
    for (let from = mine[0].a; from <= mine[mine.length - 1].b; from = addDays(from, CHUNK_DAYS)) {
      if (opts.budgetMs != null && rolled > 0 && Date.now() - t0 >= opts.budgetMs) return rolled;
      const to = addDays(from, CHUNK_DAYS - 1);
      rolled += await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${ROLL_LOCK}, ${id}::int)`);
        const runs = await unmarkedRuns(tx, [id], from, to < scope.to ? to : scope.to, true);
        if (!runs.length) return 0;
        const days = dayList(runs);
        await tx.execute(sql`delete from report_day_sales where store_id = ${id}::int and kind = any(${pgArray(ALL_KINDS)}::smallint[]) and day = any(${days}::date[])`);
        await tx.execute(sql`insert into report_day_sales (${COLUMNS}) with ${rangeCtes({ bounds: runs }, { perOrder: true })} ${grainRows(ALL_KINDS)}`);
        await tx.execute(sql`insert into report_day_done (store_id, day) select ${id}::int, d from unnest(${days}::date[]) d`);
        return days.split(',').length;
      });
    }
  }
  return rolled;
}

/** work_mem of a report's statement: one request of the read class at a time per slot (admission.ts), so bounded. */
export const REPORT_WORK_MEM = '32MB';
const reportMemory = (tx: Tx) => tx.execute(sql.raw(`set local work_mem = '${REPORT_WORK_MEM}'`));

/**
 * Runs `read` with the instants of the scope's unmarked days, in one repeatable-read snapshot, so
 * the days it reads rolled and those it reads live are exactly the range (a day un-marked by a
 * concurrent write is either still marked here or read live). `live` is null when no day of the
 * range is rolled (today, or yesterday before it closes): the whole range is the scope's own
 * bounds, read with the plain live statement, whose plan aggregates the lines once (through the
 * roll-up's union the same day cost twice as much: 370-470 against 160-210 ms for a day of 27,000
 * orders, docs/performance.md). Its sorts and hashes get `REPORT_WORK_MEM` (the default 4 MB
 * spilled a day's lines to disk).
 */
export async function readRolled<T>(db: Db, scope: Pick<ReportScope, 'storeIds' | 'from' | 'to'>,
  read: (tx: Tx, live: Bounds | null) => Promise<T>): Promise<T> {
  await rollClosedDays(db, scope, { budgetMs: IN_REQUEST_ROLL_MS });
  return db.transaction(async (tx) => {
    await reportMemory(tx);
    const live = await unmarkedRuns(tx, scope.storeIds, scope.from, scope.to, false);
    const allLive = live.length === scope.storeIds.length && live.every((r) => r.a === scope.from && r.b === scope.to);
    return read(tx, allLive ? null : live.map((r) => ({ id: r.id, lo: r.lo, hi: r.hi })));
  }, { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** Runs a report's live statement over every day (the reference the roll-up tests compare with) read-only with REPORT_WORK_MEM. */
export function readLive<T>(db: Db, read: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await reportMemory(tx);
    return read(tx);
  }, { accessMode: 'read only' });
}

/**
 * Rolls closed days ahead of the reports, so an owner's first look at a year does not pay for it:
 * `firstAfterMs` after start, then every `everyMs`, each store's unmarked closed days of the last
 * `days` days (a day a write un-marked is rolled again at the next pass). Every API process sharing
 * the database may run it: the store's roll lock makes each day roll once. Outside any request, so
 * with no statement limit; a week of one store per transaction, so sales wait on nothing long.
 * Answers a stop function that waits for a pass under way.
 */
export function scheduleRollups(db: Db, opts: { firstAfterMs: number; everyMs: number; days?: number; log?: (m: string) => void; onError: (e: unknown) => void }): () => Promise<void> {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout;
  const pass = async () => {
    try {
      const stores = rowsOf<{ id: number; today: string }>(await db.execute(sql`select id, (now() at time zone time_zone)::date::text as today from store order by id`));
      for (const s of stores) {
        if (stopped) return;
        const n = await rollClosedDays(db, { storeIds: [s.id], from: addDays(s.today, -(opts.days ?? 400)), to: s.today });
        if (n) opts.log?.(`Report roll-ups: ${n} closed days of store ${s.id} rolled`);
      }
    } catch (e) { opts.onError(e); }
  };
  const next = (ms: number) => {
    timer = setTimeout(() => { running = pass().then(() => { if (!stopped) next(opts.everyMs); }); }, ms);
    timer.unref();
  };
  next(opts.firstAfterMs);
  return async () => { stopped = true; clearTimeout(timer); await running; };
}
