/**
 * The till's offline cache (spec 3 "Offline cache"): IndexedDB database 'pos application', one
 * table per reference list under the spec's keys. `meta` records which lists were loaded
 * completely: a load cut off half way is fetched again.
 *
 * Products (issue 10): since version 2 they live in `productChunks`, the compact sync rows as JSON
 * text in chunks of ids plus a header record (key HEADER_KEY: cursor, user, dictionaries), written
 * in one transaction, and the index columns (key INDEX_KEY) the till's lookups read; see
 * product-sync.ts. A warm start reads ~100 strings and the columns, not 190,000 records.
 * The spec's `list` table stays (empty) for readers that look for it.
 *
 * Dexie created this database until issue 24 (idb now: ~25 KB less JavaScript at start-up); the
 * layout is still exactly Dexie's, so a till's existing cache opens unchanged (see CACHE_DB_VERSION).
 */
import { type DBSchema, type IDBPDatabase, deleteDB, openDB } from 'idb';
import { FIRST_INDEX_PART, joinIndex } from './index-parts';
import { HEADER_RECORD, INDEX_RECORD } from './sync-protocol';
import type { ChunkText } from './product-sync';
import { type StoredIndex } from './table-index';
import type { Device, Discount, PaymentType, Product, Setting, Tax } from './types';

export const CACHE_DB_NAME = 'pos application';

export type ListKey = 'list' | 'discountList' | 'taxList' | 'paymentTypesList' | 'deviceList' | 'settingList';

export interface ListMeta {
  key: ListKey;
  complete: boolean;
  loadedAt: string;
  count: number;
}

export interface ProductChunk {
  /** chunkOf(id) for rows; HEADER_KEY for the header; INDEX_KEY for the index and FIRST_INDEX_PART downwards for its parts (json = its tag). */
  key: number;
  json: string;
  /** The index record's columns (product-sync.ts StoredIndex: TableIndex with its arrays as ArrayBuffers; a large column cut into parts, index-parts.ts). */
  index?: StoredIndex;
  /** A part record's slice of a column. */
  part?: ArrayBuffer | string;
}

/** The chunk record holding the sync header (the worker reads it with plain IndexedDB: product-sync.ts). */
export const HEADER_KEY = HEADER_RECORD;
/** The record holding the index columns, so a warm start needs no parse before the till is ready. */
export const INDEX_KEY = INDEX_RECORD;

interface CacheSchema extends DBSchema {
  list: { key: number; value: Product };
  discountList: { key: number; value: Discount };
  taxList: { key: number; value: Tax };
  paymentTypesList: { key: number; value: PaymentType };
  deviceList: { key: number; value: Device };
  settingList: { key: number; value: Setting };
  productChunks: { key: number; value: ProductChunk };
  meta: { key: ListKey; value: ListMeta };
}

/**
 * The native IndexedDB version. Dexie stored its `version(2)` as 20 (version × 10): version 1 (10)
 * had the lists and meta, version 2 (20) added productChunks and emptied the products of `list`.
 * Every store is keyed by `id` except meta (`key`) and productChunks (`key`); there are no indexes.
 */
export const CACHE_DB_VERSION = 20;

export class CacheDb {
  readonly name: string;
  private conn: Promise<IDBPDatabase<CacheSchema>> | null = null;

  constructor(name = CACHE_DB_NAME) {
    this.name = name;
  }

  open(): Promise<IDBPDatabase<CacheSchema>> {
    this.conn ??= openDB<CacheSchema>(this.name, CACHE_DB_VERSION, {
      upgrade(db, oldVersion, _newVersion, tx) {
        for (const name of ALL_LISTS) if (!db.objectStoreNames.contains(name)) db.createObjectStore(name, { keyPath: 'id' });
        if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta', { keyPath: 'key' });
        if (!db.objectStoreNames.contains('productChunks')) db.createObjectStore('productChunks', { keyPath: 'key' });
        // From version 1: products move to compact chunks, the row-per-product copy is dropped.
        if (oldVersion >= 10 && oldVersion < 20) {
          void tx.objectStore('list').clear();
          void tx.objectStore('meta').delete('list');
        }
      },
      blocking: () => this.close(),
    });
    return this.conn;
  }

