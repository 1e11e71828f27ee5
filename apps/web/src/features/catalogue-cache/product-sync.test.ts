import { describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, FLAG_MANAGE_INVENTORY, SYNC_FORMAT, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { CHUNK_SPAN, ProductSync } from './product-sync';
import { applyProductUpdate, catalogueStore, setCatalogue } from './catalogue-store';

const dict: SyncPayload['dict'] = {
  taxes: [[1, 'VAT', 16, true]], categories: [[3, 'Shirts', 'product', true]], brands: [[2, 'Acme', true]],
  suppliers: [[4, 'Mills', null, 'mills@example.com', true]], terminals: [], departments: [[5, 'Clothing', 'Apparel']],
  stores: [[1, 'Main Street', '12 Main Street']],
};
const shirt: ProductRow = [
  10, 'Linen Shirt', '880000', 'SKU-1', 25.5, 12, 'pcs', 'pcs', FLAG_ACTIVE | FLAG_MANAGE_INVENTORY, 1, null, 5, [1], [3], [2], [4], [],
  [[100, 'Linen Shirt', 'Size', 'S', '8800001', null, null, 11, 10], [101, 'Linen Shirt', 'Size', 'M', '8800002', null, 27, 11, 3]],
  [[7, 101, null, '09:00', '12:00', null, null, null, null, null, null, null, 20, null], [8, null, null, null, null, 'Monday', null, null, null, null, null, null, 22, null]],
  [[55, 1, '7', 'Rack 4', '2']],
];
const plain = (id: number, name = `P${id}`): ProductRow => [id, name, `2000${id}`, null, 1, 0.5, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [], [], [], [], [], [], [], [[id, 1, '0', null, null]]];
const full = (products: ProductRow[], cursor = '1000'): SyncPayload => ({ format: SYNC_FORMAT, full: true, cursor, userId: 1, dict, products, removed: [] });
const delta = (products: ProductRow[], removed: number[] = [], cursor = '2000', d = dict): SyncPayload => ({ format: SYNC_FORMAT, full: false, cursor, userId: 1, dict: d, products, removed });

describe('compact catalogue: decoding', () => {
  it('rebuilds the product /api/products presents, with shared dictionary objects', () => {
    const sync = new ProductSync();
    const [p, other] = sync.apply(full([shirt, { ...plain(11), 12: [1] } as ProductRow])).products;
    expect(p).toMatchObject({
      '@id': '/api/products/10', id: 10, name: 'Linen Shirt', barcode: '880000', sku: 'SKU-1', basePrice: 25.5, cost: 12,
      manageInventory: true, isActive: true, isAvailable: false,
      department: { '@id': '/api/departments/5', id: 5, name: 'Clothing', description: 'Apparel' },
      taxes: [{ '@id': '/api/taxes/1', '@type': 'Tax', id: 1, name: 'VAT', rate: 16, isActive: true }],
      categories: [{ id: 3, name: 'Shirts' }], brands: [{ id: 2, name: 'Acme' }], suppliers: [{ id: 4, name: 'Mills', email: 'mills@example.com' }],
      stores: [{ id: 55, store: { '@id': '/api/stores/1', id: 1, name: 'Main Street' }, quantity: '7', location: 'Rack 4', reOrderLevel: '2' }],
    });
    expect(p.variants?.map((v) => [v.id, v.attributeValue, v.barcode, v.price, v.quantity])).toEqual([[100, 'S', '8800001', null, 10], [101, 'M', '8800002', 27, 3]]);
    // A variant's own price rules are embedded in it; the product lists all of them.
    expect(p.variants?.[1].prices).toEqual([expect.objectContaining({ id: 7, time: '09:00', timeTo: '12:00', basePrice: 20, productVariant: '/api/product_variants/101' })]);
    expect(p.variants?.[0].prices).toEqual([]);
    expect(p.prices).toHaveLength(2);
    expect(other.taxes![0]).toBe(p.taxes![0]);
    // What only the hydra wire carries is left out (the API tests decode in full).
    expect(p).not.toHaveProperty('@type');
  });

  it('hands a full catalogue out in batches when asked, in id order', () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => plain(25_000 - i));
    const batches: number[][] = [];
    const update = new ProductSync().apply(full(rows), (products) => batches.push(products.map((p) => p.id)));
    expect(update.products).toEqual([]);
    expect(batches.map((b) => b.length)).toEqual([10_000, 10_000, 5000]);
    expect(batches.flat()).toEqual(Array.from({ length: 25_000 }, (_, i) => i + 1));
    // Restoring the cache written for it gives the same, batch by batch.
    const restored: number[] = [];
    new ProductSync().restore(update.persist!.header, update.persist!.chunks.map((c) => c.json), (products) => restored.push(...products.map((p) => p.id)));
    expect(restored).toEqual(batches.flat());
  });
});

