/**
 * The automatic backups: one a day into DATA_DIR/backups (retention: retention.ts), and one before
 * a start migrates a database that has a schema. Several API processes may share one database:
 * the day is claimed by a row in the database (pos_ops.backup_claim), so exactly one process backs
 * it up, whatever each process remembers; the pre-migration check runs under an advisory lock.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Queryable } from '../db/table-checks.ts';
import { appliedMigration, indexOfMigration, pendingAfter } from './schema-level.ts';
import { createBackup, describeBackup, type BackupResult } from './backup.ts';
import { parseBackupName, type BackupKind } from './backup-file.ts';
import { applyRetention, DEFAULT_RETENTION } from './retention.ts';

export const backupDir = (dataDir: string) => path.join(path.resolve(dataDir || '.'), 'backups');

export interface BackupEntry { name: string; size: number; createdAt: string; kind: BackupKind }

/** The backup files in `dir`, newest first (names that are not ours are left out). */
export function listBackups(dir: string): BackupEntry[] {
  if (!fs.existsSync(dir)) return [];
  const out: BackupEntry[] = [];
  for (const name of fs.readdirSync(dir)) {
    const parsed = parseBackupName(name);
    if (!parsed) continue;
    try {
      out.push({ name, size: fs.statSync(path.join(dir, name)).size, createdAt: parsed.at.toISOString(), kind: parsed.kind });
    } catch { /* removed meanwhile */ }
  }
  return out.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.name.localeCompare(a.name));
}

/**
 * Operational state, not shop data: its own schema, never in a backup or a move, kept by a restore.
 * Created here rather than by a migration so that it exists on any database this release opens.
 */
async function ensureClaimTable(db: Queryable) {
  await db.query(`begin; select pg_advisory_xact_lock(20005);
    create schema if not exists pos_ops;
    create table if not exists pos_ops.backup_claim (day date primary key, claimed_by text not null,
      claimed_at timestamptz not null default now(), finished_at timestamptz, file text);
    commit`);
}

/** Claims `day` for this process: true for exactly one caller (a stale unfinished claim, over an hour old, is taken over). */
export async function claimDay(db: Queryable, day: string, who: string): Promise<boolean> {
  await ensureClaimTable(db);
  const { rows } = await db.query(`insert into pos_ops.backup_claim (day, claimed_by) values ($1, $2)
    on conflict (day) do update set claimed_by = excluded.claimed_by, claimed_at = now()
      where pos_ops.backup_claim.finished_at is null and pos_ops.backup_claim.claimed_at < now() - interval '1 hour'
    returning day`, [day, who]);
  return rows.length === 1;
}

/** The server's local calendar day. */
export const localDay = (at: Date) => `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

export interface DailyOptions { url: string; dir: string; source: 'embedded' | 'postgres'; now?: Date; who?: string; log?: (msg: string) => void }

/** Today's backup, if no process sharing this database has taken (or is taking) it. */
export async function dailyBackup(opts: DailyOptions): Promise<BackupResult | undefined> {
  const now = opts.now ?? new Date();
  const day = localDay(now);
  const who = opts.who ?? `${os.hostname()}:${process.pid}`;
  const client = new pg.Client({ connectionString: opts.url });
  client.on('error', () => {});
  await client.connect();
  try {
    if (!(await claimDay(client, day, who))) return undefined;
    try {
      const result = await createBackup(opts.url, opts.dir, { kind: 'daily', source: opts.source, now });
      await client.query('update pos_ops.backup_claim set finished_at = now(), file = $2 where day = $1', [day, result.name]);
      const removed = applyRetention(opts.dir, DEFAULT_RETENTION);
      opts.log?.(`Daily backup ${result.file} (${result.size} bytes, ${describeBackup(result.header)}, ${result.ms} ms)${removed.length ? `; retention removed ${removed.join(', ')}` : ''}`);
      return result;
    } catch (e) {
      // Let the next check (this process or another) try again.
      await client.query('delete from pos_ops.backup_claim where day = $1 and claimed_by = $2 and finished_at is null', [day, who]).catch(() => {});
      throw e;
    }
  } finally {
    await client.end().catch(() => {});
  }
}

/** Checks every `everyMs` (and once shortly after start) whether today's backup is due; returns stop(). */
export function scheduleDailyBackups(opts: Omit<DailyOptions, 'now'> & { everyMs?: number; firstAfterMs?: number; onError: (e: unknown) => void }): () => void {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try { await dailyBackup(opts); } catch (e) { opts.onError(e); } finally { running = false; }
  };
  const first = setTimeout(tick, opts.firstAfterMs ?? 60_000);
  const every = setInterval(tick, opts.everyMs ?? 15 * 60_000);
  first.unref();
  every.unref();
  return () => { stopped = true; clearTimeout(first); clearInterval(every); };
}

/**
 * Before the start's migrations: when the database has a schema of this release and migrations are
 * pending, a `pre-migration` backup is written first. Under an advisory lock held until the
 * migrations ran, so of several processes starting at once only the first backs up and migrates.
 */
export async function migrateWithBackup(url: string, migrate: () => Promise<void>, opts: { dir: string; source: 'embedded' | 'postgres'; log?: (msg: string) => void }): Promise<BackupResult | undefined> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(20006)');
    const applied = await appliedMigration(client);
    let result: BackupResult | undefined;
    if (applied && indexOfMigration(applied) >= 0 && pendingAfter(applied).length) {
      result = await createBackup(url, opts.dir, { kind: 'pre-migration', source: opts.source });
      opts.log?.(`Backup before migrating: ${result.file} (${result.size} bytes, ${describeBackup(result.header)})`);
    }
    await migrate();
    return result;
  } finally {
    await client.query('select pg_advisory_unlock(20006)').catch(() => {});
    await client.end().catch(() => {});
  }
}
