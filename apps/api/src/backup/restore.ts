/**
 * Restores a backup file into a database, or moves a shop into an empty PostgreSQL ('move'), in ONE
 * transaction, so the current data stays intact on any failure (PostgreSQL's DDL is transactional):
 *
 *   1. the file's header is checked first: a foreign, damaged or newer-schema file is refused
 *      before anything is opened (BackupFileError);
 *   2. begin; (restore) the schemas `public` and `drizzle` are dropped and re-created, or (move) the
 *      target must be empty; the schema is built by this release's migrations up to the backup's
 *      own, so the file's rows fit it exactly;
 *   3. every table is loaded with `COPY ... FROM STDIN` in foreign-key order (constraints checked,
 *      the tables' own triggers off: the rows are the backup's, nothing is derived again);
 *   4. per table the row count and the sum of every numeric column must equal the header's, and the
 *      file must end right after its last table; the sequences are set to the backup's positions;
 *   5. the migrations newer than the backup's are applied (a backup from an older release is
 *      brought up to this one); commit.
 * Other sessions wait on the tables' locks meanwhile and then see the restored data. The caller keeps
 * the data it replaces as a backup file first (restoreWithSafetyCopy).
 */
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { checksDiffer, publicTables, q, tableChecks, type Queryable } from '../db/table-checks.ts';
import { applyMigrations, indexOfMigration, knownMigrations } from './schema-level.ts';
import { BackupFileError, BackupReader, type BackupHeader } from './backup-file.ts';
import { COPY_SETTINGS, createBackup, type BackupResult } from './backup.ts';

/** A target that must not be written (not empty for a move): nothing was changed. */
export class RestoreRefused extends Error {}

export interface RestoreOptions {
  /** 'restore' replaces the database's data; 'move' fills an empty database (db:move). */
  mode: 'restore' | 'move';
  /** How long to wait for other sessions' locks before giving up (default 30 s). */
  lockTimeoutMs?: number;
}

export interface RestoreResult { header: BackupHeader; rows: number; migratedTo: string; ms: number }

/** Refuses a backup of a schema this release does not know (a newer release's, or another app's). */
export function checkRestorable(header: BackupHeader, fileName: string): number {
  const list = knownMigrations();
  const index = indexOfMigration(header.migration);
  if (index >= 0) return index;
  const newer = header.migration.createdAt > list[list.length - 1].folderMillis;
  throw new BackupFileError(newer
    ? `${fileName} was made by a newer release (schema ${header.migration.tag}, unknown to this release ${list[list.length - 1].tag}): update the POS first. Nothing was changed.`
    : `${fileName} has a schema unknown to this release (${header.migration.tag}): it is not a backup of this POS. Nothing was changed.`);
}

/** Whether a database has no tables, sequences or views in `public` and was never migrated. */
export async function isEmptyDatabase(db: Queryable): Promise<boolean> {
  const { rows: [r] } = await db.query<{ n: number; m: string | null }>(`select count(*)::int as n, to_regclass('drizzle.__drizzle_migrations')::text as m
    from pg_class c join pg_namespace s on s.oid = c.relnamespace where s.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`);
  return r.n === 0 && !r.m;
}

