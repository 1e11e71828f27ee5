/**
 * The till's side of the compact catalogue sync (GET /api/catalogue/sync, @pos/domain/catalogue-sync):
 * holds the catalogue as compact rows by id, applies full answers and deltas, builds the index
 * columns the till's lookups read (TableIndex) and hands over the chunk texts the till decodes
 * products from on demand (product-table.ts), and says what to write to the offline cache. No DOM,
 * no IndexedDB writes: it runs in the catalogue worker (catalogue.worker.ts), and in-thread where
 * workers do not exist (tests).
 *
 * Offline cache layout: the rows are kept as JSON text in chunks of ids (CHUNK_SPAN ids per chunk),
 * so a warm start reads ~100 strings instead of 190,000 records, and a delta rewrites only the
 * chunks it touched. The header (cursor, user, dictionaries) is one more record.
 */
import {
  P, SYNC_FORMAT, decodeContext, mergeRows, type DecodeContext, type ProductRow, type SyncDictionaries,
  type SyncPayload,
} from '@pos/domain/catalogue-sync';

/** Ids per cache chunk: ~250 KB of JSON for 1,024 products. */
export const CHUNK_SPAN = 1024;
export const chunkOf = (id: number) => Math.floor(id / CHUNK_SPAN);

export interface SyncHeader {
  format: number;
  cursor: string;
  userId: number;
  dict: SyncDictionaries;
  /** The tag of the index record written with the chunks (INDEX_RECORD); a record with another tag is not used. */
  indexTag?: string;
}

/** A cache chunk: the JSON text of the rows whose ids fall in it (chunkOf), in id order. */
export interface ChunkText {
  key: number;
  json: string;
}

/** A record of the productChunks table: a chunk, the header (HEADER_RECORD) or the index (INDEX_RECORD, `json` = its tag). */
export interface ChunkRecord extends ChunkText {
  index?: StoredIndex;
}

type Buffers<T> = { [K in keyof T]: T[K] extends Int32Array | Float64Array ? ArrayBuffer : T[K] extends object ? Buffers<T[K]> : T[K] };

/**
 * The index as stored in IndexedDB: the typed arrays as plain ArrayBuffers (stored and read as
 * bytes; a reader that turns records into JSON, such as a check for a product's name, sees `{}`
 * instead of 100,000 numbered fields per column).
 */
export type StoredIndex = Buffers<TableIndex>;

const rel = (r: Relation) => ({ start: r.start.buffer as ArrayBuffer, ids: r.ids.buffer as ArrayBuffer });
const unrel = (r: Buffers<Relation>): Relation => ({ start: new Int32Array(r.start), ids: new Int32Array(r.ids) });
const col = (c: TextColumn) => ({ text: c.text, ends: c.ends.buffer as ArrayBuffer });
const uncol = (c: Buffers<TextColumn>): TextColumn => ({ text: c.text, ends: new Int32Array(c.ends) });

/** The index to store (its arrays own their whole buffers: built by buildTableIndex or read by unpackIndex). */
export function packIndex(x: TableIndex): StoredIndex {
  return {
    ids: x.ids.buffer as ArrayBuffer, names: col(x.names), barcodes: col(x.barcodes), prices: x.prices.buffer as ArrayBuffer,
    departments: x.departments.buffer as ArrayBuffer, brands: rel(x.brands), categories: rel(x.categories), stores: rel(x.stores),
    terminals: rel(x.terminals), scanKeys: col(x.scanKeys), scanAt: x.scanAt.buffer as ArrayBuffer, scanVariant: x.scanVariant.buffer as ArrayBuffer,
  };
}

export function unpackIndex(x: StoredIndex): TableIndex {
  return {
    ids: new Int32Array(x.ids), names: uncol(x.names), barcodes: uncol(x.barcodes), prices: new Float64Array(x.prices),
    departments: new Int32Array(x.departments), brands: unrel(x.brands), categories: unrel(x.categories), stores: unrel(x.stores),
    terminals: unrel(x.terminals), scanKeys: uncol(x.scanKeys), scanAt: new Int32Array(x.scanAt), scanVariant: new Int32Array(x.scanVariant),
  };
}