describe('compact catalogue: deltas', () => {
  it('merges changed and removed products, and writes only the cache chunks they live in', () => {
    const sync = new ProductSync();
    const rows = Array.from({ length: 3000 }, (_, i) => plain(i + 1));
    const first = sync.apply(full(rows));
    expect(first.persist?.replaceAll).toBe(true);
    expect(first.persist?.chunks.map((c) => c.key)).toEqual([0, 1, 2]);
    expect(sync.cursorFor(1)).toBe('1000');
    expect(sync.cursorFor(2)).toBeNull(); // another user's catalogue: a full load

    const d = sync.apply(delta([plain(5, 'Renamed'), plain(5000, 'New')], [2999]));
    expect(d.full).toBe(false);
    expect(d.products.map((p) => [p.id, p.name])).toEqual([[5, 'Renamed'], [5000, 'New']]);
    expect(d.removed).toEqual([2999]);
    expect(d.indexChanged).toBe(true);
    expect(d.persist?.chunks.map((c) => c.key).sort()).toEqual([0, 2, Math.floor(5000 / CHUNK_SPAN)].sort());
    const chunk0 = JSON.parse(d.persist!.chunks.find((c) => c.key === 0)!.json) as ProductRow[];
    expect(chunk0.find((r) => r[0] === 5)?.[1]).toBe('Renamed');
    expect(sync.cursorFor(1)).toBe('2000');
    expect(sync.rows.size).toBe(3000); // +1 new, -1 removed

    // The same delta again (the server re-sends an overlap): nothing new.
    const again = sync.apply(delta([plain(5, 'Renamed')], [], '2100'));
    expect(again.products.map((p) => p.name)).toEqual(['Renamed']);
    expect(again.indexChanged).toBe(false);
  });

  it('tells a stock-only change apart from one the indexes read', () => {
    const sync = new ProductSync();
    sync.apply(full([shirt]));
    const stock = structuredClone(shirt);
    stock[19] = [[55, 1, '6', 'Rack 4', '2']];
    stock[17][0][8] = 9;
    expect(sync.apply(delta([stock])).indexChanged).toBe(false);
    const priced = structuredClone(stock);
    priced[4] = 30;
    expect(sync.apply(delta([priced], [], '3000')).indexChanged).toBe(true);
  });

  it('decodes every product again when a dictionary entry changed (a tax renamed)', () => {
    const sync = new ProductSync();
    sync.apply(full([shirt, plain(11)]));
    const renamed = { ...dict, taxes: [[1, 'Sales tax', 16, true]] as SyncPayload['dict']['taxes'] };
    const d = sync.apply(delta([], [], '2000', renamed));
    expect(d.full).toBe(true);
    expect(d.products.find((p) => p.id === 10)?.taxes?.[0].name).toBe('Sales tax');
  });

  it('keeps the till store current: scan hits and byId get the new objects, the index list only when needed', () => {
    const sync = new ProductSync();
    const base = sync.apply(full([shirt, plain(11)]));
    setCatalogue({ products: base.products, discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] });
    const indexed = catalogueStore.get().indexed;
    const stock = structuredClone(shirt);
    stock[19] = [[55, 1, '1', 'Rack 4', '2']];
    applyProductUpdate(sync.apply(delta([stock])));
    let s = catalogueStore.get();
    expect(s.indexed).toBe(indexed);
    expect(s.byId.get(10)?.stores?.[0].quantity).toBe('1');
    expect(s.scan.get('8800002')?.variant?.id).toBe(101);
    expect(s.scan.get('8800002')?.product).toBe(s.byId.get(10));

    applyProductUpdate(sync.apply(delta([plain(11, 'Oat Milk')], [10], '3000')));
    s = catalogueStore.get();
    expect(s.indexed).not.toBe(indexed);
    expect(s.catalogue.products.map((p) => p.name)).toEqual(['Oat Milk']);
    expect(s.scan.get('Oat Milk')?.product.id).toBe(11);
    expect(s.scan.has('880000')).toBe(false);
  });
});
