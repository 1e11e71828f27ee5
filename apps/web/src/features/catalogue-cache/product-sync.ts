/**
 * The till's side of the compact catalogue sync (GET /api/catalogue/sync, @pos/domain/catalogue-sync):
 * holds the catalogue as compact rows by id, applies full answers and deltas, decodes products
 * for the till, and says what to write to the offline cache. No DOM, no IndexedDB: it runs in the
 * catalogue worker (catalogue.worker.ts), and in-thread where workers do not exist (tests).
 *
 * Offline cache layout: the rows are kept as JSON text in chunks of ids (CHUNK_SPAN ids per chunk),
 * so a warm start reads ~100 strings instead of 190,000 records, and a delta rewrites only the
 * chunks it touched. The header (cursor, user, dictionaries) is one more record.
 */
import {
  P, SYNC_FORMAT, decodeContext, decodeProduct, mergeRows, type DecodeContext, type ProductRow, type SyncDictionaries,
  type SyncPayload,
} from '@pos/domain/catalogue-sync';
import type { Product } from './types';

/** The till reads neither `@type` nor a variant's `product` IRI: not decoded (fewer strings to post). */
const LEAN = { lean: true } as const;

/** Ids per cache chunk: ~250 KB of JSON for 1,024 products. */
export const CHUNK_SPAN = 1024;
export const chunkOf = (id: number) => Math.floor(id / CHUNK_SPAN);

export interface SyncHeader {
  format: number;
  cursor: string;
  userId: number;
  dict: SyncDictionaries;
}

/** What to write to the cache: chunks (key -> JSON text of its rows), chunks now empty, and the header. */
export interface PersistPlan {
  /** true: drop every chunk first (a full answer). */
  replaceAll: boolean;
  header: string;
  chunks: Array<{ key: number; json: string }>;
  drop: number[];
}

export interface ProductUpdate {
  /** true: `products` is the whole catalogue. */
  full: boolean;
  products: Product[];
  removed: number[];
  /**
   * Whether anything the search index, the scan lookup, the store/terminal filter or the facets
   * read changed (name, barcode, price, brands, categories, department, stores, terminals, variant
   * barcodes). A stock-only delta keeps the indexes and only swaps the product objects.
   */
  indexChanged: boolean;
  persist: PersistPlan | null;
}

/** The parts of a row that the till's indexes read; a stock-only change leaves it equal. */
function indexKey(r: ProductRow): string {
  return JSON.stringify([
    r[P.name], r[P.barcode], r[P.basePrice], r[P.department], r[P.brands], r[P.categories], r[P.terminals],
    r[P.stores].map((s) => s[1]), r[P.variants].map((v) => [v[0], v[4]]),
  ]);
}

export class ProductSync {
  readonly rows = new Map<number, ProductRow>();
  header: SyncHeader | null = null;
  private ctx: DecodeContext | null = null;
  private dictJson = '';

  /** The cursor to ask a delta with, or null when a full load is needed (nothing held, or another user's catalogue). */
  cursorFor(userId: number | null): string | null {
    return this.header && userId !== null && this.header.userId === userId ? this.header.cursor : null;
  }

  /**
   * Rebuilds from the offline cache (the header and every chunk's JSON, chunks in id order). With
   * `emit`, products go out in batches as each chunk is parsed and decoded (the main thread copies
   * one batch while the next is decoded) and the returned update carries none.
   */
  restore(header: string, chunks: string[], emit?: Emit): ProductUpdate | null {
    const h = JSON.parse(header) as SyncHeader;
    if (h.format !== SYNC_FORMAT) return null;
    this.rows.clear();
    this.setHeader(h);
    const batch = new Batcher(emit);
    for (const json of chunks) {
      const rows = (JSON.parse(json) as ProductRow[]).sort((a, b) => a[P.id] - b[P.id]);
      for (const row of rows) {
        this.rows.set(row[P.id], row);
        batch.add(decodeProduct(row, this.ctx!, LEAN) as unknown as Product);
      }
    }
    return { full: true, products: batch.done(), removed: [], indexChanged: true, persist: null };
  }