export async function restoreBackup(url: string, file: string, opts: RestoreOptions): Promise<RestoreResult> {
  const started = Date.now();
  const reader = new BackupReader(file);
  const name = file.split(/[\\/]/).pop()!;
  try {
    const header = await reader.header();
    const index = checkRestorable(header, name);
    const list = knownMigrations();
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => { /* a dropped connection fails the running query, which rolls back */ });
    await client.connect();
    try {
      await client.query(COPY_SETTINGS);
      await client.query('begin');
      await client.query(`set local lock_timeout = ${Math.round(opts.lockTimeoutMs ?? 30_000)}; set local statement_timeout = 0`);
      if (opts.mode === 'move') {
        if (!(await isEmptyDatabase(client))) throw new RestoreRefused('The target database is not empty: a shop is moved only into an empty database. Nothing was changed.');
      } else {
        await client.query('drop schema if exists drizzle cascade; drop schema if exists public cascade; create schema public');
      }
      await applyMigrations(client, list.slice(0, index + 1));
      const tables = new Set(await publicTables(client));
      // Triggers off first: the tables were just made by the migrations, and the audit log's
      // append-only triggers refuse even this TRUNCATE of rows a migration seeded.
      for (const t of tables) await client.query(`alter table ${q(t)} disable trigger user`);
      if (tables.size) await client.query(`truncate ${[...tables].map(q).join(', ')}`); // rows a migration seeded: the backup's win
      for (const t of header.tables) {
        if (!tables.has(t.table)) throw new BackupFileError(`${name} is damaged: it has a table ${JSON.stringify(t.table)} that schema ${header.migration.tag} does not have. Nothing was changed.`);
        const stream = client.query(copyFrom(`copy ${q(t.table)} (${t.columns.map(q).join(', ')}) from stdin`));
        // PostgreSQL may refuse a row while the file is still being read: whichever fails first
        // ends the table (both promises observed, so neither is an unhandled rejection).
        const done = finished(stream);
        const piping = reader.pipeTable(stream);
        done.catch(() => {});
        piping.catch(() => {});
        try {
          await Promise.race([piping, done]);
          await piping;
          stream.end();
          await done;
        } catch (e) {
          stream.destroy();
          await done.catch(() => {});
          throw e;
        }
      }
      if (!(await reader.atEnd())) throw new BackupFileError(`${name} is damaged: there is data after its last table. Nothing was changed.`);
      const difference = checksDiffer(header.tables, await tableChecks(client, header.tables.map((t) => t.table)));
      if (difference) throw new BackupFileError(`${name} does not match its own header (${difference}): it is damaged. Nothing was changed.`);
      for (const { name: seq, value } of header.sequences) {
        if (value === null) continue;
        const { rows: [s] } = await client.query<{ r: string | null }>('select to_regclass($1)::text as r', [`public.${q(seq)}`]);
        if (!s.r) throw new BackupFileError(`${name} is damaged: sequence ${JSON.stringify(seq)} is not in schema ${header.migration.tag}. Nothing was changed.`);
        await client.query('select setval($1::regclass, $2::bigint, true)', [`public.${q(seq)}`, value]);
      }
      for (const t of tables) await client.query(`alter table ${q(t)} enable trigger user`);
      await applyMigrations(client, list.slice(index + 1));
      await client.query('commit');
    } catch (e) {
      await client.query('rollback').catch(() => {});
      const err = e as Error & { code?: string };
      if (err.code === '55P03') throw new RestoreRefused(`The database stayed busy (locked by other sessions for ${Math.round((opts.lockTimeoutMs ?? 30_000) / 1000)} s): try again. Nothing was changed.`);
      if (err.code && (/^(22|23|42)/.test(err.code) || err.code === '08P01') && !(e instanceof BackupFileError)) throw new BackupFileError(`${name} cannot be loaded (${err.message}): it is damaged or not from this POS. Nothing was changed.`);
      throw e;
    } finally {
      await client.end().catch(() => {});
    }
    return { header, rows: header.tables.reduce((n, t) => n + t.rows, 0), migratedTo: list[list.length - 1].tag, ms: Date.now() - started };
  } finally {
    reader.close();
  }
}

/**
 * A restore that first keeps the current data as a `pre-restore` backup file in `dir` (the file is
 * checked before that copy is taken, so a refused file costs nothing).
 */
export async function restoreWithSafetyCopy(url: string, file: string, dir: string, source: 'embedded' | 'postgres', opts: Omit<RestoreOptions, 'mode'> = {}): Promise<RestoreResult & { before: BackupResult }> {
  const reader = new BackupReader(file);
  try {
    checkRestorable(await reader.header(), file.split(/[\\/]/).pop()!);
  } finally {
    reader.close();
  }
  const before = await createBackup(url, dir, { kind: 'pre-restore', source });
  return { ...(await restoreBackup(url, file, { ...opts, mode: 'restore' })), before };
}
