import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { tableChecks } from '../db/table-checks.ts';
import { createThrowawayPg, PG_ADMIN_URL } from '../../test/helpers.ts';
import { backupFileName, readBackupHeader, type BackupKind } from './backup-file.ts';
import { createBackup } from './backup.ts';
import { restoreBackup } from './restore.ts';
import { retentionPlan, applyRetention } from './retention.ts';
import { dailyBackup, listBackups } from './schedule.ts';
import { appliedMigration, applyMigrations, knownMigrations } from './schema-level.ts';

let dir: string;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-backup-schedule-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const day = (d: string, time = '02-00-00-000', kind: BackupKind = 'daily') => `pos-${d}T${time}Z-${kind}.posbak`;
const isoDay = (from: string, plus: number) => new Date(Date.parse(`${from}T00:00:00Z`) + plus * 86_400_000).toISOString().slice(0, 10);

describe('retention: 14 daily + 8 weekly', () => {
  it('keeps the newest of each of the last 14 days and of each of the last 8 weeks; removes only daily files', () => {
    // 120 days of daily backups (two on some days), plus backups taken by hand and before migrations.
    const names: string[] = [];
    for (let i = 0; i < 120; i++) names.push(day(isoDay('2026-06-01', i)));
    names.push(day('2026-09-28', '14-00-00-000'), day('2026-08-03', '03-00-00-000'));
    const others = [day('2026-06-02', '10-00-00-000', 'manual'), day('2026-06-03', '10-00-00-000', 'pre-migration'), day('2026-06-04', '10-00-00-000', 'pre-restore')];
    names.push(...others);
    const { keep, remove } = retentionPlan(names);
    // Last day 2026-09-28 (a Monday). Daily: 2026-09-15 .. 2026-09-28, the later file of the 28th.
    const daily = Array.from({ length: 14 }, (_, i) => isoDay('2026-09-15', i)).map((d) => (d === '2026-09-28' ? day(d, '14-00-00-000') : day(d)));
    // Weekly (Mon-Sun): the newest of the weeks of 09-28, 09-21, 09-14, 09-07, 08-31, 08-24, 08-17, 08-10.
    const weekly = ['2026-09-20', '2026-09-13', '2026-09-06', '2026-08-30', '2026-08-23', '2026-08-16'].map((d) => day(d));
    expect(keep.sort()).toEqual([...new Set([...daily, ...weekly, ...others])].sort());
    expect(remove).toHaveLength(names.length - keep.length);
    expect(remove).toContain(day('2026-08-03', '03-00-00-000'));

    // And on disk: the files retention removes are gone, the others (and foreign files) stay.
    const folder = path.join(dir, 'retention');
    fs.mkdirSync(folder);
    for (const n of [...names, 'notes.txt']) fs.writeFileSync(path.join(folder, n), 'x');
    expect(applyRetention(folder).sort()).toEqual([...remove].sort());
    expect(fs.readdirSync(folder).sort()).toEqual([...keep, 'notes.txt'].sort());
  });
});

describe('the daily backup on a database shared by several servers', () => {
  it('is taken once a day, by whichever server claims the day first', async () => {
    const db = await createThrowawayPg('seeded');
    try {
      const folders = [path.join(dir, 'server-a'), path.join(dir, 'server-b')];
      const at = new Date('2026-11-20T09:00:00Z');
      // Two servers on one database check at the same moment: exactly one backs up.
      const results = await Promise.all(folders.map((folder, i) => dailyBackup({ url: db.url, dir: folder, source: 'postgres', now: at, who: `server-${i}` })));
      expect(results.filter(Boolean)).toHaveLength(1);
      const files = folders.flatMap((d) => listBackups(d));
      expect(files).toHaveLength(1);
      expect(files[0].kind).toBe('daily');
      // Later the same day: nobody backs up again; the next day one does.
      expect(await dailyBackup({ url: db.url, dir: folders[1], source: 'postgres', now: new Date('2026-11-20T15:00:00Z'), who: 'server-1' })).toBeUndefined();
      expect(await dailyBackup({ url: db.url, dir: folders[0], source: 'postgres', now: new Date('2026-11-20T18:00:00Z'), who: 'server-0' })).toBeUndefined();
      const next = await dailyBackup({ url: db.url, dir: folders[1], source: 'postgres', now: new Date('2026-11-21T12:00:00Z'), who: 'server-1' });
      expect(next?.name).toBe(backupFileName(new Date('2026-11-21T12:00:00Z'), 'daily'));
    } finally {
      await db.drop();
    }
  });
});

