import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CacheDb, clearCatalogueCache } from './cache-db';
import { loadCatalogue, type LoadStep } from './load-catalogue';

let n = 0;
let db: CacheDb;
afterEach(async () => {
  await db?.delete();
});

function fakeServer(productCount: number) {
  const calls: string[] = [];
  const products = Array.from({ length: productCount }, (_, i) => ({ id: i + 1, name: `P${i + 1}`, basePrice: 1 }));
  const get = async <T,>(path: string): Promise<T> => {
    calls.push(path);
    const url = new URL(path, 'http://x');
    if (url.pathname === '/products') {
      const page = Number(url.searchParams.get('page'));
      const size = Number(url.searchParams.get('itemsPerPage'));
      return { 'hydra:member': products.slice((page - 1) * size, page * size), 'hydra:totalItems': products.length } as T;
    }
    const lists: Record<string, unknown[]> = {
      '/discounts': [{ id: 1, name: 'D' }], '/taxes': [{ id: 1, name: 'VAT', rate: 16 }], '/payments': [{ id: 1, name: 'Cash', type: 'cash' }],
      '/devices': [{ id: 1, name: 'Printer' }], '/settings': [{ id: 1, name: 'shop_name', type: 'sale_receipt' }],
    };
    return { 'hydra:member': lists[url.pathname] ?? [], 'hydra:totalItems': (lists[url.pathname] ?? []).length } as T;
  };
  return { get, calls };
}

describe('the loading sequence', () => {
  it('fetches every list in the spec order with its progress messages, pages until an empty page, then caches', async () => {
    db = new CacheDb(`test-${n++}`);
    const server = fakeServer(250);
    const steps: LoadStep[] = [];
    const c = await loadCatalogue({ db, get: server.get, onProgress: (s) => { if (steps.at(-1) !== s) steps.push(s); } });
    expect(steps).toEqual(['Products', 'Discounts', 'Taxes', 'Payment types', 'Devices', 'Settings', 'Done']);
    expect(c.products).toHaveLength(250);
    expect(c.taxes[0].name).toBe('VAT');
    const productCalls = server.calls.filter((u) => u.startsWith('/products'));
    expect(productCalls[0]).toBe('/products?itemsPerPage=100&page=1&isActive=true');
    expect(productCalls).toContain('/products?itemsPerPage=100&page=4&isActive=true'); // the empty page
    expect(server.calls).toContain('/payments?isActive=true');
    expect(server.calls).toContain('/settings');

    // Second start: everything comes from IndexedDB.
    const again = fakeServer(0);
    const cached = await loadCatalogue({ db, get: again.get });
    expect(again.calls).toEqual([]);
    expect(cached.products).toHaveLength(250);
    expect(cached.paymentTypes[0].name).toBe('Cash');

    // Refresh Browser Cache: the next start fetches again.
    await clearCatalogueCache(db);
    const third = fakeServer(3);
    const fresh = await loadCatalogue({ db, get: third.get });
    expect(fresh.products).toHaveLength(3);
    expect(third.calls.length).toBeGreaterThan(0);
  });

  it('rethrows a failed fetch and does not mark the list as cached', async () => {
    db = new CacheDb(`test-${n++}`);
    const failing = async () => { throw new Error('offline'); };
    await expect(loadCatalogue({ db, get: failing })).rejects.toThrow('offline');
    expect(await db.meta.get('list')).toBeUndefined();
  });
});
