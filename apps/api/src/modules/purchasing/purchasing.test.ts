import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  paymentType, product, productStore, productVariant, purchase, purchaseItem, purchaseOrder, stockMovement, store, supplier, supplierPayment,
} from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let main: number;
let mall: number;
let cash: number;
let credit: number;
/** A stock-managed grocery product, an unmanaged one, and a clothing product with variants. */
let managed: typeof product.$inferSelect;
let unmanaged: typeof product.$inferSelect;
let clothing: typeof product.$inferSelect;
let variants: (typeof productVariant.$inferSelect)[];
let otherVariant: typeof productVariant.$inferSelect;
let freshFarms: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  const db = t.app.db;
  const stores = await db.select().from(store).orderBy(asc(store.id));
  [main, mall] = [stores[0].id, stores[1].id];
  const types = await db.select().from(paymentType);
  cash = types.find((x) => x.type === 'cash')!.id;
  credit = types.find((x) => x.type === 'credit')!.id;
  const products = await db.select().from(product).orderBy(asc(product.id));
  const allVariants = await db.select().from(productVariant).orderBy(asc(productVariant.id));
  managed = products.find((p) => p.manageInventory && !allVariants.some((v) => v.productId === p.id))!;
  unmanaged = products.find((p) => !p.manageInventory)!;
  clothing = products.find((p) => allVariants.some((v) => v.productId === p.id))!;
  variants = allVariants.filter((v) => v.productId === clothing.id);
  otherVariant = allVariants.find((v) => v.productId !== clothing.id)!;
  freshFarms = (await db.select().from(supplier).where(eq(supplier.name, 'Fresh Farms Ltd')))[0].id;
});
afterAll(async () => { await t?.close(); });

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = admin) =>
  t.app.inject({ method, url, payload: payload as any, headers });

async function storeQty(productId: number, storeId: number): Promise<number> {
  const [row] = await t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}
async function variantQty(id: number): Promise<number> {
  const [row] = await t.app.db.select().from(productVariant).where(eq(productVariant.id, id));
  return Number(row.quantity);
}
/** Σ ledger rows of one purchase per (product, variant, store). */
async function ledgerOf(purchaseId: number) {
  const rows = await t.app.db.select({
    productId: stockMovement.productId, variantId: stockMovement.variantId, storeId: stockMovement.storeId,
    q: sql<string>`sum(${stockMovement.quantity})::text`,
  }).from(stockMovement).where(eq(stockMovement.purchaseId, purchaseId))
    .groupBy(stockMovement.productId, stockMovement.variantId, stockMovement.storeId);
  return Object.fromEntries(rows.map((r) => [`${r.productId}:${r.variantId ?? ''}:${r.storeId ?? ''}`, Number(r.q)]));
}
/** The stock ledger always sums to the stock (per product and store, per variant). */
async function assertLedgerMatchesStock(productId: number, storeId: number) {
  const [{ s }] = await t.app.db.select({ s: sql<string>`coalesce(sum(${stockMovement.quantity}), 0)::text` }).from(stockMovement)
    .where(and(eq(stockMovement.productId, productId), eq(stockMovement.storeId, storeId), isNull(stockMovement.variantId)));
  expect(Number(s)).toBe(await storeQty(productId, storeId));
}
async function counts() {
  const c = async (table: any) => Number((await t.app.db.select({ n: sql<number>`count(*)::int` }).from(table))[0].n);
  return { purchases: await c(purchase), items: await c(purchaseItem), moves: await c(stockMovement), orders: await c(purchaseOrder), payments: await c(supplierPayment) };
}

let seq = 0;
function purchaseBody(over: Record<string, unknown> = {}) {
  seq++;
  return {
    createdAt: '2024-03-01T10:00', purchaseNumber: `P-${seq}`, purchaseMode: 'Items list', supplier: `/api/suppliers/${freshFarms}`,
    paymentType: `/api/payments/${cash}`, store: `/api/stores/${main}`, purchasedBy: '/api/users/999', updateStocks: true, updatePrice: true,
    items: [{ item: `/api/products/${managed.id}`, quantity: '5', quantityRequested: null, purchasePrice: '2.50', comments: '', purchaseUnit: 'pcs', variants: [] }],
    ...over,
  };
}

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
    const before = { a: await storeQty(managed.id, main), c: await storeQty(clothing.id, main), v0: await variantQty(variants[0].id), v1: await variantQty(variants[1].id), v2: await variantQty(variants[2].id) };
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
      [`${clothing.id}:${variants[0].id}:`]: 3, [`${clothing.id}:${variants[2].id}:`]: 1, [`${clothing.id}:${variants[1].id}:`]: 0,
    });

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