/** Ids of a relation per product: product i has ids[start[i]] .. ids[start[i + 1] - 1]. */
export interface Relation {
  start: Int32Array;
  ids: Int32Array;
}

/** A list of strings as one text: entry i is text.slice(ends[i - 1] ?? 0, ends[i]). Copies as one string, not 100,000. */
export interface TextColumn {
  text: string;
  ends: Int32Array;
}

export function textColumn(list: ReadonlyArray<string | null>): TextColumn {
  const ends = new Int32Array(list.length);
  let at = 0;
  for (let i = 0; i < list.length; i++) {
    at += list[i]?.length ?? 0;
    ends[i] = at;
  }
  return { text: list.join(''), ends };
}

export const textAt = (c: TextColumn, i: number): string => c.text.slice(i > 0 ? c.ends[i - 1] : 0, c.ends[i]);

/**
 * What the till's indexes read of every product, as columns in id order (position i = the i-th
 * smallest id): the store/terminal filter, the facets, the search records and the scan lookup.
 * Built in the worker and kept in the offline cache beside the chunks: typed arrays and a few
 * long strings copy in milliseconds, where 100,000 decoded products took the main thread most of
 * a second. Only ids the dictionaries hold are listed (as the decoded product's relations).
 */
export interface TableIndex {
  ids: Int32Array;
  /** Names and barcodes ('' for none). */
  names: TextColumn;
  barcodes: TextColumn;
  /** basePrice as the decoded product has it (a missing price is 0). */
  prices: Float64Array;
  /** Department id, -1 for none. */
  departments: Int32Array;
  brands: Relation;
  categories: Relation;
  stores: Relation;
  terminals: Relation;
  /**
   * The exact scan keys (product barcode, variant barcode, product name; trimmed; a barcode wins
   * over a name, a product barcode over a variant's), sorted (code units, for a binary search):
   * key i scans product position scanAt[i], variant scanVariant[i] (-1: the product itself).
   */
  scanKeys: TextColumn;
  scanAt: Int32Array;
  scanVariant: Int32Array;
}

/** The typed arrays of an index (moved, not copied, when it is posted). */
export function indexBuffers(index: TableIndex): ArrayBuffer[] {
  const arrays = [
    index.ids, index.names.ends, index.barcodes.ends, index.prices, index.departments, index.scanKeys.ends, index.scanAt, index.scanVariant,
    ...[index.brands, index.categories, index.stores, index.terminals].flatMap((r) => [r.start, r.ids]),
  ];
  return [...new Set(arrays.map((a) => a.buffer as ArrayBuffer))];
}

/** The new state of the catalogue, as the till's ProductTable (product-table.ts) takes it. */
export interface ProductUpdate {
  /** true: `chunks` are the whole catalogue (replace); false: a delta (merge). */
  full: boolean;
  /** Chunks to (re)place, in key order: every chunk when full, else those the delta touched. */
  chunks: ChunkText[];
  /** Chunks the delta left empty. */
  drop: number[];
  /** The dictionaries when they changed (always when full): every product decodes again. */
  dict: SyncDictionaries | null;
  /** Delta: ids that changed or came (their decoded products are stale) and ids that went. */
  changed: number[];
  removed: number[];
  /**
   * Whether anything the search index, the scan lookup, the store/terminal filter or the facets
   * read changed (name, barcode, price, brands, categories, department, stores, terminals, variant
   * barcodes, a dictionary). A stock-only delta keeps the indexes and only swaps chunk texts.
   */
  indexChanged: boolean;
  /** The new index columns, when indexChanged. */
  index: TableIndex | null;
  /**
   * What to write to the offline cache (one transaction): the header; `chunks` and `drop` when
   * `chunks` is set (replacing every chunk when `replaceAll`); the index record when `index` is
   * set (tag = the header's indexTag). null: nothing (a restore that found its index).
   */
  persist: { replaceAll: boolean; header: string; chunks: boolean; index: boolean } | null;
}

