/**
 * The start-up loading sequence (spec 4 "Loading sequence"): products, discounts, taxes,
 * payment types, devices and settings, each from the offline cache when it holds a complete copy,
 * else fetched and cached. A progress message precedes each step, in that order, then 'Done'.
 * Products come from the till's own compact sync (issue 10, product-source.ts: one streamed
 * request in a worker instead of 1,000 pages) as a ProductTable (decoded on demand); the small
 * lists are fetched meanwhile, so they are there by the time the products are. A catalogue from
 * the server is followed at once by what changed since it (it may be a snapshot kept a while).
 */
import type { CacheDb, ListKey } from './cache-db';
import type { ProductSource } from './product-source';
import { ProductTable } from './product-table';
import type { Catalogue, HydraCollection } from './types';

export type LoadStep = 'Products' | 'Discounts' | 'Taxes' | 'Payment types' | 'Devices' | 'Settings' | 'Done';

export const LOAD_STEPS: LoadStep[] = ['Products', 'Discounts', 'Taxes', 'Payment types', 'Devices', 'Settings', 'Done'];

export type GetJson = <T>(path: string) => Promise<T>;

export interface LoadOptions {
  db: CacheDb;
  get: GetJson;
  products: ProductSource;
  onProgress?: (step: LoadStep, detail?: { loaded: number; total?: number }) => void;
}

export interface LoadResult {
  catalogue: Catalogue<ProductTable>;
  /** The products came from the offline cache: ask the server what changed since, soon. */
  fromCache: boolean;
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

const members = <T>(c: HydraCollection<T> | null | undefined): T[] => (Array.isArray(c?.['hydra:member']) ? c['hydra:member'] : []);

const withParam = (path: string, param: string) => `${path}${path.includes('?') ? '&' : '?'}${param}`;

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

async function loadList(opts: LoadOptions, s: ListStep): Promise<unknown[]> {
  const { db } = opts;
  if (!(await db.isComplete(s.table))) await db.replaceList(s.table, await fetchList(opts, s.path));
  return db.list(s.table);
}

/** Runs the sequence and returns the catalogue (from the cache or the network). Fetch failures are rethrown. */
export async function loadCatalogue(opts: LoadOptions): Promise<LoadResult> {
  const { onProgress } = opts;
  onProgress?.('Products');
  // The lists load while the products do; each failure is rethrown at its own step.
  const lists = LIST_STEPS.map((s) => {
    const p = loadList(opts, s);
    p.catch(() => {});
    return p;
  });
  const cached = await opts.products.fromCache();
  let products = ProductTable.from(cached ?? (await opts.products.sync()), opts.products.cachedTexts);
  if (!cached) {
    // The server may have sent a catalogue it read for another till a few minutes ago (a kept
    // snapshot, issue 24): what changed since its cursor comes now, before the till sells. A
    // failure here is not the load's: the sync that follows every few seconds asks again.
    const since = await opts.products.sync().catch(() => null);
    if (since) products = products.apply(since);
  }
  onProgress?.('Products', { loaded: products.size, total: products.size });
  const catalogue: Catalogue<ProductTable> = { products, discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] };
  for (const [i, s] of LIST_STEPS.entries()) {
    onProgress?.(s.step);
    (catalogue as any)[s.key] = await lists[i];
  }
  onProgress?.('Done');
  return { catalogue, fromCache: cached !== null };
}
