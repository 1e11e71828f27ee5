import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { order, orderProduct, product, productVariant } from '../../db/schema/index.ts';
import { multipart } from './test-support.ts';
import { formatRow, parseCsv } from '../../lib/csv.ts';
import { ledgerMismatches } from './products.service.ts';

/** Issue 23.5: products AND variants survive export -> import, over the same catalogue and into an empty one; big files. */
let t: TestApp;
let adminH: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  adminH = await t.login('admin');
});
afterAll(async () => { await t?.close(); });

const exportCsv = async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/admin/product/export', headers: adminH });
  expect(res.statusCode).toBe(200);
  return res.body;
};
const importCsv = async (content: string, query = '') => {
  const m = multipart(content);
  return t.app.inject({ method: 'POST', url: `/api/products/import${query}`, payload: m.payload, headers: { ...adminH, ...m.headers } });
};
const variants = () => t.app.db.select().from(productVariant).orderBy(asc(productVariant.productId), asc(productVariant.id));
/** The file without its ID and Variant of cells: what must be equal between two databases. */
const withoutIds = (csv: string) => {
  const rows = parseCsv(csv.replace(/^\uFEFF/, '')).rows;
  const drop = [rows[0].indexOf('ID'), rows[0].indexOf('Variant of')];
  return rows.map((r) => r.map((c, i) => (drop.includes(i) && c !== '' ? '#' : c)));
};