/** The parts of a row that the till's indexes read; a stock-only change leaves it equal. */
function indexKey(r: ProductRow): string {
  return JSON.stringify([
    r[P.name], r[P.barcode], r[P.basePrice], r[P.department], r[P.brands], r[P.categories], r[P.terminals],
    r[P.stores].map((s) => s[1]), r[P.variants].map((v) => [v[0], v[4]]),
  ]);
}

class RelationBuilder {
  private start: Int32Array;
  private ids = new Int32Array(1024);
  private n = 0;
  private row = 0;
  constructor(rows: number) {
    this.start = new Int32Array(rows + 1);
  }
  /** Adds the ids (or, with `at`, the `at`-th field of each entry) that `known` holds, as the next row. */
  add(list: ReadonlyArray<number | readonly unknown[]>, known: ReadonlyMap<number, unknown>, at = -1) {
    for (const x of list) {
      const id = (at < 0 ? x : (x as readonly unknown[])[at]) as number;
      if (!known.has(id)) continue;
      if (this.n === this.ids.length) {
        const grown = new Int32Array(this.n * 2);
        grown.set(this.ids);
        this.ids = grown;
      }
      this.ids[this.n++] = id;
    }
    this.start[++this.row] = this.n;
  }
  done(): Relation {
    return { start: this.start, ids: this.ids.slice(0, this.n) };
  }
}

/** The index columns of rows in id order (see TableIndex). */
export function buildTableIndex(rows: readonly ProductRow[], ctx: DecodeContext): TableIndex {
  const n = rows.length;
  const ids = new Int32Array(n);
  const names: string[] = new Array(n);
  const barcodes: string[] = new Array(n);
  const prices = new Float64Array(n);
  const departments = new Int32Array(n);
  const brands = new RelationBuilder(n);
  const categories = new RelationBuilder(n);
  const stores = new RelationBuilder(n);
  const terminals = new RelationBuilder(n);
  // Scan keys: names first (the first product with a name keeps it), then variant barcodes, then
  // product barcodes, each overriding what came before (product-index.ts buildScanLookup's rules).
  const slot = new Map<string, number>();
  const at: number[] = [];
  const variant: number[] = [];
  const put = (key: string | null | undefined, pos: number, v: number, override: boolean) => {
    const k = key?.trim();
    if (!k) return;
    const i = slot.get(k);
    if (i === undefined) {
      slot.set(k, at.length);
      at.push(pos);
      variant.push(v);
    } else if (override) {
      at[i] = pos;
      variant[i] = v;
    }
  };
  for (let i = 0; i < n; i++) {
    const r = rows[i];
    ids[i] = r[P.id];
    names[i] = r[P.name] ?? '';
    barcodes[i] = r[P.barcode] ?? '';
    prices[i] = r[P.basePrice] ?? 0;
    const dep = r[P.department];
    departments[i] = dep != null && ctx.departments.has(dep) ? dep : -1;
    brands.add(r[P.brands], ctx.brands);
    categories.add(r[P.categories], ctx.categories);
    terminals.add(r[P.terminals], ctx.terminals);
    stores.add(r[P.stores], ctx.stores, 1);
    put(r[P.name], i, -1, false);
  }
  for (let i = 0; i < n; i++) for (const v of rows[i][P.variants]) put(v[4], i, v[0], true);
  for (let i = 0; i < n; i++) put(rows[i][P.barcode], i, -1, true);
  const keys = [...slot.keys()].sort();
  const scanAt = new Int32Array(keys.length);
  const scanVariant = new Int32Array(keys.length);
  keys.forEach((k, j) => {
    const i = slot.get(k)!;
    scanAt[j] = at[i];
    scanVariant[j] = variant[i];
  });
  return {
    ids, names: textColumn(names), barcodes: textColumn(barcodes), prices, departments,
    brands: brands.done(), categories: categories.done(), stores: stores.done(), terminals: terminals.done(),
    scanKeys: textColumn(keys), scanAt, scanVariant,
  };
}

