import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { P, type SyncPayload } from '@pos/domain/catalogue-sync';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { callerColumns, callerOf, type CallerRow } from '../../plugins/auth.ts';
import { openFullSync, SYNC_BATCH } from './catalogue-sync.service.ts';
import { CatalogueKeeper } from './catalogue-snapshot.ts';
import { loadConfig } from '../../config.ts';

/**
 * Issue 24: the full catalogue is read and sent batch by batch inside one snapshot. Here a batch is
 * 3 products over the demo shop and 600 more, so every answer spans hundreds of batches.
 */
const BATCH = 3;
let t: TestApp;
let adminH: Record<string, string>;
let base: string;
const pool = () => (t.app.db as unknown as { $client: pg.Pool }).$client;
/** Connections of the pool checked out right now. */
const busy = () => pool().totalCount - pool().idleCount;
/**
 * The connections still checked out once the app's own background work is done: the print sweep
 * (every 3 s) holds one for a few ms now and then, a leaked snapshot holds it for ever.
 */
const settled = async () => {
  for (let i = 0; i < 100 && busy() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return busy();
};

beforeAll(async () => {
  // Every answer read from the database here (the last describe keeps them on purpose).
  t = await createTestApp({ beforeReady: (app) => { app.decorate('syncBatchSize', BATCH); app.decorate('catalogueKeeper', new CatalogueKeeper(0)); } });
  adminH = await t.login('admin');
  await t.app.db.execute(sql`insert into product (name, sku, barcode, base_quantity, is_available, base_price, cost, purchase_unit, sale_unit, manage_inventory)
    select 'Stream Product ' || g, 'STREAM-' || g, (2100000000000 + g)::text, 1, true, 1.5, 1, 'pcs', 'pcs', false from generate_series(1, 600) g`);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => { await t?.close(); });

/** The ids the admin (every store) may sell, in id order, as the database has them now. */
async function sellableIds(): Promise<number[]> {
  const r = await t.app.db.execute(sql`select id from product where is_active order by id`);
  return (r as unknown as { rows: Array<{ id: number }> }).rows.map((x) => Number(x.id));
}

/**
 * The answer's products are one per line (catalogue-sync.routes.ts; the till reads them so as they
 * arrive, sync-lines.ts): the array's opening ends the first line, its end starts the last, and
 * every line between is one product, with a comma after all but the last.
 */
function expectOnePerLine(text: string) {
  const lines = text.split('\n');
  expect(lines[0].endsWith('"products":[')).toBe(true);
  expect(lines.at(-1)!.startsWith(']')).toBe(true);
  const between = lines.slice(1, -1);
  expect(between.slice(0, -1).every((l) => l.endsWith(','))).toBe(true);
  expect(between.map((l) => JSON.parse(l.replace(/,$/, '')) as unknown)).toEqual((JSON.parse(text) as SyncPayload).products);
}

const fullSync = async (headers: Record<string, string> = {}): Promise<{ payload: SyncPayload; encoding: unknown }> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, ...headers } });
  expect(res.statusCode, res.body).toBe(200);
  const text = res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(res.rawPayload).toString('utf8') : res.body;
  expectOnePerLine(text);
  return { payload: JSON.parse(text) as SyncPayload, encoding: res.headers['content-encoding'] };
};

