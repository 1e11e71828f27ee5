import { describe, expect, it } from 'vitest';
import { FLAG_ACTIVE, FLAG_MANAGE_INVENTORY, SYNC_FORMAT, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { CHUNK_SPAN, ProductSync } from './product-sync';
import { packIndex, textAt, type StoredIndex } from './table-index';
import { ProductTable, SCAN_CHANGES_LIMIT } from './product-table';
import { buildFacets, buildScanLookup, isVisibleAt } from './product-index';
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
    const table = ProductTable.from(new ProductSync().apply(full([shirt, { ...plain(11), 12: [1] } as ProductRow])));
    const [p, other] = table.products();
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

  it('decodes a product only when asked, once, from the chunk texts; the cache restores the same table', () => {
    const rows = Array.from({ length: 2500 }, (_, i) => plain(2500 - i));
    const update = new ProductSync().apply(full(rows));
    expect(update.chunks.map((c) => c.key)).toEqual([0, 1, 2]);
    expect(Array.from(update.index!.ids)).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    const table = ProductTable.from(update);
    expect(table.size).toBe(2500);
    const p = table.get(2048);
    expect(p).toMatchObject({ id: 2048, name: 'P2048', barcode: '20002048' });
    expect(table.get(2048)).toBe(p);
    expect(table.get(9999)).toBeUndefined();
    expect(table.scan.get('20002048')?.product).toBe(p);
    // Restoring the cache written for it (chunks and header) gives the same columns and products.
    const restored = new ProductSync().restore(update.persist!.header, [...update.chunks].reverse())!;
    expect(restored.index).toEqual(update.index);
    expect(ProductTable.from(restored).get(2048)).toEqual(p);
    // Without its index record the restore built the index: it asks to write it (not the chunks).
    expect(restored.persist).toMatchObject({ replaceAll: false, chunks: false, index: true });
  });

  it('restores from the cached index record without parsing first; a record of another header is not used', () => {
    const sync = new ProductSync();
    const update = sync.apply(full(Array.from({ length: 1500 }, (_, i) => plain(i + 1))));
    const tag = (JSON.parse(update.persist!.header) as { indexTag: string }).indexTag;
    expect(tag).toBe('1000');
    const restoring = new ProductSync();
    const fast = restoring.restore(update.persist!.header, update.chunks, { key: -2, json: tag, index: packIndex(update.index!) })!;
    expect(fast.index).toEqual(update.index);
    expect(fast.persist).toBeNull();
    // The rows come when a delta needs them.
    const d = restoring.apply(delta([plain(7, 'Seven')]));
    expect(restoring.rows.size).toBe(1500);
    expect(restoring.parsedChunks).toBe(2);
    expect(ProductTable.from(fast).apply(d).get(7)?.name).toBe('Seven');
    // A change in place keeps the index record and its tag; the header carries the patch since (index-patch.ts).
    expect(JSON.parse(d.persist!.header)).toMatchObject({ indexTag: '1000', indexPatch: { at: [6], names: ['Seven'] } });
    expect(d.persist).toMatchObject({ chunks: true, index: false });
    expect(d.index).toBeNull();
    // The next start: the index record written before, patched, equals one built from the chunks.
    const chunksNow = update.chunks.map((c) => d.chunks.find((x) => x.key === c.key) ?? c);
    const patched = new ProductSync().restore(d.persist!.header, chunksNow, { key: -2, json: tag, index: packIndex(update.index!) })!;
    expect(patched.persist).toBeNull();
    const built = new ProductSync().restore(d.persist!.header, chunksNow)!;
    expect(textAt(patched.index!.names, 6)).toBe('Seven');
    expect({ ...patched.index, scanKeys: null, scanAt: null, scanVariant: null, scanSlots: null }).toEqual({ ...built.index, scanKeys: null, scanAt: null, scanVariant: null, scanSlots: null });
    for (const code of ['Seven', 'P7', '20007', 'P8']) expect(ProductTable.from(patched).scan.get(code)?.product.id, code).toBe(ProductTable.from(built).scan.get(code)?.product.id);
    // A product that came moves every position after it: the index is built and written again, under a new tag.
    const added = restoring.apply(delta([plain(1600, 'New')], [], '2000'));
    expect(added.index).not.toBeNull();
    expect(added.patch).toBeUndefined();
    expect(JSON.parse(added.persist!.header).indexTag).toBe('2000');
    expect(JSON.parse(added.persist!.header).indexPatch).toBeUndefined();
    expect(added.persist).toMatchObject({ chunks: true, index: true });
    // A stock-only change keeps the tag.
    const stockOnly = restoring.apply(delta([{ ...plain(7, 'Seven'), 19: [[7, 1, '5', null, null]] } as ProductRow], [], '2500'));
    expect(stockOnly.indexChanged).toBe(false);
    expect(stockOnly.persist).toMatchObject({ chunks: true, index: false });
    expect(JSON.parse(stockOnly.persist!.header).indexTag).toBe('2000');
    const stale = new ProductSync().restore(added.persist!.header, update.chunks, { key: -2, json: tag, index: packIndex(update.index!) })!;
    expect(stale.persist?.index).toBe(true); // built again from the chunks, and written
    // An index record of the right tag in an older version's shape (sorted scan keys, no scan table): built again too.
    const { scanSlots: _slots, ...older } = packIndex(update.index!);
    const old = new ProductSync().restore(update.persist!.header, update.chunks, { key: -2, json: tag, index: older as StoredIndex })!;
    expect(old.persist?.index).toBe(true);
    expect(ProductTable.from(old).scan.get('20001500')?.product.id).toBe(1500);
  });

  it("gives the same scan hits, store filter, facets and search records as the decoded products", () => {
    const dict2: SyncPayload['dict'] = {
      ...dict, brands: [[2, 'Acme', true], [6, 'Zeta', true], [7, 'Beta', true]], stores: [[1, 'Main Street', null], [2, 'Harbour', null]],
      terminals: [[8, 'T08', null, true]], departments: [[5, 'Clothing', 'Apparel'], [9, 'Food', null]],
    };
    const rows: ProductRow[] = [
      shirt,
      { ...plain(11, '880000'), 14: [6, 2, 99], 11: 9, 19: [[1, 2, '1', null, null]] } as ProductRow,
      { ...plain(12, ' Linen Shirt '), 2: ' 8800001 ', 14: [7], 13: [3, 42], 16: [8], 11: 77, 4: null } as ProductRow,
      { ...plain(13, 'Loose'), 2: null, 19: [[2, 3, '1', null, null]] } as ProductRow,
    ];
    const table = ProductTable.from(new ProductSync().apply({ ...full(rows), dict: dict2 }));
    const products = table.products();
    const reference = buildScanLookup(products);
    for (const code of ['880000', '8800001', '8800002', 'Linen Shirt', '20001', '200011', '20000', 'Loose', 'P13', 'nope']) {
      const hit = table.scan.get(code);
      const want = reference.get(code);
      expect(hit ? [hit.product.id, hit.variant?.id ?? null] : null, code).toEqual(want ? [want.product.id, want.variant?.id ?? null] : null);
      expect(table.scan.has(code)).toBe(reference.has(code));
    }
    for (const [store, terminal] of [[1, 8], [2, 8], [2, null], [null, 3], [3, null], [null, null]] as const) {
      const visible = table.visibleAt(store, terminal);
      const want = products.filter((p) => isVisibleAt(p, store, terminal));
      expect(Array.from(visible, (i) => table.index.ids[i])).toEqual(want.map((p) => p.id));
      expect(table.facets(visible)).toEqual(buildFacets(want));
      // What the item search indexes (its worker builds the records from these columns).
      const { ids, names, barcodes, prices, brands, categories, departments } = table.index;
      const listed = (r: typeof brands, i: number) => Array.from(r.ids.subarray(r.start[i], r.start[i + 1]));
      expect(Array.from(visible, (i) => [ids[i], textAt(names, i), textAt(barcodes, i), prices[i], listed(brands, i), listed(categories, i), departments[i]])).toEqual(
        want.map((p) => [p.id, p.name, p.barcode ?? '', p.basePrice, (p.brands ?? []).map((x) => x.id), (p.categories ?? []).map((x) => x.id), p.department?.id ?? -1]),
      );
    }
  });
});

