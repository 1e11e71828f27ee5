/**
 * Issue 25.6, the sales report's figures by variant, category, brand and cashier (reports.test.ts
 * covers day, hour, product, payment and tax). Real sales through the API on one UTC day: a sale
 * with a line discount and an order discount (admin), a plain sale (a manager) and a partial
 * refund of the discounted sale (the manager). Every figure is in integer minor units, each group
 * is checked exactly, and the groups of every grouping add up to the day's total.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { brand, category, discount, order, paymentType, productBrand, store, terminal, userAccount } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let mgr: Record<string, string>;
let adminId: number;
let mgrId: number;
let main: number;
let t1: number;
let cash: number;
let open: number;
let alpha: number; // category, created first (smaller id)
let beta: number;
let acme: number; // brand
let zed: number;
/** Tee (variants S at the product price 20.00 and M at 22.00), Mug 7.50, Loose 1.25; no tax. */
let tee: number;
let teeS: number;
let teeM: number;
let mug: number;
let loose: number;

const DAY = '2024-02-29';
const at = `${DAY}T12:00:00Z`;
const cents = (x: number) => Math.round(x * 100);

async function createProduct(name: string, barcode: string, price: string, cost: string, categories: number[], brands: number[], variants: Array<[string, string | null]> = []) {
  const res = await t.app.inject({ method: 'POST', url: '/api/products', headers: admin, payload: {
    name, barcode, basePrice: price, cost, saleUnit: 'pcs', purchaseUnit: 'pcs', department: '/api/departments/1', taxes: [], terminals: [],
    categories: categories.map((id) => `/api/categories/${id}`), suppliers: ['/api/suppliers/1'], brands: brands.map((id) => `/api/brands/${id}`),
    manageInventory: false, stores: [{ store: `/api/stores/${main}`, quantity: '0', location: '', reOrderLevel: '', product: null }],
    baseQuantity: 1, isAvailable: true, isActive: true, prices: [],
    ...(variants.length ? {
      groups: [{ groupName: 'Size', variants: variants.map(([v]) => ({ label: v, value: v })) }],
      variants: variants.map(([v, p]) => ({ attributeName: 'Size', attributeValue: v, price: p, quantity: '0', barcode: `${barcode}-${v}` })),
    } : {}),
  } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; variants: Array<{ id: number; attributeValue: string }> };
}

type Line = { item: number; variant?: number; quantity: number; discount?: number };
interface Sold { id: number; total: number; items: Array<{ product: { id: number }; variant: { id: number } | null; quantity: number; discount: number; orderDiscount: number; taxable: number; cost: number }> }
async function sell(headers: Record<string, string>, items: Line[], extra: Record<string, unknown> = {}): Promise<Sold> {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers, payload: {
    items, payments: extra.refundingFrom ? [] : [{ received: 1000, type: cash }], store: main, terminal: t1, ...extra,
  } });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json().order as Sold;
  await t.app.db.update(order).set({ createdAt: new Date(at) }).where(eq(order.id, o.id));
  return o;
}

let S1: Sold; // admin: Tee S ×2 (line discount 4.00), Mug ×1; order discount 3.50
let S2: Sold; // manager: Tee M ×1, Loose ×3, Mug ×2
let R: Sold; // manager: one Tee S of S1 back

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const db = t.app.db;
  main = (await db.select().from(store).orderBy(asc(store.id)))[0].id;
  await db.update(store).set({ timeZone: 'UTC', maxDiscountPercent: 100 }).where(eq(store.id, main));
  t1 = (await db.select().from(terminal)).find((x) => x.code === 'T1')!.id;
  cash = (await db.select().from(paymentType)).find((p) => p.type === 'cash')!.id;
  open = (await db.select().from(discount)).find((d) => d.scope === 'open')!.id;
  const m = await createStaff(t, { username: 'groupmgr', role: 'manager', stores: [main], displayName: 'Mona' });
  mgr = await t.login('groupmgr', m.password);
  mgrId = m.id;
  adminId = (await db.select().from(userAccount).where(eq(userAccount.username, 'admin')))[0].id;
  [alpha, beta] = (await db.insert(category).values([{ name: 'Alpha wear' }, { name: 'Beta home' }]).returning()).map((c) => c.id);
  [acme, zed] = (await db.insert(brand).values([{ name: 'Acme' }, { name: 'Zed' }]).returning()).map((b) => b.id);
  const teeP = await createProduct('Tee', 'RG-TEE', '20.00', '8.00', [alpha], [acme], [['S', null], ['M', '22.00']]);
  tee = teeP.id;
  teeS = teeP.variants.find((v) => v.attributeValue === 'S')!.id;
  teeM = teeP.variants.find((v) => v.attributeValue === 'M')!.id;
  mug = (await createProduct('Mug', 'RG-MUG', '7.50', '3.00', [beta], [zed])).id;
  // Two categories: it counts once, under its first (Alpha). No brand: the brand group without a name.
  loose = (await createProduct('Loose', 'RG-LOOSE', '1.25', '0.40', [beta, alpha], [zed])).id;
  await db.delete(productBrand).where(eq(productBrand.productId, loose));

  S1 = await sell(admin, [{ item: tee, variant: teeS, quantity: 2, discount: 4 }, { item: mug, quantity: 1 }],
    { discount: open, discountAmount: 3.5, discountRateType: 'fixed' });
  S2 = await sell(mgr, [{ item: tee, variant: teeM, quantity: 1 }, { item: loose, quantity: 3 }, { item: mug, quantity: 2 }]);
  R = await sell(mgr, [{ item: tee, variant: teeS, quantity: -1 }], { refundingFrom: S1.id });
});
afterAll(async () => { await t?.close(); });

