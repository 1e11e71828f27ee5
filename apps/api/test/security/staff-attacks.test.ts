/**
 * Issue 21, the attacks of a cashier at the till, each written as the attack (they succeeded
 * before roles and permissions): a 100 % line discount, a retyped unit price, the day's opening
 * float changed after the fact, cost and profit read from the catalogue, the till's sync and a
 * sale's answer. (Credit terms and customer payments: customer-access.test.ts; a card refunded in
 * cash: money.test.ts; who manages whom: users-policy.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.ts';
import { staffShop } from '../../src/modules/staff/staff.fixtures.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
});
afterAll(async () => { await t?.close(); });

describe('a cashier at the till', () => {
  it('gives a 100 % line discount: refused, nothing sold', async () => {
    const before = await s.orderCount();
    const res = await s.inject('POST', '/api/admin/order/create', s.cashier, { ...s.sale({ discount: 10 }), total: 0, payments: [] });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/^items\[0\]\.discount:/);
    expect(await s.orderCount()).toBe(before);
  });

  it('retypes a unit price: refused, nothing sold', async () => {
    const before = await s.orderCount();
    const res = await s.inject('POST', '/api/admin/order/create', s.cashier, s.sale({ price: 0.5, priceOverride: true }));
    expect(res.statusCode).toBe(403);
    expect(await s.orderCount()).toBe(before);
  });

  it("changes the day's opening float after it was set: refused naming it; the day is unchanged", async () => {
    const opened = (await s.inject('GET', `/api/admin/closing/opened?store=${s.main}&terminal=${s.till}`, s.cashier)).json().closing;
    const start = await s.inject('POST', `/api/admin/closing/${opened.id}`, s.cashier, { openingBalance: 100, updateOnly: true });
    expect(start.statusCode, start.body).toBe(200);
    const cheat = await s.inject('POST', `/api/admin/closing/${opened.id}`, s.cashier, { openingBalance: 20, updateOnly: true });
    expect(cheat.statusCode).toBe(403);
    expect(cheat.json().message).toMatch(/^openingBalance:/);
    expect((await s.inject('GET', `/api/admin/closing/${opened.id}`, s.cashier)).json().closing.openingBalance).toBe(100);
    // A manager may correct it, and the correction is in the audit log.
    expect((await s.inject('POST', `/api/admin/closing/${opened.id}`, s.owner, { openingBalance: 20, updateOnly: true })).statusCode).toBe(200);
    expect((await s.auditRows('closing.edited')).at(-1)).toMatchObject({ before: { openingBalance: '100.000' }, after: { openingBalance: '20.000' } });
  });

  it('reads cost prices from the catalogue, the till sync and a sale: all null for a cashier, present for the owner', async () => {
    const mine = await s.inject('GET', `/api/products/${s.product.id}`, s.cashier);
    expect(mine.json()).toMatchObject({ basePrice: 10, cost: null });
    expect((await s.inject('GET', `/api/products/${s.product.id}`, s.owner)).json()).toMatchObject({ cost: 6 });
    const list = (await s.inject('GET', '/api/products?itemsPerPage=500', s.cashier)).json()['hydra:member'];
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p: any) => p.cost === null && p.variants.every((v: any) => v.purchasePrice === null))).toBe(true);
    const sync = await s.inject('GET', '/api/catalogue/sync', { ...s.cashier, 'accept-encoding': 'identity' });
    expect(sync.statusCode).toBe(200);
    const row = JSON.parse(sync.body).products.find((p: any[]) => p[0] === s.product.id);
    expect(row[5]).toBeNull();
    const ownerSync = JSON.parse((await s.inject('GET', '/api/catalogue/sync', { ...s.owner, 'accept-encoding': 'identity' })).body);
    expect(ownerSync.products.find((p: any[]) => p[0] === s.product.id)[5]).toBe(6);
    const sale = await s.inject('POST', '/api/admin/order/create', s.cashier, s.sale());
    expect(sale.json().order.items[0]).toMatchObject({ cost: null, product: { cost: null } });
    const again = await s.inject('GET', `/api/admin/order/${sale.json().order.id}`, s.cashier);
    expect(again.json().order.items[0].cost).toBeNull();
    expect((await s.inject('GET', `/api/admin/order/${sale.json().order.id}`, s.owner)).json().order.items[0].cost).toBe(6);
  });
});
