import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, SYNC_FORMAT, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { CacheDb, INDEX_KEY, clearCatalogueCache } from './cache-db';
import { loadCatalogue, type LoadStep } from './load-catalogue';
import { WorkerProductSource } from './product-source';
import { FIRST_INDEX_PART } from './index-parts';
import { textAt, unpackIndex } from './table-index';

let n = 0;
let db: CacheDb;
afterEach(async () => {
  await db?.delete();
});

const row = (id: number, name = `P${id}`): ProductRow =>
  [id, name, `20000${id}`, null, 1, 0.5, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [], [], [], [], [], [], [], []];
const dict = { taxes: [], categories: [], brands: [], suppliers: [], terminals: [], departments: [], stores: [] };

/** The reference lists, and /catalogue/sync answering a full catalogue or the changes since a cursor. */
function fakeServer(productCount: number, userId = 7) {
  const calls: string[] = [];
  let products = Array.from({ length: productCount }, (_, i) => row(i + 1));
  let changes: { at: number; row?: ProductRow; removed?: number }[] = [];
  let clock = 1000;
  /** A full catalogue kept from earlier (the server's snapshot, catalogue-snapshot.ts): its rows and cursor. */
  let kept: { products: ProductRow[]; cursor: number } | null = null;
  const get = async <T,>(path: string): Promise<T> => {
    calls.push(path);
    const url = new URL(path, 'http://x');
    const lists: Record<string, unknown[]> = {
      '/discounts': [{ id: 1, name: 'D' }], '/taxes': [{ id: 1, name: 'VAT', rate: 16 }], '/payments': [{ id: 1, name: 'Cash', type: 'cash' }],
      '/devices': [{ id: 1, name: 'Printer' }], '/settings': [{ id: 1, name: 'shop_name', type: 'sale_receipt' }],
    };
    return { 'hydra:member': lists[url.pathname] ?? [], 'hydra:totalItems': (lists[url.pathname] ?? []).length } as T;
  };
  const fetchImpl = (async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://x');
    calls.push(`${url.pathname}${url.search}`);
    const since = url.searchParams.get('since');
    const body: SyncPayload = since === null
      ? { format: SYNC_FORMAT, full: true, cursor: String(kept?.cursor ?? clock), userId, dict, products: kept?.products ?? products, removed: [] }
      : {
        format: SYNC_FORMAT, full: false, cursor: String(clock), userId, dict,
        products: changes.filter((c) => c.at >= Number(since) && c.row).map((c) => c.row!),
        removed: changes.filter((c) => c.at >= Number(since) && c.removed).map((c) => c.removed!),
      };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return {
    get, fetchImpl, calls,
    rename(id: number, name: string) {
      const r = row(id, name);
      products = products.map((p) => (p[0] === id ? r : p));
      changes.push({ at: ++clock, row: r });
    },
    deactivate(id: number) {
      products = products.filter((p) => p[0] !== id);
      changes.push({ at: ++clock, removed: id });
    },
    resetChanges() { changes = []; },
    keep() { kept = { products, cursor: clock }; },
  };
}

const sourceFor = (server: ReturnType<typeof fakeServer>, userId = 7) =>
  new WorkerProductSource(db, { url: '/api/catalogue/sync', userId: () => userId, token: () => 'jwt', fetch: server.fetchImpl });

describe('the loading sequence', () => {
  it('loads products with one sync request and the lists in the spec order, then starts from the cache', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(2500);
    const steps: LoadStep[] = [];
    const first = sourceFor(server);
    const { catalogue: c, fromCache } = await loadCatalogue({ db, get: server.get, products: first, onProgress: (s) => { if (steps.at(-1) !== s) steps.push(s); } });
    expect(steps).toEqual(['Products', 'Discounts', 'Taxes', 'Payment types', 'Devices', 'Settings', 'Done']);
    expect(fromCache).toBe(false);
    expect(c.products.size).toBe(2500);
    expect(c.products.get(2500)).toMatchObject({ id: 2500, name: 'P2500', '@id': '/api/products/2500', basePrice: 1 });
    expect(c.taxes[0].name).toBe('VAT');
    // The whole catalogue in one request, then what changed since its cursor (nothing here).
    expect(server.calls.filter((u) => u.startsWith('/api/catalogue/sync'))).toEqual(['/api/catalogue/sync', '/api/catalogue/sync?since=1000']);
    expect(server.calls).toContain('/payments?isActive=true');
    await first.flushed();
    // A few large chunks in IndexedDB, not one record per product, and the index columns.
    expect(await db.chunkCount()).toBeLessThan(10);
    const stored = (await db.chunk(INDEX_KEY))?.index;
    expect(new Int32Array(stored!.ids)).toHaveLength(2500);
    // Stored as bytes: a record turned into JSON (a check for a product's name) stays small.
    const texts = stored!.names.text.length + stored!.barcodes.text.length + stored!.scanKeys.text.length;
    expect(JSON.stringify(stored).length).toBeLessThan(texts + 2000);
    // A start reads that index back instead of parsing the chunks (nothing to write back).
    const restored = await sourceFor(fakeServer(0)).fromCache();
    expect(restored?.persist).toBeNull();
    expect(restored?.index).toEqual(unpackIndex(stored!));
    expect(restored?.index?.ids[2499]).toBe(2500);

    // Second start (a new page): everything comes from IndexedDB, nothing is fetched.
    const offline = fakeServer(0);
    const again = await loadCatalogue({ db, get: offline.get, products: sourceFor(offline) });
    expect(offline.calls).toEqual([]);
    expect(again.fromCache).toBe(true);
    // Ready on the index; the product texts are read from the cache after (cached-texts.ts).
    expect(again.catalogue.products.textsPending).toBe(true);
    await again.catalogue.products.loadTexts();
    expect(again.catalogue.products.textsPending).toBe(false);
    expect(again.catalogue.products.products().map((p) => p.name)).toEqual(c.products.products().map((p) => p.name));
    expect(again.catalogue.paymentTypes[0].name).toBe('Cash');

    // Another user on this till does not get this user's cached catalogue.
    const other = fakeServer(3, 8);
    const theirSource = sourceFor(other, 8);
    const theirs = await loadCatalogue({ db, get: other.get, products: theirSource });
    await theirSource.flushed();
    expect(theirs.fromCache).toBe(false);
    expect(theirs.catalogue.products.size).toBe(3);

    // Refresh Browser Cache: the next start fetches again.
    await clearCatalogueCache(db);
    expect(await db.chunkCount()).toBe(0);
    const third = fakeServer(3);
    const fresh = await loadCatalogue({ db, get: third.get, products: sourceFor(third) });
    expect(fresh.catalogue.products.size).toBe(3);
    expect(third.calls.length).toBeGreaterThan(0);
  });

  it('asks for what changed since its cursor, and keeps the cache up to date with it', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(3000);
    const source = sourceFor(server);
    await loadCatalogue({ db, get: server.get, products: source });
    server.rename(1500, 'Renamed');
    server.deactivate(2999);
    const delta = await source.sync();
    expect(server.calls.at(-1)).toBe('/api/catalogue/sync?since=1000');
    expect(delta.full).toBe(false);
    expect(delta.changed).toEqual([1500]);
    expect(delta.removed).toEqual([2999]);
    expect(delta.indexChanged).toBe(true);
    await source.flushed();

    // The cache holds the merged catalogue: a new page starts with the change and without the removed product.
    const offline = fakeServer(0);
    const restarted = await loadCatalogue({ db, get: offline.get, products: sourceFor(offline) });
    await restarted.catalogue.products.loadTexts();
    const names = new Map(restarted.catalogue.products.products().map((p) => [p.id, p.name]));
    expect(names.get(1500)).toBe('Renamed');
    expect(names.has(2999)).toBe(false);
    expect(names.size).toBe(2999);
  });

  it('brings a catalogue the server kept from earlier up to date before the till sells', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(300);
    server.keep();
    server.rename(10, 'Renamed since');
    server.deactivate(20);
    const source = sourceFor(server);
    const { catalogue: c } = await loadCatalogue({ db, get: server.get, products: source });
    expect(server.calls.filter((u) => u.startsWith('/api/catalogue/sync'))).toEqual(['/api/catalogue/sync', '/api/catalogue/sync?since=1000']);
    expect(c.products.get(10)?.name).toBe('Renamed since');
    expect(c.products.get(20)).toBeUndefined();
    expect(c.products.size).toBe(299);
    await source.flushed();
    // And the device keeps the brought-up-to-date catalogue.
    const offline = fakeServer(0);
    const restarted = await loadCatalogue({ db, get: offline.get, products: sourceFor(offline) });
    await restarted.catalogue.products.ensure([10]);
    expect(restarted.catalogue.products.get(10)?.name).toBe('Renamed since');
    expect(restarted.catalogue.products.size).toBe(299);
  });

  it('starts from the cached index alone: a scan reads its own product, a delta meanwhile is merged whole, then every text is read', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(5000);
    const first = sourceFor(server);
    await loadCatalogue({ db, get: server.get, products: first });
    await first.flushed();

    // A new page: the worker answers from the header and the index; no chunk text is read for it.
    const source = sourceFor(server);
    const reads: [number, number][] = [];
    const chunkTexts = db.chunkTexts.bind(db);
    db.chunkTexts = (from: number, to: number) => { reads.push([from, to]); return chunkTexts(from, to); };
    const { catalogue: c, fromCache } = await loadCatalogue({ db, get: server.get, products: source });
    expect(fromCache).toBe(true);
    const table = c.products;
    expect(table.size).toBe(5000);
    expect(table.textsPending).toBe(true);
    expect(reads).toEqual([]);
    // Not decodable before its text is read, and a scan of it reads just its chunk (ids 3072-4095).
    expect(table.get(4000)).toBeUndefined();
    await table.ensureScan('200004000');
    expect(reads).toEqual([[3, 3]]);
    expect(table.scan.get('200004000')?.product).toMatchObject({ id: 4000, name: 'P4000' });
    expect(table.get(10)).toBeUndefined();

    // A delta before the rest is read: a rename, and the last chunk emptied (ids 4096-5000 go).
    server.rename(10, 'Renamed meanwhile');
    for (let id = 4096; id <= 5000; id++) server.deactivate(id);
    const delta = await source.sync();
    const after = table.apply(delta);
    expect(delta.drop).toEqual([4]);
    expect(after.get(10)?.name).toBe('Renamed meanwhile');
    await after.loadTexts();
    expect(after.textsPending).toBe(false);
    // Every chunk was read once more in batches; the dropped chunk, still in the cache until the
    // write lands, stays dropped, and the delta's text wins over the cache's.
    expect(reads.length).toBeGreaterThan(1);
    expect(after.get(4500)).toBeUndefined();
    expect(after.get(10)?.name).toBe('Renamed meanwhile');
    expect(after.products()).toHaveLength(4095);
    expect(after.get(4095)?.name).toBe('P4095');
    // The worker merged the delta into every row (it waited for its own read of the texts): the next start agrees.
    await source.flushed();
    const again = await loadCatalogue({ db, get: fakeServer(0).get, products: sourceFor(fakeServer(0)) });
    await again.catalogue.products.loadTexts();
    expect(again.catalogue.products.products().map((p) => p.name)).toEqual(after.products().map((p) => p.name));
  });

  it('stores a large index in parts no larger than the limit, reads it back whole, and leaves no stale part', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(3000);
    const limit = 4096;
    const source = new WorkerProductSource(db, { url: '/api/catalogue/sync', userId: () => 7, token: () => 'jwt', fetch: server.fetchImpl, indexPartBytes: limit });
    await loadCatalogue({ db, get: server.get, products: source });
    await source.flushed();
    const records = async () => (await db.open()).getAll('productChunks');
    const size = (v: unknown) => (typeof v === 'string' ? 2 * v.length : (v as ArrayBuffer).byteLength);
    const parts = (await records()).filter((r) => r.key <= FIRST_INDEX_PART);
    // Chromium refuses a value past ~127 MB (index-parts.ts): here, past the 4 KB limit.
    expect(parts.length).toBeGreaterThan(5);
    for (const p of parts) expect(size(p.part)).toBeLessThanOrEqual(limit);
    const stored = await db.storedIndex();
    expect(new Int32Array(stored!.ids)).toHaveLength(3000);
    // A new page takes the stored index as it is (nothing rebuilt, nothing written back).
    const restored = await sourceFor(fakeServer(0)).fromCache();
    expect(restored?.persist).toBeNull();
    expect(restored?.index).toEqual(unpackIndex(stored!));
    expect(textAt(restored!.index!.names, 2999)).toBe('P3000');

    // Two thirds of the catalogue go: the smaller index needs fewer parts, and the old ones are gone.
    for (let id = 1; id <= 2000; id++) server.deactivate(id);
    await source.sync();
    await source.flushed();
    const after = (await records()).filter((r) => r.key <= FIRST_INDEX_PART);
    expect(after.length).toBeLessThan(parts.length);
    const main = (await records()).find((r) => r.key === INDEX_KEY)!;
    expect(after.every((r) => r.json === main.json)).toBe(true);
    const again = await sourceFor(fakeServer(0)).fromCache();
    expect(again?.persist).toBeNull();
    expect(again?.index?.ids).toHaveLength(1000);
    expect(textAt(again!.index!.names, 0)).toBe('P2001');
  });

  it('rethrows a failed fetch and caches nothing', async () => {
    db = new CacheDb(`test-${n++}`);
    const failing = async () => { throw new Error('offline'); };
    const source = new WorkerProductSource(db, { url: '/api/catalogue/sync', userId: () => 7, token: () => null, fetch: failing as unknown as typeof fetch });
    await expect(loadCatalogue({ db, get: failing, products: source })).rejects.toThrow('offline');
    expect(await db.chunkCount()).toBe(0);
  });
});