describe('till catalogue sync: the full catalogue in batches', () => {
  it('sends every sellable product once, in id order, across batches, gzip or not; the same answer as one big batch', async () => {
    const ids = await sellableIds();
    expect(ids.length).toBeGreaterThan(BATCH * 100);
    const gz = await fullSync({ 'accept-encoding': 'gzip' });
    expect(gz.encoding).toBe('gzip');
    expect(gz.payload.full).toBe(true);
    expect(gz.payload.removed).toEqual([]);
    expect(gz.payload.products.map((r) => r[P.id])).toEqual(ids);
    const plain = await fullSync();
    expect(plain.encoding).toBeUndefined();
    expect(plain.payload.products).toEqual(gz.payload.products);
    // One batch for everything gives the same products (the answer does not depend on the batch size).
    t.app.syncBatchSize = SYNC_BATCH;
    try {
      const one = await fullSync({ 'accept-encoding': 'gzip' });
      expect(one.payload.products).toEqual(gz.payload.products);
      expect({ ...one.payload, cursor: '' }).toEqual({ ...gz.payload, cursor: '' });
    } finally {
      t.app.syncBatchSize = BATCH;
    }
    expect(await settled()).toBe(0);
  });

  it('is one snapshot: products changed by another connection between batches are read as they were', async () => {
    const before = (await fullSync()).payload.products;
    const ids = before.map((r) => r[P.id]);
    const sync = await openFullSync(t.app.db, { db: t.app.db, auth: await adminAuth() }, BATCH);
    const batches = sync.batches();
    const got: unknown[][] = [];
    const first = await batches.next();
    expect(first.done).toBe(false);
    got.push(...(first.value as string[]).map((j) => JSON.parse(j) as unknown[]));
    // Meanwhile, committed by other connections: a later product renamed, another deactivated, one
    // created, one deleted.
    const [renamed, deactivated, deleted] = [ids[ids.length - 5], ids[ids.length - 10], ids[ids.length - 1]];
    await t.app.db.execute(sql`update product set name = 'Renamed Mid-Stream' where id = ${renamed}`);
    await t.app.db.execute(sql`update product set is_active = false where id = ${deactivated}`);
    await t.app.db.execute(sql`delete from product where id = ${deleted}`);
    await t.app.db.execute(sql`insert into product (name, sku, barcode, base_quantity, is_available, base_price, cost, purchase_unit, sale_unit, manage_inventory)
      values ('Created Mid-Stream', 'MID-1', '2199999999999', 1, true, 2, 1, 'pcs', 'pcs', false)`);
    for await (const rows of batches) got.push(...rows.map((j) => JSON.parse(j) as unknown[]));
    expect(got.map((r) => r[P.id])).toEqual(ids); // no gap, no duplicate, nothing new, nothing gone
    expect(got).toEqual(before); // every product as it was when the snapshot began
    expect(await settled()).toBe(0); // the snapshot ended with its last batch
    await sync.close(); // idempotent
    // A new sync sees the changes.
    const after = (await fullSync()).payload.products;
    expect(after.find((r) => r[P.id] === renamed)?.[P.name]).toBe('Renamed Mid-Stream');
    expect(after.some((r) => r[P.id] === deactivated || r[P.id] === deleted)).toBe(false);
    expect(after.some((r) => r[P.name] === 'Created Mid-Stream')).toBe(true);
  });

  it('gives the connection and the sync slot back when the client goes away mid-stream', async () => {
    const admitted = t.app.admissionStats().sync.admitted;
    const aborted = await new Promise<{ busyAtFirstChunk: number; activeAtFirstChunk: number }>((resolve, reject) => {
      const req = http.get(`${base}/api/catalogue/sync`, { headers: { ...adminH, 'accept-encoding': 'gzip' } }, (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          // Hundreds of batches to go: the snapshot's connection and the sync slot are held...
          const seen = { busyAtFirstChunk: busy(), activeAtFirstChunk: t.app.admissionStats().sync.active };
          req.destroy(); // ...until the till goes away.
          resolve(seen);
        });
      });
      req.on('error', (e) => { if (!req.destroyed) reject(e); });
    });
    expect(aborted).toEqual({ busyAtFirstChunk: 1, activeAtFirstChunk: 1 });
    for (let i = 0; i < 100 && (busy() > 0 || t.app.admissionStats().sync.active > 0); i++) await new Promise((r) => setTimeout(r, 20));
    expect(busy()).toBe(0);
    expect(t.app.admissionStats().sync).toMatchObject({ active: 0, admitted: admitted + 1 });
    // The pool is healthy: the next sync is whole.
    expect((await fullSync({ 'accept-encoding': 'gzip' })).payload.products.map((r) => r[P.id])).toEqual(await sellableIds());
  });

  it('survives its database connection dying mid-stream: the answer is cut, the connection discarded, the next sync whole', async () => {
    const outcome = await new Promise<{ complete: boolean; killed: number }>((resolve, reject) => {
      const req = http.get(`${base}/api/catalogue/sync`, { headers: { ...adminH, 'accept-encoding': 'gzip' } }, (res) => {
        let killed = 0;
        res.once('data', () => {
          res.pause();
          // The snapshot's backend (the only open transaction but this statement's own) is terminated.
          void t.app.db.execute(sql`select pg_terminate_backend(pid) as k from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null and backend_type = 'client backend'`)
            .then((r) => { killed = (r as unknown as { rows: unknown[] }).rows.length; res.resume(); }, reject);
        });
        res.on('error', () => {});
        res.on('close', () => resolve({ complete: res.complete, killed }));
      });
      req.on('error', () => {});
    });
    expect(outcome).toEqual({ complete: false, killed: 1 });
    for (let i = 0; i < 100 && (busy() > 0 || t.app.admissionStats().sync.active > 0); i++) await new Promise((r) => setTimeout(r, 20));
    expect(busy()).toBe(0);
    expect(t.app.admissionStats().sync.active).toBe(0);
    expect((await fullSync({ 'accept-encoding': 'gzip' })).payload.products.map((r) => r[P.id])).toEqual(await sellableIds());
  });

  it('gives the connection back when the client goes away before the first byte is read', async () => {
    // A paused client: the server writes until the socket's buffers are full, then waits (backpressure).
    await new Promise<void>((resolve, reject) => {
      const req = http.get(`${base}/api/catalogue/sync`, { headers: adminH }, (res) => {
        res.pause();
        setTimeout(() => { req.destroy(); resolve(); }, 50);
      });
      req.on('error', (e) => { if (!req.destroyed) reject(e); });
    });
    for (let i = 0; i < 100 && busy() > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(busy()).toBe(0);
    expect(t.app.admissionStats().sync.active).toBe(0);
  });
});

