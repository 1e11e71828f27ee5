import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { CacheDb, HEADER_KEY } from '@/features/catalogue-cache/cache-db';
import { OutboxDb, type OutboxSale } from './outbox-db';
import { Outbox } from './outbox';
import type { SendSale } from './outbox-rules';

/**
 * Until issue 24 Dexie 4 created the till's databases. What it left on disk, read back from a
 * database Dexie 4.4.7 made (fake-indexeddb): native version = Dexie version × 10;
 *   pos-outbox      v10: sales (keyPath uuid; indexes seq, status, [status+seq] = ['status','seq'], sentAt), meta (keyPath key)
 *   pos application v20: list, discountList, taxList, paymentTypesList, deviceList, settingList (keyPath id),
 *                        meta (keyPath key), productChunks (keyPath key); no indexes
 * These fixtures build exactly that with raw IndexedDB, write what a till had in it, and open it
 * with the new code: the unsent sales must survive the upgrade.
 */
function rawOpen(name: string, version: number, upgrade: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, version);
    req.onupgradeneeded = () => upgrade(req.result);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function rawPut(db: IDBDatabase, store: string, rows: unknown[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, 'readwrite');
    for (const r of rows) tx.objectStore(store).put(r);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

async function dexieOutbox(name: string, sales: OutboxSale[], seq: number): Promise<void> {
  const db = await rawOpen(name, 10, (d) => {
    d.createObjectStore('meta', { keyPath: 'key' });
    const s = d.createObjectStore('sales', { keyPath: 'uuid' });
    s.createIndex('[status+seq]', ['status', 'seq']);
    s.createIndex('sentAt', 'sentAt');
    s.createIndex('seq', 'seq');
    s.createIndex('status', 'status');
  });
  await rawPut(db, 'sales', sales);
  await rawPut(db, 'meta', [{ key: 'seq', value: seq }]);
  db.close();
}

const oldSale = (uuid: string, seq: number, status: OutboxSale['status'] = 'pending'): OutboxSale => ({
  uuid, seq, status, body: { uuid, terminal: 1 }, createdAt: '2026-11-26T18:00:00.000Z', attempts: 2, lastError: null, lastStatus: null,
  nextAttemptAt: 0, localRef: `T1-20261126-00${seq}`, orderId: status === 'sent' ? 7 : null, serverId: null, sentAt: status === 'sent' ? new Date().toISOString() : null,
  claimedBy: null, claimedAt: null, summary: { total: 12.5, lines: 1, customer: null, held: false },
});

describe('a till upgraded from the Dexie version', () => {
  it('keeps its unsent sales, counts on from their sequence and uploads them in order', async () => {
    await dexieOutbox('dexie-outbox-1', [oldSale('old-2', 2), oldSale('old-1', 1), oldSale('done', 3, 'sent')], 3);
    const calls: string[] = [];
    const send: SendSale = async (body) => {
      calls.push(body.uuid);
      return { order: { id: calls.length, orderId: calls.length } };
    };
    const box = new Outbox({ db: new OutboxDb('dexie-outbox-1'), send, locks: null });

    expect((await box.unsent()).map((r) => r.localRef)).toEqual(['T1-20261126-001', 'T1-20261126-002']);
    const fresh = await box.enqueue({ uuid: 'new', terminal: 1 }, { terminalCode: 'T1' });
    expect(fresh.seq).toBe(4);
    expect((await box.uploadPending()).sent).toEqual(['old-1', 'old-2', 'new']);
    expect(calls).toEqual(['old-1', 'old-2', 'new']);
    expect((await box.db.sale('done'))?.orderId).toBe(7);

    const db = await box.db.open();
    expect(db.version).toBe(10);
    expect([...db.transaction('sales').store.indexNames].sort()).toEqual(['[status+seq]', 'sentAt', 'seq', 'status']);
    await box.db.delete();
  });

  it('keeps the cached catalogue of version 2 and empties the product rows of version 1', async () => {
    const lists = ['list', 'discountList', 'taxList', 'paymentTypesList', 'deviceList', 'settingList'];
    const v1 = await rawOpen('dexie-cache-1', 10, (d) => {
      for (const l of lists) d.createObjectStore(l, { keyPath: 'id' });
      d.createObjectStore('meta', { keyPath: 'key' });
    });
    await rawPut(v1, 'list', [{ id: 1, name: 'Tea' }]);
    await rawPut(v1, 'taxList', [{ id: 5, name: 'VAT' }]);
    await rawPut(v1, 'meta', [{ key: 'list', complete: true, loadedAt: 'x', count: 1 }, { key: 'taxList', complete: true, loadedAt: 'x', count: 1 }]);
    v1.close();

    const fromV1 = new CacheDb('dexie-cache-1');
    expect(await fromV1.list('list')).toEqual([]);
    expect(await fromV1.isComplete('list')).toBe(false);
    expect(await fromV1.isComplete('taxList')).toBe(true);
    expect(await fromV1.list('taxList')).toEqual([{ id: 5, name: 'VAT' }]);
    await fromV1.writeChunks([{ key: HEADER_KEY, json: '{"cursor":"c1"}' }]);
    fromV1.close();

    // Opened again at the same version (20, Dexie's version 2): nothing is cleared.
    const again = new CacheDb('dexie-cache-1');
    expect((await again.open()).version).toBe(20);
    expect(await again.chunk(HEADER_KEY)).toEqual({ key: HEADER_KEY, json: '{"cursor":"c1"}' });
    expect(await again.list('taxList')).toEqual([{ id: 5, name: 'VAT' }]);
    await again.delete();
  });
});
