import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { productStore, stockMovement } from '../../db/schema/index.ts';
import { api, members, messageAt, paths, storeAdmin, type Api } from './test-support.ts';
import { ledgerMismatches } from './products.service.ts';
import { moveStock } from '../../lib/stock.ts';

let t: TestApp;
let admin: Api;
let cashier: Api;
let mall: Api;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  const m = await storeAdmin(t, 'malladmin', [2]);
  admin = api(t, () => a);
  cashier = api(t, () => c);
  mall = api(t, () => m);
});
afterAll(async () => { await t?.close(); });

/** A create body as the reference item form sends it (strings for money and stock, IRIs for relations). */
function itemBody(over: Record<string, unknown> = {}) {
  return {
    name: 'Linen Shirt', barcode: '880000', basePrice: '25.50', cost: '12.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
    department: '/api/departments/3', taxes: ['/api/taxes/1'], terminals: [], categories: ['/api/categories/3'],
    suppliers: ['/api/suppliers/3'], brands: ['/api/brands/2'], manageInventory: true,
    stores: [{ store: '/api/stores/2', quantity: '7', location: 'Rack 4', reOrderLevel: '2', product: null }],
    storesDropdown: [{ label: 'Harbour Mall', value: '/api/stores/2' }],
    baseQuantity: 1, isAvailable: true, isActive: true, prices: [],
    ...over,
  };
}

const ledgerSum = async (productId: number, storeId: number) => {
  const [r] = await t.app.db.select({ s: sql<string>`coalesce(sum(${stockMovement.quantity}), 0)` }).from(stockMovement)
    .where(and(eq(stockMovement.productId, productId), eq(stockMovement.storeId, storeId), isNull(stockMovement.variantId)));
  return Number(r.s);
};

describe('products: reading', () => {
  it('embeds what the clients read; prices is always an array; stock rows carry string quantities', async () => {
    const [p] = members(await admin.get('/api/products?page=1&itemsPerPage=100&isActive=true'));
    expect(p).toMatchObject({
      '@id': '/api/products/1', '@type': 'Product', id: 1, name: 'Fresh Milk 1L', basePrice: 10.75, cost: 6.45, isActive: true,
      department: { '@id': '/api/departments/1', id: 1, name: 'Grocery' }, prices: [], variants: [], taxes: [],
    });
    expect(p.categories[0]).toMatchObject({ id: 1, name: 'Food' });
    expect(p.stores[0]).toEqual({ id: expect.any(Number), store: { '@id': '/api/stores/1', '@type': 'Store', id: 1, name: 'Main Street', location: '12 Main Street' }, quantity: '0', location: 'Aisle 1', reOrderLevel: '5', reOrderQuantity: null });
    const shirt = (await admin.get('/api/products/191')).json();
    expect(shirt.taxes).toEqual([{ '@id': '/api/taxes/1', '@type': 'Tax', id: 1, name: 'VAT', rate: 16, isActive: true }]);
    expect(shirt.variants).toHaveLength(6);
    expect(shirt.variants[0]).toMatchObject({ '@id': expect.stringMatching(/^\/api\/product_variants\/\d+$/), attributeName: 'Size-Colour', attributeValue: 'S-Black', price: null, quantity: 10 });
    const withRule = (await admin.get('/api/products/100')).json();
    expect(withRule.prices).toEqual([expect.objectContaining({ month: 12, basePrice: 1.99, date: null, day: null })]);
  });

  it('lets the cashier read what the till needs, but not write', async () => {
    expect((await cashier.get('/api/products?page=1&itemsPerPage=100&isActive=true')).statusCode).toBe(200);
    expect((await cashier.get('/api/products/1')).statusCode).toBe(200);
    expect((await cashier.post('/api/products', itemBody())).statusCode).toBe(403);
    expect((await cashier.put('/api/products/1', { isActive: false })).statusCode).toBe(403);
  });

  it('never shows another store\'s products or stock rows', async () => {
    // Clothing is stocked in the Mall only; the cashier works at Main Street.
    expect((await cashier.get('/api/products/191')).statusCode).toBe(404);
    const list = await cashier.get('/api/products?itemsPerPage=300&page=1');
    expect(list.json()['hydra:totalItems']).toBe(190);
    expect(members(list).every((p) => p.stores.every((s: any) => s.store.id === 1))).toBe(true);
    // The Mall admin cannot change a product stocked at Main Street only.
    const mainOnly = (await admin.post('/api/products', itemBody({ barcode: 'MAIN-1', department: '/api/departments/1', stores: [{ store: '/api/stores/1', quantity: '1' }] }))).json();
    expect((await mall.put(`/api/products/${mainOnly.id}`, { isActive: false })).statusCode).toBe(404);
    expect((await mall.get(`/api/products/${mainOnly.id}`)).statusCode).toBe(404);
    // ...nor link a product to a Main-only department.
    const r = await mall.post('/api/products', itemBody({ barcode: 'MALL-2', department: '/api/departments/1' }));
    expect(r.statusCode).toBe(422);
    expect(messageAt(r, 'department')).toBe("'Department' with ID '1' not found");
  });

  it('filters and sorts the settings table columns', async () => {
    const res = await admin.get('/api/products?brands.name=north&suppliers.name=clean&order[name]=asc&page=1&itemsPerPage=5');
    expect(res.statusCode).toBe(200);
    for (const p of members(res)) {
      expect(p.brands.map((b: any) => b.name)).toContain('Northwind');
      expect(p.suppliers.map((s: any) => s.name)).toContain('CleanCo Wholesale');
    }
    expect(members(await admin.get('/api/products?barcode=5000000000007')).map((p) => p.id)).toEqual([7]);
    expect(members(await admin.get('/api/products?barcode=50000000001912')).map((p) => p.id)).toEqual([191]);
    expect(members(await admin.get('/api/products?basePrice=10.75')).map((p) => p.id)).toContain(1);
  });
});

