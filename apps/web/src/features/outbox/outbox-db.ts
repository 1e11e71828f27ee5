/**
 * The till's outbox: sales completed without a server answer, kept in IndexedDB ('pos-outbox')
 * until the server has stored them. One row per sale, keyed by the sale's client uuid (also the
 * Idempotency-Key of every upload), so the same sale can never be queued twice.
 */
import { type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames, deleteDB, openDB } from 'idb';

export const OUTBOX_DB_NAME = 'pos-outbox';

/**
 * pending: waiting for upload (maybe after a failed attempt, see nextAttemptAt);
 * uploading: claimed by one tab, request in flight; rejected: the server refused it (lastError says
 * why) and a manager must retry or discard it; sent: stored by the server (orderId = its number).
 */
export type OutboxStatus = 'pending' | 'uploading' | 'rejected' | 'sent';

export interface OutboxSale<B = Record<string, unknown>> {
  /** The sale's client id: primary key, body.uuid and the Idempotency-Key. */
  uuid: string;
  /** The exact body POSTed to /api/admin/order/create (never changed: the server hashes it). */
  body: B;
  /** ISO time the sale was queued. */
  createdAt: string;
  /** Queue order (monotonic across tabs): uploads go in this order. */
  seq: number;
  status: OutboxStatus;
  attempts: number;
  lastError: string | null;
  /** HTTP status of the last failed attempt (null: no answer). */
  lastStatus: number | null;
  /** Earliest time (ms) of the next automatic attempt (backoff). */
  nextAttemptAt: number;
  /** The receipt's reference until the server numbers the order: `T1-20250131-007`. */
  localRef: string;
  /** The server's order number (and id) once sent. */
  orderId?: number | null;
  serverId?: number | null;
  sentAt?: string | null;
  /** The tab that claimed it for upload, and when (a stale claim is taken over). */
  claimedBy?: string | null;
  claimedAt?: number | null;
  /** Shown in the list: what the sale was (the receipt's figures live in body). */
  summary?: { total: number; lines: number; customer: string | null; held: boolean };
}

export interface OutboxMeta {
  key: string;
  value: number;
  owner?: string;
  expiresAt?: number;
}

interface OutboxSchema extends DBSchema {
  sales: { key: string; value: OutboxSale; indexes: { seq: number; status: string; '[status+seq]': [string, number]; sentAt: string } };
  meta: { key: string; value: OutboxMeta };
}

type Store = StoreNames<OutboxSchema>;
export type OutboxTx<S extends Store[]> = IDBPTransaction<OutboxSchema, S, 'readwrite'>;

/**
 * The native IndexedDB version: the database was created by Dexie's `version(1)`, which Dexie
 * stores as version 10. Opening with the same number and the same stores and indexes (what Dexie
 * made: `sales` keyed by uuid with indexes seq, status, [status+seq] and sentAt; `meta` keyed by
 * key) lets a till's existing outbox, unsent sales included, open unchanged.
 */
export const OUTBOX_DB_VERSION = 10;

/**
 * The outbox database (idb over IndexedDB). Writes go through `write`, which tells watchers in
 * this tab and, over a BroadcastChannel, in the till's other tabs, so the counter follows them.
 */
export class OutboxDb {
  readonly name: string;
  private conn: Promise<IDBPDatabase<OutboxSchema>> | null = null;
  private readonly watchers = new Set<() => void>();
  private channel: BroadcastChannel | null = null;

  constructor(name = OUTBOX_DB_NAME) {
    this.name = name;
  }

  open(): Promise<IDBPDatabase<OutboxSchema>> {
    this.conn ??= openDB<OutboxSchema>(this.name, OUTBOX_DB_VERSION, {
      upgrade(db) {
        if (!db.objectStoreNames.contains('sales')) {
          const sales = db.createObjectStore('sales', { keyPath: 'uuid' });
          sales.createIndex('seq', 'seq');
          sales.createIndex('status', 'status');
          sales.createIndex('[status+seq]', ['status', 'seq']);
          sales.createIndex('sentAt', 'sentAt');
        }
        if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta', { keyPath: 'key' });
      },
      // A newer version of the app upgrades the database in another tab: let it, reopen on next use.
      blocking: () => this.close(),
    });
    return this.conn;
  }

  /** Runs `fn` in one read-write transaction (only IndexedDB calls may be awaited inside), then tells the watchers. */
  async write<S extends Store[], T>(stores: S, fn: (tx: OutboxTx<S>) => Promise<T>): Promise<T> {
    const db = await this.open();
    const tx = db.transaction(stores, 'readwrite');
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      // Nothing half-written: the transaction is rolled back (it may have aborted itself already).
      try { tx.abort(); } catch { /* already finished */ }
      await tx.done.catch(() => {});
      throw error;
    }
    await tx.done;
    if (stores.includes('sales')) this.changed(true);
    return result;
  }

  /** One sale, or undefined. */
  async sale(uuid: string): Promise<OutboxSale | undefined> {
    return (await this.open()).get('sales', uuid);
  }

  /** Every queued sale (sent ones too, for reprints) in queue order. */
  async sales(): Promise<OutboxSale[]> {
    return (await this.open()).getAllFromIndex('sales', 'seq');
  }

  async count(): Promise<number> {
    return (await this.open()).count('sales');
  }

  /** Changes the fields of one sale (nothing when it is gone); true when it was there. */
  update(uuid: string, patch: Partial<OutboxSale>): Promise<boolean> {
    return this.write(['sales'], async (tx) => {
      const row = await tx.objectStore('sales').get(uuid);
      if (row) await tx.objectStore('sales').put({ ...row, ...patch, uuid });
      return !!row;
    });
  }

  /** Calls `listener` after every change of the sales, made in this tab or another one. */
  watch(listener: () => void): () => void {
    this.watchers.add(listener);
    this.broadcast();
    return () => this.watchers.delete(listener);
  }

  /** The channel the till's tabs tell each other about changes on (one per connection, kept open). */
  private broadcast(): BroadcastChannel | null {
    if (!this.channel && typeof BroadcastChannel !== 'undefined') {
      this.channel = new BroadcastChannel(`${this.name}:changed`);
      this.channel.onmessage = () => this.changed(false);
      // Node (tests): an open channel must not keep the process alive.
      (this.channel as BroadcastChannel & { unref?: () => void }).unref?.();
    }
    return this.channel;
  }

  private changed(local: boolean) {
    for (const w of [...this.watchers]) w();
    if (local) this.broadcast()?.postMessage('sales');
  }

  close(): void {
    const conn = this.conn;
    this.conn = null;
    void conn?.then((db) => db.close(), () => {});
  }

  /** Deletes the whole database (tests). */
  async delete(): Promise<void> {
    this.close();
    this.channel?.close();
    this.channel = null;
    await deleteDB(this.name);
  }
}
let shared: OutboxDb | null = null;
export function outboxDb(): OutboxDb {
  shared ??= new OutboxDb();
  return shared;
}
