/**
 * The catalogue sync off the main thread: reads the offline cache or fetches GET
 * /api/catalogue/sync (full or delta), parses it, merges it into the compact rows and builds the
 * index columns; the main thread receives the columns and the chunk texts (it decodes a product
 * only when it needs one, product-table.ts) and writes the chunks to the cache (product-sync.ts).
 */
import { ProductSync, type ChunkText } from './product-sync';
import { handleSyncRequest, restoredTexts, type SyncReply, type SyncRequest, type TextsMessage } from './sync-protocol';
import { indexBuffers } from './table-index';

// Typed by hand: the app's tsconfig carries the DOM lib, which clashes with the WebWorker lib.
interface WorkerScope {
  onmessage: ((event: MessageEvent<SyncRequest>) => void) | null;
  postMessage(message: SyncReply | TextsMessage, transfer?: Transferable[]): void;
}
const scope = self as unknown as WorkerScope;
const sync = new ProductSync();

/**
 * A catalogue restored from its cached index answers before any chunk is read; the rows (for the
 * deltas) are read, then parsed a few chunks at a time once the till has started, in steps between the
 * requests, so the first seconds of a start are the till's (a delta parses the chunks it touches
 * at once, and all that are left when it needs every row).
 */
let parsing: ReturnType<typeof setTimeout> | null = null;
function parseLater() {
  if (parsing) clearTimeout(parsing);
  const step = () => { parsing = sync.parseSome(PARSE_STEP_CHUNKS) ? setTimeout(step, PARSE_STEP_PAUSE_MS) : null; };
  parsing = setTimeout(step, PARSE_AFTER_MS);
}
const PARSE_AFTER_MS = 2000;
const PARSE_STEP_CHUNKS = 4;
const PARSE_STEP_PAUSE_MS = 20;

/** Chunks per message of the texts sent after a warm start (~5 MB at 1,000,000 products: a few ms for the page to take each). */
const TEXTS_PER_MESSAGE = 16;
async function sendTexts(texts: Promise<ChunkText[]>) {
  const chunks = await texts;
  for (let i = 0; i === 0 || i < chunks.length; i += TEXTS_PER_MESSAGE) {
    scope.postMessage({ type: 'texts', chunks: chunks.slice(i, i + TEXTS_PER_MESSAGE), done: i + TEXTS_PER_MESSAGE >= chunks.length });
  }
}

// One request at a time, in order: a delta must never be merged into a catalogue still being restored.
let queue: Promise<void> = Promise.resolve();
scope.onmessage = (event: MessageEvent<SyncRequest>) => {
  const msg = event.data;
  queue = queue.then(async () => {
    try {
      const reply = await handleSyncRequest(sync, msg, fetch);
      // The index columns' buffers move instead of being copied.
      const index = reply.type === 'update' ? reply.update?.index : null;
      scope.postMessage(reply, index ? indexBuffers(index) : []);
      // A warm start that answered on its index: the texts it reads now go to the page too, then
      // the rows are parsed; in the queue, so a request sent after this answer waits for them. Asked
      // for now, before a request queued meanwhile could let them go (sync-protocol.ts takeRestoring).
      if (msg.type === 'restore-idb' && reply.type === 'update' && reply.update?.textsInCache) {
        const texts = restoredTexts(sync);
        queue = queue.then(() => sendTexts(texts).catch(() => { /* the page reads them from the cache itself */ })).then(parseLater);
      } else if (msg.type === 'restore-idb') parseLater();
    } catch (e) {
      scope.postMessage({ id: msg.id, type: 'error', status: 0, message: e instanceof Error ? e.message : String(e) });
    }
  });
};