describe('products: create', () => {
  it('creates a product with variants generated from groups (cross product, barcode base+i+1) and stock through the ledger', async () => {
    const res = await admin.post('/api/products', itemBody({
      barcode: '123',
      groups: [{ groupName: 'Size', variants: [{ label: 'S', value: 'S' }, { label: 'M', value: 'M' }] }, { groupName: 'Color', variants: [{ label: 'Red', value: 'Red' }, { label: 'Blue', value: 'Blue' }] }],
      prices: [{ basePrice: '20', day: 'monday' }, { basePrice: '18', time: '09:00', timeTo: '11:30', quarter: 2 }],
    }));
    expect(res.statusCode).toBe(201);
    const p = res.json();
    expect(p.variants.map((v: any) => [v.attributeValue, v.barcode, v.quantity, v.price, v.attributeName, v.name])).toEqual([
      ['S-Red', '124', 10, 25.5, 'Size-Color', 'Linen Shirt'], ['M-Red', '125', 10, 25.5, 'Size-Color', 'Linen Shirt'],
      ['S-Blue', '126', 10, 25.5, 'Size-Color', 'Linen Shirt'], ['M-Blue', '127', 10, 25.5, 'Size-Color', 'Linen Shirt'],
    ]);
    expect(p.stores).toEqual([expect.objectContaining({ store: expect.objectContaining({ id: 2 }), quantity: '7', location: 'Rack 4', reOrderLevel: '2' })]);
    expect(p.prices).toEqual([
      expect.objectContaining({ basePrice: 20, day: 'Monday', time: null }),
      expect.objectContaining({ basePrice: 18, time: '09:00', timeTo: '11:30', quarter: 2 }),
    ]);
    const moves = await t.app.db.select().from(stockMovement).where(eq(stockMovement.productId, p.id));
    expect(moves.filter((m) => m.variantId === null && m.storeId === 2).reduce((a, m) => a + Number(m.quantity), 0)).toBe(7);
    // Variant stock is per store (issue 25): a variant's quantity from the form lands in the product's store.
    expect(moves.filter((m) => m.variantId !== null).every((m) => m.storeId === 2 && m.quantity === '10.000' && m.reason === 'adjustment')).toBe(true);
    expect(p.variants[0].stock).toEqual([{ store: expect.objectContaining({ id: 2 }), quantity: '10' }]);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });

  it('accepts the variant rows the client generates (all strings)', async () => {
    const res = await admin.post('/api/products', itemBody({
      barcode: 9000000001, name: 'Cap',
      variants: [{ attributeValue: 'Black', price: '9.5', quantity: '10', barcode: '9000000002' }, { attributeValue: 'White', price: '', quantity: '3', barcode: 9000000003 }],
    }));
    expect(res.statusCode).toBe(201);
    expect(res.json().barcode).toBe('9000000001');
    expect(res.json().variants.map((v: any) => [v.attributeValue, v.price, v.quantity, v.barcode])).toEqual([['Black', 9.5, 10, '9000000002'], ['White', null, 3, '9000000003']]);
  });

  it('validates with the spec messages', async () => {
    const res = await admin.post('/api/products', { name: ' ', basePrice: 'abc', cost: '-1', stores: [], categories: [], variants: [{ attributeValue: '', price: 'x' }] });
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'name')).toBe('This value should not be blank.');
    expect(messageAt(res, 'barcode')).toBe('This value should not be blank.');
    expect(messageAt(res, 'basePrice')).toBe('This value should be a valid number.');
    expect(messageAt(res, 'cost')).toBe('This value should be either positive or zero.');
    expect(messageAt(res, 'department')).toBe('This value should not be blank.');
    expect(messageAt(res, 'stores')).toBe('This value should not be blank.');
    expect(messageAt(res, 'categories')).toBe('This value should not be blank.');
    expect(messageAt(res, 'variants')).toBe('Please add valid variants');
    expect(paths(res)).toEqual(expect.arrayContaining(['variants[0].attributeValue', 'variants[0].price', 'saleUnit', 'purchaseUnit']));
  });

  it('refuses a barcode already used by a product, a variant or an extra barcode', async () => {
    for (const code of ['5000000000001', '50000000001911', '2100001005005']) {
      const res = await admin.post('/api/products', itemBody({ barcode: code }));
      expect(res.statusCode).toBe(422);
      expect(messageAt(res, 'barcode')).toBe('Barcode already used. Please use a different value');
    }
    const v = await admin.post('/api/products', itemBody({ barcode: 'FRESH-1', variants: [{ attributeValue: 'A', barcode: '5000000000002', quantity: '1' }] }));
    expect(messageAt(v, 'variants[0].barcode')).toBe('Barcode already used. Please use a different value');
    const dup = await admin.post('/api/products', itemBody({ barcode: 'FRESH-2', variants: [{ attributeValue: 'A', barcode: 'FRESH-2' }] }));
    expect(messageAt(dup, 'variants[0].barcode')).toBe('Barcode already used. Please use a different value');
  });

  it('refuses stock quantities too large for exact arithmetic', async () => {
    const res = await admin.put('/api/products/1', { stores: [{ store: '/api/stores/1', quantity: '123456789012345.678' }] });
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'stores[0].quantity')).toBe('This value should be less than 1000000000000.');
  });

  it('refuses stock rows of a store the caller does not manage', async () => {
    const res = await mall.post('/api/products', itemBody({ barcode: 'X-1', stores: [{ store: '/api/stores/1', quantity: '1' }] }));
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'stores[0].store')).toBe("'Store' with ID '1' not found");
  });
});