const report = async (group: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/reports/sales?group=${group}&from=${DAY}&to=${DAY}&store=${main}`, headers: admin });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { rows: Array<Record<string, any>>; totals: Record<string, any> };
};
const FIGURES = ['quantity', 'net', 'tax', 'gross', 'discount', 'refunds', 'cost', 'margin'] as const;
/** The rows of a grouping, by key, without the figures a test does not name. */
const byKey = (rows: Array<Record<string, any>>) => Object.fromEntries(rows.map((r) => [r.key ?? 'none', r]));
/** Each figure of the groups added up equals the day's total. */
function expectGroupsAddUp(r: { rows: Array<Record<string, any>>; totals: Record<string, any> }, day: Record<string, any>) {
  for (const f of FIGURES) expect([f, r.rows.reduce((s, x) => s + x[f], 0)]).toEqual([f, day[f]]);
  expect(r.totals).toEqual(day);
}

describe('sales report by variant, category, brand and cashier (real sales, a discount and a refund)', () => {
  let day: Record<string, any>;
  beforeAll(async () => { day = (await report('day')).totals; });

  it('the sales as the engine stored them: line and order discounts, the refund\'s share', () => {
    // S1: Tee S 2 × 20.00 − 4.00 = 36.00, Mug 7.50; the order discount 3.50 shared over 43.50.
    const [s, m] = S1.items;
    expect(s.discount + m.discount).toBe(4);
    expect(cents(s.orderDiscount) + cents(m.orderDiscount)).toBe(350);
    expect(cents(S1.total)).toBe(4000);
    expect(cents(S2.total)).toBe(2200 + 375 + 1500);
    // [line discount, order discount share, taxable] in cents: 3.50 × 36.00 / 43.50 = 2.90 to the Tee, the rest (0.60) to the Mug.
    expect(S1.items.map((i) => [cents(i.discount), cents(i.orderDiscount), cents(i.taxable)])).toEqual([[400, 290, 3310], [0, 60, 690]]);
    // One of the two Tees back: half of each figure, negative.
    expect(R.items.map((i) => [cents(i.discount), cents(i.orderDiscount), cents(i.taxable)])).toEqual([[-200, -145, -1655]]);
    expect(cents(R.total)).toBe(-1655);
    expect(day).toMatchObject({ orders: 2, quantity: 2 + 1 - 1 + 1 + 3 + 2, net: 4000 + 4075 + cents(R.total), tax: 0, gross: 4000 + 4075 + cents(R.total), refunds: cents(R.total) });
    expect(day.discount).toBe(750 + cents(R.items[0].discount + R.items[0].orderDiscount));
    expect(day.cost).toBe(2 * 800 + 300 + 800 + 3 * 40 + 2 * 300 - 800);
  });

  it('by variant: each variant its own row, named "product — variant"; a product without variants under "product-"', async () => {
    const r = await report('variant');
    const s = S1.items[0];
    const rs = R.items[0];
    const rows = byKey(r.rows);
    expect(Object.keys(rows).sort()).toEqual([`${tee}-${teeS}`, `${tee}-${teeM}`, `${mug}-`, `${loose}-`].sort());
    expect(rows[`${tee}-${teeS}`]).toEqual({
      key: `${tee}-${teeS}`, label: 'Tee — S', orders: 1, quantity: 1,
      net: cents(s.taxable + rs.taxable), tax: 0, gross: cents(s.taxable + rs.taxable),
      discount: cents(s.discount + s.orderDiscount + rs.discount + rs.orderDiscount), refunds: cents(rs.taxable),
      cost: 800, margin: cents(s.taxable + rs.taxable) - 800,
    });
    expect(rows[`${tee}-${teeM}`]).toEqual({ key: `${tee}-${teeM}`, label: 'Tee — M', orders: 1, quantity: 1, net: 2200, tax: 0, gross: 2200, discount: 0, refunds: 0, cost: 800, margin: 1400 });
    const m1 = S1.items[1];
    expect(rows[`${mug}-`]).toEqual({
      key: `${mug}-`, label: 'Mug', orders: 2, quantity: 3, net: cents(m1.taxable) + 1500, tax: 0, gross: cents(m1.taxable) + 1500,
      discount: cents(m1.orderDiscount), refunds: 0, cost: 900, margin: cents(m1.taxable) + 1500 - 900,
    });
    expect(rows[`${loose}-`]).toEqual({ key: `${loose}-`, label: 'Loose', orders: 1, quantity: 3, net: 375, tax: 0, gross: 375, discount: 0, refunds: 0, cost: 120, margin: 255 });
    expectGroupsAddUp(r, day);
  });

  it('by category: a product counts once, under its first category', async () => {
    const r = await report('category');
    const [s, m1] = S1.items;
    const rs = R.items[0];
    const rows = byKey(r.rows);
    expect(Object.keys(rows).sort()).toEqual([String(alpha), String(beta)].sort());
    const alphaNet = cents(s.taxable + rs.taxable) + 2200 + 375;
    expect(rows[alpha]).toEqual({
      key: String(alpha), label: 'Alpha wear', orders: 2, quantity: 1 + 1 + 3, net: alphaNet, tax: 0, gross: alphaNet,
      discount: cents(s.discount + s.orderDiscount + rs.discount + rs.orderDiscount), refunds: cents(rs.taxable), cost: 800 + 800 + 120, margin: alphaNet - 1720,
    });
    const betaNet = cents(m1.taxable) + 1500;
    expect(rows[beta]).toEqual({
      key: String(beta), label: 'Beta home', orders: 2, quantity: 3, net: betaNet, tax: 0, gross: betaNet,
      discount: cents(m1.orderDiscount), refunds: 0, cost: 900, margin: betaNet - 900,
    });
    expectGroupsAddUp(r, day);
  });

  it('by brand: a product without a brand in the group without a name (key null)', async () => {
    const r = await report('brand');
    const [s, m1] = S1.items;
    const rs = R.items[0];
    const rows = byKey(r.rows);
    expect(Object.keys(rows).sort()).toEqual([String(acme), String(zed), 'none'].sort());
    const acmeNet = cents(s.taxable + rs.taxable) + 2200;
    expect(rows[acme]).toEqual({
      key: String(acme), label: 'Acme', orders: 2, quantity: 2, net: acmeNet, tax: 0, gross: acmeNet,
      discount: cents(s.discount + s.orderDiscount + rs.discount + rs.orderDiscount), refunds: cents(rs.taxable), cost: 1600, margin: acmeNet - 1600,
    });
    const zedNet = cents(m1.taxable) + 1500;
    expect(rows[zed]).toEqual({ key: String(zed), label: 'Zed', orders: 2, quantity: 3, net: zedNet, tax: 0, gross: zedNet, discount: cents(m1.orderDiscount), refunds: 0, cost: 900, margin: zedNet - 900 });
    expect(rows.none).toEqual({ key: null, label: '', orders: 1, quantity: 3, net: 375, tax: 0, gross: 375, discount: 0, refunds: 0, cost: 120, margin: 255 });
    expectGroupsAddUp(r, day);
  });

  it('refunds and discounts by cashier: the discount under who sold, the refund under who gave it back', async () => {
    const r = await report('cashier');
    const rs = R.items[0];
    const rows = byKey(r.rows);
    expect(Object.keys(rows).sort()).toEqual([String(adminId), String(mgrId)].sort());
    expect(rows[adminId]).toMatchObject({ orders: 1, quantity: 3, net: 4000, gross: 4000, discount: 750, refunds: 0, cost: 1900 });
    expect(rows[mgrId]).toMatchObject({
      label: 'Mona', orders: 1, quantity: 5, net: 4075 + cents(rs.taxable), gross: 4075 + cents(R.total),
      discount: cents(rs.discount + rs.orderDiscount), refunds: cents(R.total), cost: 800 + 120 + 600 - 800,
    });
    expectGroupsAddUp(r, day);
  });
});