describe('validation and access', () => {
  it('422 cases name the field and leave nothing written', async () => {
    const before = await counts();
    const stock = await storeQty(managed.id, main);
    const cases: [unknown, string[]][] = [
      [purchaseBody({ items: [] }), ['items']],
      [{}, ['createdAt', 'purchaseNumber', 'purchaseMode', 'paymentType', 'store', 'items']],
      [purchaseBody({ purchaseMode: 'Whatever' }), ['purchaseMode']],
      [purchaseBody({ items: [{ item: managed.id, quantity: '-1', purchasePrice: '2' }] }), ['items[0].quantity']],
      [purchaseBody({ items: [{ item: managed.id, quantity: '0', purchasePrice: 'abc' }] }), ['items[0].quantity', 'items[0].purchasePrice']],
      [purchaseBody({ items: [{ item: managed.id, quantity: '1', purchasePrice: '1', variants: [{ quantity: '1', purchasePrice: '1' }] }] }), ['items[0].variants[0].variant']],
      [purchaseBody({ items: [{ item: managed.id, quantity: '1', purchasePrice: '1', variants: [{ variant: otherVariant.id, quantity: '1', purchasePrice: '1' }] }] }), ['items[0].variants[0].variant']],
      [purchaseBody({ items: [{ item: 99999, quantity: '1', purchasePrice: '1' }] }), ['items[0].item']],
      [purchaseBody({ supplier: '/api/suppliers/99999' }), ['supplier']],
      [purchaseBody({ paymentType: '/api/payments/99999' }), ['paymentType']],
      [purchaseBody({ createdAt: 'yesterday-ish' }), ['createdAt']],
      [purchaseBody({ items: [{ item: managed.id, quantity: '999999999999999', purchasePrice: '999999999999999' }] }), ['items[0].purchasePrice', 'items[0].quantity']],
      // Each within the 12-digit limit, but their product is past what the exact maths holds.
      [purchaseBody({ items: [{ item: managed.id, quantity: '999999999999', purchasePrice: '999999999999' }] }), ['items']],
    ];
    for (const [payload, paths] of cases) {
      const res = await inject('POST', '/api/purchases', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      const body = res.json();
      expect(body.violations.map((v: any) => v.propertyPath).sort()).toEqual([...paths].sort());
      expect(typeof body.errorMessage).toBe('string');
    }
    expect((await inject('POST', '/api/purchases', purchaseBody({ items: [] }))).json().violations[0].message).toBe('Please add some items');

    // a purchase number already used in the store, with valid lines: still nothing written
    const ok = await inject('POST', '/api/purchases', purchaseBody({ purchaseNumber: 'DUP-1' }));
    expect(ok.statusCode).toBe(201);
    const mid = await counts();
    const stockMid = await storeQty(managed.id, main);
    const dup = await inject('POST', '/api/purchases', purchaseBody({ purchaseNumber: 'DUP-1' }));
    expect(dup.statusCode).toBe(422);
    expect(dup.json().violations).toEqual([{ propertyPath: 'purchaseNumber', message: 'This value is already used.' }]);
    expect(await counts()).toEqual(mid);
    expect(await storeQty(managed.id, main)).toBe(stockMid);
    // the same number in the other store is fine
    expect((await inject('POST', '/api/purchases', purchaseBody({ purchaseNumber: 'DUP-1', store: `/api/stores/${mall}` }))).statusCode).toBe(201);
    expect(stockMid).toBe(stock + 5);
    expect(before.purchases + 1).toBe(mid.purchases);

    // a failing edit (bad variant on the second line) leaves the purchase as it was
    const p = ok.json();
    const bad = await inject('PUT', `/api/purchases/${p.id}`, { items: [{ item: managed.id, quantity: '50', purchasePrice: '1' }, { item: clothing.id, quantity: '1', purchasePrice: '1', variants: [{ variant: otherVariant.id, quantity: 1, purchasePrice: 1 }] }] });
    expect(bad.statusCode).toBe(422);
    expect(await storeQty(managed.id, main)).toBe(stockMid);
    expect((await inject('GET', `/api/purchases/${p.id}`)).json().items).toHaveLength(1);

    // PO validation
    const po = await inject('POST', '/api/purchase_orders', { createdAt: '', poNumber: ' ', store: main, items: [{ item: managed.id, quantity: 0, price: 'x', variants: [{ variant: variants[0].id, quantity: -2, purchasePrice: '' }] }] });
    expect(po.statusCode).toBe(422);
    expect(po.json().violations.map((v: any) => v.propertyPath).sort()).toEqual(
      ['createdAt', 'items[0].price', 'items[0].quantity', 'items[0].variants[0].purchasePrice', 'items[0].variants[0].quantity', 'poNumber', 'supplier'].sort());
    const poEmpty = await inject('POST', '/api/purchase_orders', { createdAt: '2024-01-01T10:00', poNumber: 'X', supplier: freshFarms, store: main, items: [] });
    expect(poEmpty.json().violations).toEqual([{ propertyPath: 'items', message: 'Please add some items' }]);
  });

  it("purchasing (reads too: they show costs) needs the 'purchasing' permission; records are scoped to the caller stores", async () => {
    expect((await inject('POST', '/api/purchases', purchaseBody(), cashier)).statusCode).toBe(403);
    expect((await inject('POST', '/api/purchase_orders', {}, cashier)).statusCode).toBe(403);
    expect((await inject('POST', '/api/supplier_payments', { amount: '1', description: 'x', supplier: freshFarms }, cashier)).statusCode).toBe(403);
    const mallPurchase = (await inject('POST', '/api/purchases', purchaseBody({ store: `/api/stores/${mall}` }))).json();
    expect((await inject('GET', `/api/purchases/${mallPurchase.id}`, undefined, cashier)).statusCode).toBe(403);
    expect((await inject('GET', '/api/purchases?page=1&itemsPerPage=100', undefined, cashier)).statusCode).toBe(403);
    // A buyer of the main store only (a custom role with 'purchasing'): the mall's purchase is a 404.
    const adminH = await t.login('admin');
    const role = (await t.app.inject({ method: 'POST', url: '/api/roles', headers: adminH, payload: { name: 'Buyer', permissions: ['purchasing'] } })).json().role;
    const made = await createStaff(t, { username: 'buyer1', displayName: 'Buyer', role: role.id, stores: [main] });
    const buyer = await t.login('buyer1', made.password);
    expect((await inject('GET', `/api/purchases/${mallPurchase.id}`, undefined, buyer)).statusCode).toBe(404);
    const list = (await inject('GET', '/api/purchases?page=1&itemsPerPage=100', undefined, buyer)).json();
    expect(list['hydra:member'].length).toBeGreaterThan(0);
    expect(list['hydra:member'].every((p: any) => p.store.id === main)).toBe(true);
    expect((await inject('GET', `/api/purchases?store=${mall}`, undefined, buyer)).json()['hydra:totalItems']).toBe(0);
    // a store the admin does not belong to is refused
    const [other] = await t.app.db.insert(store).values({ name: 'Elsewhere' }).returning();
    const res = await inject('POST', '/api/purchases', purchaseBody({ store: `/api/stores/${other.id}` }));
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0].propertyPath).toBe('store');
  });

  it('lists filter and sort as the tables send them', async () => {
    const res = await inject('POST', '/api/purchases', purchaseBody({ purchaseNumber: 'FILTER-777', paymentType: `/api/payments/${credit}` }));
    expect(res.statusCode).toBe(201);
    const q = async (qs: string) => (await inject('GET', `/api/purchases?store=${main}&page=1&itemsPerPage=100&${qs}`)).json();
    expect((await q('purchaseNumber=ILTER-77'))['hydra:member'].map((p: any) => p.purchaseNumber)).toEqual(['FILTER-777']);
    expect((await q('supplier.name=fresh&=undefined&purchaseNumber=FILTER'))['hydra:totalItems']).toBe(1);
    expect((await q('paymentType.name=credit&purchaseNumber=FILTER'))['hydra:totalItems']).toBe(1);
    expect((await q('paymentType.name=cash&purchaseNumber=FILTER'))['hydra:totalItems']).toBe(0);
    expect((await q('createdAt=2024-03&purchaseNumber=FILTER'))['hydra:totalItems']).toBe(1);
    const sorted = (await q('order%5BpurchaseOrder_poNumber%5D=asc&order%5Bsupplier_name%5D=desc'))['hydra:member'];
    expect(sorted.length).toBeGreaterThan(1);
    const byNumber = (await q('order%5BpurchaseNumber%5D=desc'))['hydra:member'].map((p: any) => p.purchaseNumber);
    expect(byNumber).toEqual([...byNumber].sort().reverse());

    const items = (await inject('GET', `/api/purchase_items?item.id=/api/products/${managed.id}&order%5Bpurchase.purchaseNumber%5D=desc&page=1&itemsPerPage=100`)).json();
    expect(items['hydra:totalItems']).toBeGreaterThan(0);
    const row = items['hydra:member'].find((r: any) => r.purchase.purchaseNumber === 'FILTER-777');
    expect(row).toMatchObject({ quantity: '5', purchasePrice: '2.50', quantityRequested: null, total: 12.5 });
    expect(row.purchase['@id']).toBe(`/api/purchases/${res.json().id}`);
    expect(typeof row.purchase.createdAt).toBe('string');
    expect(row['@id']).toMatch(/^\/api\/purchase_items\/\d+$/);
  });
});

