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
 */
import Dexie, { type Table } from 'dexie';
import { HEADER_RECORD, INDEX_RECORD } from './sync-protocol';
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
  /** chunkOf(id) for rows; HEADER_KEY for the header; INDEX_KEY for the index (json = its tag). */
  key: number;
  json: string;
  /** The index record's columns (product-sync.ts StoredIndex: TableIndex with its arrays as ArrayBuffers). */
  index?: StoredIndex;
}

/** The chunk record holding the sync header (the worker reads it without Dexie: product-sync.ts). */
export const HEADER_KEY = HEADER_RECORD;
/** The record holding the index columns, so a warm start needs no parse before the till is ready. */
export const INDEX_KEY = INDEX_RECORD;

export class CacheDb extends Dexie {
  list!: Table<Product, number>;
  productChunks!: Table<ProductChunk, number>;
  discountList!: Table<Discount, number>;
  taxList!: Table<Tax, number>;
  paymentTypesList!: Table<PaymentType, number>;
  deviceList!: Table<Device, number>;
  settingList!: Table<Setting, number>;
  meta!: Table<ListMeta, ListKey>;

  constructor(name = CACHE_DB_NAME) {
    super(name);
    this.version(1).stores({
      list: 'id',
      discountList: 'id',
      taxList: 'id',
      paymentTypesList: 'id',
      deviceList: 'id',
      settingList: 'id',
      meta: 'key',
    });
    // Products move to compact chunks: the row-per-product copy of version 1 is dropped.
    this.version(2).stores({ productChunks: 'key' }).upgrade(async (tx) => {
      await tx.table('list').clear();
      await tx.table('meta').delete('list');
    });
  }
}

let shared: CacheDb | null = null;
export function cacheDb(): CacheDb {
  shared ??= new CacheDb();
  return shared;
}

export const ALL_LISTS: ListKey[] = ['list', 'discountList', 'taxList', 'paymentTypesList', 'deviceList', 'settingList'];

/** "Refresh Browser Cache": forgets every cached list so the next start-up fetches them again. */
export async function clearCatalogueCache(db: CacheDb = cacheDb()): Promise<void> {
  await db.transaction('rw', [db.meta, db.productChunks, ...ALL_LISTS.map((k) => db[k])], async () => {
    await db.meta.clear();
    await db.productChunks.clear();
    for (const k of ALL_LISTS) await db[k].clear();
  });
}