  /** Applies a server answer: a full catalogue replaces everything, a delta is merged. `emit`: as for restore. */
  apply(payload: SyncPayload, emit?: Emit): ProductUpdate {
    if (payload.format !== SYNC_FORMAT) throw new Error(`Unknown catalogue format ${String(payload.format)}`);
    const header: SyncHeader = { format: payload.format, cursor: payload.cursor, userId: payload.userId, dict: payload.dict };
    if (payload.full) {
      this.rows.clear();
      for (const row of payload.products) this.rows.set(row[P.id], row);
      this.setHeader(header);
      const chunks = new Map<number, ProductRow[]>();
      for (const row of payload.products) {
        const key = chunkOf(row[P.id]);
        const list = chunks.get(key);
        if (list) list.push(row);
        else chunks.set(key, [row]);
      }
      return {
        full: true, products: this.decodeAll(emit), removed: [], indexChanged: true,
        persist: { replaceAll: true, header: JSON.stringify(header), chunks: [...chunks].sort((a, b) => a[0] - b[0]).map(([key, rows]) => ({ key, json: JSON.stringify(rows.sort((x, y) => x[P.id] - y[P.id])) })), drop: [] },
      };
    }
    const before = new Map<number, string>();
    for (const row of payload.products) {
      const old = this.rows.get(row[P.id]);
      if (old) before.set(row[P.id], indexKey(old));
    }
    const { changed, removed } = mergeRows(this.rows, payload);
    const dictChanged = this.setHeader(header);
    const touched = new Set([...changed, ...removed].map(chunkOf));
    const persist = this.plan(touched, header);
    if (dictChanged) return { full: true, products: this.decodeAll(emit), removed: [], indexChanged: true, persist };
    const indexChanged = removed.length > 0 || changed.some((id) => before.get(id) !== indexKey(this.rows.get(id)!));
    const ctx = this.ctx!;
    return { full: false, products: changed.map((id) => decodeProduct(this.rows.get(id)!, ctx, LEAN) as unknown as Product), removed, indexChanged, persist };
  }

  private plan(touched: Set<number>, header: SyncHeader): PersistPlan | null {
    if (!touched.size) return { replaceAll: false, header: JSON.stringify(header), chunks: [], drop: [] };
    const byChunk = new Map<number, ProductRow[]>([...touched].map((k) => [k, []]));
    for (const row of this.rows.values()) byChunk.get(chunkOf(row[P.id]))?.push(row);
    const chunks: PersistPlan['chunks'] = [];
    const drop: number[] = [];
    for (const [key, rows] of byChunk) {
      if (rows.length) chunks.push({ key, json: JSON.stringify(rows.sort((a, b) => a[P.id] - b[P.id])) });
      else drop.push(key);
    }
    return { replaceAll: false, header: JSON.stringify(header), chunks, drop };
  }

  /** Returns whether the dictionaries changed (then every product is decoded again: they share its objects). */
  private setHeader(h: SyncHeader): boolean {
    this.header = h;
    const json = JSON.stringify(h.dict);
    if (json === this.dictJson && this.ctx) return false;
    this.dictJson = json;
    this.ctx = decodeContext(h.dict);
    return true;
  }

  private decodeAll(emit?: Emit): Product[] {
    const ctx = this.ctx!;
    const batch = new Batcher(emit);
    for (const row of [...this.rows.values()].sort((a, b) => a[P.id] - b[P.id])) batch.add(decodeProduct(row, ctx, LEAN) as unknown as Product);
    return batch.done();
  }
}

/** Receives decoded products in batches (see ProductSync.restore). */
export type Emit = (products: Product[]) => void;

/** Products per batch posted to the main thread. */
export const BATCH = 10_000;

/** Collects products; with an emitter, hands them out every BATCH and keeps none. */
class Batcher {
  private list: Product[] = [];
  constructor(private readonly emit?: Emit) {}
  add(p: Product) {
    this.list.push(p);
    if (this.emit && this.list.length >= BATCH) this.flush();
  }
  private flush() {
    if (this.list.length) this.emit!(this.list);
    this.list = [];
  }
  done(): Product[] {
    if (!this.emit) return this.list;
    this.flush();
    return [];
  }
}

