import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { auditLog, product, productStore, productVariant, stockMovement } from '../../db/schema/index.ts';
import { multipart, paths } from './test-support.ts';
import { formatRow, parseCsv } from '../../lib/csv.ts';
import { IMPORT_MAX_BYTES } from './catalogue.routes.ts';

/** Issue 23.5: the import template, the dry run (preview) with its column mapping and row errors, the size limit. */
let t: TestApp;
let adminH: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  adminH = await t.login('admin');
});
afterAll(async () => { await t?.close(); });

const importCsv = async (content: Buffer | string, query = '', headers = adminH) => {
  const m = multipart(content);
  return t.app.inject({ method: 'POST', url: `/api/products/import${query}`, payload: m.payload, headers: { ...headers, ...m.headers } });
};
async function tables() {
  const db = t.app.db;
  return JSON.stringify({
    products: await db.select().from(product).orderBy(asc(product.id)),
    stores: await db.select().from(productStore).orderBy(asc(productStore.id)),
    variants: await db.select().from(productVariant).orderBy(asc(productVariant.id)),
    moves: await db.select({ n: sql<number>`count(*)::int` }).from(stockMovement),
    audit: await db.select({ n: sql<number>`count(*)::int` }).from(auditLog),
  });
}
const HEADER = ['ID', 'Name', 'Barcode', 'Is Available?', 'Purchase price', 'Sale price', 'Available Quantity', 'Purchase Unit', 'Sale Unit'];
const csvOf = (rows: string[][]) => rows.map((r) => formatRow(r)).join('');

describe('import template', () => {
  it('has every column of the caller (stores, variants) and an example that imports as it is', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/products/import/template', headers: adminH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('products-template.csv');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(res.body.slice(1)).rows;
    expect(rows[0]).toEqual(expect.arrayContaining([...HEADER, 'Quantity [Main Street #1]', 'Re-order Level [Harbour Mall #2]', 'Variant of', 'Attribute Name', 'Attribute Value']));
    expect(rows).toHaveLength(3);
    const preview = await importCsv(res.body, '?dryRun=1');
    expect(preview.json()).toMatchObject({ dryRun: true, rows: 2, errors: [], result: { created: 1 } });
  });

  it("a new variant's EAN-13 with a wrong check digit is a row error on its Barcode (issue 26.4)", async () => {
    const template = (await t.app.inject({ method: 'GET', url: '/api/products/import/template', headers: adminH })).body.slice(1);
    const rows = parseCsv(template).rows;
    const at = rows[0].indexOf('Barcode');
    const variant = rows.findIndex((r, i) => i > 0 && r[rows[0].indexOf('Variant of')] !== '');
    expect(variant).toBeGreaterThan(0);
    rows[variant][at] = '4006381333932'; // the right check digit is 1
    const body = (await importCsv(csvOf(rows), '?dryRun=1')).json();
    expect(body.errors.map((e: any) => [e.row, e.field])).toEqual([[variant + 1, 'Barcode']]); // rows count the header line
    expect(body.errors[0].message).toMatch(/1/);
    rows[variant][at] = '4006381333931';
    expect((await importCsv(csvOf(rows), '?dryRun=1')).json()).toMatchObject({ errors: [] });
  });

  it('is refused to a cashier, without a token, and with the token in the URL (only the old export takes ?bearer=)', async () => {
    const cashier = await t.login('cashier');
    expect((await t.app.inject({ method: 'GET', url: '/api/products/import/template', headers: cashier })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/products/import/template' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/products/import/template?bearer=${adminH.authorization.slice(7)}` })).statusCode).toBe(401);
  });
});

describe('dry run', () => {
  it('lists the errors with row and file line, the mapping and the first rows, and writes nothing', async () => {
    const file = csvOf([
      HEADER,
      ['', 'Good one', '', '1', '1', '2', '', 'pcs', 'pcs'],
      ['', 'Multi\nline name', '', '1', '1', 'abc', '', 'pcs', 'pcs'],
      ['', '', '', '1', '1', '2', '', 'pcs', 'pcs'],
    ]);
    const before = await tables();
    const res = await importCsv(file, '?dryRun=1');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.rows).toBe(3);
    expect(body.result).toBeNull();
    expect(body.errors.map((e: any) => [e.row, e.line, e.field])).toEqual([[3, 3, 'Sale price'], [4, 5, 'Name']]);
    expect(body.sample.map((s: any) => s.line)).toEqual([2, 3, 5]);
    expect(body.columns.every((c: any) => c.status === 'matched')).toBe(true);
    expect(await tables()).toBe(before);
    // The real import of the same file is refused with the same places.
    const real = await importCsv(file);
    expect(real.statusCode).toBe(422);
    expect(paths(real)).toEqual(['row 3.Sale price', 'row 4.Name']);
    expect(await tables()).toBe(before);
  });

  it('a clean file: tells what the import would do, still writing nothing (not even the audit row)', async () => {
    const before = await tables();
    const res = await importCsv(csvOf([HEADER, ['', 'Dry kettle', '', '1', '3', '5', '', 'pcs', 'pcs'], ['1', 'Renamed by dry run', '', '1', '1', '2', '', 'pcs', 'pcs']]), '?dryRun=1');
    expect(res.json()).toMatchObject({ errors: [], result: { created: 1, updated: 1, unchanged: 0, total: 2 } });
    expect(await tables()).toBe(before);
  });
});

