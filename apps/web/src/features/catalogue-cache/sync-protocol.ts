import { type SyncPayload } from '@pos/domain/catalogue-sync';
import { retryAfterSeconds } from '@/lib/retry-after';
import { joinIndex } from './index-parts';
import { type ChunkRecord, type ChunkText, type ProductSync, type ProductUpdate, type SyncHeader } from './product-sync';
import { readFullAnswer, type ReadAnswer } from './sync-lines';

// ---- worker protocol ---------------------------------------------------------------------------

export type SyncRequest =
  /** Restore straight from IndexedDB (database `dbName`, table productChunks). */
  | { id: number; type: 'restore-idb'; dbName: string }
  /** `url` without a query: the worker adds ?since= when it holds this user's catalogue. */
  | { id: number; type: 'sync'; url: string; token: string | null; userId: number | null }
  | { id: number; type: 'reset' };

export type SyncReply =
  | { id: number; type: 'update'; update: ProductUpdate | null; /** restore-idb: whose catalogue the cache held */ userId?: number }
  /** status null: no answer (offline, server down). `code` and `retryAfter` (seconds): a busy server's 503 BUSY. */
  | { id: number; type: 'error'; status: number | null; message: string; code?: string; retryAfter?: number | null };

/**
 * After a warm start's answer, unasked: the chunk texts the worker read for itself, a few at a time
 * (the page's copy: one read of the cache for both, cached-texts.ts); `done` on the last.
 */
export interface TextsMessage { type: 'texts'; chunks: ChunkText[]; done: boolean }

/** Key of the header record in productChunks (cache-db.ts HEADER_KEY; not imported: the worker stays without cache-db.ts). */
export const HEADER_RECORD = -1;
/** Key of the index record in productChunks (cache-db.ts INDEX_KEY). */
export const INDEX_RECORD = -2;

/**
 * The records of the productChunks table in `range` (all when none), read with plain IndexedDB
 * (the worker carries no wrapper library; cache-db.ts owns the schema). A database without the
 * table (never written, or an older version still to be upgraded by the page) reads as empty; the
 * connection is closed at once and also when the page asks for an upgrade.
 */
export function readChunks(dbName: string, range?: IDBKeyRange): Promise<ChunkRecord[]> {
  return new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve([]);
    const open = indexedDB.open(dbName);
    open.onerror = () => resolve([]);
    open.onblocked = () => resolve([]);
    // No database yet: do not create one (the page creates it with its schema).
    open.onupgradeneeded = () => { open.transaction?.abort(); resolve([]); };
    open.onsuccess = () => {
      const db = open.result;
      db.onversionchange = () => db.close();
      if (!db.objectStoreNames.contains('productChunks')) { db.close(); return resolve([]); }
      const req = db.transaction('productChunks', 'readonly').objectStore('productChunks').getAll(range);
      req.onsuccess = () => { db.close(); resolve(req.result as ChunkRecord[]); };
      req.onerror = () => { db.close(); resolve([]); };
    };
  });
}

/** Keys below HEADER_RECORD: the index record and its parts (index-parts.ts); chunks are >= 0. */
const HEAD_RECORDS = () => IDBKeyRange.upperBound(HEADER_RECORD);
const CHUNK_RECORDS = () => IDBKeyRange.lowerBound(0);

/**
 * A warm start's read of the chunk texts (handleSyncRequest waits for it before anything else),
 * until it is done and taken: the array holds every text (296 MB at 1,000,000 products), which
 * `unparsed` lets go chunk by chunk as it parses them.
 */
const restoring = new WeakMap<ProductSync, Promise<ChunkText[]>>();

/** The texts of the warm start's read once it is done, let go here (none when no read was pending). */
async function takeRestoring(sync: ProductSync): Promise<ChunkText[]> {
  const reading = restoring.get(sync);
  if (!reading) return [];
  const chunks = await reading;
  if (restoring.get(sync) === reading) restoring.delete(sync);
  return chunks;
}

/**
 * Restores from the offline cache. With an index record of its header, the till is answered from
 * the header and the index alone (a few records; at 1,000,000 products the chunk texts are ~300 MB
 * that a start no longer waits for): this side reads them after answering, for its deltas and for
 * the page (the worker sends them on), and the page reads a scanned product's chunk itself meanwhile.
 * Without one, every chunk is read and parsed.
 */
async function restoreFromCache(sync: ProductSync, id: number, dbName: string): Promise<SyncReply> {
  const head = await readChunks(dbName, HEAD_RECORDS());
  const header = head.find((r) => r.key === HEADER_RECORD);
  if (!header) return { id, type: 'update', update: null };
  const { userId } = JSON.parse(header.json) as SyncHeader;
  const indexed = sync.restoreIndexed(header.json, joinIndex(INDEX_RECORD, head));
  if (indexed) {
    restoring.set(sync, readChunks(dbName, CHUNK_RECORDS()).then((chunks) => {
      sync.restoreTexts(chunks);
      return chunks;
    }));
    return { id, type: 'update', update: indexed, userId };
  }
  return { id, type: 'update', update: sync.restore(header.json, await readChunks(dbName, CHUNK_RECORDS())), userId };
}

/** Resolves once the chunk texts of the last warm start are in (at once when none is being read). */
export async function restored(sync: ProductSync): Promise<void> {
  await takeRestoring(sync);
}

/**
 * The chunk texts the last warm start read after answering (none when it read them before): the
 * worker asks at once, as it answers, and sends them to the page before its next request.
 */
export function restoredTexts(sync: ProductSync): Promise<ChunkText[]> {
  return takeRestoring(sync);
}

/** Handles one request; shared by the worker and the in-thread fallback. */
export async function handleSyncRequest(sync: ProductSync, msg: SyncRequest, fetchImpl: typeof fetch = fetch): Promise<SyncReply> {
  // Nothing is merged into (or dropped from) a catalogue whose texts are still being read.
  await restored(sync);
  if (msg.type === 'reset') {
    sync.reset();
    return { id: msg.id, type: 'update', update: null };
  }
  if (msg.type === 'restore-idb') return restoreFromCache(sync, msg.id, msg.dbName);
  const since = sync.cursorFor(msg.userId);
  const url = since ? `${msg.url}?since=${encodeURIComponent(since)}` : msg.url;
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { Accept: 'application/json', ...(msg.token ? { Authorization: `Bearer ${msg.token}` } : {}) }, credentials: 'same-origin' });
  } catch (e) {
    return { id: msg.id, type: 'error', status: null, message: e instanceof Error ? e.message : String(e) };
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { message?: string; code?: string } | null;
    return { id: msg.id, type: 'error', status: res.status, message: body?.message ?? res.statusText, code: body?.code, retryAfter: retryAfterSeconds(res.headers.get('retry-after')) };
  }
  let read: ReadAnswer;
  try {
    // A full catalogue is read line by line as it arrives; a delta (a few products) at once.
    read = since ? { payload: await res.json() as SyncPayload, chunks: null } : await readFullAnswer(res);
  } catch (e) {
    // A connection cut half way through the body: no answer.
    return { id: msg.id, type: 'error', status: null, message: e instanceof Error ? e.message : String(e) };
  }
  return { id: msg.id, type: 'update', update: sync.apply(read.payload, read.chunks) };
}
