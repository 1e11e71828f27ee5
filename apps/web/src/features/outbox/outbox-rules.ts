import { HttpError, NetworkError } from '@/lib/api-client';
import { OutboxDb } from './outbox-db';

export const UPLOAD_LOCK = 'pos-outbox-upload';
/** A claim or lease older than this is taken over (a tab that died mid-upload). */
export const LEASE_MS = 60_000;
export const UPLOAD_TIMEOUT_MS = 30_000;
export const SYNC_INTERVAL_MS = 10_000;
/** Sent sales stay listed (reprint, "which number did it get?") this long. */
export const KEEP_SENT_MS = 7 * 24 * 3600_000;
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_MAX_MS = 30_000;

export interface SaleBodyLike {
  uuid: string;
  terminal?: number;
  total?: number;
  adjustment?: number;
  items?: unknown[];
  customer?: string | null;
  isSuspended?: boolean;
}

export interface SentOrder {
  id: number;
  orderId?: number | null;
}

export type SendSale = (body: SaleBodyLike, signal?: AbortSignal) => Promise<{ order: SentOrder }>;

export interface OutboxDeps {
  db: OutboxDb;
  /** POST /api/admin/order/create with the uuid as Idempotency-Key; throws HttpError / NetworkError. */
  send: SendSale;
  /** navigator.locks by default; null forces the IndexedDB lease. */
  locks?: Pick<LockManager, 'request'> | null;
  now?: () => number;
  /** A number in [0, 1) for the backoff's jitter (Math.random by default). */
  random?: () => number;
  tabId?: string;
  /** False while nobody is signed in (an upload would be a 401). */
  canUpload?: () => boolean;
}

export interface PassResult {
  /** False when another tab holds the lock (or this tab is already uploading). */
  ran: boolean;
  sent: string[];
  rejected: string[];
  failed: string[];
  /** The server could not be reached: the pass stopped early. */
  unreachable: boolean;
}

export type Outcome = 'sent' | 'rejected' | 'retry-later' | 'unreachable';

const UNREACHABLE_STATUSES = new Set([401, 408, 429, 502, 503, 504]);

/** yyyyMMdd in local time: the receipt's reference is per terminal and day. */
export function dayStamp(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
}

/** The server's reason, as a manager should read it. */
export function rejectionReason(error: unknown): string {
  if (error instanceof HttpError) {
    if (error.violations.length) return error.violations.map((v) => (v.propertyPath ? `${v.propertyPath}: ${v.message}` : v.message)).join('; ');
    return error.errorMessage || error.message || `HTTP ${error.status}`;
  }
  if (error instanceof Error && error.message) return error.message;
  return String(error);
}

export function classify(error: unknown): Outcome {
  if (error instanceof NetworkError) return 'unreachable';
  if (error instanceof DOMException && (error.name === 'AbortError' || error.name === 'TimeoutError')) return 'unreachable';
  if (error instanceof HttpError) {
    if (UNREACHABLE_STATUSES.has(error.status)) return 'unreachable';
    if (error.status >= 500) return 'retry-later';
    return 'rejected';
  }
  // Not an answer from the server (a bug, storage trouble): keep it and try again later.
  return 'unreachable';
}
