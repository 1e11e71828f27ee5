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
import { checksDiffer, copyColumns, q, sequencePositions, tableChecks, type Queryable, type TableCheck } from './table-checks.ts';

/** Whether `dataDir` holds a PGlite database of the previous release. */
export function isPgliteFolder(dataDir: string): boolean {
  return fs.existsSync(path.join(dataDir, 'PG_VERSION')) && !fs.existsSync(path.join(dataDir, 'pg'));
}

type Log = (msg: string) => void;
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
  // Migration 0010 (search indexes) creates pg_trgm and unaccent: PGlite loads them only when asked.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { unaccent } = await import('@electric-sql/pglite/contrib/unaccent');
  const old = new PGlite(copy, { extensions: { pg_trgm, unaccent } });
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

async function copyTables(old: Queryable, target: pg.Client): Promise<TableCheck[]> {
  const before = await tableChecks(old);
  await target.query('begin');
  await target.query('set local session_replication_role = replica'); // no FK order needed, no triggers
  for (const { table, rows } of before) {
    if (!rows) continue;
    const cols = (await copyColumns(target, table)).map(q);
    await target.query(`delete from ${q(table)}`); // rows a migration seeded: the old folder's win
    for (let offset = 0; offset < rows; offset += 5000) {
      const { rows: [{ j }] } = await old.query<{ j: string }>(`select json_agg(t)::text as j from (select * from ${q(table)} order by ctid offset ${offset} limit 5000) t`);
      await target.query(`insert into ${q(table)} (${cols.join(', ')}) select ${cols.join(', ')} from json_populate_recordset(null::${q(table)}, $1::json)`, [j]);
    }
  }
  for (const { name, value } of await sequencePositions(old)) {
    if (value !== null) await target.query('select setval($1::regclass, $2::bigint, true)', [`public.${q(name)}`, value]);
  }
  await target.query('commit');
  const difference = checksDiffer(before, await tableChecks(target as unknown as Queryable));
  if (difference) throw new Error(`verification failed: ${difference}`);
  return before;
}