/** The admin's AuthInfo, as the auth plugin reads it for a request. */
async function adminAuth() {
  const r = await t.app.db.execute(sql.raw(`select ${callerColumns('u')} from user_account u where u.username = 'admin'`));
  const auth = callerOf((r as unknown as { rows: CallerRow[] }).rows[0]);
  if (!auth) throw new Error('no admin');
  return auth;
}

describe('till catalogue sync: a till that stops reading', () => {
  it('is let go after the stall limit: its socket is closed, the connection and the sync slot are back', { timeout: 60_000 }, async () => {
    // An answer far bigger than the sockets' buffers (50,000 products with long names, ~15 MB not
    // gzipped, where loopback buffers hold up to ~10 MB),
    // in batches of 500, and a limit of 1 s instead of a minute.
    await t.app.db.execute(sql`insert into product (name, sku, barcode, base_quantity, is_available, base_price, cost, purchase_unit, sale_unit, manage_inventory)
      select 'Stalled Till Product ' || g || ' ' || repeat('long name ', 20), 'STALL-' || g, (2200000000000 + g)::text, 1, true, 1.5, 1, 'pcs', 'pcs', false
      from generate_series(1, 50000) g`);
    t.app.syncBatchSize = 500;
    t.app.syncStallMs = 1000;
    try {
      let res!: http.IncomingMessage;
      const closed = new Promise<boolean>((resolve) => {
        const req = http.get(`${base}/api/catalogue/sync`, { headers: adminH }, (r) => {
          res = r;
          r.once('data', () => r.pause()); // the till hangs after its first bytes
          r.on('error', () => {});
          r.on('close', () => resolve(r.complete));
        });
        req.on('error', () => {});
      });
      const released = () => busy() === 0 && t.app.admissionStats().sync.active === 0;
      for (let i = 0; i < 100 && !res; i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 300));
      // Held while the till is merely slow...
      expect(released()).toBe(false);
      // ...let go once it has stalled past the limit (1 s), while it still has not read on.
      const t0 = Date.now();
      while (!released() && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(released()).toBe(true);
      // The answer it gets when it wakes up is cut short, not whole.
      res.resume();
      expect(await closed).toBe(false);
    } finally {
      t.app.syncBatchSize = BATCH;
      t.app.syncStallMs = undefined;
      await t.app.db.execute(sql`delete from product where sku like 'STALL-%'`);
    }
  });
});

