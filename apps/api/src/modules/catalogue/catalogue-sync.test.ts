import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { decodeContext, decodeProduct, mergeRows, P, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { moveStock } from '../../lib/stock.ts';
import { api, members, multipart, storeAdmin, type Api } from './test-support.ts';
import { formatRow, parseCsv, unneutralise } from '../../lib/csv.ts';

let t: TestApp;
let admin: Api;
let cashier: Api;
let mall: Api;
let adminH: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  adminH = await t.login('admin');
  const c = await t.login('cashier');
  const m = await storeAdmin(t, 'syncmall', [2]);
  admin = api(t, () => adminH);
  cashier = api(t, () => c);
  mall = api(t, () => m);
});
afterAll(async () => { await t?.close(); });

const sync = async (who: Api, since?: string): Promise<SyncPayload> => {
  const res = await who.get(`/api/catalogue/sync${since ? `?since=${since}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const decodeAll = (p: SyncPayload) => {
  const ctx = decodeContext(p.dict);
  return new Map(p.products.map((r) => [r[P.id], decodeProduct(r, ctx)]));
};
/** /api/products as the reference client walks it, without the server stamps and the back-office-only barcode type the sync leaves out. */
async function referenceProducts(who: Api) {
  const out = [];
  for (let page = 1; ; page++) {
    const list = members(await who.get(`/api/products?itemsPerPage=100&page=${page}&isActive=true`));
    if (!list.length) break;
    for (const { createdAt: _c, updatedAt: _u, uuid: _id, barcodeType: _bt, ...p } of list) {
      out.push({ ...p, variants: p.variants.map(({ createdAt: _vc, updatedAt: _vu, uuid: _vid, ...v }: any) => v) });
    }
  }
  return out;
}
const createBody = (over: Record<string, unknown>) => ({
  name: 'Sync Jacket', barcode: '770001', basePrice: '40', cost: '20', saleUnit: 'pcs', purchaseUnit: 'pcs',
  department: '/api/departments/3', categories: ['/api/categories/3'], suppliers: ['/api/suppliers/3'], brands: ['/api/brands/2'],
  taxes: ['/api/taxes/1'], manageInventory: true, stores: [{ store: '/api/stores/2', quantity: '4', location: 'Rack 9', reOrderLevel: '1' }],
  ...over,
});

describe('till catalogue sync: full', () => {
  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/catalogue/sync' })).statusCode).toBe(401);
  });

  it('says what /api/products says for the same products: prices, variants, taxes, stock rows', async () => {
    for (const who of [cashier, admin]) {
      const payload = await sync(who);
      expect(payload.full).toBe(true);
      const decoded = decodeAll(payload);
      const reference = await referenceProducts(who);
      expect(decoded.size).toBe(reference.length);
      for (const p of reference) expect(decoded.get(p.id), `product ${p.id}`).toEqual(p);
    }
    // The demo shop has variants, price rules, taxes and stock in it: the comparison covered them.
    const all = [...decodeAll(await sync(admin)).values()];
    expect(all.some((p) => p.variants.length && p.taxes.length && p.stores.length)).toBe(true);
    expect(all.some((p) => p.prices.length)).toBe(true);
  });

  it('is gzip-compressed when the client accepts it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/catalogue/sync', headers: { ...adminH, 'accept-encoding': 'gzip, deflate' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const body = JSON.parse(zlib.gunzipSync(res.rawPayload).toString('utf8')) as SyncPayload;
    expect(body.products.length).toBeGreaterThan(100);
  });

  it('shows a caller only their stores: stock rows, stores, and products stocked elsewhere only', async () => {
    const created = await mall.post('/api/products', createBody({ name: 'Mall Only Jacket', barcode: '770002' }));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    const forCashier = await sync(cashier); // the cashier works in store 1 only
    expect(forCashier.dict.stores.map((s) => s[0])).toEqual([1]);
    expect(forCashier.products.every((r) => r[P.stores].every((s) => s[1] === 1))).toBe(true);
    expect(forCashier.products.some((r) => r[P.id] === id)).toBe(false);
    const forMall = await sync(mall);
    const row = forMall.products.find((r) => r[P.id] === id)!;
    expect(row[P.name]).toBe('Mall Only Jacket');
    expect(row[P.stores]).toEqual([[expect.any(Number), 2, '4', 'Rack 9', '1', null]]);
  });
});

