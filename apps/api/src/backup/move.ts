/**
 * db:move: a shop that outgrows its single machine moves into a PostgreSQL server (a chain's, or a
 * managed one). The move is a backup of the source (kept in the backups folder, kind `move`)
 * restored into the target in 'move' mode: the target must be empty, and every table's row count
 * and numeric sums are verified in the target before its transaction commits.
 */
import pg from 'pg';
import { tableChecks, checksDiffer } from '../db/table-checks.ts';
import { createBackup, type BackupResult } from './backup.ts';
import { isEmptyDatabase, restoreBackup, RestoreRefused } from './restore.ts';
import { assertReachable, CliError, maskUrl } from './shop-database.ts';

export interface MoveResult { backup: BackupResult; tables: number; rows: number }

/** Whether `url` names a PostgreSQL database (postgres:// or postgresql://). */
export function isPostgresUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.pathname.length > 1;
  } catch {
    return false;
  }
}

export async function moveShop(sourceUrl: string, targetUrl: string, dir: string, source: 'embedded' | 'postgres'): Promise<MoveResult> {
  if (!isPostgresUrl(targetUrl)) throw new CliError('The target must be a PostgreSQL URL naming its database: postgres://user:password@host:5432/database');
  await assertReachable(targetUrl, 'the target PostgreSQL');
  const target = new pg.Client({ connectionString: targetUrl });
  await target.connect();
  try {
    if (!(await isEmptyDatabase(target))) throw new CliError(`The target database ${maskUrl(targetUrl)} is not empty: a shop is moved only into an empty database (create a new one). Nothing was changed.`);
    const backup = await createBackup(sourceUrl, dir, { kind: 'move', source });
    try {
      await restoreBackup(targetUrl, backup.file, { mode: 'move' });
    } catch (e) {
      if (e instanceof RestoreRefused) throw new CliError(e.message);
      throw e;
    }
    // Checked once more from outside the move's own transaction, against the source's snapshot.
    const difference = checksDiffer(backup.header.tables, await tableChecks(target, backup.header.tables.map((t) => t.table)));
    if (difference) throw new CliError(`The moved database differs from the source (${difference}).`);
    return { backup, tables: backup.header.tables.length, rows: backup.header.tables.reduce((n, t) => n + t.rows, 0) };
  } finally {
    await target.end().catch(() => {});
  }
}
