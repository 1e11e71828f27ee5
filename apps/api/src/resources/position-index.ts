import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';
import { pgArray, rowsOf } from '../db/raw.ts';

/**
 * The position index of a list (tables list_index / list_version, migration 0003).
 *
 * A page of a 100,000-row list used to cost two scans of the whole list: the count, and the OFFSET
 * that skips every row before the page. For lists in id order whose membership only depends on
 * columns the list_version triggers watch, the index keeps, per list and per version, the total
 * and the id found at every MARK_EVERY-th position. A page then starts at the mark just before it
 * (`id >= mark`, skipping fewer than MARK_EVERY rows): its cost no longer grows with its depth, and
 * no count is taken. Building an entry is one scan, taken by the first request after a change.
 *
 * Freshness: list_version is bumped by the writer's own transaction, and an entry is built from one
 * statement that reads the version and the rows in the same snapshot, so an entry is never used
 * for a version whose rows it did not see. It lives in the database (not in the process), so any
 * number of API processes share it and see every change at once.
 */
export const MARK_EVERY = 100;

interface Entry { total: number; ids: number[] | null }

/**
 * The order of a list: by id, or by a NOT NULL text column ascending then id (the back office's
 * "sort by name"). A mark is then the (text, id) pair found at its position.
 */
export type ListOrder = { by: 'id' } | { by: PgColumn; name: string };

/** One round trip when the index is current: the total and the page's ids (null: no entry for the current version). */
async function readPage(db: Db, table: PgTable, id: PgColumn, order: ListOrder, where: SQL | undefined, key: string, offset: number, size: number): Promise<Entry | null> {
  // Past the int range a page is past the end of any list: clamp so the parameters stay ints.
  offset = Math.min(offset, 2147483647);
  const mark = Math.floor(offset / MARK_EVERY);
  const skip = offset - mark * MARK_EVERY;
  const at = sql`${mark + 1}::int`;
  const from = order.by === 'id'
    ? sql`${id} >= li.marks[${at}]`
    : sql`(${order.by}, ${id}) >= (li.mark_texts[${at}], li.marks[${at}])`;
  const orderBy = order.by === 'id' ? sql`${id}` : sql`${order.by}, ${id}`;
  const r = await db.execute(sql`with li as (
      select total, marks, mark_texts from list_index
      where key = ${key} and version = (select v from list_version where id = 1))
    select li.total,
      case when ${offset}::int >= li.total then '{}'::int[] else array(
        select ${id} from ${table}
        where ${where ? sql`${where} and ` : sql``}${from}
        order by ${orderBy} limit ${size}::int offset ${skip}::int) end as ids
    from li`);
  const row = rowsOf<{ total: number | string; ids: number[] }>(r)[0];
  return row ? { total: Number(row.total), ids: row.ids.map(Number) } : null;
}

/** Builds (or refreshes) the entry of `key` from one snapshot of the list. */
async function build(db: Db, table: PgTable, id: PgColumn, order: ListOrder, where: SQL | undefined, key: string): Promise<void> {
  const text = order.by === 'id' ? sql`null::text` : sql`${order.by}`;
  const orderBy = order.by === 'id' ? sql`${id}` : sql`${order.by}, ${id}`;
  const r = await db.execute(sql`select (select v from list_version where id = 1) as v, count(*)::int as total,
      coalesce(array_agg(s.id order by s.rn) filter (where (s.rn - 1) % ${MARK_EVERY}::int = 0), '{}'::int[]) as marks,
      coalesce(array_agg(s.t order by s.rn) filter (where (s.rn - 1) % ${MARK_EVERY}::int = 0), '{}'::text[]) as texts
    from (select ${id} as id, ${text} as t, row_number() over (order by ${orderBy}) as rn from ${table}${where ? sql` where ${where}` : sql``}) s`);
  const row = rowsOf<{ v: number | string; total: number | string; marks: number[]; texts: (string | null)[] }>(r)[0];
  const marks = pgArray(row.marks.map(Number));
  const texts = order.by === 'id' ? null : row.texts;
  await db.execute(sql`insert into list_index (key, version, total, marks, mark_texts)
    values (${key}, ${Number(row.v)}, ${Number(row.total)}, ${marks}::int[], ${texts === null ? null : pgTextArray(texts as string[])}::text[])
    on conflict (key) do update set version = excluded.version, total = excluded.total, marks = excluded.marks,
      mark_texts = excluded.mark_texts, created_at = now()
    where list_index.version <= excluded.version`);
}

/** A PostgreSQL text[] literal (every element quoted and escaped). */
function pgTextArray(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`).join(',')}}`;
}

/**
 * The total and the ids of the page at `offset` (`size` rows) of the list `where` in `order`, through
 * the position index. Builds the entry when the list changed since it was built (or never was).
 * Null when writers kept changing the list faster than it could be indexed.
 */
export async function pageByPositions(db: Db, table: PgTable & { id: PgColumn }, order: ListOrder, where: SQL | undefined, key: string, offset: number, size: number): Promise<{ total: number; ids: number[] } | null> {
  const hit = await readPage(db, table, table.id, order, where, key, offset, size);
  if (hit?.ids) return { total: hit.total, ids: hit.ids };
  await build(db, table, table.id, order, where, key);
  // Read through the entry just built (or a newer one another process built meanwhile); a writer
  // that changed the list in between makes it stale again: then the entry is rebuilt once more.
  for (let attempt = 0; attempt < 3; attempt++) {
    const again = await readPage(db, table, table.id, order, where, key, offset, size);
    if (again?.ids) return { total: again.total, ids: again.ids };
    await build(db, table, table.id, order, where, key);
  }
  return null; // the list kept changing while it was read: the caller counts and skips the plain way
}
