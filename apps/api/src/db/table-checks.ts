/**
 * What "nothing lost" means when a database is copied (the PGlite import, backups, restores, moves):
 * per table of the `public` schema, the row count and the sum of every numeric and integer column
 * (money, quantities, ids) must be equal on both sides. Also the helpers every copy needs: the
 * tables in foreign-key order, their copyable columns, and the sequences' positions.
 */

/** A node-postgres client or pool, or a PGlite handle. */
export interface Queryable { query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> }

export interface TableCheck { table: string; rows: number; sums: Record<string, string> }

/** A quoted SQL identifier. */
export const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function publicTables(db: Queryable): Promise<string[]> {
  return (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows.map((r) => r.t);
}

/** Counts and numeric sums of every table of `public` (or of `tables`), in one snapshot if the caller holds one. */
export async function tableChecks(db: Queryable, tables?: string[]): Promise<TableCheck[]> {
  const out: TableCheck[] = [];
  for (const table of tables ?? await publicTables(db)) {
    const cols = (await db.query<{ c: string }>(`select column_name as c from information_schema.columns
      where table_schema = 'public' and table_name = $1 and data_type in ('numeric', 'integer', 'bigint', 'smallint') order by 1`, [table])).rows.map((r) => r.c);
    const sel = [`count(*)::text as n`, ...cols.map((c, i) => `coalesce(sum(${q(c)}), 0)::text as s${i}`)].join(', ');
    const [row] = (await db.query<Record<string, string>>(`select ${sel} from ${q(table)}`)).rows;
    out.push({ table, rows: Number(row.n), sums: Object.fromEntries(cols.map((c, i) => [c, row[`s${i}`]])) });
  }
  return out;
}

const decimal = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** The first difference between two sets of checks (every table of `expected` compared), or undefined. */
export function checksDiffer(expected: TableCheck[], actual: TableCheck[]): string | undefined {
  const byName = new Map(actual.map((c) => [c.table, c]));
  for (const e of expected) {
    const a = byName.get(e.table);
    if (!a) return `table ${e.table} is missing`;
    if (a.rows !== e.rows) return `table ${e.table}: ${a.rows} rows instead of ${e.rows}`;
    for (const [col, sum] of Object.entries(e.sums)) {
      // exact decimal text compared without trailing zeros: "12.500" and "12.5" are one value
      if (a.sums[col] === undefined || decimal(a.sums[col]) !== decimal(sum)) {
        return `table ${e.table}: sum of ${col} is ${a.sums[col]} instead of ${sum}`;
      }
    }
  }
  return undefined;
}

/** The columns a copy writes: not dropped, not generated, in table order (names as they are, unquoted). */
export async function copyColumns(db: Queryable, table: string): Promise<string[]> {
  return (await db.query<{ c: string }>(`select attname as c from pg_attribute where attrelid = $1::regclass
    and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`, [`public.${q(table)}`])).rows.map((r) => r.c);
}

/** The tables of `public`, every table after the tables its foreign keys point to. */
export async function tablesInLoadOrder(db: Queryable): Promise<string[]> {
  const tables = await publicTables(db);
  const edges = (await db.query<{ child: string; parent: string }>(`select c.relname as child, p.relname as parent
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    join pg_namespace n on n.oid = c.relnamespace
    where k.contype = 'f' and n.nspname = 'public' and k.conrelid <> k.confrelid`)).rows;
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of edges) parents.get(child)?.add(parent);
  const done = new Set<string>();
  const order: string[] = [];
  while (order.length < tables.length) {
    const ready = tables.filter((t) => !done.has(t) && [...parents.get(t)!].every((p) => done.has(p) || !parents.has(p)));
    if (!ready.length) throw new Error(`foreign keys form a cycle between ${tables.filter((t) => !done.has(t)).join(', ')}`);
    for (const t of ready) { done.add(t); order.push(t); }
  }
  return order;
}

export interface SequencePosition { name: string; value: string | null }

/** Every sequence of `public` and its last value (null: never used). */
export async function sequencePositions(db: Queryable): Promise<SequencePosition[]> {
  return (await db.query<{ name: string; value: string | null }>("select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public' order by 1")).rows;
}