describe('products: update', () => {
  it('merges: a toggle keeps everything; the barcode is not editable', async () => {
    const before = (await admin.get('/api/products/191')).json();
    const off = await admin.put('/api/products/191', { isActive: false });
    expect(off.statusCode).toBe(200);
    expect({ ...off.json(), isActive: true, updatedAt: 0 }).toEqual({ ...before, updatedAt: 0 });
    await admin.put('/api/products/191', { isActive: true });
    const renamed = await admin.put('/api/products/191', { barcode: 'CHANGED', name: 'Fresh T-Shirt v2' });
    expect(renamed.json()).toMatchObject({ barcode: '5000000000191', name: 'Fresh T-Shirt v2' });
  });

  it('accepts the whole loaded product sent back (client edit), and writes stock differences to the ledger', async () => {
    const loaded = (await admin.get('/api/products/4')).json();
    const body = {
      ...loaded, cost: '23.50', basePrice: '40',
      department: loaded.department['@id'], categories: loaded.categories.map((c: any) => c['@id']),
      suppliers: loaded.suppliers.map((s: any) => s['@id']), brands: loaded.brands.map((b: any) => b['@id']), taxes: [],
      stores: loaded.stores.map((s: any) => ({ ...s, store: s.store['@id'], quantity: s.store.id === 1 ? '30' : s.quantity })),
    };
    const before1 = await ledgerSum(4, 1);
    const res = await admin.put('/api/products/4', body);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ cost: 23.5, basePrice: 40, barcode: loaded.barcode });
    expect(res.json().stores.find((s: any) => s.store.id === 1).quantity).toBe('30');
    expect(await ledgerSum(4, 1)).toBe(30);
    const [move] = await t.app.db.select().from(stockMovement).where(and(eq(stockMovement.productId, 4), eq(stockMovement.storeId, 1), eq(stockMovement.reason, 'adjustment')));
    expect(Number(move.quantity)).toBe(30 - before1);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });

  it('removing a store row empties it through the ledger; an empty quantity keeps the stock', async () => {
    const before = (await admin.get('/api/products/6')).json().stores.find((s: any) => s.store.id === 1);
    const res = await admin.put('/api/products/6', { stores: [{ store: '/api/stores/1', quantity: '', location: 'Front' }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().stores).toEqual([{ ...before, location: 'Front' }]);
    const rows = await t.app.db.select().from(productStore).where(eq(productStore.productId, 6));
    expect(rows.map((r) => r.storeId)).toEqual([1]);
    expect(await ledgerSum(6, 2)).toBe(0);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
    // The Mall admin no longer sees it (stocked at Main Street only now).
    expect((await mall.get('/api/products/6')).statusCode).toBe(404);
    const empty = await admin.put('/api/products/6', { stores: [] });
    expect(messageAt(empty, 'stores')).toBe('This value should not be blank.');
  });

  it('syncs variants: updates by id, creates new rows, deletes missing ones', async () => {
    const p = (await admin.get('/api/products/192')).json();
    const [first, second] = p.variants;
    const res = await admin.put('/api/products/192', {
      variants: [
        { ...first, price: '19.99', quantity: 4 },
        { ...second },
        { attributeName: '', barcode: 777001, price: null, attributeValue: 'XL-Black', quantity: '2' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const vs = res.json().variants;
    expect(vs.map((v: any) => [v.id, v.attributeValue, v.price, v.quantity])).toEqual([
      [first.id, 'S-Black', 19.99, 4], [second.id, 'M-Black', null, 10], [expect.any(Number), 'XL-Black', null, 2],
    ]);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
    const bad = await admin.put('/api/products/192', { variants: [{ id: 99999, attributeValue: 'Q' }] });
    expect(bad.statusCode).toBe(422);
  });

  it('replaces price rules and validates them', async () => {
    const ok = await admin.put('/api/products/3', { prices: [{ basePrice: '1.5', date: 15, week: 10, month: 3 }] });
    expect(ok.json().prices).toEqual([expect.objectContaining({ basePrice: 1.5, date: 15, week: 10, month: 3 })]);
    const bad = await admin.put('/api/products/3', { prices: [{ basePrice: '', month: 13, day: 'Funday', time: '25:00' }] });
    expect(bad.statusCode).toBe(422);
    expect(paths(bad)).toEqual(expect.arrayContaining(['prices[0].basePrice', 'prices[0].month', 'prices[0].day', 'prices[0].time']));
  });
});

describe('product helpers for the till', () => {
  it('keywords: {list} of active products with @id, id, name', async () => {
    await admin.put('/api/products/5', { isActive: false });
    const res = await admin.get('/api/admin/product/keywords?page=1&itemsPerPage=9999999');
    expect(res.statusCode).toBe(200);
    const list = res.json().list;
    expect(list[0]).toMatchObject({ '@id': '/api/products/1', id: 1, name: 'Fresh Milk 1L' });
    expect(list.map((p: any) => p.id)).not.toContain(5);
    const cash = (await cashier.get('/api/admin/product/keywords')).json().list;
    expect(cash.map((p: any) => p.id)).not.toContain(191);
    const named = (await admin.get('/api/admin/product/keywords?name=Tea')).json().list;
    expect(named.every((p: any) => /tea/i.test(p.name))).toBe(true);
  });

  it('quantities: {quantity} per store and per variant', async () => {
    expect((await admin.get('/api/admin/product/quantities?itemId=2&store=1')).json()).toEqual({ quantity: 21 });
    expect((await admin.get('/api/admin/product/quantities?itemId=1&store=1')).json()).toEqual({ quantity: 0 });
    const v = (await admin.get('/api/products/193')).json().variants[0];
    expect((await admin.get(`/api/admin/product/quantities?itemId=193&variantId=${v.id}&store=2`)).json()).toEqual({ quantity: 10 });
    expect((await admin.get('/api/admin/product/quantities?itemId=2&variantId=undefined&store=1')).json()).toEqual({ quantity: 21 });
    expect((await cashier.get('/api/admin/product/quantities?itemId=2&store=2')).statusCode).toBe(404);
    expect((await cashier.get('/api/admin/product/quantities?itemId=193&store=1')).statusCode).toBe(404);
    expect((await cashier.get('/api/admin/product/quantities')).statusCode).toBe(422);
  });

  it('barcodes: a weighed barcode gives the item, measurement and price (strings)', async () => {
    const res = await cashier.get('/api/barcodes?barcode=2100001005005');
    const [b] = members(res);
    expect(b).toMatchObject({ barcode: '2100001005005', measurement: '0.5', unit: 'kg', price: '2.50', variant: null });
    expect(b.item).toMatchObject({ '@id': '/api/products/1', id: 1, name: 'Fresh Milk 1L', taxes: [], variants: [] });
    expect(members(await cashier.get('/api/barcodes?barcode=nope'))).toEqual([]);
    expect(members(await admin.get('/api/barcodes?store=1&page=1&itemsPerPage=10'))).toHaveLength(1);
    expect(members(await admin.get('/api/barcodes?store=2&item.name=milk'))).toHaveLength(1);
  });

  it('barcodes: create for a variant, unique across products and variants; cashier may not write', async () => {
    const v = (await admin.get('/api/products/193')).json().variants[1];
    const ok = await admin.post('/api/barcodes', { barcode: '2200000000001', item: '/api/products/193', variant: v['@id'], price: '3.20', measurement: 0.25, unit: 'kg' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({ measurement: '0.25', price: '3.20', variant: { id: v.id } });
    const clash = await admin.post('/api/barcodes', { barcode: '5000000000003', item: 3, price: '1' });
    expect(messageAt(clash, 'barcode')).toBe('Barcode already used. Please use a different value');
    const wrongVariant = await admin.post('/api/barcodes', { barcode: '2200000000002', item: 3, variant: v.id, price: '1' });
    expect(paths(wrongVariant)).toContain('variant');
    expect((await cashier.post('/api/barcodes', { barcode: '2200000000003', item: 3, price: '1' })).statusCode).toBe(403);
    expect((await cashier.get(`/api/barcodes/${ok.json().id}`)).statusCode).toBe(404);
  });

  it('product variants: read-only list and item, and the product subresource', async () => {
    const v = members(await admin.get('/api/product_variants?product=191&page=1&itemsPerPage=10'));
    expect(v).toHaveLength(6);
    const one = (await admin.get(`/api/product_variants/${v[0].id}?page=1&itemsPerPage=1`)).json();
    expect(one).toMatchObject({ '@id': `/api/product_variants/${v[0].id}`, attributeValue: 'S-Black' });
    expect((await cashier.get(`/api/product_variants/${v[0].id}`)).statusCode).toBe(404);
    expect(members(await admin.get('/api/products/191/variants'))).toHaveLength(6);
    expect((await admin.post('/api/product_variants', { attributeValue: 'x' })).statusCode).toBe(404);
  });

  it('moveStock upserts the store row and keeps the ledger equal to the stock', async () => {
    await t.app.db.transaction(async (tx) => {
      await moveStock(tx, { productId: 1, storeId: 1, delta: '-2.5', reason: 'sale', userId: 1 });
      await moveStock(tx, { productId: 3, storeId: 2, delta: '0', reason: 'sale', userId: 1 });
    });
    const [row] = await t.app.db.select().from(productStore).where(and(eq(productStore.productId, 1), eq(productStore.storeId, 1)));
    expect(Number(row.quantity)).toBe(-2.5);
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });
});