  /** Is this list's cached copy complete (a load cut off half way is fetched again)? */
  async isComplete(key: ListKey): Promise<boolean> {
    return (await (await this.open()).get('meta', key))?.complete === true;
  }

  /** Replaces a list's cached copy and marks it complete, in one transaction. */
  async replaceList(key: ListKey, rows: unknown[]): Promise<void> {
    const tx = (await this.open()).transaction([key, 'meta'], 'readwrite');
    const store = tx.objectStore(key);
    quiet(store.clear());
    for (const row of rows) quiet(store.put(row as never));
    quiet(tx.objectStore('meta').put({ key, complete: true, loadedAt: new Date().toISOString(), count: rows.length }));
    await tx.done;
  }

  async list<T>(key: ListKey): Promise<T[]> {
    return (await (await this.open()).getAll(key)) as T[];
  }

  /**
   * Writes the product chunks in one transaction (all replaced, or `drop` removed and `records` put;
   * a new index record replaces every part of the old one). A failed write (storage full) rejects
   * once, through the transaction: the requests' own rejections are handled here.
   */
  async writeChunks(records: ProductChunk[], opts: { replaceAll?: boolean; drop?: number[] } = {}): Promise<void> {
    const tx = (await this.open()).transaction('productChunks', 'readwrite');
    if (opts.replaceAll) quiet(tx.store.clear());
    else if (records.some((r) => r.key === INDEX_KEY)) quiet(tx.store.delete(IDBKeyRange.upperBound(FIRST_INDEX_PART)));
    for (const key of opts.drop ?? []) quiet(tx.store.delete(key));
    for (const r of records) quiet(tx.store.put(r));
    await tx.done;
  }

  /** The stored index, its parts joined (tests, checks). */
  async storedIndex(): Promise<StoredIndex | undefined> {
    const records = await (await this.open()).getAll('productChunks', IDBKeyRange.upperBound(INDEX_KEY));
    return joinIndex(INDEX_KEY, records)?.index;
  }

  async chunk(key: number): Promise<ProductChunk | undefined> {
    return (await this.open()).get('productChunks', key);
  }

  /** The chunk texts with `from` <= key <= `to` (a warm start's, read as the till needs them: cached-texts.ts). */
  async chunkTexts(from: number, to: number): Promise<ChunkText[]> {
    const records = await (await this.open()).getAll('productChunks', IDBKeyRange.bound(Math.max(0, from), Math.max(0, to)));
    return records.map((r) => ({ key: r.key, json: r.json }));
  }

  async chunkCount(): Promise<number> {
    return (await this.open()).count('productChunks');
  }

  close(): void {
    const conn = this.conn;
    this.conn = null;
    void conn?.then((db) => db.close(), () => {});
  }

  /** Deletes the whole database (tests). */
  async delete(): Promise<void> {
    this.close();
    await deleteDB(this.name);
  }
}

let shared: CacheDb | null = null;
export function cacheDb(): CacheDb {
  shared ??= new CacheDb();
  return shared;
}

/** A request of a transaction whose outcome `tx.done` reports: its own rejection (the transaction aborted) is not an unhandled one. */
function quiet(request: Promise<unknown>): void {
  request.catch(() => {});
}

export const ALL_LISTS: ListKey[] = ['list', 'discountList', 'taxList', 'paymentTypesList', 'deviceList', 'settingList'];

/** "Refresh Browser Cache": forgets every cached list so the next start-up fetches them again. */
export async function clearCatalogueCache(db: CacheDb = cacheDb()): Promise<void> {
  const tx = (await db.open()).transaction(['meta', 'productChunks', ...ALL_LISTS], 'readwrite');
  for (const name of tx.objectStoreNames) quiet(tx.objectStore(name).clear());
  await tx.done;
}