// ---- worker protocol ---------------------------------------------------------------------------

export type SyncRequest =
  | { id: number; type: 'restore'; header: string; chunks: string[] }
  /** Restore straight from IndexedDB (database `dbName`, table productChunks): nothing crosses the main thread but products. */
  | { id: number; type: 'restore-idb'; dbName: string }
  /** `url` without a query: the worker adds ?since= when it holds this user's catalogue. */
  | { id: number; type: 'sync'; url: string; token: string | null; userId: number | null }
  | { id: number; type: 'reset' };

export type SyncReply =
  /** Products of a full update, ahead of the update itself (which then carries none). */
  | { id: number; type: 'batch'; products: Product[] }
  | { id: number; type: 'update'; update: ProductUpdate | null; /** restore-idb: whose catalogue the cache held */ userId?: number }
  /** status null: no answer (offline, server down). */
  | { id: number; type: 'error'; status: number | null; message: string };

/** Key of the header record in productChunks (cache-db.ts HEADER_KEY; not imported: the worker stays without Dexie). */
export const HEADER_RECORD = -1;

/**
 * Every record of the productChunks table, read with plain IndexedDB (the worker carries no
 * Dexie; cache-db.ts owns the schema). A database without the table (never written, or an older
 * version still to be upgraded by the page) reads as empty; the connection is closed at once and
 * also when the page asks for an upgrade.
 */
export function readChunks(dbName: string): Promise<Array<{ key: number; json: string }>> {
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
      const req = db.transaction('productChunks', 'readonly').objectStore('productChunks').getAll();
      req.onsuccess = () => { db.close(); resolve(req.result as Array<{ key: number; json: string }>); };
      req.onerror = () => { db.close(); resolve([]); };
    };
  });
}

/** Handles one request; shared by the worker and the in-thread fallback. */
export async function handleSyncRequest(sync: ProductSync, msg: SyncRequest, fetchImpl: typeof fetch = fetch, emit?: Emit): Promise<SyncReply> {
  if (msg.type === 'reset') {
    sync.rows.clear();
    sync.header = null;
    return { id: msg.id, type: 'update', update: null };
  }
  if (msg.type === 'restore') return { id: msg.id, type: 'update', update: sync.restore(msg.header, msg.chunks, emit) };
  if (msg.type === 'restore-idb') {
    const records = await readChunks(msg.dbName);
    const header = records.find((r) => r.key === HEADER_RECORD);
    if (!header) return { id: msg.id, type: 'update', update: null };
    const { userId } = JSON.parse(header.json) as SyncHeader;
    const chunks = records.filter((r) => r.key !== HEADER_RECORD).sort((a, b) => a.key - b.key).map((r) => r.json);
    return { id: msg.id, type: 'update', update: sync.restore(header.json, chunks, emit), userId };
  }
  const since = sync.cursorFor(msg.userId);
  const url = since ? `${msg.url}?since=${encodeURIComponent(since)}` : msg.url;
  let res: Response;
  try {
    res = await fetchImpl(url, { headers: { Accept: 'application/json', ...(msg.token ? { Authorization: `Bearer ${msg.token}` } : {}) }, credentials: 'same-origin' });
  } catch (e) {
    return { id: msg.id, type: 'error', status: null, message: e instanceof Error ? e.message : String(e) };
  }
  if (!res.ok) {
    const body = await res.json().catch(() => null) as { message?: string } | null;
    return { id: msg.id, type: 'error', status: res.status, message: body?.message ?? res.statusText };
  }
  let payload: SyncPayload;
  try {
    payload = await res.json() as SyncPayload;
  } catch (e) {
    // A connection cut half way through the body: no answer.
    return { id: msg.id, type: 'error', status: null, message: e instanceof Error ? e.message : String(e) };
  }
  return { id: msg.id, type: 'update', update: sync.apply(payload, emit) };
}
