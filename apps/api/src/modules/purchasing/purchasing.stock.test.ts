/** Purchases move stock through the ledger exactly once (receive, edit, delete), and purchase orders go Open -> Used -> Open. */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { product, productVariant } from '../../db/schema/index.ts';
import { t, main, mall, managed, unmanaged, clothing, variants, freshFarms, inject, storeQty, variantQty, variantStoreQty, ledgerOf, assertLedgerMatchesStock, counts, purchaseBody, openPurchasingShop } from './purchasing.fixtures.ts';

openPurchasingShop();

describe('purchases: stock through the ledger, exactly once', () => {
  it('receiving raises stock of managed products and variants, sets cost, computes the total', async () => {
    const before = { a: await storeQty(managed.id, main), b: await storeQty(unmanaged.id, main), c: await storeQty(clothing.id, main), v0: await variantQty(variants[0].id), v1: await variantQty(variants[1].id) };
    const priceBefore = { base: managed.basePrice, vPrice: variants[0].price };
    const res = await inject('POST', '/api/purchases', purchaseBody({
      total: 1, // ignored: the server computes it
      items: [
        { item: `/api/products/${managed.id}`, quantity: '5', quantityRequested: '6', purchasePrice: '2.50', purchaseUnit: 'pcs' },
        { item: { '@id': `/api/products/${unmanaged.id}`, name: unmanaged.name }, quantity: 3, purchasePrice: 1 },
        {
          item: `/api/products/${clothing.id}`, quantity: '1', purchasePrice: '10',
          // items-list create rows: the ProductVariant object, id overwritten by its IRI, no `variant` key
          variants: [
            { '@id': `/api/product_variants/${variants[0].id}`, id: `/api/product_variants/${variants[0].id}`, attributeValue: variants[0].attributeValue, price: null, cost: '10', quantity: '2', purchasePrice: '10' },
            { '@id': `/api/product_variants/${variants[1].id}`, id: `/api/product_variants/${variants[1].id}`, cost: '10', quantity: '4' },
          ],
        },
      ],
    }));
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    // 5 x 2.50 + 3 x 1 + 1 x 10 + 2 x 10 + 4 x 10
    expect(body.total).toBe(85.5);
    expect(body['@id']).toBe(`/api/purchases/${body.id}`);
    expect(body.purchasedBy.username).toBe('admin');
    expect(body.paymentType).toMatchObject({ name: 'Cash', type: 'cash' });
    expect(body.items[0]).toMatchObject({ quantity: '5', quantityRequested: '6', purchasePrice: '2.50' });
    expect(body.items[0].item).toMatchObject({ id: managed.id, name: managed.name });
    expect(body.items[2].variants.map((v: any) => [v.variant.id, v.quantity, v.purchasePrice])).toEqual([[variants[0].id, '2', '10.00'], [variants[1].id, '4', '10.00']]);

    expect(await storeQty(managed.id, main)).toBe(before.a + 5);
    expect(await storeQty(unmanaged.id, main)).toBe(before.b); // not stock-managed: not counted
    expect(await storeQty(clothing.id, main)).toBe(before.c + 1 + 2 + 4); // the line and its variants arrive at the store
    expect(await variantQty(variants[0].id)).toBe(before.v0 + 2);
    expect(await variantQty(variants[1].id)).toBe(before.v1 + 4);
    await assertLedgerMatchesStock(managed.id, main);

    const [p] = await t.app.db.select().from(product).where(eq(product.id, managed.id));
    expect(p.cost).toBe('2.500');
    expect(p.basePrice).toBe(priceBefore.base); // never a sale price
    const [v] = await t.app.db.select().from(productVariant).where(eq(productVariant.id, variants[0].id));
    expect(v.purchasePrice).toBe('10.000');
    expect(v.price).toBe(priceBefore.vPrice);

    // reading it back does not apply anything again
    const moves = (await counts()).moves;
    const get = await inject('GET', `/api/purchases/${body.id}`);
    expect(get.statusCode).toBe(200);
    expect((await counts()).moves).toBe(moves);
  });

  it('editing moves only the difference; edit rows name their purchase-item-variant', async () => {
    const created = (await inject('POST', '/api/purchases', purchaseBody({
      items: [
        { item: `/api/products/${managed.id}`, quantity: '5', purchasePrice: '2' },
        { item: `/api/products/${clothing.id}`, quantity: '1', purchasePrice: '10', variants: [
          { variant: `/api/product_variants/${variants[0].id}`, quantity: '2', purchasePrice: '10' },
          { variant: `/api/product_variants/${variants[1].id}`, quantity: '4', purchasePrice: '10' },
        ] },
      ],
    }))).json();
    const before = {
      a: await storeQty(managed.id, main), c: await storeQty(clothing.id, main), v0: await variantQty(variants[0].id), v1: await variantQty(variants[1].id), v2: await variantQty(variants[2].id),
      v0main: await variantStoreQty(variants[0].id, main),
    };
    // The client sends the whole loaded purchase back with edited lines.
    const edit = {
      ...created,
      items: [
        { ...created.items[0], quantity: '8' },
        { ...created.items[1], variants: [
          { id: created.items[1].variants[0]['@id'], attributeValue: 'x', cost: '10', quantity: '3', purchasePrice: '11' },
          { variant: `/api/product_variants/${variants[2].id}`, quantity: '1', purchasePrice: '10' },
        ] },
      ],
    };
    const res = await inject('PUT', `/api/purchases/${created.id}`, edit);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total).toBe(8 * 2 + 10 + 3 * 11 + 10);
    expect(await storeQty(managed.id, main)).toBe(before.a + 3);
    expect(await storeQty(clothing.id, main)).toBe(before.c - 2); // 1 + 2 + 4 -> 1 + 3 + 1
    expect(await variantQty(variants[0].id)).toBe(before.v0 + 1);
    expect(await variantQty(variants[1].id)).toBe(before.v1 - 4);
    expect(await variantQty(variants[2].id)).toBe(before.v2 + 1);
    expect(await ledgerOf(created.id)).toEqual({
      [`${managed.id}::${main}`]: 8, [`${clothing.id}::${main}`]: 5,
      // Variant rows in the purchase's store (issue 25: variant stock is per store).
      [`${clothing.id}:${variants[0].id}:${main}`]: 3, [`${clothing.id}:${variants[2].id}:${main}`]: 1, [`${clothing.id}:${variants[1].id}:${main}`]: 0,
    });
    expect(await variantStoreQty(variants[0].id, main) - before.v0main).toBe(1); // 2 -> 3 in main

    // the same body again changes nothing
    const moves = (await counts()).moves;
    const again = await inject('PUT', `/api/purchases/${created.id}`, { ...(res.json() as object) });
    expect(again.statusCode, again.body).toBe(200);
    expect((await counts()).moves).toBe(moves);

    // updateStocks off takes the stock back, on puts it in again
    const off = await inject('PUT', `/api/purchases/${created.id}`, { updateStocks: false });
    expect(off.statusCode).toBe(200);
    expect(await storeQty(managed.id, main)).toBe(before.a - 5);
    const on = await inject('PATCH' as any, `/api/purchases/${created.id}`, { updateStocks: true });
    expect(on.statusCode).toBe(200);
    expect(await storeQty(managed.id, main)).toBe(before.a + 3);

    // moving the purchase to the other store moves its stock
    const mallBefore = await storeQty(managed.id, mall);
    const moved = await inject('PUT', `/api/purchases/${created.id}`, { store: `/api/stores/${mall}` });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await storeQty(managed.id, main)).toBe(before.a - 5);
    expect(await storeQty(managed.id, mall)).toBe(mallBefore + 8);
    await assertLedgerMatchesStock(managed.id, main);
    await assertLedgerMatchesStock(managed.id, mall);
  });

  it('deleting a purchase takes its stock back', async () => {
    const before = { a: await storeQty(managed.id, main), v0: await variantQty(variants[0].id) };
    const created = (await inject('POST', '/api/purchases', purchaseBody({
      items: [
        { item: `/api/products/${managed.id}`, quantity: '2.5', purchasePrice: '2' },
        { item: `/api/products/${clothing.id}`, quantity: '1', purchasePrice: '10', variants: [{ variant: variants[0].id, quantity: '7', purchasePrice: '9' }] },
      ],
    }))).json();
    expect(await storeQty(managed.id, main)).toBe(before.a + 2.5);
    expect(await variantQty(variants[0].id)).toBe(before.v0 + 7);
    const del = await inject('DELETE', `/api/purchases/${created.id}`);
    expect(del.statusCode).toBe(200);
    expect(await storeQty(managed.id, main)).toBe(before.a);
    expect(await variantQty(variants[0].id)).toBe(before.v0);
    expect(Object.values(await ledgerOf(created.id)).every((q) => q === 0)).toBe(true);
    expect((await inject('GET', `/api/purchases/${created.id}`)).statusCode).toBe(404);
    await assertLedgerMatchesStock(managed.id, main);
    await assertLedgerMatchesStock(clothing.id, main);
  });

  it('updateStocks false moves nothing; updatePrice false keeps the cost', async () => {
    const before = await storeQty(managed.id, main);
    const [p0] = await t.app.db.select().from(product).where(eq(product.id, managed.id));
    const res = await inject('POST', '/api/purchases', purchaseBody({ updateStocks: false, updatePrice: false, items: [{ item: managed.id, quantity: 4, purchasePrice: '99' }] }));
    expect(res.statusCode, res.body).toBe(201);
    expect(await storeQty(managed.id, main)).toBe(before);
    const [p1] = await t.app.db.select().from(product).where(eq(product.id, managed.id));
    expect(p1.cost).toBe(p0.cost);
  });
});