describe('two API servers on one database', () => {
  it('take the daily backup once between them', async () => {
    const db = await createThrowawayPg('seeded');
    const folders = [path.join(dir, 'app-a'), path.join(dir, 'app-b')];
    // Real servers (buildApp opening DATABASE_URL itself, so its daily timer runs), checking at once.
    const apps = await Promise.all(folders.map((folder) => buildApp({ logger: false, env: {
      DATABASE_URL: db.url, DATA_DIR: folder, DAILY_BACKUP_FIRST_CHECK_MS: '50', SEED_DEMO: 'false', BCRYPT_ROUNDS: '4',
    } })));
    try {
      await Promise.all(apps.map((a) => a.ready()));
      const files = () => folders.flatMap((f) => listBackups(path.join(f, 'backups')));
      for (let i = 0; i < 200 && files().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1500)); // time for a second backup, if the claim let one through
      expect(files()).toHaveLength(1);
      expect(files()[0].kind).toBe('daily');
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      const { rows } = await c.query('select file, finished_at is not null as done from pos_ops.backup_claim');
      await c.end();
      expect(rows).toEqual([{ file: files()[0].name, done: true }]);
    } finally {
      await Promise.all(apps.map((a) => a.close()));
      await db.drop();
    }
  });
});

describe('backups of an older schema', () => {
  const withDb = (name: string) => PG_ADMIN_URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);
  const name = `pos_old_${crypto.randomBytes(4).toString('hex')}`;
  let url: string;
  const older = knownMigrations().length - 1; // every migration but the last
  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    url = withDb(name);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query('begin');
    await applyMigrations(c, knownMigrations().slice(0, older));
    await c.query(`insert into store (name, location) values ('Old Street', 'Town')`);
    await c.query('commit');
    await c.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('restoring one migrates it to this release afterwards', async () => {
    const file = await createBackup(url, path.join(dir, 'old'), { kind: 'manual', source: 'postgres' });
    expect((await readBackupHeader(file.file)).migration.count).toBe(older);
    const target = await createThrowawayPg('seeded');
    try {
      await restoreBackup(target.url, file.file, { mode: 'restore' });
      const c = new pg.Client({ connectionString: target.url });
      await c.connect();
      expect((await c.query('select name from store')).rows).toEqual([{ name: 'Old Street' }]);
      expect((await appliedMigration(c))?.hash).toBe(knownMigrations().at(-1)!.hash);
      await c.end();
    } finally {
      await target.drop();
    }
  });

  it('a start that migrates it takes a pre-migration backup first', async () => {
    const dataDir = path.join(dir, 'premigration');
    const database = await openDatabase({ databaseUrl: url, dataDir });
    const before = await tableChecks((database.db as any).$client);
    const app = await buildApp({ env: {}, database, logger: false, config: { dataDir, seedDemo: false, jwtSecret: 'test-secret-for-backups' } });
    await app.ready();
    try {
      const [b] = listBackups(path.join(dataDir, 'backups'));
      expect(b.kind).toBe('pre-migration');
      const header = await readBackupHeader(path.join(dataDir, 'backups', b.name));
      expect(header.migration.count).toBe(older);
      expect(header.tables.map(({ table, rows, sums }) => ({ table, rows, sums })).sort((a, b) => a.table.localeCompare(b.table))).toEqual(before);
      expect((await appliedMigration((database.db as any).$client))?.hash).toBe(knownMigrations().at(-1)!.hash);
      // Migrated already: the next start takes none.
      await buildApp({ env: {}, database, logger: false, config: { dataDir, seedDemo: false, jwtSecret: 'test-secret-for-backups' } }).then((a) => a.close());
      expect(listBackups(path.join(dataDir, 'backups'))).toHaveLength(1);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
