import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { product, productBrand, productCategory, productStore, productSupplier, productTax, productVariant, stockMovement } from '../../db/schema/index.ts';
import { api, members, multipart, paths, storeAdmin, type Api } from './test-support.ts';
import { formatRow, parseCsv, unneutralise } from '../../lib/csv.ts';
import { ledgerMismatches } from './products.service.ts';
import { IMPORT_MAX_BYTES } from './catalogue.routes.ts';

let t: TestApp;
let admin: Api;
let adminH: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  adminH = await t.login('admin');
  admin = api(t, () => adminH);
});
afterAll(async () => { await t?.close(); });

const exportCsv = async (headers = adminH) => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/product/export', headers });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const importCsv = async (content: Buffer | string, url = '/api/products/import', headers = adminH) => {
  const m = multipart(content);
  return t.app.inject({ method: 'POST', url, payload: m.payload, headers: { ...headers, ...m.headers } });
};
const allProducts = async () => (await admin.get('/api/products?page=1&itemsPerPage=10000')).json()['hydra:member'];

/** Everything an import could touch, to prove a failed import wrote nothing. */
async function dbState() {
  const db = t.app.db;
  return JSON.stringify({
    products: await db.select().from(product).orderBy(asc(product.id)),
    stores: await db.select().from(productStore).orderBy(asc(productStore.id)),
    variants: await db.select().from(productVariant).orderBy(asc(productVariant.id)),
    links: await Promise.all([productCategory, productBrand, productSupplier, productTax].map((l) => db.select().from(l).orderBy(asc(l.productId), asc(l.otherId)))),
    moves: await db.select({ n: sql<number>`count(*)::int` }).from(stockMovement),
  });
}

/** Edits cells of an exported file: (id, column) -> value; rows without ID can be appended. */
function edit(csv: string, changes: { id: number; column: string; value: string }[], append: Record<string, string>[] = []) {
  const rows = parseCsv(csv.replace(/^\uFEFF/, '')).rows.map((r) => r.map(unneutralise));
  const header = rows[0];
  for (const c of changes) {
    const row = rows.find((r) => r[0] === String(c.id) && !r[header.indexOf('Variant of')])!; // a product's row, not a variant's
    row[header.indexOf(c.column)] = c.value;
  }
  for (const a of append) rows.push(header.map((h) => a[h] ?? ''));
  return rows.map((r) => formatRow(r)).join('');
}

describe('product CSV export', () => {
  it('exports the documented columns with a BOM, one row per product; token accepted as ?bearer=', async () => {
    const token = adminH.authorization.slice(7);
    const res = await t.app.inject({ method: 'GET', url: `/api/admin/product/export?bearer=${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toContain('products.csv');
    expect(res.body.startsWith('\uFEFFID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit,SKU,Department,Categories,Brands,Suppliers,Taxes,Manage Inventory?,Is Active?,Quantity [Main Street #1],')).toBe(true);
    const rows = parseCsv(res.body.slice(1)).rows;
    const variantRows = rows.filter((r) => r[rows[0].indexOf('Variant of')] !== '' && r !== rows[0]);
    expect(variantRows.length).toBe((await t.app.db.select().from(productVariant)).length);
    expect(rows).toHaveLength(201 + variantRows.length);
    expect(rows[2].slice(0, 9)).toEqual(['2', 'Fresh Bread Loaf', '5000000000002', '1', '12.60', '21.00', '42', 'pcs', 'pcs']);
  });

  it('refuses a cashier (403) and a caller without a token (401); the query token is only read on this route', async () => {
    const cashier = await t.login('cashier');
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/product/export', headers: cashier })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/product/export' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/products?bearer=${adminH.authorization.slice(7)}` })).statusCode).toBe(401);
    expect((await importCsv('ID,Name\n', '/api/products/import', cashier)).statusCode).toBe(403);
  });

  it('neutralises cells that a spreadsheet would run as formulas, and quotes what needs quoting', async () => {
    await admin.put('/api/products/3', { name: '=HYPERLINK("http://x")', sku: '+sku, "q"' });
    const csv = await exportCsv();
    const line = csv.split('\r\n').find((l) => l.startsWith('3,'))!;
    expect(line).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(line).toContain(`"'+sku, ""q"""`);
  });
});

