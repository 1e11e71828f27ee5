/** Purchasing refuses bad input and other stores, lists filter as the tables send them, and the supplier ledger adds up. */
import { describe, expect, it } from 'vitest';
import { createStaff } from '../../../test/helpers.ts';
import { store, supplier } from '../../db/schema/index.ts';
import { t, cashier, main, mall, cash, credit, managed, unmanaged, clothing, variants, otherVariant, freshFarms, inject, storeQty, counts, purchaseBody, openPurchasingShop } from './purchasing.fixtures.ts';

openPurchasingShop();

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