describe('supplier ledger', () => {
  it('payments and purchases newest first; outstanding = credit purchases - payments + opening balance', async () => {
    // A fresh supplier with an opening balance of 250.
    const [sup] = await t.app.db.insert(supplier).values({ name: 'Ledger Test Co', phone: '1', email: 'l@example.com', openingBalance: '250' }).returning();
    const s = `/api/suppliers/${sup.id}`;
    const buy = async (n: string, at: string, type: number, lines: [string, string][]) => {
      const r = await inject('POST', '/api/purchases', purchaseBody({ purchaseNumber: n, createdAt: at, supplier: s, paymentType: `/api/payments/${type}`, updateStocks: false, updatePrice: false,
        items: lines.map(([q, price]) => ({ item: unmanaged.id, quantity: q, purchasePrice: price })) }));
      expect(r.statusCode, r.body).toBe(201);
      return r.json();
    };
    // | purchase | type   | lines             | total  |
    // | L-1      | credit | 4 x 25            | 100.00 |
    // | L-2      | cash   | 2 x 25            |  50.00 |
    // | L-3      | credit | 3 x 10.1, 0.5 x 0.4 | 30.50 |
    const l1 = await buy('L-1', '2024-04-01T09:00', credit, [['4', '25']]);
    await buy('L-2', '2024-04-02T09:00', cash, [['2', '25']]);
    const l3 = await buy('L-3', '2024-04-03T09:00', credit, [['3', '10.10'], ['0.5', '0.40']]);
    expect(l3.total).toBe(30.5);
    // | payment | amount |
    // | 1..10   | 10.00 each = 100.00 |
    // | 11      |  0.25 (for L-1) |
    for (let i = 1; i <= 10; i++) {
      const r = await inject('POST', '/api/supplier_payments', { amount: '10', description: `instalment ${i}`, supplier: s });
      expect(r.statusCode, r.body).toBe(201);
    }
    const last = await inject('POST', '/api/supplier_payments', { amount: '0.25', description: 'rounding', purchase: l1['@id'], supplier: s });
    expect(last.statusCode).toBe(201);
    expect(last.json()).toMatchObject({ amount: 0.25, description: 'rounding' });
    expect(last.json().purchase).toMatchObject({ purchaseNumber: 'L-1' });

    // outstanding = (100 + 30.50) - (100 + 0.25) + 250 = 280.25
    const ledger = (await inject('GET', `${s}/ledger`)).json();
    expect(ledger).toMatchObject({ purchaseTotal: 130.5, paid: 100.25, openingBalance: 250, outstanding: 280.25 });

    const pays = (await inject('GET', `${s}/payments?limit=9999999&page=1&itemsPerPage=10`)).json();
    expect(pays['hydra:totalItems']).toBe(11);
    expect(pays['hydra:member']).toHaveLength(11); // limit honoured
    expect(pays['hydra:member'][0].description).toBe('rounding');
    const times = pays['hydra:member'].map((p: any) => Date.parse(p.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const purchases = (await inject('GET', `${s}/purchases?limit=9999999&page=1&itemsPerPage=10`)).json();
    expect(purchases['hydra:member'].map((p: any) => p.purchaseNumber)).toEqual(['L-3', 'L-2', 'L-1']);
    // the client's own computation over the sub-collections gives the same figure
    const creditTotal = purchases['hydra:member'].filter((p: any) => p.paymentType.type === 'credit').reduce((a: number, p: any) => a + p.total, 0);
    const paid = pays['hydra:member'].reduce((a: number, p: any) => a + Number(p.amount), 0);
    expect(Math.round((creditTotal - paid + 250) * 100) / 100).toBe(280.25);

    expect((await inject('GET', '/api/suppliers/99999/payments')).statusCode).toBe(404);
  });

  it('supplier payment validation', async () => {
    const before = await counts();
    const cases: [unknown, string[]][] = [
      [{ description: 'x', supplier: freshFarms }, ['amount']],
      [{ amount: 'ten', description: 'x', supplier: freshFarms }, ['amount']],
      [{ amount: '0', description: 'x', supplier: freshFarms }, ['amount']],
      [{ amount: '5', description: ' ', supplier: freshFarms }, ['description']],
      [{ amount: '5', description: 'x' }, ['supplier']],
      [{ amount: '5', description: 'x', supplier: 99999 }, ['supplier']],
      [{ amount: '5', description: 'x', supplier: freshFarms, purchase: '/api/purchases/99999' }, ['purchase']],
    ];
    for (const [payload, paths] of cases) {
      const res = await inject('POST', '/api/supplier_payments', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().violations.map((v: any) => v.propertyPath)).toEqual(paths);
    }
    expect(await counts()).toEqual(before);
  });
});