const byId = (a: ProductRow, b: ProductRow) => a[P.id] - b[P.id];

export class ProductSync {
  private held = new Map<number, ProductRow>();
  /** Chunks restored but not parsed yet (a restore with its index answers before parsing). */
  private unparsed: ChunkText[] = [];
  header: SyncHeader | null = null;
  private ctx: DecodeContext | null = null;
  private dictJson = '';

  /** The rows by id (chunks still unparsed after a restore are parsed on first use). */
  get rows(): Map<number, ProductRow> {
    if (this.unparsed.length) this.parseRestored();
    return this.held;
  }

  /** Parses what a restore left unparsed (the worker does it right after answering). */
  parseRestored(): void {
    const chunks = this.unparsed;
    this.unparsed = [];
    for (const { json } of chunks) for (const row of JSON.parse(json) as ProductRow[]) this.held.set(row[P.id], row);
  }

  /** The cursor to ask a delta with, or null when a full load is needed (nothing held, or another user's catalogue). */
  cursorFor(userId: number | null): string | null {
    return this.header && userId !== null && this.header.userId === userId ? this.header.cursor : null;
  }

  /** Drops everything held (the next sync is a full one). */
  reset(): void {
    this.held.clear();
    this.unparsed = [];
    this.header = null;
  }

  /**
   * Rebuilds from the offline cache (the header, every chunk, and the index record when there is
   * one). The chunk texts go to the till as they are (it decodes a product when it needs one).
   * With an index record of this header, nothing is parsed before answering (the rows are parsed
   * later, parseRestored); without one the rows are parsed, indexed, and the index is written.
   */
  restore(header: string, chunks: ChunkText[], index?: ChunkRecord): ProductUpdate | null {
    const h = JSON.parse(header) as SyncHeader;
    if (h.format !== SYNC_FORMAT) return null;
    this.held.clear();
    this.unparsed = [];
    this.setHeader(h);
    const sorted = [...chunks].sort((a, b) => a.key - b.key);
    const base = { full: true, chunks: sorted, drop: [], dict: h.dict, changed: [], removed: [], indexChanged: true };
    if (index?.index && h.indexTag !== undefined && index.json === h.indexTag) {
      this.unparsed = sorted;
      return { ...base, index: unpackIndex(index.index), persist: null };
    }
    const all: ProductRow[] = [];
    for (const { json } of sorted) {
      for (const row of (JSON.parse(json) as ProductRow[]).sort(byId)) {
        this.held.set(row[P.id], row);
        all.push(row);
      }
    }
    this.header = { ...h, indexTag: h.cursor };
    return { ...base, index: buildTableIndex(all, this.ctx!), persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: false, index: true } };
  }

  /** Applies a server answer: a full catalogue replaces everything, a delta is merged. */
  apply(payload: SyncPayload): ProductUpdate {
    if (payload.format !== SYNC_FORMAT) throw new Error(`Unknown catalogue format ${String(payload.format)}`);
    const header: SyncHeader = { format: payload.format, cursor: payload.cursor, userId: payload.userId, dict: payload.dict };
    if (payload.full) {
      this.reset();
      for (const row of payload.products) this.held.set(row[P.id], row);
      this.setHeader({ ...header, indexTag: header.cursor });
      const sorted = [...this.held.values()].sort(byId);
      const chunks: ChunkText[] = [];
      for (let i = 0; i < sorted.length;) {
        const key = chunkOf(sorted[i][P.id]);
        let j = i;
        while (j < sorted.length && chunkOf(sorted[j][P.id]) === key) j++;
        chunks.push({ key, json: JSON.stringify(sorted.slice(i, j)) });
        i = j;
      }
      return {
        full: true, chunks, drop: [], dict: header.dict, changed: [], removed: [], indexChanged: true,
        index: buildTableIndex(sorted, this.ctx!), persist: { replaceAll: true, header: JSON.stringify(this.header), chunks: true, index: true },
      };
    }
    const rows = this.rows;
    const before = new Map<number, string>();
    for (const row of payload.products) {
      const old = rows.get(row[P.id]);
      if (old) before.set(row[P.id], indexKey(old));
    }
    const { changed, removed } = mergeRows(rows, payload);
    const previousTag = this.header?.indexTag;
    const dictChanged = this.setHeader(header);
    const { chunks, drop } = this.chunksOf(new Set([...changed, ...removed].map(chunkOf)));
    const indexChanged = dictChanged || removed.length > 0 || changed.some((id) => before.get(id) !== indexKey(rows.get(id)!));
    this.header = { ...header, indexTag: indexChanged ? header.cursor : previousTag };
    return {
      full: false, chunks, drop, dict: dictChanged ? header.dict : null, changed, removed, indexChanged,
      index: indexChanged ? buildTableIndex([...rows.values()].sort(byId), this.ctx!) : null,
      persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: true, index: indexChanged },
    };
  }

  /** The texts of the touched chunks (key order), and those now empty. */
  private chunksOf(touched: Set<number>): { chunks: ChunkText[]; drop: number[] } {
    if (!touched.size) return { chunks: [], drop: [] };
    const byChunk = new Map<number, ProductRow[]>([...touched].sort((a, b) => a - b).map((k) => [k, []]));
    for (const row of this.rows.values()) byChunk.get(chunkOf(row[P.id]))?.push(row);
    const chunks: ChunkText[] = [];
    const drop: number[] = [];
    for (const [key, rows] of byChunk) {
      if (rows.length) chunks.push({ key, json: JSON.stringify(rows.sort(byId)) });
      else drop.push(key);
    }
    return { chunks, drop };
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
}

