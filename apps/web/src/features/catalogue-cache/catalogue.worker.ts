/**
 * The catalogue sync off the main thread: fetches GET /api/catalogue/sync (full or delta), parses
 * it, merges it into the compact rows and decodes the products the till needs; the main thread
 * only receives finished products and the cache chunks to write (see product-sync.ts).
 */
import { ProductSync, handleSyncRequest, type SyncReply, type SyncRequest } from './product-sync';

// Typed by hand: the app's tsconfig carries the DOM lib, which clashes with the WebWorker lib.
interface WorkerScope {
  onmessage: ((event: MessageEvent<SyncRequest>) => void) | null;
  postMessage(message: SyncReply): void;
}
const scope = self as unknown as WorkerScope;
const sync = new ProductSync();

// One request at a time, in order: a delta must never be merged into a catalogue still being restored.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event: MessageEvent<SyncRequest>) => {
  const msg = event.data;
  queue = queue.then(async () => {
    try {
      // Products of a full load go out in batches while the rest is decoded.
      scope.postMessage(await handleSyncRequest(sync, msg, fetch, (products) => scope.postMessage({ id: msg.id, type: 'batch', products })));
    } catch (e) {
      scope.postMessage({ id: msg.id, type: 'error', status: 0, message: e instanceof Error ? e.message : String(e) });
    }
  });
};