describe('column mapping', () => {
  const file = csvOf([
    ['Name', 'barcode', 'Is Available?', 'Cost', 'Price', 'Available Quantity', 'Purchase Unit', 'Sale Unit', 'ID', 'Notes'],
    ['Mapped mug', '7711000000001', 'yes', '2.5', '6.75', '', 'pcs', 'pcs', '', 'ignore me'],
  ]);

  it('the preview flags unknown columns and recognises another letter case', async () => {
    const body = (await importCsv(file, '?dryRun=1')).json();
    const status = Object.fromEntries(body.columns.map((c: any) => [c.header, [c.status, c.field]]));
    expect(status).toMatchObject({ barcode: ['mapped', 'Barcode'], Cost: ['unknown', null], Price: ['unknown', null], Notes: ['unknown', null], Name: ['matched', 'Name'] });
    expect(body.errors.map((e: any) => e.propertyPath)).toEqual(expect.arrayContaining(['row 1.Cost', 'row 1.Price', 'row 1.Purchase price', 'row 1.Sale price']));
    expect(body.fields).toContain('Sale price');
  });

  it('imports with the mapping: Cost is the purchase price, Price the sale price, Notes ignored', async () => {
    const mapping = encodeURIComponent(JSON.stringify({ Cost: 'Purchase price', Price: 'Sale price', Notes: '' }));
    const res = await importCsv(file, `?mapping=${mapping}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ created: 1 });
    const [p] = await t.app.db.select().from(product).where(sql`${product.barcode} = '7711000000001'`);
    expect(p).toMatchObject({ name: 'Mapped mug', cost: '2.500', basePrice: '6.750', isAvailable: true });
  });

  it('a mapping that is not a JSON object, or names an unknown column, is a 422 naming it', async () => {
    const bad = await importCsv(file, '?mapping=nope');
    expect(bad.statusCode).toBe(422);
    expect(paths(bad)).toEqual(['mapping']);
    const unknown = await importCsv(file, `?mapping=${encodeURIComponent(JSON.stringify({ Cost: 'Colour', Price: 'Sale price', Notes: '' }))}`);
    expect(unknown.statusCode).toBe(422);
    expect(paths(unknown)).toContain('row 1.Cost');
  });
});

describe('limits and the old client', () => {
  it('a file of 50 MB or more is refused in a dry run too, naming the limit (the plain import: product-csv.test.ts)', async () => {
    const big = Buffer.alloc(IMPORT_MAX_BYTES + 10, 0x20);
    big.write(`${HEADER.join(',')}\r\n`, 0);
    const before = await tables();
    const res = await importCsv(big, '?dryRun=1');
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual([{ propertyPath: 'file', message: 'The file is too large. It must be smaller than 50 MB.' }]);
    expect(await tables()).toBe(before);
  });

  it('the old client import (multipart field file, no option) still answers {created, updated, unchanged, total}', async () => {
    const res = await importCsv(csvOf([HEADER, ['', 'Old client tea', '', '1', '1', '3', '', 'pcs', 'pcs']]));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ created: 1, updated: 0, unchanged: 0, total: 1 });
    const legacy = multipart(csvOf([HEADER, ['', 'Old client coffee', '', '1', '1', '3', '', 'pcs', 'pcs']]));
    const res2 = await t.app.inject({ method: 'POST', url: '/api/admin/product/import', payload: legacy.payload, headers: { ...adminH, ...legacy.headers } });
    expect(res2.json()).toEqual({ created: 1, updated: 0, unchanged: 0, total: 1 });
  });
});
