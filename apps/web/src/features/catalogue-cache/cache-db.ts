/**
 * The till's offline cache (spec 3 "Offline cache"): IndexedDB database 'pos application',
 * version 1, one table per reference list under the spec's keys. Records are stored one per row
 * (keyed by id) so 100,000 products are written page by page, never as one giant value.
 * `meta` records which lists were loaded completely: a load cut off half way is fetched again.
 */
import Dexie, { type Table } from 'dexie';
import type { Device, Discount, PaymentType, Product, Setting, Tax } from './types';

export const CACHE_DB_NAME = 'pos application';

export type ListKey = 'list' | 'discountList' | 'taxList' | 'paymentTypesList' | 'deviceList' | 'settingList';

export interface ListMeta {
  key: ListKey;
  complete: boolean;
  loadedAt: string;
  count: number;
}

export class CacheDb extends Dexie {
  list!: Table<Product, number>;
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
  await db.transaction('rw', [db.meta, ...ALL_LISTS.map((k) => db[k])], async () => {
    await db.meta.clear();
    for (const k of ALL_LISTS) await db[k].clear();
  });
}
