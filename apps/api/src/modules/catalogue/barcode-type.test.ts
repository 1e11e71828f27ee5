/** Issue 26 point 4: a product whose barcode type is EAN/UPC must carry a valid GS1 check digit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { product } from '../../db/schema/index.ts';
import { api, messageAt, type Api } from './test-support.ts';

let t: TestApp;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp();
  const h = await t.login('admin');
  admin = api(t, () => h);
});
afterAll(async () => { await t?.close(); });

const item = (barcode: string, barcodeType?: string | null) => ({
  name: `Item ${barcode}`, barcode, ...(barcodeType !== undefined ? { barcodeType } : {}), basePrice: '2.50', cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
  department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'],
  stores: [{ store: '/api/stores/1', quantity: '0', location: null, reOrderLevel: null, product: null }], prices: [],
});

describe('barcode types', () => {
  it('an EAN-13 / EAN-8 / UPC-A / UPC-E with a valid check digit is stored with its type and read back', async () => {
    for (const [code, type] of [['4006381333931', 'ean13'], ['96385074', 'ean8'], ['036000291452', 'upca'], ['01234565', 'upce']]) {
      const res = await admin.post('/api/products', item(code, type));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({ barcode: code, barcodeType: type });
    }
  });

  it('a wrong check digit is a 422 on barcode saying what it should be; nothing is written', async () => {
    const res = await admin.post('/api/products', item('4006381333932', 'ean13'));
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'barcode')).toBe('The check digit of this EAN-13 is wrong (it should end in 1).');
    expect(messageAt((await admin.post('/api/products', item('40063813339', 'ean13'))), 'barcode')).toBe('An EAN-13 has 13 digits.');
    expect(messageAt((await admin.post('/api/products', item('4006381333931', 'isbn'))), 'barcodeType')).toMatch(/one of ean13/);
    expect(await t.app.db.select().from(product).where(eq(product.barcode, '4006381333932'))).toEqual([]);
  });

  it('without a type (the old client, generated codes) any code is accepted as before', async () => {
    const res = await admin.post('/api/products', item('7000000000019'));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().barcodeType).toBeNull();
    expect((await admin.post('/api/products', item('7000000000020', null))).statusCode).toBe(201);
  });
});
