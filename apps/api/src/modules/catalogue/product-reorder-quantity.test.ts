/**
 * Issue 25.4: the re-order quantity of a product's store row, as the back office's item form
 * sends it with the product (POST / PUT /api/products): stored, read back, kept when absent (the
 * reference client never sends it), cleared by '', and refused below zero.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { api, messageAt, type Api } from './test-support.ts';

let t: TestApp;
let admin: Api;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  admin = api(t, () => a);
});
afterAll(async () => { await t?.close(); });

const body = (stores: Array<Record<string, unknown>>) => ({
  name: 'Basmati Rice 5kg', barcode: '881234', basePrice: '9.50', cost: '6.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
  department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'],
  manageInventory: true, stores, baseQuantity: 1, isAvailable: true, isActive: true, prices: [],
});
const rowOf = async (id: number, store: number) => (await admin.get(`/api/products/${id}`)).json().stores.find((s: any) => s.store.id === store);

describe('the re-order quantity of a product store row', () => {
  it('is stored with the product, read back, kept when absent, cleared by an empty value', async () => {
    const created = await admin.post('/api/products', body([
      { store: '/api/stores/1', quantity: '4', location: '', reOrderLevel: '5', reOrderQuantity: '12', product: null },
      { store: '/api/stores/2', quantity: '0', location: '', reOrderLevel: '', reOrderQuantity: '', product: null },
    ]));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect(await rowOf(id, 1)).toMatchObject({ reOrderLevel: '5', reOrderQuantity: '12' });
    expect(await rowOf(id, 2)).toMatchObject({ reOrderLevel: null, reOrderQuantity: null });

    // The item form sends it again, changed; the other store's row set to zero.
    const changed = await admin.put(`/api/products/${id}`, { stores: [
      { store: '/api/stores/1', quantity: '4', reOrderLevel: '5', reOrderQuantity: '30' },
      { store: '/api/stores/2', quantity: '0', reOrderLevel: '', reOrderQuantity: '0' },
    ] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await rowOf(id, 1)).toMatchObject({ reOrderQuantity: '30' });
    expect(await rowOf(id, 2)).toMatchObject({ reOrderQuantity: '0' });

    // The reference client's body has no reOrderQuantity: kept.
    const old = await admin.put(`/api/products/${id}`, { stores: [{ store: '/api/stores/1', quantity: '4', reOrderLevel: '6' }, { store: '/api/stores/2', quantity: '0' }] });
    expect(old.statusCode, old.body).toBe(200);
    expect(await rowOf(id, 1)).toMatchObject({ reOrderLevel: '6', reOrderQuantity: '30' });

    const cleared = await admin.put(`/api/products/${id}`, { stores: [{ store: '/api/stores/1', quantity: '4', reOrderQuantity: '' }, { store: '/api/stores/2', quantity: '0' }] });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(await rowOf(id, 1)).toMatchObject({ reOrderQuantity: null });
  });

  it('refuses a negative re-order quantity, naming the row', async () => {
    const res = await admin.put('/api/products/1', { stores: [{ store: '/api/stores/1', quantity: '0', reOrderQuantity: '-2' }] });
    expect(res.statusCode, res.body).toBe(422);
    expect(messageAt(res, 'stores[0].reOrderQuantity')).toEqual(expect.any(String));
  });
});
