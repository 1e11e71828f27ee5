import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThrowawayPg } from '../../test/helpers.ts';
import { openDatabase } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { readBackupHeader } from './backup-file.ts';
import { tableChecks } from '../db/table-checks.ts';
import { appliedMigration, knownMigrations } from './schema-level.ts';

/**
 * The command-line tools as a shop's operator runs them (npm run backup / restore / db:move), on
 * real PostgreSQL servers. db:move's target is the machine's PostgreSQL at 127.0.0.1:5432
 * (TEST_PG_URL), a throwaway database per run.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const machinePg = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const withDb = (url: string, name: string) => url.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);

let dataDir: string;
let source: Awaited<ReturnType<typeof createThrowawayPg>>;
let sourceDb: pg.Client;

function tool(script: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/cli', script), ...args], {
    cwd: root, encoding: 'utf8', timeout: 60_000,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, DATABASE_URL: source.url, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

async function onMachine(sql: string) {
  const c = new pg.Client({ connectionString: machinePg });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-cli-test-'));
  source = await createThrowawayPg('seeded');
  sourceDb = new pg.Client({ connectionString: source.url });
  await sourceDb.connect();
});
afterAll(async () => {
  await sourceDb?.end();
  await source?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run backup / npm run restore', () => {
  it('backs up, and restores the shop as it was; a newer-schema or foreign file is refused with exit 1, nothing changed', async () => {
    const b = tool('backup.ts', []);
    expect(b.code, b.err).toBe(0);
    const file = b.out.split('\n')[0];
    expect(file).toMatch(new RegExp(`^${dataDir}/backups/pos-.*-manual\\.posbak$`));
    expect(b.out).toMatch(/\d+ tables, \d+ rows, schema /);
    const atBackup = await tableChecks(sourceDb);

    await sourceDb.query("update product set base_price = base_price + 1; insert into store (name) values ('Opened after the backup')");
    const changed = await tableChecks(sourceDb);
    expect(changed).not.toEqual(atBackup);

    const text = zlib.gunzipSync(fs.readFileSync(file)).toString('latin1');
    const [magic, header, ...rest] = text.split('\n');
    const h = JSON.parse(header);
    h.migration = { ...h.migration, tag: '0042_from_the_future', hash: 'a'.repeat(64), createdAt: h.migration.createdAt + 1e10 };
    const newer = path.join(dataDir, 'newer.posbak');
    fs.writeFileSync(newer, zlib.gzipSync(Buffer.from([magic, JSON.stringify(h), ...rest].join('\n'), 'latin1')));
    const foreign = path.join(dataDir, 'dump.sql');
    fs.writeFileSync(foreign, 'CREATE TABLE x (id int);\n');
    for (const [bad, why] of [[newer, /newer release \(schema 0042_from_the_future/], [foreign, /dump\.sql is not a POS backup/], [path.join(dataDir, 'missing.posbak'), /no such file/]]) {
      const r = tool('restore.ts', [bad as string]);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(why);
      expect(await tableChecks(sourceDb)).toEqual(changed);
    }

    const r = tool('restore.ts', [file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/counts and sums verified/);
    expect(await tableChecks(sourceDb)).toEqual(atBackup);
    const kept = /kept in (\S+)/.exec(r.out)![1];
    expect(fs.existsSync(kept)).toBe(true);
  });
});

describe('npm run db:move', () => {
  const name = `pos_move_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const target = withDb(machinePg, name);
  beforeAll(() => onMachine(`create database ${name}`));
  afterAll(() => onMachine(`drop database if exists ${name} with (force)`));

  it('copies the shop into an empty PostgreSQL with equal counts and sums, then refuses a non-empty one', async () => {
    await sourceDb.query("insert into expense (description, amount, user_id, store_id) select 'Move check', 123.45, (select min(id) from user_account), min(id) from store");
    const m = tool('db-move.ts', [target]);
    expect(m.code, m.err).toBe(0);
    expect(m.out).toMatch(/Moved \d+ tables, \d+ rows into .* \(row counts and numeric sums verified per table\)/);
    expect(m.out).toMatch(/set DATABASE_URL/);
    const t = new pg.Client({ connectionString: target });
    await t.connect();
    try {
      const moved = await tableChecks(t);
      expect(moved).toEqual(await tableChecks(sourceDb));
      expect(moved.find((c) => c.table === 'expense')!.rows).toBeGreaterThan(0);
      expect((await appliedMigration(t))?.hash).toBe(knownMigrations().at(-1)!.hash);
      // The target's sequences carry on after the moved rows.
      const { rows: [{ id }] } = await t.query("insert into store (name) values ('After the move') returning id");
      expect(id).toBeGreaterThan(Math.max(...(await sourceDb.query('select id from store')).rows.map((r) => r.id)));
      await t.query("delete from store where name = 'After the move'");
      const beforeAgain = await tableChecks(t);

      const again = tool('db-move.ts', [target]);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(/is not empty/);
      expect(await tableChecks(t)).toEqual(beforeAgain);
    } finally {
      await t.end();
    }
  }, 240_000); // four tool processes and two PostgreSQL starts: minutes on a busy 2-core machine

  it('says clearly when the target cannot be reached or is not a PostgreSQL URL', () => {
    const unreachable = tool('db-move.ts', [withDb('postgres://postgres@127.0.0.1:1/x', 'nowhere')]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/Cannot reach the target PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere/);
    const notPg = tool('db-move.ts', ['mysql://root@localhost/shop']);
    expect(notPg.code).toBe(1);
    expect(notPg.err).toMatch(/usage: npm run db:move/);
  });
});

describe("a shop on the data folder's own PostgreSQL", () => {
  let folder: string;
  const name = `pos_move_embedded_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-cli-shop-'));
    await onMachine(`create database ${name}`);
  });
  afterAll(async () => {
    await onMachine(`drop database if exists ${name} with (force)`);
    fs.rmSync(folder, { recursive: true, force: true });
  });
  const own = { DATA_DIR: '', DATABASE_URL: '' };

  it('is backed up while its server runs (through the socket) and when stopped (started for the command), then moved', async () => {
    const server = await startEmbeddedPostgres(folder); // holds DATA_DIR/server.lock as a running server does
    try {
      const db = await openDatabase({ databaseUrl: server.url(), dataDir: '' });
      await db.migrate();
      await (db.db as unknown as { $client: pg.Pool }).$client.query("insert into store (name) values ('Corner Shop'), ('Second Shop')");
      await db.close();
      const running = tool('backup.ts', [], { ...own, DATA_DIR: folder });
      expect(running.code, running.err).toBe(0);
      expect((await readBackupHeader(running.out.split('\n')[0])).tables.find((t) => t.table === 'store')!.rows).toBe(2);
      const move = tool('db-move.ts', [withDb(machinePg, name)], { ...own, DATA_DIR: folder });
      expect(move.code).toBe(1);
      expect(move.err).toMatch(/is running on this data folder: stop it first/);
    } finally {
      await server.stop();
    }
    const stopped = tool('backup.ts', [], { ...own, DATA_DIR: folder });
    expect(stopped.code, stopped.err).toBe(0);
    expect((await readBackupHeader(stopped.out.split('\n')[0])).tables.find((t) => t.table === 'store')!.rows).toBe(2);
    expect(fs.existsSync(path.join(folder, 'server.lock'))).toBe(false); // the command stopped what it started

    const move = tool('db-move.ts', [withDb(machinePg, name)], { ...own, DATA_DIR: folder });
    expect(move.code, move.err).toBe(0);
    const t = new pg.Client({ connectionString: withDb(machinePg, name) });
    await t.connect();
    try {
      expect((await t.query('select name from store order by id')).rows.map((r) => r.name)).toEqual(['Corner Shop', 'Second Shop']);
    } finally {
      await t.end();
    }
  }, 240_000); // four tool processes and two PostgreSQL starts: minutes on a busy 2-core machine

  it('says clearly when there is no shop database or DATABASE_URL cannot be reached', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-cli-empty-'));
    const none = tool('backup.ts', [], { ...own, DATA_DIR: empty });
    expect(none.code).toBe(1);
    expect(none.err).toMatch(/There is no shop database in /);
    expect(fs.readdirSync(empty)).toEqual([]);
    fs.rmSync(empty, { recursive: true, force: true });
    fs.writeFileSync(path.join(folder, 'x.posbak'), 'x');
    const unreachable = tool('restore.ts', [path.join(folder, 'x.posbak')], { DATABASE_URL: 'postgres://pos@127.0.0.1:1/pos' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toMatch(/Cannot reach the database of DATABASE_URL/);
    const unreachable2 = tool('backup.ts', [], { DATABASE_URL: 'postgres://pos@127.0.0.1:1/pos' });
    expect(unreachable2.code).toBe(1);
    expect(unreachable2.err).toMatch(/Cannot reach the database of DATABASE_URL at postgres:\/\/pos@127\.0\.0\.1:1\/pos/);
  });
});
