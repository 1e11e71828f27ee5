/** Issue 26 point 4: a product whose barcode type is EAN/UPC, and any variant or extra barcode with a GS1 shape, must carry a valid GS1 check digit. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { barcode, product, productVariant } from '../../db/schema/index.ts';
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

describe('variant and extra barcodes (no declared type): a GS1-shaped code must carry its check digit', () => {
  const withVariants = (barcode: string, variants: Array<Record<string, unknown>>) => ({ ...item(barcode), variants });

  it('a variant barcode of 8, 12 or 13 digits with a wrong check digit: 422 on variants[i].barcode naming the digit; nothing written', async () => {
    const res = await admin.post('/api/products', withVariants('VAR-BASE-1', [
      { attributeValue: 'S', barcode: '4012345678901', quantity: '0' },
      { attributeValue: 'M', barcode: '4012345678902', quantity: '0' },
      { attributeValue: 'L', barcode: '96385075', quantity: '0' },
      { attributeValue: 'XL', barcode: '036000291453', quantity: '0' },
    ]));
    expect(res.statusCode).toBe(422);
    expect(messageAt(res, 'variants[1].barcode')).toBe('The check digit of this EAN-13 is wrong (it should end in 1).');
    expect(messageAt(res, 'variants[2].barcode')).toBe('The check digit of this EAN-8 is wrong (it should end in 4).');
    expect(messageAt(res, 'variants[3].barcode')).toBe('The check digit of this UPC-A is wrong (it should end in 2).');
    expect(messageAt(res, 'variants[0].barcode')).toBeUndefined();
    expect(await t.app.db.select().from(product).where(eq(product.barcode, 'VAR-BASE-1'))).toEqual([]);
  });

  it('valid GS1 codes, in-store codes (13 digits, prefix 2) and codes of other shapes are accepted; variants generated from groups get valid check digits', async () => {
    const res = await admin.post('/api/products', withVariants('VAR-BASE-2', [
      { attributeValue: 'S', barcode: '4012345678901', quantity: '0' },
      { attributeValue: 'M', barcode: '2100001999990', quantity: '0' },
      { attributeValue: 'XS', barcode: '55512343', quantity: '0' },
      { attributeValue: 'XXS', barcode: '042100005264', quantity: '0' },
      { attributeValue: 'L', barcode: '1234567890', quantity: '0' },
      { attributeValue: 'XL', barcode: 'VAR-BASE-2-XL', quantity: '0' },
    ]));
    expect(res.statusCode, res.body).toBe(201);
    const grouped = await admin.post('/api/products', { ...item('5901234123457'), groups: [{ groupName: 'Size', values: ['S', 'M'] }] });
    expect(grouped.statusCode, grouped.body).toBe(201);
    expect(grouped.json().variants.map((v: { barcode: string }) => v.barcode)).toEqual(['5901234123464', '5901234123471']);
  });

  it('on update a new or changed variant barcode is checked; one stored before the rule is kept', async () => {
    const made = (await admin.post('/api/products', withVariants('VAR-BASE-3', [{ attributeValue: 'S', barcode: 'VAR-3-S', quantity: '0' }]))).json();
    const v = made.variants[0];
    // A code stored before the rule (e.g. the reference client's base + 1): sent back unchanged, accepted.
    await t.app.db.update(productVariant).set({ barcode: '4006381333932' }).where(eq(productVariant.id, v.id));
    const same = await admin.put(`/api/products/${made.id}`, { variants: [{ id: v.id, attributeValue: 'S', barcode: '4006381333932' }] });
    expect(same.statusCode, same.body).toBe(200);
    const changed = await admin.put(`/api/products/${made.id}`, { variants: [{ id: v.id, attributeValue: 'S', barcode: '4006381333949' }, { attributeValue: 'M', barcode: '96385075' }] });
    expect(changed.statusCode).toBe(422);
    expect(messageAt(changed, 'variants[0].barcode')).toBe('The check digit of this EAN-13 is wrong (it should end in 8).');
    expect(messageAt(changed, 'variants[1].barcode')).toBe('The check digit of this EAN-8 is wrong (it should end in 4).');
    expect((await admin.get(`/api/products/${made.id}`)).json().variants.map((x: { barcode: string }) => x.barcode)).toEqual(['4006381333932']);
  });

  it('an extra barcode (POST/PUT /api/barcodes): the same rule, 422 on barcode; in-store codes pass', async () => {
    const bad = await admin.post('/api/barcodes', { barcode: '7350053850018', item: 3, price: '1' });
    expect(bad.statusCode).toBe(422);
    expect(messageAt(bad, 'barcode')).toBe('The check digit of this EAN-13 is wrong (it should end in 9).');
    expect(messageAt(await admin.post('/api/barcodes', { barcode: '73513536', item: 3, price: '1' }), 'barcode')).toBe('The check digit of this EAN-8 is wrong (it should end in 7).');
    expect(await t.app.db.select().from(barcode).where(eq(barcode.barcode, '7350053850018'))).toEqual([]);
    const ok = await admin.post('/api/barcodes', { barcode: '7350053850019', item: 3, price: '1' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((await admin.post('/api/barcodes', { barcode: '2300000000009', item: 3, price: '1', measurement: '0.5', unit: 'kg' })).statusCode).toBe(201);
    const changed = await admin.put(`/api/barcodes/${ok.json().id}`, { barcode: '036000291453' });
    expect(messageAt(changed, 'barcode')).toBe('The check digit of this UPC-A is wrong (it should end in 2).');
    // A code stored before the rule: other fields still change.
    await t.app.db.update(barcode).set({ barcode: '7350053850018' }).where(eq(barcode.id, ok.json().id));
    const kept = await admin.put(`/api/barcodes/${ok.json().id}`, { barcode: '7350053850018', price: '2' });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({ barcode: '7350053850018', price: '2.00' });
  });
});
