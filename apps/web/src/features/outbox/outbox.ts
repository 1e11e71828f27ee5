/**
 * Offline selling (issue 9): a completed sale that got no server answer is queued here and uploaded
 * when the server is reachable again — in queue order, one at a time, each with its own client id
 * as the Idempotency-Key, so a retry after a lost answer is stored once (the sales engine answers a
 * repeated key with the first result). Nothing leaves the queue silently:
 *
 *   2xx                       -> 'sent' with the server's order number (kept 7 days for reprints)
 *   no answer, 408, 429, 401,
 *   502/503/504               -> stays 'pending'; the server is unreachable: the pass stops and the
 *                                next automatic one waits (backoff, 2 s doubling up to 30 s, with
 *                                jitter so tills that lost the server together do not return together);
 *                                a 503 `BUSY` (the server shedding load) marks the server busy, not gone
 *   500 (or other 5xx)        -> stays 'pending' with its own backoff; the pass goes on with the next sale
 *   other 4xx (400/403/409/422) -> 'rejected' with the server's reason, for a manager to retry or discard
 *
 * Two tabs never upload the same sale: a pass runs under the Web Lock 'pos-outbox-upload'
 * (or, without the Web Locks API, under a lease row written in an IndexedDB transaction), and each
 * sale is claimed ('uploading', claimedBy this tab) in a transaction before its request.
 */
import { HttpError } from '@/lib/api-client';
import { backoffMs, isServerBusy } from '@/lib/backoff';
import { OutboxDb, type OutboxSale } from './outbox-db';
import { BACKOFF_BASE_MS, BACKOFF_MAX_MS, KEEP_SENT_MS, LEASE_MS, type OutboxDeps, type Outcome, type PassResult, type SaleBodyLike, type SendSale, type SentOrder, UPLOAD_LOCK, UPLOAD_TIMEOUT_MS, classify, dayStamp, rejectionReason } from './outbox-rules';

const newTabId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `tab-${Math.random().toString(36).slice(2)}`);

export class Outbox {
  readonly db: OutboxDb;
  private readonly send: SendSale;
  private readonly locks: Pick<LockManager, 'request'> | null;
  private readonly now: () => number;
  private readonly random: () => number;
  readonly tabId: string;
  private readonly canUpload: () => boolean;
  private running: Promise<PassResult> | null = null;
  private again = false;
  private pausedUntil = 0;
  private failures = 0;
  private listeners = new Set<() => void>();
  /** Did the last upload get an answer? null: no upload tried yet on this page. */
  reachable: boolean | null = null;
  /** The server answered 503 BUSY on the last attempt (it is shedding load; the sales wait here). */
  busy = false;

  constructor(deps: OutboxDeps) {
    this.db = deps.db;
    this.send = deps.send;
    const nav = typeof navigator !== 'undefined' ? (navigator as Navigator & { locks?: LockManager }) : undefined;
    this.locks = deps.locks === undefined ? (nav?.locks ?? null) : deps.locks;
    this.now = deps.now ?? (() => Date.now());
    this.random = deps.random ?? Math.random;
    this.tabId = deps.tabId ?? newTabId();
    this.canUpload = deps.canUpload ?? (() => true);
  }

