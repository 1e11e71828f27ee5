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
import { P, SYNC_FORMAT, decodeContext, mergeRows, type DecodeContext, type ProductRow, type SyncDictionaries, type SyncPayload } from '@pos/domain/catalogue-sync';
import { type IndexPatch, type RowChange, PATCH_LIMIT, applyIndexPatch, indexPatchOf, mergePatches, patchSize } from './index-patch';
import { type StoredIndex, type TableIndex, buildTableIndex, indexKey, positionIn, storedIndexCurrent, unpackIndex } from './table-index';

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
  /** What changed in place since that index was written (index-patch.ts): applied to it on restore. */
  indexPatch?: IndexPatch;
}

/** A cache chunk: the JSON text of the rows whose ids fall in it (chunkOf), in id order. */
export interface ChunkText {
  key: number;
  json: string;
}

/** A record of the productChunks table: a chunk, the header (HEADER_RECORD), the index (INDEX_RECORD, `json` = its tag) or a part of it (index-parts.ts). */
export interface ChunkRecord extends ChunkText {
  index?: StoredIndex;
  part?: ArrayBuffer | string;
}

/** The new state of the catalogue, as the till's ProductTable (product-table.ts) takes it. */
export interface ProductUpdate {
  /** true: `chunks` are the whole catalogue (replace); false: a delta (merge). */
  full: boolean;
  /** Chunks to (re)place, in key order: every chunk when full, else those the delta touched. */
  chunks: ChunkText[];
  /**
   * A warm start that read no chunk: `chunks` is empty and the texts are the offline cache's, as
   * they were written (they come to the till after the start, cached-texts.ts).
   */
  textsInCache?: boolean;
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
  /** The new index columns, when indexChanged and built again (a full update always). */
  index: TableIndex | null;
  /** When indexChanged by products changed in place: the patch to the index columns held (index-patch.ts). */
  patch?: IndexPatch;
  /**
   * What to write to the offline cache (one transaction): the header; `chunks` and `drop` when
   * `chunks` is set (replacing every chunk when `replaceAll`); the index record when `index` is
   * set (tag = the header's indexTag). null: nothing (a restore that found its index).
   */
  persist: { replaceAll: boolean; header: string; chunks: boolean; index: boolean } | null;
}

const byId = (a: ProductRow, b: ProductRow) => a[P.id] - b[P.id];

/** The cache chunks of rows in id order. */
function chunkTexts(sorted: readonly ProductRow[]): ChunkText[] {
  const chunks: ChunkText[] = [];
  for (let i = 0; i < sorted.length;) {
    const key = chunkOf(sorted[i][P.id]);
    let j = i;
    while (j < sorted.length && chunkOf(sorted[j][P.id]) === key) j++;
    chunks.push({ key, json: JSON.stringify(sorted.slice(i, j)) });
    i = j;
  }
  return chunks;
}

export class ProductSync {
  private held = new Map<number, ProductRow>();
  /**
   * Chunk texts restored but not parsed yet, by key: a restore with its index answers before
   * parsing, and a chunk is parsed when a delta touches it (a sale's stock on another till), all of
   * them only when a delta needs every row (a new index or a patch's walk over the rows).
   */
  private unparsed = new Map<number, string>();
  /** Chunks parsed since the last restore (tests: what a delta cost). */
  parsedChunks = 0;
  header: SyncHeader | null = null;
  private ctx: DecodeContext | null = null;
  private dictJson = '';
  /** The ids of the index columns last handed out, in position order (a delta in place is patched against them). */
  private order: Int32Array | null = null;
  /** The rows in that order, kept current with every delta (a walk over them reads no map); made on the first patch when not known. */
  private ordered: ProductRow[] | null = null;

  /** Keeps the positions of an index about to be handed out (its buffers move to the page), and the rows it was built from. */
  private handOut(index: TableIndex, rows: ProductRow[] | null): TableIndex {
    this.order = index.ids.slice();
    this.ordered = rows;
    return index;
  }

  /** Every row by id (the chunks a restore left unparsed are parsed first). */
  get rows(): Map<number, ProductRow> {
    this.parseSome(Infinity);
    return this.held;
  }

  /** Parses up to `most` of the chunks still unparsed; whether any are left. */
  parseSome(most: number): boolean {
    let n = 0;
    for (const key of this.unparsed.keys()) {
      if (n++ >= most) return true;
      this.parseChunk(key);
    }
    return false;
  }