// ---- worker protocol ---------------------------------------------------------------------------

export type SyncRequest =
  /** Restore straight from IndexedDB (database `dbName`, table productChunks). */
  | { id: number; type: 'restore-idb'; dbName: string }
  /** `url` without a query: the worker adds ?since= when it holds this user's catalogue. */
  | { id: number; type: 'sync'; url: string; token: string | null; userId: number | null }
  | { id: number; type: 'reset' };

export type SyncReply =
  | { id: number; type: 'update'; update: ProductUpdate | null; /** restore-idb: whose catalogue the cache held */ userId?: number }
  /** status null: no answer (offline, server down). */
  | { id: number; type: 'error'; status: number | null; message: string };

/** Key of the header record in productChunks (cache-db.ts HEADER_KEY; not imported: the worker stays without Dexie). */
export const HEADER_RECORD = -1;
/** Key of the index record in productChunks (cache-db.ts INDEX_KEY). */
export const INDEX_RECORD = -2;

/**
 * Every record of the productChunks table, read with plain IndexedDB (the worker carries no
 * Dexie; cache-db.ts owns the schema). A database without the table (never written, or an older
 * version still to be upgraded by the page) reads as empty; the connection is closed at once and
 * also when the page asks for an upgrade.
 */
export function readChunks(dbName: string): Promise<ChunkRecord[]> {
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
      req.onsuccess = () => { db.close(); resolve(req.result as ChunkRecord[]); };
      req.onerror = () => { db.close(); resolve([]); };
    };
  });
}

/** Handles one request; shared by the worker and the in-thread fallback. */
export async function handleSyncRequest(sync: ProductSync, msg: SyncRequest, fetchImpl: typeof fetch = fetch): Promise<SyncReply> {
  if (msg.type === 'reset') {
    sync.reset();
    return { id: msg.id, type: 'update', update: null };
  }
  if (msg.type === 'restore-idb') {
    const records = await readChunks(msg.dbName);
    const header = records.find((r) => r.key === HEADER_RECORD);
    if (!header) return { id: msg.id, type: 'update', update: null };
    const { userId } = JSON.parse(header.json) as SyncHeader;
    const chunks = records.filter((r) => r.key >= 0);
    return { id: msg.id, type: 'update', update: sync.restore(header.json, chunks, records.find((r) => r.key === INDEX_RECORD)), userId };
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
  return { id: msg.id, type: 'update', update: sync.apply(payload) };
}
