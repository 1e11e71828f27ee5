import { parseScaled } from '@pos/domain/money';
import { apiFetch } from '@/lib/api-client';
import { hasToken } from '@/lib/session';
import { outboxDb, type OutboxSale } from './outbox-db';
import { type PassResult, SYNC_INTERVAL_MS, type SaleBodyLike, type SendSale, type SentOrder } from './outbox-rules';
import { Outbox } from './outbox';

// ---------------------------------------------------------------------------------------------
// The app's outbox: one per page, with its triggers.
// ---------------------------------------------------------------------------------------------

export const postSale: SendSale = (body, signal) =>
  apiFetch<{ order: SentOrder }>('/admin/order/create', { method: 'POST', body, headers: { 'Idempotency-Key': body.uuid }, signal });

let instance: Outbox | null = null;
export function outbox(): Outbox {
  instance ??= new Outbox({ db: outboxDb(), send: postSale, canUpload: hasToken });
  return instance;
}

/** Test hook: replace (or reset with null) the page's outbox. */
export function setOutbox(next: Outbox | null): void {
  instance = next;
}

let persistAsked = false;
/** Asks the browser once per page to keep the outbox through storage pressure. */
export function requestPersistentStorage(): void {
  if (persistAsked || typeof navigator === 'undefined' || !navigator.storage?.persist) return;
  persistAsked = true;
  void navigator.storage
    .persisted()
    .then((already) => already || navigator.storage.persist())
    .catch(() => undefined);
}

/** Queues a sale and tries to upload it (and anything before it) at once. */
export async function enqueueSale(body: SaleBodyLike, opts: { terminalCode: string; summary?: OutboxSale['summary'] }): Promise<OutboxSale> {
  requestPersistentStorage();
  const row = await outbox().enqueue(body, opts);
  void outbox().uploadPending();
  return row;
}

export const uploadPending = (opts?: { force?: boolean }): Promise<PassResult> => outbox().uploadPending(opts);

let syncUsers = 0;
let stopSync: (() => void) | null = null;

/**
 * Starts the triggers (online event, every 10 s, now) while at least one screen needs them.
 * Returns the stop function for that screen.
 */
export function startOutboxSync(intervalMs = SYNC_INTERVAL_MS): () => void {
  syncUsers += 1;
  if (syncUsers === 1) {
    requestPersistentStorage();
    const onOnline = () => void uploadPending({ force: true });
    window.addEventListener('online', onOnline);
    const timer = setInterval(() => void uploadPending(), intervalMs);
    void uploadPending({ force: true });
    stopSync = () => {
      window.removeEventListener('online', onOnline);
      clearInterval(timer);
    };
  }
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    syncUsers -= 1;
    if (syncUsers === 0) {
      stopSync?.();
      stopSync = null;
    }
  };
}

/**
 * Credit of the customer's sales still waiting in the outbox (the cached balance does not know them
 * yet), in minor units of a currency with `digits` digits (default 2, cents).
 */
export async function unsentCreditCents(customerId: number, box: Outbox = outbox(), digits = 2): Promise<number> {
  const rows = await box.unsent();
  let cents = 0;
  for (const r of rows) {
    const body = r.body as { customerId?: number | null; payments?: Array<{ total?: number | string; type?: { type?: string } }> };
    if (body.customerId !== customerId) continue;
    for (const p of body.payments ?? []) if (p.type?.type === 'credit') cents += parseScaled(p.total ?? 0, digits);
  }
  return cents;
}
