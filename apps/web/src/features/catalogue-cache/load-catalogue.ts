/**
 * The start-up loading sequence (spec 4 "Loading sequence"): products, discounts, taxes,
 * payment types, devices and settings, each from the offline cache when it holds a complete copy,
 * else fetched and cached. A progress message precedes each step, in that order, then 'Done'.
 * Products are fetched 100 per page from page 1 until a page comes back empty; once the first
 * page tells the total, the following pages are fetched a few at a time (a 100,000-product shop
 * is 1,000 pages) and each page is appended to the cache as it arrives.
 */
import type { CacheDb, ListKey } from './cache-db';
import type { Catalogue, HydraCollection } from './types';

export type LoadStep = 'Products' | 'Discounts' | 'Taxes' | 'Payment types' | 'Devices' | 'Settings' | 'Done';

export const LOAD_STEPS: LoadStep[] = ['Products', 'Discounts', 'Taxes', 'Payment types', 'Devices', 'Settings', 'Done'];

export type GetJson = <T>(path: string) => Promise<T>;

export interface LoadOptions {
  db: CacheDb;
  get: GetJson;
  onProgress?: (step: LoadStep, detail?: { loaded: number; total?: number }) => void;
  /** Pages fetched at once after the first (default 4). */
  concurrency?: number;
  pageSize?: number;
}

interface ListStep {
  step: LoadStep;
  key: Exclude<keyof Catalogue, 'products'>;
  table: ListKey;
  path: string;
}

const LIST_STEPS: ListStep[] = [
  { step: 'Discounts', key: 'discounts', table: 'discountList', path: '/discounts?isActive=true' },
  { step: 'Taxes', key: 'taxes', table: 'taxList', path: '/taxes?isActive=true' },
  { step: 'Payment types', key: 'paymentTypes', table: 'paymentTypesList', path: '/payments?isActive=true' },
  { step: 'Devices', key: 'devices', table: 'deviceList', path: '/devices?isActive=true' },
  { step: 'Settings', key: 'settings', table: 'settingList', path: '/settings' },
];

async function isComplete(db: CacheDb, key: ListKey): Promise<boolean> {
  const meta = await db.meta.get(key);
  return meta?.complete === true;
}

async function markComplete(db: CacheDb, key: ListKey, count: number) {
  await db.meta.put({ key, complete: true, loadedAt: new Date().toISOString(), count });
}

const members = <T>(c: HydraCollection<T> | null | undefined): T[] => (Array.isArray(c?.['hydra:member']) ? c['hydra:member'] : []);

const withParam = (path: string, param: string) => `${path}${path.includes('?') ? '&' : '?'}${param}`;

async function fetchProducts(opts: LoadOptions): Promise<number> {
  const { db, get, onProgress } = opts;
  const pageSize = opts.pageSize ?? 100;
  const concurrency = Math.max(1, opts.concurrency ?? 4);
  const url = (page: number) => `/products?itemsPerPage=${pageSize}&page=${page}&isActive=true`;
  await db.list.clear();
  const first = await get<HydraCollection<any>>(url(1));
  let loaded = members(first).length;
  const total = typeof first['hydra:totalItems'] === 'number' ? first['hydra:totalItems'] : undefined;
  if (loaded) await db.list.bulkPut(members(first));
  onProgress?.('Products', { loaded, total });
  if (!loaded) return 0;
  let next = 2;
  // Keep asking until a page is empty (the spec's stop rule); the total only sizes the batches,
  // and once it is reached one more (empty) page confirms the end.
  for (;;) {
    const pagesLeft = total !== undefined ? Math.ceil(Math.max(total - loaded, 0) / pageSize) : 0;
    const batch = Math.max(1, Math.min(concurrency, pagesLeft));
    const pages = Array.from({ length: batch }, (_, i) => next + i);
    next += batch;
    const results = await Promise.all(pages.map((p) => get<HydraCollection<any>>(url(p))));
    let empty = false;
    for (const r of results) {
      const m = members(r);
      if (!m.length) {
        empty = true;
        continue;
      }
      await db.list.bulkPut(m);
      loaded += m.length;
    }
    onProgress?.('Products', { loaded, total });
    if (empty || next > 100_000) break; // a server that ignores `page` must not loop forever
  }
  return loaded;
}

async function fetchList(opts: LoadOptions, path: string): Promise<unknown[]> {
  const first = await opts.get<HydraCollection<unknown>>(path);
  const list = [...members(first)];
  const total = first['hydra:totalItems'];
  // The server's default page size applies without paging parameters: follow the pages if there are more.
  for (let page = 2; typeof total === 'number' && list.length < total && page < 1000; page++) {
    const more = members(await opts.get<HydraCollection<unknown>>(withParam(path, `page=${page}`)));
    if (!more.length) break;
    list.push(...more);
  }
  return list;
}

/** Runs the sequence and returns the catalogue (from the cache or the network). Fetch failures are rethrown. */
export async function loadCatalogue(opts: LoadOptions): Promise<Catalogue> {
  const { db, onProgress } = opts;
  onProgress?.('Products');
  if (!(await isComplete(db, 'list'))) {
    const count = await fetchProducts(opts);
    await markComplete(db, 'list', count);
  }
  const products = await db.list.toArray();
  const catalogue: Catalogue = { products, discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] };
  for (const s of LIST_STEPS) {
    onProgress?.(s.step);
    const table = db[s.table];
    if (!(await isComplete(db, s.table))) {
      const list = await fetchList(opts, s.path);
      await db.transaction('rw', table, db.meta, async () => {
        await table.clear();
        await (table as any).bulkPut(list);
        await markComplete(db, s.table, list.length);
      });
    }
    (catalogue as any)[s.key] = await table.toArray();
  }
  onProgress?.('Done');
  return catalogue;
}