  /**
   * Queues a sale (idempotent: the same uuid is queued once) and gives it its local reference
   * `<terminal>-<yyyyMMdd>-<seq>`. Sequence numbers are taken in the same transaction, so two
   * tabs of one till never hand out the same reference.
   */
  async enqueue(body: SaleBodyLike, opts: { terminalCode: string; summary?: OutboxSale['summary'] }): Promise<OutboxSale> {
    const { db } = this;
    const now = this.now();
    const row = await db.write(['sales', 'meta'], async (tx) => {
      const sales = tx.objectStore('sales');
      const meta = tx.objectStore('meta');
      const existing = await sales.get(body.uuid);
      if (existing) return existing;
      const seq = ((await meta.get('seq'))?.value ?? 0) + 1;
      await meta.put({ key: 'seq', value: seq });
      const code = opts.terminalCode || `T${body.terminal ?? ''}`;
      const refKey = `ref:${code}:${dayStamp(now)}`;
      const n = ((await meta.get(refKey))?.value ?? 0) + 1;
      await meta.put({ key: refKey, value: n });
      const sale: OutboxSale = {
        uuid: body.uuid,
        body: body as unknown as Record<string, unknown>,
        createdAt: new Date(now).toISOString(),
        seq,
        status: 'pending',
        attempts: 0,
        lastError: null,
        lastStatus: null,
        nextAttemptAt: 0,
        localRef: `${code}-${dayStamp(now)}-${String(n).padStart(3, '0')}`,
        orderId: null,
        serverId: null,
        sentAt: null,
        claimedBy: null,
        claimedAt: null,
        summary: opts.summary,
      };
      await sales.add(sale);
      return sale;
    });
    return row;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setReachable(value: boolean, busy = false) {
    if (this.reachable === value && this.busy === busy) return;
    this.reachable = value;
    this.busy = busy;
    for (const l of this.listeners) l();
  }

  /** Unsent sales: pending, uploading and rejected (what the till's counter shows). */
  async unsent(): Promise<OutboxSale[]> {
    return (await this.db.sales()).filter((r) => r.status !== 'sent');
  }

  /**
   * One upload pass. `force` ignores the backoff (the Retry button, the browser coming back online).
   * Resolves at once with ran=false when another tab is uploading.
   */
  uploadPending({ force = false }: { force?: boolean } = {}): Promise<PassResult> {
    if (this.running) {
      // A trigger during a pass: run once more afterwards (a sale queued meanwhile is picked up anyway).
      if (force) this.again = true;
      return this.running;
    }
    const idle: PassResult = { ran: false, sent: [], rejected: [], failed: [], unreachable: false };
    if (!this.canUpload()) return Promise.resolve(idle);
    if (!force && this.now() < this.pausedUntil) return Promise.resolve(idle);
    this.running = this.withLock((exclusive) => this.pass(force, exclusive))
      .then((r) => r ?? idle)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          void this.uploadPending({ force: true });
        }
      });
    return this.running;
  }

  /** Back in the queue at once (a rejected sale after the manager fixed the cause, or any pending one). */
  async retry(uuid: string): Promise<void> {
    await this.db.write(['sales'], async (tx) => {
      const r = await tx.objectStore('sales').get(uuid);
      if (r && (r.status === 'rejected' || r.status === 'pending')) await tx.objectStore('sales').put({ ...r, status: 'pending', nextAttemptAt: 0 });
    });
  }

  /** Retry everything unsent now. */
  async retryAll(): Promise<PassResult> {
    await this.db.write(['sales'], async (tx) => {
      const sales = tx.objectStore('sales');
      for (const r of await sales.getAll()) {
        if (r.status === 'pending' || r.status === 'rejected') await sales.put({ ...r, status: 'pending', nextAttemptAt: 0 });
      }
    });
    this.pausedUntil = 0;
    return this.uploadPending({ force: true });
  }

  /** A manager's decision: drop a REJECTED sale (never a pending one: it may be on its way). */
  async discard(uuid: string): Promise<boolean> {
    return this.db.write(['sales'], async (tx) => {
      const row = await tx.objectStore('sales').get(uuid);
      if (!row || row.status !== 'rejected') return false;
      await tx.objectStore('sales').delete(uuid);
      return true;
    });
  }

  /** Half the doubled delay plus a random part of the other half ("equal jitter"); never sooner than a busy server's Retry-After. */
  private backoff(attempts: number, retryAfterS: number | null = null): number {
    return backoffMs(attempts, { baseMs: BACKOFF_BASE_MS, maxMs: BACKOFF_MAX_MS, random: this.random, retryAfterS });
  }

  private async pass(force: boolean, exclusive: boolean): Promise<PassResult> {
    const result: PassResult = { ran: true, sent: [], rejected: [], failed: [], unreachable: false };
    await this.prune();
    const done = new Set<string>();
    for (;;) {
      const now = this.now();
      const candidates = (await this.db.sales())
        .filter((r) => (r.status === 'pending' || r.status === 'uploading') && !done.has(r.uuid) && (force || r.nextAttemptAt <= now || r.status === 'uploading'));
      const next = candidates[0];
      if (!next) break;
      done.add(next.uuid);
      const claimed = await this.claim(next.uuid, exclusive);
      if (!claimed) continue;
      if (!exclusive) await this.renewLease();
      const outcome = await this.upload(claimed);
      if (outcome === 'sent') result.sent.push(claimed.uuid);
      else if (outcome === 'rejected') result.rejected.push(claimed.uuid);
      else result.failed.push(claimed.uuid);
      if (outcome === 'unreachable') {
        result.unreachable = true;
        break;
      }
    }
    return result;
  }

  /** Marks the sale 'uploading' for this tab unless another live tab has it (or it left the queue). */
  private async claim(uuid: string, exclusive: boolean): Promise<OutboxSale | null> {
    const { db } = this;
    return db.write(['sales'], async (tx) => {
      const row = await tx.objectStore('sales').get(uuid);
      if (!row) return null;
      const now = this.now();
      const stale = row.status === 'uploading' && (exclusive || row.claimedBy === this.tabId || (row.claimedAt ?? 0) < now - LEASE_MS);
      if (row.status !== 'pending' && !stale) return null;
      const claimed = { ...row, status: 'uploading' as const, claimedBy: this.tabId, claimedAt: now };
      await tx.objectStore('sales').put(claimed);
      return claimed;
    });
  }

  private async upload(row: OutboxSale): Promise<Outcome> {
    const { db } = this;
    let answer: { order: SentOrder };
    try {
      answer = await this.send(row.body as unknown as SaleBodyLike, typeof AbortSignal !== 'undefined' && 'timeout' in AbortSignal ? AbortSignal.timeout(UPLOAD_TIMEOUT_MS) : undefined);
    } catch (error) {
      const outcome = classify(error);
      const attempts = row.attempts + 1;
      const status = error instanceof HttpError ? error.status : null;
      const now = this.now();
      // A server shedding load (503 BUSY) is there: the till says "busy, sales kept", not "offline".
      const busy = isServerBusy(error);
      this.setReachable(outcome !== 'unreachable' || busy, busy);
      const retryAfter = error instanceof HttpError ? error.retryAfter : null;
      if (outcome === 'unreachable') {
        this.failures += 1;
        this.pausedUntil = now + this.backoff(this.failures, retryAfter);
      }
      await db.update(row.uuid, {
        status: outcome === 'rejected' ? 'rejected' : 'pending',
        attempts,
        lastError: rejectionReason(error),
        lastStatus: status,
        nextAttemptAt: outcome === 'rejected' ? 0 : now + this.backoff(outcome === 'unreachable' ? this.failures : attempts, retryAfter),
        claimedBy: null,
        claimedAt: null,
      });
      return outcome;
    }
    this.failures = 0;
    this.pausedUntil = 0;
    this.setReachable(true);
    await db.update(row.uuid, {
      status: 'sent',
      attempts: row.attempts + 1,
      lastError: null,
      lastStatus: null,
      orderId: answer.order?.orderId ?? null,
      serverId: answer.order?.id ?? null,
      sentAt: new Date(this.now()).toISOString(),
      claimedBy: null,
      claimedAt: null,
    });
    return 'sent';
  }

  private async prune(): Promise<void> {
    const cutoff = new Date(this.now() - KEEP_SENT_MS).toISOString();
    await this.db.write(['sales'], async (tx) => {
      // Rows without sentAt are not in the index; only sent ones older than the cutoff go.
      let cursor = await tx.objectStore('sales').index('sentAt').openCursor(IDBKeyRange.upperBound(cutoff, true));
      for (; cursor; cursor = await cursor.continue()) if (cursor.value.status === 'sent') await cursor.delete();
    });
  }

  // ---- the cross-tab lock ----

  private async withLock<T>(fn: (exclusive: boolean) => Promise<T>): Promise<T | null> {
    if (this.locks) {
      return this.locks.request(UPLOAD_LOCK, { ifAvailable: true }, async (lock) => (lock ? fn(true) : null)) as Promise<T | null>;
    }
    if (!(await this.takeLease())) return null;
    try {
      return await fn(false);
    } finally {
      await this.releaseLease();
    }
  }

  /** Fallback lock: a lease row claimed in a transaction (IndexedDB transactions are serialised across tabs). */
  private async takeLease(): Promise<boolean> {
    const { db } = this;
    return db.write(['meta'], async (tx) => {
      const lease = await tx.objectStore('meta').get(UPLOAD_LOCK);
      const now = this.now();
      if (lease && lease.owner !== this.tabId && (lease.expiresAt ?? 0) > now) return false;
      await tx.objectStore('meta').put({ key: UPLOAD_LOCK, value: 1, owner: this.tabId, expiresAt: now + LEASE_MS });
      return true;
    });
  }

  private async renewLease(): Promise<void> {
    await this.db.write(['meta'], async (tx) => {
      const l = await tx.objectStore('meta').get(UPLOAD_LOCK);
      if (l?.owner === this.tabId) await tx.objectStore('meta').put({ ...l, expiresAt: this.now() + LEASE_MS });
    });
  }

  private async releaseLease(): Promise<void> {
    const { db } = this;
    await db.write(['meta'], async (tx) => {
      const lease = await tx.objectStore('meta').get(UPLOAD_LOCK);
      if (lease?.owner === this.tabId) await tx.objectStore('meta').delete(UPLOAD_LOCK);
    });
  }
}