describe('till catalogue sync: delta', () => {
  const rowOf = (p: SyncPayload, id: number) => p.products.find((r) => r[P.id] === id);

  it('refuses a bad cursor with a 422 naming it', async () => {
    for (const bad of ['abc', '-5', '1e12', '99999999999999999']) {
      const res = await cashier.get(`/api/catalogue/sync?since=${bad}`);
      expect(res.statusCode, bad).toBe(422);
      expect(res.json().violations[0].propertyPath).toBe('since');
    }
  });

  it('brings an edit, a stock movement and a deactivation; merging it gives what a full sync gives', async () => {
    // A catalogue last touched an hour ago (the demo shop was seeded a second ago, inside the cursor's overlap).
    await t.app.db.execute(sql`update product set updated_at = now() - interval '1 hour'`);
    await t.app.db.execute(sql`update stock_movement set created_at = now() - interval '1 hour'`);
    const base = await sync(cashier);
    const rows = new Map<number, ProductRow>(base.products.map((r) => [r[P.id], r]));
    const [a, b, c] = base.products.slice(3, 6).map((r) => r[P.id]);

    expect((await admin.put(`/api/products/${a}`, { name: 'Renamed For Sync', basePrice: '3.33' })).statusCode).toBe(200);
    await t.app.db.transaction((tx) => moveStock(tx, { productId: b, storeId: 1, delta: '-2', reason: 'sale' }));
    expect((await admin.put(`/api/products/${c}`, { isActive: false })).statusCode).toBe(200);

    const delta = await sync(cashier, base.cursor);
    expect(delta.full).toBe(false);
    expect(rowOf(delta, a)).toMatchObject({ [P.name]: 'Renamed For Sync', [P.basePrice]: 3.33 });
    const before = Number(rowOf(base, b)![P.stores][0][2]);
    expect(Number(rowOf(delta, b)![P.stores][0][2])).toBe(before - 2);
    expect(rowOf(delta, c)).toBeUndefined();
    expect(delta.removed).toContain(c);
    // Unchanged products are not re-sent (the overlap only re-sends recent changes).
    expect(delta.products.map((r) => r[P.id]).sort((x, y) => x - y)).toEqual([a, b].sort((x, y) => x - y));

    mergeRows(rows, delta);
    const full = await sync(cashier);
    expect([...rows.values()].sort((x, y) => x[P.id] - y[P.id])).toEqual(full.products);
  });

  it('brings the products a CSV import changed', async () => {
    const base = await sync(admin);
    const exported = (await admin.get('/api/admin/product/export')).body;
    const table = parseCsv(exported.replace(/^\uFEFF/, '')).rows.map((r) => r.map(unneutralise));
    const header = table[0];
    const target = base.products[10][P.id];
    table.find((r) => r[0] === String(target))![header.indexOf('Name')] = 'Imported Name';
    const m = multipart(table.map((r) => formatRow(r)).join(''));
    const res = await t.app.inject({ method: 'POST', url: '/api/products/import', payload: m.payload, headers: { ...adminH, ...m.headers } });
    expect(res.statusCode, res.body).toBe(200);
    const delta = await sync(admin, base.cursor);
    expect(rowOf(delta, target)?.[P.name]).toBe('Imported Name');
  });

  it('does not tell another store\'s user about a store\'s product edits', async () => {
    const base = await sync(cashier);
    const [mallRow] = (await sync(mall)).products.filter((r) => r[P.name] === 'Mall Only Jacket');
    expect((await mall.put(`/api/products/${mallRow[P.id]}`, { name: 'Mall Secret Name' })).statusCode).toBe(200);
    const delta = await sync(cashier, base.cursor);
    expect(JSON.stringify(delta)).not.toContain('Mall Secret Name');
    expect(rowOf(delta, mallRow[P.id])).toBeUndefined();
  });
});