describe('compact catalogue: deltas', () => {
  it('after a restore from the cached index, parses only the chunks a stock change touches; a change the index reads parses the rest', () => {
    const rows = Array.from({ length: 3000 }, (_, i) => plain(i + 1));
    const written = new ProductSync().apply(full(rows));
    const tag = (JSON.parse(written.persist!.header) as { indexTag: string }).indexTag;
    const record = { key: -2, json: tag, index: packIndex(written.index!) };
    const lazy = new ProductSync();
    const restored = lazy.restore(written.persist!.header, written.chunks, record)!;
    expect(lazy.parsedChunks).toBe(0);
    // Another till sold product 2100 (chunk 2): only chunk 2 is read, and written whole.
    const sold = plain(2100);
    sold[19] = [[2100, 1, '-3', null, null]];
    const stock = lazy.apply(delta([sold]));
    expect(stock.indexChanged).toBe(false);
    expect(lazy.parsedChunks).toBe(1);
    expect(stock.chunks.map((c) => c.key)).toEqual([2]);
    const chunk2 = JSON.parse(stock.chunks[0].json) as ProductRow[];
    expect(chunk2.find((r) => r[0] === 2100)?.[19]).toEqual([[2100, 1, '-3', null, null]]);
    expect(chunk2.map((r) => r[0])).toEqual(rows.filter((r) => Math.floor(r[0] / CHUNK_SPAN) === 2).map((r) => r[0]));
    // A rename is patched in place: the patch walks every row, so every chunk is parsed now, and the
    // answers are those of a catalogue that had parsed everything from the start.
    const eager = new ProductSync();
    eager.restore(written.persist!.header, written.chunks, record);
    expect(eager.rows.size).toBe(3000);
    eager.apply(delta([sold]));
    const renamed = delta([plain(5, 'Renamed')], [], '3000');
    const a = lazy.apply(renamed);
    const b = eager.apply(renamed);
    expect(lazy.parsedChunks).toBe(3);
    expect(a).toEqual(b);
    expect(ProductTable.from(restored).apply(stock).apply(a).get(5)?.name).toBe('Renamed');
    // A product gone from a chunk not parsed yet stays gone (its chunk is read before the merge).
    const other = new ProductSync();
    other.restore(written.persist!.header, written.chunks, record);
    const gone = other.apply(delta([], [2101]));
    expect(Array.from(gone.index!.ids)).not.toContain(2101);
    expect(gone.index!.ids).toHaveLength(2999);
    expect(other.rows.has(2101)).toBe(false);
    // The worker parses the rest a few chunks at a time after the start: the same rows in the end.
    const later = new ProductSync();
    later.restore(written.persist!.header, written.chunks, record);
    expect(later.parseSome(2)).toBe(true);
    expect(later.parsedChunks).toBe(2);
    expect(later.parseSome(2)).toBe(false);
    expect(later.parsedChunks).toBe(3);
    expect([...later.rows.values()]).toEqual([...eager.rows.values()].map((r) => (r[0] === 5 || r[0] === 2100 ? rows[r[0] - 1] : r)));
  });


  it('merges changed and removed products, and writes only the cache chunks they live in', () => {
    const sync = new ProductSync();
    const rows = Array.from({ length: 3000 }, (_, i) => plain(i + 1));
    const first = sync.apply(full(rows));
    expect(first.persist?.replaceAll).toBe(true);
    expect(first.chunks.map((c) => c.key)).toEqual([0, 1, 2]);
    expect(sync.cursorFor(1)).toBe('1000');
    expect(sync.cursorFor(2)).toBeNull(); // another user's catalogue: a full load

    const d = sync.apply(delta([plain(5, 'Renamed'), plain(5000, 'New')], [2999]));
    expect(d.full).toBe(false);
    expect(d.changed).toEqual([5, 5000]);
    expect(d.removed).toEqual([2999]);
    expect(d.indexChanged).toBe(true);
    expect(d.persist?.replaceAll).toBe(false);
    expect(d.chunks.map((c) => c.key)).toEqual([0, 2, Math.floor(5000 / CHUNK_SPAN)]);
    const chunk0 = JSON.parse(d.chunks.find((c) => c.key === 0)!.json) as ProductRow[];
    expect(chunk0.find((r) => r[0] === 5)?.[1]).toBe('Renamed');
    expect(sync.cursorFor(1)).toBe('2000');
    expect(sync.rows.size).toBe(3000); // +1 new, -1 removed

    // The same delta again (the server re-sends an overlap): nothing new.
    const again = sync.apply(delta([plain(5, 'Renamed')], [], '2100'));
    expect(again.changed).toEqual([5]);
    expect(again.indexChanged).toBe(false);
    expect(again.index).toBeNull();

    // A table follows the deltas: new and changed products decode from the new chunk texts.
    const table = ProductTable.from(first);
    const kept = table.get(6);
    const next = table.apply(d);
    expect(next.size).toBe(3000);
    expect(next.get(5)?.name).toBe('Renamed');
    expect(next.get(5000)?.name).toBe('New');
    expect(next.get(2999)).toBeUndefined();
    expect(next.get(6)).toBe(kept);
    expect(table.get(5)?.name).toBe('P5'); // the old table is left as it was
  });

  it('patches the index for changes in place, and writes it again once the patches held since pass PATCH_LIMIT', () => {
    const sync = new ProductSync();
    const rows = Array.from({ length: 12_000 }, (_, i) => plain(i + 1));
    const table = ProductTable.from(sync.apply(full(rows)));
    const renamed = sync.apply(delta([plain(9, 'Nine'), { ...plain(10), 4: 7.5 } as ProductRow]));
    expect(renamed.patch?.at).toEqual([8, 9]);
    const next = table.apply(renamed);
    expect(next.scan.get('Nine')?.product.id).toBe(9);
    expect(next.scan.has('P9')).toBe(false);
    expect(next.index.prices[9]).toBe(7.5);
    expect(table.scan.get('P9')?.product.id).toBe(9); // the table before is left as it was
    // Every product renamed: 12,000 positions and 24,000 keys, past the limit: built and written again.
    const all = sync.apply(delta(rows.map((r) => plain(r[0], `Q${r[0]}`)), [], '3000'));
    expect(all.patch).toBeUndefined();
    expect(all.persist).toMatchObject({ index: true });
    expect(JSON.parse(all.persist!.header)).toMatchObject({ indexTag: '3000' });
    expect(JSON.parse(all.persist!.header).indexPatch).toBeUndefined();
    expect(next.apply(all).scan.get('Q9')?.product.id).toBe(9);
  });

  it('keeps a patch\'s scan keys aside, and writes them into the scan table once SCAN_CHANGES_LIMIT gathered', () => {
    const sync = new ProductSync();
    const rows = Array.from({ length: 6000 }, (_, i) => plain(i + 1));
    let table = ProductTable.from(sync.apply(full(rows)));
    const slots = table.index.scanSlots;
    // A name becomes another product's barcode (the barcode keeps it), a barcode is given up, a name is taken from nobody.
    table = table.apply(sync.apply(delta([plain(1, '20002'), { ...plain(3, 'Three'), 2: null } as ProductRow])));
    expect(table.index.scanSlots).toBe(slots); // the table is not copied
    expect(table.scan.get('20002')?.product.id).toBe(2);
    expect(table.scan.has('P1')).toBe(false);
    expect(table.scan.has('20003')).toBe(false);
    expect(table.scan.get('Three')?.product.id).toBe(3);
    expect(table.scan.get('P4')?.product.id).toBe(4);
    expect(2100 * 2).toBeGreaterThan(SCAN_CHANGES_LIMIT);
    // 2,100 products renamed: 4,200 keys changed, past the limit: a new scan table holds them, none aside.
    table = table.apply(sync.apply(delta(rows.slice(100, 2200).map((r) => plain(r[0], `R${r[0]}`)), [], '3000')));
    expect(table.index.scanSlots).not.toBe(slots);
    for (const [code, id] of [['R101', 101], ['R2200', 2200], ['P100', 100], ['P2201', 2201], ['Three', 3], ['20002', 2], ['20002200', 2200]] as const) expect(table.scan.get(code)?.product.id, code).toBe(id);
    for (const code of ['P101', 'P2200', 'P1', '20003']) expect(table.scan.has(code), code).toBe(false);
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
    const renamed = { ...dict, taxes: [[1, 'Sales tax', 16, true]] as SyncPayload['dict']['taxes'] };
    const table = ProductTable.from(sync.apply(full([shirt, plain(11)])));
    expect(table.get(10)?.taxes?.[0].name).toBe('VAT');
    const d = sync.apply(delta([], [], '2000', renamed));
    expect(d.full).toBe(false);
    expect(d.dict).toEqual(renamed);
    expect(d.indexChanged).toBe(true);
    expect(table.apply(d).get(10)?.taxes?.[0].name).toBe('Sales tax');
  });

  it('keeps the till store current: scan hits and byId get the new objects, the index list only when needed', () => {
    const sync = new ProductSync();
    const base = sync.apply(full([shirt, plain(11)]));
    setCatalogue({ products: ProductTable.from(base), discounts: [], taxes: [], paymentTypes: [], devices: [], settings: [] });
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
    expect(s.catalogue.products.products().map((p) => p.name)).toEqual(['Oat Milk']);
    expect(s.byId.get(10)).toBeUndefined();
    expect(s.scan.get('Oat Milk')?.product.id).toBe(11);
    expect(s.scan.has('880000')).toBe(false);
  });
});
