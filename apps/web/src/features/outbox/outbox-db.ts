/**
 * The till's outbox: sales completed without a server answer, kept in IndexedDB ('pos-outbox')
 * until the server has stored them. One row per sale, keyed by the sale's client uuid (also the
 * Idempotency-Key of every upload), so the same sale can never be queued twice.
 */
import Dexie, { type Table } from 'dexie';

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

export class OutboxDb extends Dexie {
  sales!: Table<OutboxSale, string>;
  meta!: Table<OutboxMeta, string>;

  constructor(name = OUTBOX_DB_NAME) {
    super(name);
    this.version(1).stores({
      sales: 'uuid, seq, status, [status+seq], sentAt',
      meta: 'key',
    });
  }
}

let shared: OutboxDb | null = null;
export function outboxDb(): OutboxDb {
  shared ??= new OutboxDb();
  return shared;
}