describe('product CSV import', () => {
  it('re-imports its own export unchanged (the whole demo catalogue)', async () => {
    const before = await allProducts();
    const state = await dbState();
    const res = await importCsv(await exportCsv());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 0, updated: 0, unchanged: 200, total: 200 });
    expect(await allProducts()).toEqual(before);
    expect(await dbState()).toBe(state);
  });

  it('writes a three-decimal (KWD) price exactly, and re-imports it unchanged (issue 19: never a float or two decimals)', async () => {
    const db = t.app.db;
    const [was] = await db.select({ basePrice: product.basePrice, cost: product.cost }).from(product).where(eq(product.id, 3));
    await db.update(product).set({ basePrice: '1.275', cost: '0.455' }).where(eq(product.id, 3));
    try {
      const csv = await exportCsv();
      const row = parseCsv(csv.slice(1)).rows.find((r) => r[0] === '3')!;
      expect(row.slice(4, 6)).toEqual(['0.455', '1.275']);
      const res = await importCsv(csv);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ updated: 0, unchanged: 200 });
      const [now] = await db.select({ basePrice: product.basePrice, cost: product.cost }).from(product).where(eq(product.id, 3));
      expect(now).toEqual({ basePrice: '1.275', cost: '0.455' });
    } finally {
      await db.update(product).set(was).where(eq(product.id, 3));
    }
  });

  it('updates rows with an ID, creates rows without one, and moves stock through the ledger', async () => {
    const csv = edit(await exportCsv(), [
      { id: 2, column: 'Sale price', value: '22.40' },
      { id: 2, column: 'Quantity [Main Street #1]', value: '30' },
      { id: 7, column: 'Categories', value: 'Food | Cleaning' },
      { id: 8, column: 'Taxes', value: 'VAT' },
    ], [{
      Name: 'Imported Kettle', Barcode: '7700000000001', 'Is Available?': '1', 'Purchase price': '9', 'Sale price': '15.5',
      'Purchase Unit': 'pcs', 'Sale Unit': 'pcs', Department: 'Household', Categories: 'Cleaning', Brands: 'Acme', Suppliers: 'CleanCo Wholesale',
      'Manage Inventory?': '1', 'Is Active?': '1', 'Quantity [Harbour Mall #2]': '12', 'Location [Harbour Mall #2]': 'Shelf 9',
    }]);
    const res = await importCsv(csv, '/api/admin/product/import');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ created: 1, updated: 3, total: 201 });
    const p2 = (await admin.get('/api/products/2')).json();
    expect(p2.basePrice).toBe(22.4);
    expect(p2.stores.find((s: any) => s.store.id === 1).quantity).toBe('30');
    expect((await admin.get('/api/products/7')).json().categories.map((c: any) => c.name)).toEqual(['Food', 'Cleaning']);
    expect((await admin.get('/api/products/8')).json().taxes.map((x: any) => x.name)).toEqual(['VAT']);
    const [created] = members(await admin.get('/api/products?barcode=7700000000001'));
    expect(created).toMatchObject({ name: 'Imported Kettle', basePrice: 15.5, cost: 9, manageInventory: true, department: { name: 'Household' } });
    expect(created.stores).toEqual([expect.objectContaining({ store: expect.objectContaining({ id: 2 }), quantity: '12', location: 'Shelf 9' })]);
    const moves = await t.app.db.select().from(stockMovement).where(eq(stockMovement.reason, 'import'));
    expect(moves.map((m) => [m.productId, m.storeId, Number(m.quantity)]).sort()).toEqual([[2, 1, 9], [created.id, 2, 12]].sort());
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
    // ...and the new state round-trips too.
    const again = await importCsv(await exportCsv());
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 201 });
  });

  describe('a bad file gets 422 naming row and column, and writes nothing', () => {
    const cases: [string, () => Promise<Buffer | string>, string | (() => Promise<string>)][] = [
      ['a missing column', async () => (await exportCsv()).replace(',Sale price,', ',Sale prize,'), 'row 1.Sale prize'],
      ['an unknown column', async () => 'ID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit,Colour\r\n,X,,1,1,2,,pcs,pcs,red\r\n', 'row 1.Colour'],
      ['a bad number', async () => edit(await exportCsv(), [{ id: 2, column: 'Sale price', value: '12,5x' }]), 'row 3.Sale price'],
      ['a bad stock number', async () => edit(await exportCsv(), [{ id: 4, column: 'Quantity [Harbour Mall #2]', value: 'many' }]), 'row 5.Quantity [Harbour Mall #2]'],
      ['an unknown department', async () => edit(await exportCsv(), [{ id: 9, column: 'Department', value: 'Garden' }]), 'row 10.Department'],
      ['an unknown product id', async () => edit(await exportCsv(), [{ id: 9, column: 'ID', value: '99999' }]), 'row 10.ID'],
      ['a duplicate barcode', async () => edit(await exportCsv(), [{ id: 9, column: 'Barcode', value: '5000000000010' }]), 'row 10.Barcode'],
      ['a blank name', async () => edit(await exportCsv(), [{ id: 1, column: 'Name', value: '' }]), 'row 2.Name'],
      ['a short row', async () => (await exportCsv()).replace(/\r\n3,[^\r]*/, '\r\n3,Too short'), 'row 4'],
      ['an unterminated quote', async () => `${(await exportCsv()).trimEnd()}\r\n,"Broken,1\r\n`, async () => `row ${203 + (await t.app.db.select().from(productVariant)).length}.Name`], // 201 products by then
      ['invalid UTF-8', async () => {
        const csv = edit(await exportCsv(), [{ id: 2, column: 'Name', value: 'Bread XX' }]);
        const buf = Buffer.from(csv, 'utf8');
        const at = buf.indexOf('XX');
        buf[at] = 0xff;
        return buf;
      }, 'row 3.Name'],
    ];
    for (const [label, make, path] of cases) {
      it(label, async () => {
        const content = await make();
        const state = await dbState();
        const res = await importCsv(content);
        expect(res.statusCode).toBe(422);
        expect(Array.isArray(res.json().violations)).toBe(true);
        expect(paths(res)).toContain(typeof path === 'string' ? path : await path());
        expect(await dbState()).toBe(state);
      });
    }

    it('a good first part followed by one bad row imports nothing', async () => {
      const state = await dbState();
      const csv = edit(await exportCsv(), [{ id: 1, column: 'Sale price', value: '99' }, { id: 200, column: 'Purchase price', value: '-3' }]);
      const res = await importCsv(csv);
      expect(res.statusCode).toBe(422);
      const row = parseCsv(csv).rows.findIndex((r, i) => i > 0 && r[0] === '200' && r[r.length - 3] === '') + 1;
      expect(res.json().violations).toEqual([{ propertyPath: `row ${row}.Purchase price`, message: 'This value should be either positive or zero.', line: row }]);
      expect(await dbState()).toBe(state);
    });

    it('a file of 50 MB or more', async () => {
      const state = await dbState();
      const header = 'ID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit\r\n';
      const big = Buffer.alloc(IMPORT_MAX_BYTES, 0x20);
      big.write(header, 0);
      const res = await importCsv(big);
      expect(res.statusCode).toBe(422);
      expect(paths(res)).toEqual(['file']);
      expect(res.json().violations[0].message).toBe('The file is too large. It must be smaller than 50 MB.');
      expect(await dbState()).toBe(state);
    });

    it('no file at all', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/products/import', headers: { ...adminH, 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode).toBe(422);
      expect(paths(res)).toEqual(['file']);
    });
  });

  it('imports only into the caller\'s stores', async () => {
    const mallH = await storeAdmin(t, 'mallcsv', [2]);
    const csv = await exportCsv(mallH);
    expect(csv.split('\r\n')[0]).not.toContain('Main Street');
    expect(csv.split('\r\n')[0]).toContain('Quantity [Harbour Mall #2]');
    const res = await importCsv(csv.replace('Quantity [Harbour Mall #2]', 'Quantity [Main Street #1]'), '/api/products/import', mallH);
    expect(res.statusCode).toBe(422);
    expect(paths(res)).toContain('row 1.Quantity [Main Street #1]');
    expect((await importCsv(csv, '/api/products/import', mallH)).json()).toMatchObject({ created: 0, updated: 0 });
  });
});