  /** Parses a chunk the restore left unparsed (nothing when it is parsed or was never there). */
  private parseChunk(key: number): void {
    const json = this.unparsed.get(key);
    if (json === undefined) return;
    this.unparsed.delete(key);
    this.parsedChunks++;
    for (const row of JSON.parse(json) as ProductRow[]) this.held.set(row[P.id], row);
  }

  /** The cursor to ask a delta with, or null when a full load is needed (nothing held, or another user's catalogue). */
  cursorFor(userId: number | null): string | null {
    return this.header && userId !== null && this.header.userId === userId ? this.header.cursor : null;
  }

  /** Drops everything held (the next sync is a full one). */
  reset(): void {
    this.held.clear();
    this.unparsed.clear();
    this.header = null;
    this.order = null;
    this.ordered = null;
  }

  /**
   * Rebuilds from the offline cache (the header, every chunk, and the index record when there is
   * one). The chunk texts go to the till as they are (it decodes a product when it needs one).
   * With an index record of this header, nothing is parsed (a chunk's rows are parsed when a delta
   * touches it, `unparsed`); without one the rows are parsed, indexed, and the index is written.
   */
  restore(header: string, chunks: ChunkText[], index?: ChunkRecord): ProductUpdate | null {
    const sorted = [...chunks].sort((a, b) => a.key - b.key);
    const indexed = this.restoreIndexed(header, index);
    if (indexed) {
      this.restoreTexts(sorted);
      return { ...indexed, chunks: sorted, textsInCache: false };
    }
    const h = JSON.parse(header) as SyncHeader;
    if (h.format !== SYNC_FORMAT) return null;
    this.start(h);
    const all: ProductRow[] = [];
    for (const { json } of sorted) {
      for (const row of (JSON.parse(json) as ProductRow[]).sort(byId)) {
        this.held.set(row[P.id], row);
        all.push(row);
      }
    }
    this.header = { ...h, indexTag: h.cursor, indexPatch: undefined };
    return {
      full: true, chunks: sorted, drop: [], dict: h.dict, changed: [], removed: [], indexChanged: true,
      index: this.handOut(buildTableIndex(all, this.ctx!), all), persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: false, index: true },
    };
  }

  /**
   * A warm start's first step: the header and the index record of this header, no chunk read. The
   * update has no chunk texts (`textsInCache`: they come to the till after, cached-texts.ts);
   * restoreTexts gives this side its own before any delta is merged. null when the index record is
   * missing or not this header's (then `restore` with every chunk).
   */
  restoreIndexed(header: string, index?: ChunkRecord): ProductUpdate | null {
    const h = JSON.parse(header) as SyncHeader;
    if (h.format !== SYNC_FORMAT) return null;
    if (!index?.index || !storedIndexCurrent(index.index) || h.indexTag === undefined || index.json !== h.indexTag) return null;
    this.start(h);
    const stored = unpackIndex(index.index);
    return {
      full: true, chunks: [], textsInCache: true, drop: [], dict: h.dict, changed: [], removed: [], indexChanged: true,
      index: this.handOut(h.indexPatch ? applyIndexPatch(stored, h.indexPatch) : stored, null), persist: null,
    };
  }

  /** The chunk texts of a catalogue restored by restoreIndexed, kept unparsed until a delta needs their rows. */
  restoreTexts(chunks: ChunkText[]): void {
    for (const c of chunks) this.unparsed.set(c.key, c.json);
  }

  private start(h: SyncHeader): void {
    this.held.clear();
    this.unparsed.clear();
    this.parsedChunks = 0;
    this.setHeader(h);
  }

  /**
   * Applies a server answer: a full catalogue replaces everything, a delta is merged. `read`: a
   * full answer read by lines (sync-lines.ts) comes with its rows in id order, no id twice, and its
   * chunk texts as read, which are kept as they are.
   */
  apply(payload: SyncPayload, read: ChunkText[] | null = null): ProductUpdate {
    if (payload.format !== SYNC_FORMAT) throw new Error(`Unknown catalogue format ${String(payload.format)}`);
    const header: SyncHeader = { format: payload.format, cursor: payload.cursor, userId: payload.userId, dict: payload.dict };
    if (payload.full) {
      this.reset();
      for (const row of payload.products) this.held.set(row[P.id], row);
      this.setHeader({ ...header, indexTag: header.cursor });
      const sorted = read ? payload.products : [...this.held.values()].sort(byId);
      return {
        full: true, chunks: read ?? chunkTexts(sorted), drop: [], dict: header.dict, changed: [], removed: [], indexChanged: true,
        index: this.handOut(buildTableIndex(sorted, this.ctx!), sorted), persist: { replaceAll: true, header: JSON.stringify(this.header), chunks: true, index: true },
      };
    }
    // Only the chunks the delta touches need their rows (a lazily restored catalogue parses no more).
    for (const row of payload.products) this.parseChunk(chunkOf(row[P.id]));
    for (const id of payload.removed) this.parseChunk(chunkOf(id));
    const rows = this.held;
    const before = new Map<number, ProductRow>();
    for (const row of payload.products) {
      const old = rows.get(row[P.id]);
      if (old) before.set(row[P.id], old);
    }
    const { changed, removed } = mergeRows(rows, payload);
    // The rows in position order follow every change (a stock-only one too).
    if (this.ordered && this.order) for (const id of changed) { const at = positionIn(this.order, id); if (at >= 0) this.ordered[at] = rows.get(id)!; }
    const previous = this.header;
    const dictChanged = this.setHeader(header);
    const { chunks, drop } = this.chunksOf(new Set([...changed, ...removed].map(chunkOf)));
    const touched = changed.filter((id) => { const old = before.get(id); return !old || indexKey(old) !== indexKey(rows.get(id)!); });
    const indexChanged = dictChanged || removed.length > 0 || touched.length > 0;
    const base = { full: false, chunks, drop, dict: dictChanged ? header.dict : null, changed, removed, indexChanged } as const;
    if (!indexChanged) {
      this.header = { ...header, indexTag: previous?.indexTag, indexPatch: previous?.indexPatch };
      return { ...base, index: null, persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: true, index: false } };
    }
    const patch = dictChanged || removed.length ? null : this.patchOf(touched, before);
    const kept = patch && previous?.indexPatch ? mergePatches(previous.indexPatch, patch) : patch;
    if (patch && kept && patchSize(kept) <= PATCH_LIMIT) {
      // The index written before stays; the header carries what changed since.
      this.header = { ...header, indexTag: previous?.indexTag, indexPatch: kept };
      return { ...base, index: null, patch, persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: true, index: false } };
    }
    this.header = { ...header, indexTag: header.cursor };
    const sorted = [...this.rows.values()].sort(byId);
    const index = this.handOut(buildTableIndex(sorted, this.ctx!), sorted);
    return { ...base, index, persist: { replaceAll: false, header: JSON.stringify(this.header), chunks: true, index: true } };
  }

  /** The patch for products changed in place, or null when one of them is new (every position after it moves). */
  private patchOf(ids: number[], before: Map<number, ProductRow>): IndexPatch | null {
    const order = this.order;
    if (!order) return null;
    const changes: RowChange[] = [];
    for (const id of ids) {
      const old = before.get(id);
      const at = positionIn(order, id);
      if (!old || at < 0) return null;
      changes.push({ at, before: old, row: this.held.get(id)! });
    }
    const all = this.rows;
    const ordered = (this.ordered ??= Array.from(order, (id) => all.get(id)!));
    return indexPatchOf(changes, order.length, (i) => ordered[i], this.ctx!);
  }

  /** The texts of the touched chunks (key order), and those now empty. */
  private chunksOf(touched: Set<number>): { chunks: ChunkText[]; drop: number[] } {
    if (!touched.size) return { chunks: [], drop: [] };
    const chunks: ChunkText[] = [];
    const drop: number[] = [];
    // The touched chunks are the delta's own: parsed before it was merged.
    const held = this.held;
    for (const key of [...touched].sort((a, b) => a - b)) {
      // A chunk's rows by its ids (CHUNK_SPAN lookups), not by a walk over the whole catalogue.
      const rows: ProductRow[] = [];
      for (let id = key * CHUNK_SPAN; id < (key + 1) * CHUNK_SPAN; id++) {
        const row = held.get(id);
        if (row) rows.push(row);
      }
      if (rows.length) chunks.push({ key, json: JSON.stringify(rows) });
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
