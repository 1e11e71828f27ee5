/**
 * Takes a backup through SQL only (the shop's machine has no pg_dump of the right version, the
 * embedded binaries ship none): one read-only REPEATABLE READ transaction sees one consistent
 * snapshot; in it every table's row count and numeric sums are taken for the header, then every
 * table is streamed out with `COPY ... TO STDOUT` (pg-copy-streams) into one gzip file. The file is
 * written as `<name>.partial`, synced, then renamed: a file with a backup name is always whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { copyColumns, q, sequencePositions, tableChecks, tablesInLoadOrder } from '../db/table-checks.ts';
import { appliedMigration, idOf, indexOfMigration, knownMigrations } from './schema-level.ts';
import { FORMAT, MAGIC, backupFileName, END_OF_TABLE, type BackupHeader, type BackupKind } from './backup-file.ts';
import { appVersion } from './app-version.ts';

export interface BackupResult { file: string; name: string; size: number; header: BackupHeader; ms: number }

/** Session settings under which COPY's text is the same on every server and read back exactly. */
export const COPY_SETTINGS = "set datestyle = 'ISO, YMD'; set intervalstyle = 'postgres'; set timezone = 'UTC'; set extra_float_digits = 3; set client_encoding = 'UTF8'";

/** Writes a backup of the database at `url` into `dir` (created 0700 if missing). */
export async function createBackup(url: string, dir: string, opts: { kind: BackupKind; source: 'embedded' | 'postgres'; now?: Date }): Promise<BackupResult> {
  const started = Date.now();
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = backupFileName(opts.now ?? new Date(), opts.kind);
  const file = path.join(dir, name);
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let header: BackupHeader;
  try {
    await client.query(COPY_SETTINGS);
    await client.query('begin isolation level repeatable read read only');
    const applied = await appliedMigration(client);
    const index = applied ? indexOfMigration(applied) : -1;
    if (index < 0) {
      throw new Error(applied ? 'The database was migrated by a newer release than this one: back it up with that release.' : 'The database has no schema yet: nothing to back up.');
    }
    const order = await tablesInLoadOrder(client);
    const checks = new Map((await tableChecks(client, order)).map((c) => [c.table, c]));
    header = {
      format: FORMAT,
      app: { name: 'pos', version: appVersion() },
      createdAt: new Date().toISOString(),
      kind: opts.kind,
      source: opts.source,
      migration: idOf(knownMigrations(), index),
      tables: [],
      sequences: await sequencePositions(client),
    };
    for (const table of order) header.tables.push({ ...checks.get(table)!, columns: await copyColumns(client, table) });

    const out = fs.createWriteStream(partial, { mode: 0o600 });
    const gzip = zlib.createGzip({ level: 6 });
    gzip.pipe(out);
    const put = async (chunk: Buffer | string) => { if (!gzip.write(chunk)) await once(gzip, 'drain'); };
    try {
      await put(`${MAGIC} ${FORMAT}\n${JSON.stringify(header)}\n`);
      for (const t of header.tables) {
        const stream = client.query(copyTo(`copy ${q(t.table)} (${t.columns.map(q).join(', ')}) to stdout`));
        for await (const chunk of stream) await put(chunk as Buffer);
        await put(END_OF_TABLE);
      }
      gzip.end();
      await finished(out);
    } catch (e) {
      gzip.destroy();
      out.destroy();
      throw e;
    }
    await client.query('commit');
  } catch (e) {
    fs.rmSync(partial, { force: true });
    throw e;
  } finally {
    await client.end().catch(() => {});
  }
  const fd = fs.openSync(partial, 'r');
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(partial, file);
  return { file, name, size: fs.statSync(file).size, header, ms: Date.now() - started };
}

/** "12 tables, 3,456 rows" for logs and the command line. */
export function describeBackup(header: BackupHeader): string {
  const rows = header.tables.reduce((n, t) => n + t.rows, 0);
  return `${header.tables.length} tables, ${rows} rows, schema ${header.migration.tag}`;
}