describe('variants in the CSV', () => {
  it('writes each variant as a row under its product, and re-imports the catalogue unchanged', async () => {
    const [v] = await variants();
    await t.app.db.update(productVariant).set({ purchasePrice: '3.25', attributeName: 'Size', attributeValue: 'XL' }).where(eq(productVariant.id, v.id));
    const csv = await exportCsv();
    const rows = parseCsv(csv.slice(1)).rows;
    const h = rows[0];
    const vRow = rows.find((r) => r[h.indexOf('Variant of')] === String(v.productId) && r[0] === String(v.id))!;
    expect(vRow[h.indexOf('Purchase price')]).toBe('3.25');
    expect([vRow[h.indexOf('Attribute Name')], vRow[h.indexOf('Attribute Value')]]).toEqual(['Size', 'XL']);
    const parentAt = rows.findIndex((r) => r[0] === String(v.productId) && r[h.indexOf('Variant of')] === '');
    expect(rows.indexOf(vRow)).toBeGreaterThan(parentAt);
    const before = JSON.stringify(await variants());
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().updated).toBe(0);
    expect(JSON.stringify(await variants())).toBe(before);
  });

  it("a product and variant stored with empty texts ('' where the file reads nothing) re-import unchanged", async () => {
    const [v] = await variants();
    await t.app.db.update(product).set({ sku: '' }).where(eq(product.id, v.productId));
    await t.app.db.update(productVariant).set({ sku: '', name: '' }).where(eq(productVariant.id, v.id));
    const res = await importCsv(await exportCsv());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 0, updated: 0 });
  });

  it('a product with variants made by the back-office form (an empty shelf location sent as "") re-imports unchanged', async () => {
    const made = await t.app.inject({
      method: 'POST', url: '/api/products', headers: adminH,
      payload: {
        name: 'Form Tee', barcode: '7100', basePrice: '25.00', cost: '10.00', saleUnit: 'pcs', purchaseUnit: 'pcs', department: '/api/departments/1',
        taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'], manageInventory: true,
        stores: [{ store: '/api/stores/1', quantity: '0', location: '', reOrderLevel: '', product: null }], baseQuantity: 1, isAvailable: true, isActive: true, prices: [],
        groups: [{ groupName: 'Size', variants: [{ label: 'XL', value: 'XL' }] }],
        variants: [{ attributeName: 'Size', attributeValue: 'XL', price: '25.00', quantity: '0', barcode: '7100-1' }],
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await importCsv(await exportCsv());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 0, updated: 0 });
  });

  it('adds, changes and removes variants from the file, with stock through the ledger', async () => {
    const csv = await exportCsv();
    const rows = parseCsv(csv.slice(1)).rows;
    const h = rows[0];
    const of = h.indexOf('Variant of');
    const pid = rows.find((r, i) => i > 0 && r[of] !== '')![of];
    const mine = rows.filter((r) => r[of] === pid);
    expect(mine.length).toBeGreaterThan(1);
    mine[0][h.indexOf('Sale price')] = '77.70';
    mine[0][h.indexOf('Available Quantity')] = '40';
    const removed = mine[1];
    const added = h.map((c) => ({ 'Variant of': pid, Name: 'Added variant', Barcode: '7799000000006', 'Attribute Name': 'Colour', 'Attribute Value': 'Teal', 'Available Quantity': '3' } as Record<string, string>)[c] ?? '');
    const out = rows.filter((r) => r !== removed);
    out.splice(out.indexOf(mine[0]) + 1, 0, added);
    const res = await importCsv(out.map((r) => formatRow(r)).join(''));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ updated: 1, created: 0 });
    const now = (await variants()).filter((v) => v.productId === Number(pid));
    expect(now.map((v) => v.id)).not.toContain(Number(removed[0]));
    expect(now.find((v) => v.id === Number(mine[0][0]))).toMatchObject({ price: '77.700', quantity: '40.000' });
    expect(now.find((v) => v.barcode === '7799000000006')).toMatchObject({ attributeName: 'Colour', attributeValue: 'Teal', quantity: '3.000' });
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });

  it('a variant row in the wrong place is an error naming its row', async () => {
    const header = (await exportCsv()).slice(1).split('\r\n')[0].split(',');
    const row = (cells: Record<string, string>) => formatRow(header.map((c) => cells[c] ?? ''));
    const file = formatRow(header) + row({ Name: 'Parent', 'Is Available?': '1', 'Purchase price': '1', 'Sale price': '2' }) + row({ 'Variant of': '5', Name: 'Stray' });
    const res = await importCsv(file);
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0]).toMatchObject({ propertyPath: 'row 3.Variant of', line: 3 });
  });

  it('a variant left out of the file but used by a sale: the dry run lists it at the product row, the import refuses', async () => {
    const csv = await exportCsv();
    const rows = parseCsv(csv.slice(1)).rows;
    const of = rows[0].indexOf('Variant of');
    const victim = rows.find((r, i) => i > 0 && r[of] !== '')!;
    const [o] = await t.app.db.insert(order).values({ storeId: 1, status: 'Completed' }).returning({ id: order.id });
    await t.app.db.insert(orderProduct).values({ orderId: o.id, productId: Number(victim[of]), variantId: Number(victim[0]), quantity: '1', price: '1' });
    const parentRow = rows.findIndex((r) => r[0] === victim[of] && r[of] === '') + 1;
    const file = rows.filter((r) => r !== victim).map((r) => formatRow(r)).join('');
    const before = JSON.stringify(await variants());
    const preview = (await importCsv(file, '?dryRun=1')).json();
    expect(preview.result).toBeNull();
    expect(preview.errors).toEqual([expect.objectContaining({ propertyPath: `row ${parentRow}.Variant of`, row: parentRow, line: parentRow })]);
    const res = await importCsv(file);
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0].message).toContain(`ID ${victim[0]}`);
    expect(JSON.stringify(await variants())).toBe(before);
  });

  it('into an empty catalogue (unknownIds=create): products and variants come back exactly, then re-import unchanged', async () => {
    const csv = await exportCsv();
    const countBefore = { products: (await t.app.db.select().from(product)).length, variants: (await variants()).length };
    await t.app.db.execute(sql`truncate product cascade`);
    expect((await t.app.db.select().from(product)).length).toBe(0);
    const refused = await importCsv(csv);
    expect(refused.statusCode).toBe(422);
    const res = await importCsv(csv, '?unknownIds=create');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: countBefore.products });
    expect((await variants()).length).toBe(countBefore.variants);
    const again = await exportCsv();
    expect(withoutIds(again)).toEqual(withoutIds(csv));
    const preview = (await importCsv(again, '?dryRun=1')).json();
    expect(preview.result).toEqual({ created: 0, updated: 0, unchanged: countBefore.products, total: countBefore.products });
    expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
  });
});

describe('a big file', () => {
  it('imports 20,000 rows read as a stream', { timeout: 240_000 }, async () => {
    const header = ['ID', 'Name', 'Barcode', 'Is Available?', 'Purchase price', 'Sale price', 'Available Quantity', 'Purchase Unit', 'Sale Unit'];
    let csv = formatRow(header);
    for (let i = 1; i <= 20_000; i++) csv += formatRow(['', `Bulk item ${i}`, `88${String(i).padStart(11, '0')}`, '1', '1.10', `${(i % 97) + 1}.50`, '', 'pcs', 'pcs']);
    const res = await importCsv(csv);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.json()).toMatchObject({ created: 20_000, total: 20_000 });
    const [row] = await t.app.db.select().from(product).where(eq(product.name, 'Bulk item 19999'));
    expect(row).toMatchObject({ barcode: '8800000019999', basePrice: `${(19_999 % 97) + 1}.500` });
  });
});
