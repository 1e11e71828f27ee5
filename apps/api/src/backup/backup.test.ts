import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sell, stockFixture, type StockFixture } from '../modules/stock/stock.fixtures.ts';
import { multipart } from '../modules/catalogue/test-support.ts';
import { tableChecks, type Queryable, type TableCheck } from '../db/table-checks.ts';
import { knownMigrations } from './schema-level.ts';

/**
 * Issue 20.5: backup -> more sales -> restore -> the database equals the backup; files that are
 * not a backup of this release (damaged, foreign, newer schema) are refused with nothing changed.
 * The real app, its routes and a real PostgreSQL.
 */
let f: StockFixture;
let dir: string;
const pool = () => (f.t.app.database.db as unknown as { $client: Queryable }).$client;
const checks = () => tableChecks(pool());
const backupsOnDisk = () => fs.readdirSync(path.join(dir, 'backups')).filter((n) => n.endsWith('.posbak')).sort();
const rows = async (sql: string) => (await pool().query<Record<string, unknown>>(sql)).rows;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-backup-test-'));
  f = await stockFixture();
  (f.t.app.config as { dataDir: string }).dataDir = dir;
});
afterAll(async () => {
  await f?.t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const take = () => f.t.app.inject({ method: 'POST', url: '/api/admin/backups', headers: f.admin });
const restore = (content: Buffer, headers = f.admin) => f.t.app.inject({ method: 'POST', url: '/api/admin/backups/restore', headers: { ...headers, ...multipart(content, 'file', 'shop.posbak').headers }, payload: multipart(content, 'file', 'shop.posbak').payload });
const download = async (name: string) => {
  const res = await f.t.app.inject({ method: 'GET', url: `/api/admin/backups/${name}`, headers: { ...f.admin, 'accept-encoding': 'br, gzip' } });
  expect(res.statusCode).toBe(200);
  // Sent as it is (gzip already), with its length, as an attachment under its own name.
  expect(res.headers['content-encoding']).toBeUndefined();
  expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
  expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}"`);
  return res.rawPayload;
};

/** A copy of a real backup with its header changed by `edit`. */
function withHeader(file: Buffer, edit: (h: any) => void): Buffer {
  const text = zlib.gunzipSync(file);
  const first = text.indexOf(10);
  const second = text.indexOf(10, first + 1);
  const header = JSON.parse(text.subarray(first + 1, second).toString());
  edit(header);
  return zlib.gzipSync(Buffer.concat([text.subarray(0, first + 1), Buffer.from(JSON.stringify(header)), text.subarray(second)]));
}

describe('backup and restore through the back office', () => {
  let file: Buffer;
  let atBackup: TableCheck[];
  let name: string;
  let saleAfter: { id: number };

  it('takes a backup now: a file in DATA_DIR/backups with the figures of every table', async () => {
    await sell(f, f.A, 2);
    const res = await take();
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    name = body.backup.name;
    expect(name).toMatch(/^pos-.*-manual\.posbak$/);
    expect(body.migration).toBe(knownMigrations().at(-1)!.tag);
    atBackup = await checks();
    expect(body.rows).toBe(atBackup.reduce((n, c) => n + c.rows, 0));
    expect(backupsOnDisk()).toEqual([name]);
    expect(fs.statSync(path.join(dir, 'backups', name)).mode & 0o777).toBe(0o600);
    const list = (await f.t.app.inject({ method: 'GET', url: '/api/admin/backups', headers: f.admin })).json();
    expect(list.last).toMatchObject({ name, kind: 'manual', size: body.backup.size });
    file = await download(name);
    expect(file.length).toBe(body.backup.size);
  });

  it('restore brings back exactly the backup: the sale made after it is gone, sequences too', async () => {
    saleAfter = await sell(f, f.B, 3);
    await sell(f, f.A, 1);
    expect(await checks()).not.toEqual(atBackup);
    const [{ last }] = await rows(`select last_value::text as last from order_id_seq`);
    const res = await restore(file);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().restored).toMatchObject({ rows: atBackup.reduce((n, c) => n + c.rows, 0), migration: knownMigrations().at(-1)!.tag });
    expect(await checks()).toEqual(atBackup);
    expect(await rows(`select id from "order" where id = ${saleAfter.id}`)).toEqual([]);
    // The sequence is the backup's again: the next sale takes the number the lost one had.
    const [{ last: now }] = await rows(`select last_value::text as last from order_id_seq`);
    expect(Number(now)).toBeLessThan(Number(last));
    const next = await sell(f, f.B, 1);
    expect(next.id).toBe(saleAfter.id);
    // The data replaced was kept as a pre-restore backup first, and is listed.
    const before = res.json().before;
    expect(before.kind).toBe('pre-restore');
    expect(backupsOnDisk()).toContain(before.name);
  });

  it('refuses a damaged, a foreign and a newer-schema file naming the file, nothing changed', async () => {
    const now = await checks();
    const files = backupsOnDisk();
    const damaged = Buffer.from(file);
    for (let i = Math.floor(damaged.length / 2); i < damaged.length / 2 + 64; i++) damaged[i] ^= 0x5a;
    const cut = file.subarray(0, Math.floor(file.length * 0.7));
    const foreign = zlib.gzipSync('-- PostgreSQL database dump\nCREATE TABLE x (id int);\n');
    const notGzip = Buffer.from('id,name\n1,Milk\n');
    const newer = withHeader(file, (h) => { h.migration = { tag: '0099_future', hash: 'f'.repeat(64), createdAt: h.migration.createdAt + 1e9, count: 99 }; });
    const lying = withHeader(file, (h) => { h.tables.find((t: TableCheck) => t.table === 'order').rows += 1; });
    // A row PostgreSQL refuses while the file is still being read (an extra column in the first row).
    const plain = zlib.gunzipSync(file);
    // The first row of the first table that has rows (an empty table is just its end marker "\\.").
    let rowStart = plain.indexOf(10, plain.indexOf(10) + 1) + 1;
    while (plain.subarray(rowStart, rowStart + 3).toString() === '\\.\n') rowStart += 3;
    const rowEnd = plain.indexOf(10, rowStart);
    const badRow = zlib.gzipSync(Buffer.concat([plain.subarray(0, rowEnd), Buffer.from('\textra'), plain.subarray(rowEnd)]));
    for (const [bad, why] of [[damaged, /damaged|cut short/], [cut, /damaged|cut short/], [foreign, /not a POS backup/], [notGzip, /not a POS backup/],
      [newer, /newer release.*0099_future/], [lying, /does not match its own header/], [badRow, /cannot be loaded \(extra data after last expected column\)/]] as const) {
      const res = await restore(bad);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().violations[0].propertyPath).toBe('file');
      expect(res.json().violations[0].message).toMatch(why);
      expect(await checks()).toEqual(now);
    }
    // A file refused at its header costs no safety copy; damage found while loading may leave one.
    const added = backupsOnDisk().filter((n) => !files.includes(n));
    expect(added.every((n) => n.endsWith('-pre-restore.posbak'))).toBe(true);
    expect(added.length).toBeLessThanOrEqual(4);
  });

  it('is for the owner only: cashiers and anonymous callers are refused, names are checked', async () => {
    for (const [method, url] of [['GET', '/api/admin/backups'], ['POST', '/api/admin/backups'], ['GET', `/api/admin/backups/${name}`], ['POST', '/api/admin/backups/restore']] as const) {
      expect((await f.t.app.inject({ method, url, headers: f.cashier })).statusCode).toBe(403);
      expect((await f.t.app.inject({ method, url })).statusCode).toBe(401);
    }
    for (const bad of ['..%2Fjwt-secret', 'pos-2026-01-01T00-00-00-000Z-daily.posbak', 'server.lock']) {
      expect((await f.t.app.inject({ method: 'GET', url: `/api/admin/backups/${bad}`, headers: f.admin })).statusCode).toBe(404);
    }
    const empty = await f.t.app.inject({ method: 'POST', url: '/api/admin/backups/restore', headers: f.admin });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().violations[0].propertyPath).toBe('file');
  });

  it('is in the OpenAPI document with its access rule', async () => {
    const doc = (await f.t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    expect(doc.paths['/api/admin/backups'].post['x-access']).toBe('settings');
    expect(doc.paths['/api/admin/backups/restore'].post['x-access']).toBe('settings');
    expect(doc.paths['/api/admin/backups/{name}'].get.tags).toEqual(['Backups']);
  });
});