describe('till catalogue sync: a full catalogue kept for the next till (issue 24: cold start)', () => {
  const gzipped = { 'accept-encoding': 'gzip' };
  const withKeeper = async (keeper: CatalogueKeeper, fn: () => Promise<void>) => {
    const before = t.app.catalogueKeeper;
    t.app.catalogueKeeper = keeper;
    try { await fn(); } finally { keeper.close(); t.app.catalogueKeeper = before; }
  };

  it('sends the next till with the same stores the kept answer, its own id at the end; what changed since comes with ?since=', async () => {
    await withKeeper(new CatalogueKeeper(60_000), async () => {
      const first = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, ...gzipped } });
      const a = JSON.parse(zlib.gunzipSync(first.rawPayload).toString('utf8')) as SyncPayload;
      expect(a.products.map((r) => r[P.id])).toEqual(await sellableIds());
      // Read from the database while the connection was held; kept once complete.
      const renamed = a.products[10][P.id] as number;
      await t.app.db.execute(sql`update product set name = 'Renamed After The Kept Read', updated_at = now() where id = ${renamed}`);
      {
        const again = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, ...gzipped } });
        expect(again.headers['content-encoding']).toBe('gzip');
        // From the kept file: its length is known, no database connection was taken for it.
        expect(Number(again.headers['content-length'])).toBe(again.rawPayload.length);
        const keptText = zlib.gunzipSync(again.rawPayload).toString('utf8');
        expectOnePerLine(keptText);
        const b = JSON.parse(keptText) as SyncPayload;
        expect(b).toEqual(a); // the same snapshot: cursor, dictionaries, products as they were
        expect(b.products.find((r) => r[P.id] === renamed)?.[P.name]).not.toBe('Renamed After The Kept Read');
        // The till asks what changed since that cursor (the loader does it at once) and gets the rename.
        const delta = await t.app.inject({ method: 'GET', url: `/api/catalogue/sync?since=${encodeURIComponent(b.cursor)}`, headers: { ...adminH } });
        expectOnePerLine(delta.body);
        const d = JSON.parse(delta.body) as SyncPayload;
        expect(d.full).toBe(false);
        expect(d.products.find((r) => r[P.id] === renamed)?.[P.name]).toBe('Renamed After The Kept Read');

        // A cashier (one store, no costs) is never sent the admin's answer: theirs is read for them, with their id.
        const cashierH = await t.login('cashier');
        const theirs = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...cashierH, ...gzipped } });
        const c = JSON.parse(zlib.gunzipSync(theirs.rawPayload).toString('utf8')) as SyncPayload;
        const plain = JSON.parse((await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: cashierH })).body) as SyncPayload;
        expect(c.userId).toBe(plain.userId);
        expect(c.userId).not.toBe(a.userId);
        expect(c.products).toEqual(plain.products);
        expect(c.dict).toEqual(plain.dict);
      }
    });
  });

  it('keeps the same text for every caller: only the id at its end differs, and the gzip is whole', async () => {
    const keeper = new CatalogueKeeper(60_000);
    try {
      async function* text() { yield '{"a":['; for (let i = 0; i < 5000; i++) yield `${i ? ',' : ''}"row ${i} é ش"`; yield ']'; }
      const recorded: Buffer[] = [];
      for await (const b of keeper.record('k', text(), ',"userId":1}')) recorded.push(b as Buffer);
      const one = JSON.parse(zlib.gunzipSync(Buffer.concat(recorded)).toString('utf8')) as { a: string[]; userId: number };
      expect(one.a).toHaveLength(5000);
      expect(one.a[4999]).toBe('row 4999 é ش');
      expect(one.userId).toBe(1);
      const kept = keeper.get('k')!;
      const { body, bytes } = keeper.answer(kept, ',"userId":22}');
      const sent: Buffer[] = [];
      for await (const b of body) sent.push(b as Buffer);
      const whole = Buffer.concat(sent);
      expect(whole.length).toBe(bytes);
      // gunzip checks the CRC-32 and the length in the trailer.
      const two = JSON.parse(zlib.gunzipSync(whole).toString('utf8')) as { a: string[]; userId: number };
      expect(two).toEqual({ ...one, userId: 22 });
      expect(keeper.get('other')).toBeNull();
      expect(keeper.get('k', Date.now() + 60_000)).toBeNull(); // too old: dropped
      expect(keeper.get('k')).toBeNull();
    } finally {
      keeper.close();
    }
  });

  it('sends the whole answer when its file cannot be written (the folder gone), and keeps nothing', async () => {
    const keeper = new CatalogueKeeper(60_000);
    try {
      async function* text() { yield '{"a":['; for (let i = 0; i < 20_000; i++) yield `${i ? ',' : ''}"row ${i} ${i * 7919}"`; yield ']'; }
      const answer = keeper.record('k', text(), ',"userId":3}');
      // The file is opened when the answer is first read: its folder is gone by then.
      fs.rmSync((keeper as unknown as { dir: string }).dir, { recursive: true, force: true });
      const sent: Buffer[] = [];
      for await (const b of answer) sent.push(b as Buffer);
      const whole = JSON.parse(zlib.gunzipSync(Buffer.concat(sent)).toString('utf8')) as { a: string[]; userId: number };
      expect(whole.a).toHaveLength(20_000);
      expect(whole.userId).toBe(3);
      expect(keeper.get('k')).toBeNull();
    } finally {
      keeper.close();
    }
  });

  it('keeps nothing when the till went away before the end, nor with keeping off', async () => {
    await withKeeper(new CatalogueKeeper(60_000), async () => {
      await new Promise<void>((resolve, reject) => {
        const req = http.get(`${base}/api/catalogue/sync`, { headers: { ...adminH, ...gzipped } }, (res) => {
          res.once('data', () => { req.destroy(); resolve(); });
        });
        req.on('error', (e) => { if (!req.destroyed) reject(e); });
      });
      for (let i = 0; i < 100 && (busy() > 0 || t.app.admissionStats().sync.active > 0); i++) await new Promise((r) => setTimeout(r, 20));
      expect(busy()).toBe(0);
      // Nothing was kept: the next answer is read from the database (it has no length up front).
      const next = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, ...gzipped } });
      expect(next.headers['content-length']).toBeUndefined();
      expect((JSON.parse(zlib.gunzipSync(next.rawPayload).toString('utf8')) as SyncPayload).products.map((r) => r[P.id])).toEqual(await sellableIds());
    });
    await withKeeper(new CatalogueKeeper(0), async () => {
      for (let i = 0; i < 2; i++) {
        const res = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, ...gzipped } });
        expect(res.headers['content-length']).toBeUndefined();
      }
    });
  });

  it('is set by CATALOGUE_KEEP_S in seconds (five minutes unset, 0 keeps none); a wrong value stops the start', () => {
    expect(loadConfig({}).catalogueKeepMs).toBe(300_000);
    expect(loadConfig({ CATALOGUE_KEEP_S: '' }).catalogueKeepMs).toBe(300_000);
    expect(loadConfig({ CATALOGUE_KEEP_S: '0' }).catalogueKeepMs).toBe(0);
    expect(loadConfig({ CATALOGUE_KEEP_S: '30' }).catalogueKeepMs).toBe(30_000);
    expect(() => loadConfig({ CATALOGUE_KEEP_S: '-1' })).toThrow(/CATALOGUE_KEEP_S/);
    expect(() => loadConfig({ CATALOGUE_KEEP_S: 'five' })).toThrow(/CATALOGUE_KEEP_S/);
  });
});