describe('purchase orders: Open -> Used -> Open', () => {
  it('a PO used by a purchase is locked until the purchase is deleted', async () => {
    const poRes = await inject('POST', '/api/purchase_orders', {
      createdAt: '2024-03-02T09:30', poNumber: 'PO-100', supplier: `/api/suppliers/${freshFarms}`, store: `/api/stores/${main}`,
      items: [
        { item: `/api/products/${managed.id}`, quantity: '10', price: '2.10', comments: 'urgent', unit: 'pcs', variants: [] },
        { item: `/api/products/${clothing.id}`, quantity: '1', price: '10', variants: [{ variant: `/api/product_variants/${variants[0].id}`, quantity: '3', purchasePrice: '9.5' }] },
      ],
    });
    expect(poRes.statusCode, poRes.body).toBe(201);
    const po = poRes.json();
    expect(po).toMatchObject({ poNumber: 'PO-100', isUsed: false });
    expect(po.supplier.name).toBe('Fresh Farms Ltd');
    expect(po.items[0]).toMatchObject({ quantity: '10', price: '2.10', comments: 'urgent', unit: 'pcs' });
    expect(po.items[1].variants[0]).toMatchObject({ quantity: '3', purchasePrice: '9.50' });
    expect(po.items[1].variants[0].variant.id).toBe(variants[0].id);

    // editing an Open PO; the edit row has `id` and no `variant`
    const edited = await inject('PUT', `/api/purchase_orders/${po.id}`, {
      ...po, store: po.store['@id'],
      items: [po.items[0], { ...po.items[1], variants: [{ id: po.items[1].variants[0].id, quantity: '4', purchasePrice: '9.5' }] }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().items[1].variants[0]).toMatchObject({ quantity: '4' });
    expect(edited.json().items[1].variants[0].variant.id).toBe(variants[0].id);

    // duplicate PO number in the same store
    const dup = await inject('POST', '/api/purchase_orders', { createdAt: '2024-03-02T09:30', poNumber: 'PO-100', supplier: freshFarms, store: main, items: [{ item: managed.id, quantity: 1, price: 1 }] });
    expect(dup.statusCode).toBe(422);
    expect(dup.json().violations).toEqual([{ propertyPath: 'poNumber', message: 'This value is already used.' }]);

    const list = await inject('GET', `/api/purchase_orders?store=${main}&isUsed=null&page=1&itemsPerPage=9999999`);
    expect(list.json()['hydra:member'].find((x: any) => x.id === po.id).isUsed).toBe(false);

    // PO mode purchase: rows carry the PO-item-variant @id and the variant
    const before = await variantQty(variants[0].id);
    const p = await inject('POST', '/api/purchases', purchaseBody({
      purchaseMode: 'Purchase order', purchaseOrder: `/api/purchase_orders/${po.id}`, supplier: undefined,
      items: [{ item: `/api/products/${clothing.id}`, quantity: '1', quantityRequested: '1', purchasePrice: '10', variants: [
        { '@id': edited.json().items[1].variants[0]['@id'], variant: `/api/product_variants/${variants[0].id}`, quantity: '4', quantityRequested: '4', purchaseUnit: 'pcs', purchasePrice: '9.5' },
      ] }],
    }));
    expect(p.statusCode, p.body).toBe(201);
    expect(p.json().supplier.id).toBe(freshFarms); // taken from the PO
    expect(p.json().purchaseOrder).toMatchObject({ id: po.id, poNumber: 'PO-100', isUsed: true });
    expect(await variantQty(variants[0].id)).toBe(before + 4);

    const usedList = await inject('GET', `/api/purchase_orders?store=${main}&isUsed=true`);
    expect(usedList.json()['hydra:member'].map((x: any) => x.id)).toContain(po.id);
    const put = await inject('PUT', `/api/purchase_orders/${po.id}`, { poNumber: 'PO-101' });
    expect(put.statusCode).toBe(409);
    expect(put.json().message).toMatch(/used by a purchase/);
    expect((await inject('DELETE', `/api/purchase_orders/${po.id}`)).statusCode).toBe(409);
    const again = await inject('POST', '/api/purchases', purchaseBody({ purchaseMode: 'Purchase order', purchaseOrder: po['@id'] }));
    expect(again.statusCode).toBe(422);
    expect(again.json().violations).toEqual([{ propertyPath: 'purchaseOrder', message: 'This purchase order is already used.' }]);

    // deleting the purchase frees the PO
    expect((await inject('DELETE', `/api/purchases/${p.json().id}`)).statusCode).toBe(200);
    expect((await inject('GET', `/api/purchase_orders/${po.id}`)).json().isUsed).toBe(false);
    expect(await variantQty(variants[0].id)).toBe(before);

    // switching a purchase from one PO to another frees the first
    const p2 = (await inject('POST', '/api/purchases', purchaseBody({ purchaseMode: 'Purchase order', purchaseOrder: po.id }))).json();
    const po2 = (await inject('POST', '/api/purchase_orders', { createdAt: '2024-03-03T09:30', poNumber: 'PO-102', supplier: freshFarms, store: main, items: [{ item: managed.id, quantity: 1, price: 1 }] })).json();
    const sw = await inject('PUT', `/api/purchases/${p2.id}`, { purchaseOrder: po2['@id'] });
    expect(sw.statusCode, sw.body).toBe(200);
    expect((await inject('GET', `/api/purchase_orders/${po.id}`)).json().isUsed).toBe(false);
    expect((await inject('GET', `/api/purchase_orders/${po2.id}`)).json().isUsed).toBe(true);
    expect((await inject('DELETE', `/api/purchase_orders/${po.id}`)).statusCode).toBe(200);
  });

  it('a PO of another store cannot be used; PO mode needs a PO', async () => {
    const po = (await inject('POST', '/api/purchase_orders', { createdAt: '2024-03-02T09:30', poNumber: 'PO-M1', supplier: freshFarms, store: mall, items: [{ item: managed.id, quantity: 1, price: 1 }] })).json();
    const res = await inject('POST', '/api/purchases', purchaseBody({ purchaseMode: 'Purchase order', purchaseOrder: po['@id'] }));
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0].propertyPath).toBe('purchaseOrder');
    const none = await inject('POST', '/api/purchases', purchaseBody({ purchaseMode: 'Purchase order' }));
    expect(none.statusCode).toBe(422);
    expect(none.json().violations).toEqual([{ propertyPath: 'purchaseOrder', message: 'This value should not be blank.' }]);
  });
});
