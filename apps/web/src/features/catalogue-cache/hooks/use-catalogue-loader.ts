import { useEffect } from 'react';
import { cacheDb, clearCatalogueCache } from '@/features/catalogue-cache/cache-db';
import { applyProductUpdate, cachedTextsRead, catalogueStore, setCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { getJson } from '@/features/catalogue-cache/api/get-json';
import { loadCatalogue } from '@/features/catalogue-cache/load-catalogue';
import { WorkerProductSource } from '@/features/catalogue-cache/product-source';
import type { ProductTable } from '@/features/catalogue-cache/product-table';
import { HttpError } from '@/lib/api-client';
import { backoffMs, isServerBusy } from '@/lib/backoff';

/** How often a running till asks the server what changed in the catalogue (issue 10: within 10 s). */
export const POLL_MS = 5000;

let running: Promise<void> | null = null;
let doneTimer: ReturnType<typeof setTimeout> | null = null;
let source: WorkerProductSource | null = null;
const productSource = () => (source ??= new WorkerProductSource(cacheDb()));

/**
 * Starts the worker's read of the offline cache before the app renders (main.tsx, on a start at
 * /pos): the IndexedDB read and parse overlap the page's own start and the session check.
 */
export function prefetchCatalogue(): void {
  if (typeof Worker === 'undefined') return;
  productSource().prefetch();
}

/**
 * Parses the current table's chunk texts in slices of idle time after a load (~0.3 s of work at
 * 100,000 products), so the first scans and search lists decode from parsed rows.
 */
let warming = false;
function warmProducts() {
  if (warming) return;
  warming = true;
  const idle = (fn: () => void) => (typeof requestIdleCallback === 'function' ? requestIdleCallback(fn, { timeout: 100 }) : setTimeout(fn, 0));
  const step = () => {
    if (catalogueStore.get().byId.warmStep(8)) idle(step);
    else warming = false;
  };
  idle(step);
}

/**
 * A warm start is ready on the index alone; the product texts come right after (the catalogue
 * worker sends them; a scan reads its own from the cache at once: use-pos-scan.ts), then are parsed
 * in idle time.
 */
function readCachedTexts(table: ProductTable) {
  if (!table.textsPending) return;
  table.loadTexts().then(() => {
    cachedTextsRead();
    warmProducts();
  }, () => { /* none came: a scanned product's text is still read when it is needed */ });
}

/** Failures of the sync in a row, and no request before `pausedUntil` (backoff with jitter). */
const syncBackoff = { failures: 0, pausedUntil: 0 };
/** The first pause after a failed sync is about one poll; it doubles up to a minute. */
const SYNC_BACKOFF = { baseMs: POLL_MS, maxMs: 60_000 };

/** A failed sync or load: wait longer each time (never sooner than a busy server's Retry-After). */
function syncFailed(error: unknown): number {
  syncBackoff.failures += 1;
  const delay = backoffMs(syncBackoff.failures, { ...SYNC_BACKOFF, retryAfterS: error instanceof HttpError ? error.retryAfter : null });
  syncBackoff.pausedUntil = Date.now() + delay;
  const busy = isServerBusy(error);
  if (catalogueStore.get().busy !== busy) catalogueStore.set((s) => ({ ...s, busy }));
  return delay;
}

function syncSucceeded() {
  syncBackoff.failures = 0;
  syncBackoff.pausedUntil = 0;
  if (catalogueStore.get().busy) catalogueStore.set((s) => ({ ...s, busy: false }));
}

let polling: Promise<void> | null = null;
/**
 * One delta request at a time; skipped offline and while backing off after a failure (a busy
 * server's 503 BUSY, no answer, a 5xx: the till keeps selling from what it has). `force` (the
 * network is back) ignores the backoff but never a busy server's pause.
 */
export function pollCatalogue(force = false): Promise<void> {
  if (polling || catalogueStore.get().status !== 'ready') return polling ?? Promise.resolve();
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return Promise.resolve();
  if (Date.now() < syncBackoff.pausedUntil && (!force || catalogueStore.get().busy)) return Promise.resolve();
  polling = productSource().sync()
    .then((update) => {
      syncSucceeded();
      applyProductUpdate(update);
      if (update.full) warmProducts();
    })
    .catch((error: unknown) => { syncFailed(error); })
    .finally(() => { polling = null; });
  return polling;
}

let retryTimer: ReturnType<typeof setTimeout> | null = null;

/** Runs the start-up loading sequence once per page (every screen that mounts the hook shares it). */
export function startCatalogueLoad(): Promise<void> {
  if (running) return running;
  if (catalogueStore.get().status === 'ready') return Promise.resolve();
  catalogueStore.set((s) => ({ ...s, status: 'loading', step: 'Products', progress: null, error: null }));
  running = loadCatalogue({
    db: cacheDb(),
    get: getJson,
    products: productSource(),
    onProgress: (step, detail) => catalogueStore.set((s) => ({ ...s, step, progress: detail ?? (step === s.step ? s.progress : null) })),
  })
    .then(({ catalogue, fromCache }) => {
      if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
      if (!fromCache) syncSucceeded();
      setCatalogue(catalogue);
      warmProducts();
      readCachedTexts(catalogue.products);
      // Started from the cache: catch up with the server at once rather than in 5 s.
      if (fromCache) void pollCatalogue();
      // 'Done' disappears after 1 second (spec 4).
      if (doneTimer) clearTimeout(doneTimer);
      doneTimer = setTimeout(() => catalogueStore.set((s) => ({ ...s, step: null, progress: null })), 1000);
    })
    .catch((error: unknown) => {
      // A busy server: the till says so (not a failure) and tries again by itself after the pause.
      const delay = syncFailed(error);
      if (retryTimer) clearTimeout(retryTimer);
      if (isServerBusy(error)) retryTimer = setTimeout(() => { retryTimer = null; void startCatalogueLoad(); }, delay);
      catalogueStore.set((s) => ({ ...s, status: 'error', error }));
    })
    .finally(() => {
      running = null;
    });
  return running;
}

/** Loads the catalogue, then keeps it current: a delta every POLL_MS, and at once on focus or when the network is back. */
export function useCatalogueLoader(): void {
  useEffect(() => {
    void startCatalogueLoad();
    const poll = () => void pollCatalogue();
    const back = () => void pollCatalogue(true);
    const timer = setInterval(poll, POLL_MS);
    window.addEventListener('focus', poll);
    window.addEventListener('online', back);
    return () => {
      clearInterval(timer);
      window.removeEventListener('focus', poll);
      window.removeEventListener('online', back);
    };
  }, []);
}

/** "Refresh Browser Cache": forget the cached lists and reload the page, which fetches them again. */
export async function refreshBrowserCache(reload: () => void = () => window.location.reload()): Promise<void> {
  // Pending cache writes first, so none lands after the clear.
  await source?.flushed();
  await clearCatalogueCache();
  reload();
}
