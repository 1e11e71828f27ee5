/**
 * A data folder of the previous release (PGlite: PostgreSQL files straight in DATA_DIR, no `pg/`)
 * is moved into the shop's own PostgreSQL once, at start:
 *
 *   1. the old folder is copied (the original is never opened) and the copy brought to the current
 *      migrations with PGlite (lazily imported: it is needed only here);
 *   2. a new engine is initialised in `<DATA_DIR>.migrating`, migrated, and every table copied
 *      (rows as JSON through json_populate_recordset: exact numerics, timestamps, arrays), with
 *      foreign-key triggers off during the copy and the sequences set to their old values;
 *   3. per table, the row count and the sum of every numeric column are compared; any difference
 *      stops the start with the old folder untouched;
 *   4. only then the old folder is renamed `<DATA_DIR>.pglite-<time>` and the new one takes its place.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres, EmbeddedPgError } from './embedded.ts';

/** Whether `dataDir` holds a PGlite database of the previous release. */
export function isPgliteFolder(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'PG_VERSION')) && !fs.existsSync(path.join(dataDir, 'pg'));
}

type Log = (msg: string) => void;
interface TableCheck { table: string; rows: number; sums: Record<string, string> }

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Moves an old PGlite folder over (see above); returns the folder it was kept as, or undefined. */
export async function migratePgliteFolder(dataDir: string, migrationsFolder: string, log: Log): Promise<string | undefined> {
  dataDir = path.resolve(dataDir);
  if (!isPgliteFolder(dataDir)) return undefined;
  log(`Found a data folder of the previous release (PGlite) in ${dataDir}: moving it into PostgreSQL`);
  const started = Date.now();
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-pglite-'));
  const staging = `${dataDir}.migrating`;
  fs.rmSync(staging, { recursive: true, force: true }); // only ever a half-done earlier attempt of ours
  fs.cpSync(dataDir, copy, { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const old = new PGlite(copy);
  const embedded = await startEmbeddedPostgres(staging, { log });
  const target = new pg.Client({ connectionString: embedded.url() });
  let checks: TableCheck[] = [];
  try {
    await old.waitReady;
    await migrate(drizzle(old), { migrationsFolder });
    await target.connect();
    const { drizzle: drizzlePg } = await import('drizzle-orm/node-postgres');
    const { migrate: migratePg } = await import('drizzle-orm/node-postgres/migrator');
    await migratePg(drizzlePg(target), { migrationsFolder });
    checks = await copyTables(old, target);
    await target.end();
  } catch (e) {
    await target.end().catch(() => {});
    await embedded.stop();
    await old.close().catch(() => {});
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(copy, { recursive: true, force: true });
    throw new EmbeddedPgError(`Moving the PGlite data folder ${dataDir} failed; it is untouched. ${(e as Error).message}`);
  }
  await embedded.stop();
  await old.close().catch(() => {});
  fs.rmSync(copy, { recursive: true, force: true });
  const aside = `${dataDir}.pglite-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  fs.renameSync(dataDir, aside);
  fs.renameSync(staging, dataDir);
  const rows = checks.reduce((n, c) => n + c.rows, 0);
  log(`Moved ${checks.length} tables (${rows} rows; counts and numeric sums verified per table) from PGlite into PostgreSQL in ${Date.now() - started} ms; the old folder is kept as ${aside}`);
  return aside;
}

interface Queryable { query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }> }

async function tableChecks(db: Queryable): Promise<TableCheck[]> {
  const tables = (await db.query<{ t: string }>("select tablename as t from pg_tables where schemaname = 'public' order by 1")).rows.map((r) => r.t);
  const out: TableCheck[] = [];
  for (const table of tables) {
    const cols = (await db.query<{ c: string }>(`select column_name as c from information_schema.columns
      where table_schema = 'public' and table_name = $1 and data_type in ('numeric', 'integer', 'bigint', 'smallint') order by 1`, [table])).rows.map((r) => r.c);
    const sel = [`count(*)::text as n`, ...cols.map((c, i) => `coalesce(sum(${q(c)}), 0)::text as s${i}`)].join(', ');
    const [row] = (await db.query<Record<string, string>>(`select ${sel} from ${q(table)}`)).rows;
    out.push({ table, rows: Number(row.n), sums: Object.fromEntries(cols.map((c, i) => [c, row[`s${i}`]])) });
  }
  return out;
}

async function copyTables(old: Queryable, target: pg.Client): Promise<TableCheck[]> {
  const before = await tableChecks(old);
  await target.query('begin');
  await target.query('set local session_replication_role = replica'); // no FK order needed, no triggers
  for (const { table, rows } of before) {
    if (!rows) continue;
    const cols = (await target.query<{ c: string }>(`select attname as c from pg_attribute where attrelid = $1::regclass
      and attnum > 0 and not attisdropped and attgenerated = '' order by attnum`, [`public.${q(table)}`])).rows.map((r) => q(r.c));
    await target.query(`delete from ${q(table)}`); // rows a migration seeded: the old folder's win
    for (let offset = 0; offset < rows; offset += 5000) {
      const { rows: [{ j }] } = await old.query<{ j: string }>(`select json_agg(t)::text as j from (select * from ${q(table)} order by ctid offset ${offset} limit 5000) t`);
      await target.query(`insert into ${q(table)} (${cols.join(', ')}) select ${cols.join(', ')} from json_populate_recordset(null::${q(table)}, $1::json)`, [j]);
    }
  }
  const seqs = (await old.query<{ s: string; v: string | null }>("select sequencename as s, last_value::text as v from pg_sequences where schemaname = 'public'")).rows;
  for (const { s, v } of seqs) if (v !== null) await target.query('select setval($1::regclass, $2::bigint, true)', [`public.${q(s)}`, v]);
  await target.query('commit');
  const after = await tableChecks(target as unknown as Queryable);
  const byName = new Map(after.map((c) => [c.table, c]));
  for (const b of before) {
    const a = byName.get(b.table);
    if (!a || JSON.stringify(a) !== JSON.stringify(b)) {
      throw new Error(`verification failed for table ${b.table}: old ${JSON.stringify(b)}, new ${JSON.stringify(a)}`);
    }
  }
  return before;
}
