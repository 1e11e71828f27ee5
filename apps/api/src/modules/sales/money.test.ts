/**
 * Issue 19 through the real API: tax on what is charged, currency minor units, tendered / change /
 * cash rounding, the sign rule, partial refunds to the original tenders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { order, orderProduct, paymentType, product, productTax, store, tax, terminal } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let main: number;
let t1: number;
const pay: Record<'cash' | 'card', number> = {} as any;
/** 10.75 taxed 8.25 %; 4.00 untaxed; both unmanaged. */
let P: number;
let Q: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  const db = t.app.db;
  main = (await db.select().from(store).orderBy(asc(store.id)))[0].id;
  t1 = (await db.select().from(terminal).orderBy(asc(terminal.id))).find((x) => x.code === 'T1')!.id;
  for (const p of await db.select().from(paymentType)) {
    if (p.type === 'cash') pay.cash = p.id; else if (p.type !== 'credit') pay.card = p.id;
  }
  const [x] = await db.insert(tax).values({ name: 'Sales tax', rate: '8.25' }).returning();
  const products = await db.select().from(product).orderBy(asc(product.id));
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  const plain = products.filter((p) => !taxed.has(p.id) && !p.manageInventory);
  [P, Q] = [plain[3].id, plain[4].id];
  await db.update(product).set({ basePrice: '10.75' }).where(eq(product.id, P));
  await db.update(product).set({ basePrice: '4.00' }).where(eq(product.id, Q));
  await db.insert(productTax).values({ productId: P, otherId: x.id });
});
afterAll(async () => { await t?.close(); });

type Headers = Record<string, string>;
const setStore = (settings: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: settings });
const create = (payload: unknown, headers: Headers = cashier) => t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers, payload: payload as any });
const line = (id: number, quantity: number | string, extra: Record<string, unknown> = {}) => ({ item: id, quantity, ...extra });
const sale = (items: unknown[], payments: unknown[], extra: Record<string, unknown> = {}) => ({ items, payments, store: main, terminal: t1, ...extra });
const get = async (id: number) => (await t.app.inject({ method: 'GET', url: `/api/admin/order/${id}`, headers: admin })).json().order;

describe('tax on what is charged', () => {
  it('10.75 at 8.25 % with a 10 % line discount, cash 20: tax on 9.67, tendered 20.00, change 9.53', async () => {
    await setStore({ legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 });
    const res = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: '20.00', type: pay.cash }], { total: 10.47 }));
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json().order;
    expect(o).toMatchObject({ total: 10.47, grandTotal: 10.47, taxMode: 'exclusive', rounding: 0 });
    expect(o.items[0]).toMatchObject({ price: 10.75, discount: 1.08, taxesTotal: 0.8, taxable: 9.67 });
    expect(o.taxBreakdown).toEqual([{ rate: 8.25, name: 'Sales tax', net: 9.67, tax: 0.8, gross: 10.47 }]);
    expect(o.payments[0]).toMatchObject({ total: 10.47, received: 20, tendered: 20, change: 9.53, due: 9.53 });
    expect(await get(o.id)).toMatchObject({ taxBreakdown: o.taxBreakdown, payments: [expect.objectContaining({ tendered: 20, change: 9.53 })] });
  });

  it('the order discount is spread over the lines by net value and lowers the tax', async () => {
    const made = await t.app.inject({ method: 'POST', url: '/api/discounts', headers: admin, payload: { name: 'Two off', rate: '2', rateType: 'fixed', scope: 'exact', stores: [main] } });
    expect(made.statusCode, made.body).toBe(201);
    const fixed = made.json();
    const res = await create(sale([line(P, 2), line(Q, 1)], [{ received: 30, type: pay.cash }], { discount: fixed.id }));
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json().order;
    // nets 21.50 and 4.00: shares 1.69 and 0.31; tax 8.25 % of 19.81 = 1.63
    expect(o.items.map((i: any) => [i.orderDiscount, i.taxable, i.taxesTotal])).toEqual([[1.69, 19.81, 1.63], [0.31, 3.69, 0]]);
    expect(o.total).toBe(25.13); // 21.50 + 4.00 - 2.00 + 1.63
    expect(o.discount.amount).toBe(2);
    expect(o.subTotal + (o.tax?.amount ?? 0) - o.discount.amount).toBeCloseTo(o.total, 10);
  });

  it('the old client sending the legacy figure is priced on the legacy base; a legacy store takes it as before', async () => {
    const old = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 20, type: pay.cash }], { total: 10.5569 }));
    expect(old.statusCode, old.body).toBe(201);
    expect(old.json().order).toMatchObject({ total: 10.56, taxMode: 'legacy' });
    const wrong = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 20, type: pay.cash }], { total: 11.5 }));
    expect(wrong.json().violations[0].propertyPath).toBe('total');
    await setStore({ legacyTaxBase: true });
    const legacy = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 20, type: pay.cash }], { total: 10.5569 }));
    expect(legacy.json().order).toMatchObject({ total: 10.56, taxMode: 'legacy' });
    await setStore({ legacyTaxBase: false });
  });

  it('inclusive prices: the tax is contained in the price', async () => {
    await setStore({ pricesIncludeTax: true });
    const res = await create(sale([line(P, 1)], [{ received: 10.75, type: pay.card }], { total: 10.75 }));
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json().order;
    expect(o).toMatchObject({ total: 10.75, taxMode: 'inclusive', itemTaxes: 0.82 });
    expect(o.taxBreakdown).toEqual([{ rate: 8.25, name: 'Sales tax', net: 9.93, tax: 0.82, gross: 10.75 }]);
    await setStore({ pricesIncludeTax: false });
  });
});

describe('payments: exact tenders, the sign rule, cash rounding', () => {
  it('refuses paying more than due by card, a negative payment on a sale, and a positive one on a refund', async () => {
    const over = await create(sale([line(Q, 1)], [{ received: 5, type: pay.card }]));
    expect(over.statusCode).toBe(422);
    expect(over.json().violations[0]).toMatchObject({ propertyPath: 'payments[0].received', message: expect.stringContaining('exact amount') });
    const negative = await create(sale([line(Q, 1)], [{ received: 10, type: pay.cash }, { received: -6, type: pay.cash }]));
    expect(negative.json().violations[0]).toMatchObject({ propertyPath: 'payments[1].received', message: 'A payment on a sale cannot be negative.' });
    const ok = await create(sale([line(Q, 1)], [{ received: 4, type: pay.cash }]));
    const positive = await create(sale([line(Q, -1)], [{ received: 4, type: pay.cash }], { refundingFrom: ok.json().order.id }));
    expect(positive.json().violations[0].propertyPath).toBe('payments[0].received');
  });

  it('cash rounding to 0.05 applies to the cash part only, as its own amount', async () => {
    await setStore({ cashRoundingStep: 5 });
    const cash = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 20, type: pay.cash }]));
    expect(cash.json().order).toMatchObject({ total: 10.47, rounding: -0.02, grandTotal: 10.45 });
    expect(cash.json().order.payments[0]).toMatchObject({ total: 10.45, tendered: 20, change: 9.55 });
    // Card pays 5.00 exactly; the cash part 5.47 rounds to 5.45.
    const split = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 5, type: pay.card }, { received: 10, type: pay.cash }]));
    expect(split.json().order).toMatchObject({ rounding: -0.02, grandTotal: 10.45 });
    expect(split.json().order.payments.map((p: any) => [p.total, p.change])).toEqual([[5, undefined], [5.45, 4.55]]);
    const card = await create(sale([line(P, 1, { discount: 1.08 })], [{ received: 10.47, type: pay.card }]));
    expect(card.json().order).toMatchObject({ rounding: 0, grandTotal: 10.47 });
    await setStore({ cashRoundingStep: 0 });
  });
});

describe('currency minor units', () => {
  it('a JPY store prices in whole yen and refuses a typed fraction of a yen', async () => {
    await setStore({ currency: 'JPY' });
    await t.app.db.update(product).set({ basePrice: '1500' }).where(eq(product.id, Q));
    const ok = await create(sale([line(Q, 3, { discount: '500' })], [{ received: '5000', type: pay.cash }]));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().order).toMatchObject({ total: 4000, store: { currency: 'JPY' } });
    expect(ok.json().order.payments[0]).toMatchObject({ tendered: 5000, change: 1000 });
    const bad = await create(sale([line(Q, 1, { discount: '0.5' })], [{ received: '1500', type: pay.cash }]));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations[0]).toMatchObject({ propertyPath: 'items[0].discount', message: expect.stringContaining('more decimals') });
    const badPay = await create(sale([line(Q, 1)], [{ received: '1500.5', type: pay.cash }]));
    expect(badPay.json().violations[0].propertyPath).toBe('payments[0].received');
  });

  it('a KWD store keeps three decimals exactly', async () => {
    await setStore({ currency: 'KWD' });
    await t.app.db.update(product).set({ basePrice: '1.234' }).where(eq(product.id, Q));
    const res = await create(sale([line(Q, 3)], [{ received: '5.000', type: pay.cash }], { total: 3.702 }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().order).toMatchObject({ total: 3.702 });
    expect(res.json().order.payments[0]).toMatchObject({ change: 1.298 });
    const [row] = await t.app.db.select().from(order).where(eq(order.id, res.json().order.id));
    expect(row.total).toBe('3.702');
    // The old client's float figures are rounded to the minor unit, never stored unrounded.
    const float = await create(sale([line(Q, 1)], [{ received: 1.2340000000000002, type: pay.card }]));
    expect(float.statusCode, float.body).toBe(201);
    expect(float.json().order.payments[0].received).toBe(1.234);
    await setStore({ currency: 'USD' });
    await t.app.db.update(product).set({ basePrice: '4.00' }).where(eq(product.id, Q));
  });
});

describe('partial refunds to the original tenders', () => {
  it('a two-line order refunded one line at a time, card to card, until nothing is left', async () => {
    const dayTotals = async () => (await t.app.inject({ method: 'GET', url: '/api/admin/order/list?itemsPerPage=1', headers: admin })).json().payments;
    const paidBefore = await dayTotals();
    const s = await create(sale([line(P, 2), line(Q, 1)], [{ received: 10, type: pay.card }, { received: 20, type: pay.cash }]));
    expect(s.statusCode, s.body).toBe(201);
    const o = s.json().order;
    expect(o.total).toBe(27.27); // 21.50 + 1.77 tax + 4.00
    expect(o.items.map((i: any) => [i.returnedQuantity, i.refundableQuantity])).toEqual([[0, 2], [0, 1]]);
    // Over-refund: the line named, nothing written.
    const before = (await t.app.db.select().from(order)).length;
    const over = await create(sale([line(P, -3)], [], { refundingFrom: o.id }));
    expect(over.statusCode).toBe(422);
    expect(over.json().violations[0].propertyPath).toBe('items[0].quantity');
    expect((await t.app.db.select().from(order)).length).toBe(before);
    // One of the two P, no payments sent: back to the tenders in proportion (card 10 of 27.27).
    const r1 = await create(sale([line(P, -1)], [], { refundingFrom: o.id, uuid: 'ret-1' }), admin);
    expect(r1.statusCode, r1.body).toBe(201);
    const ret = r1.json().order;
    expect(ret.total).toBe(-11.64); // -(10.75 + 0.89 of the 1.77 tax)
    expect(ret.payments.map((p: any) => [p.type.id, p.total])).toEqual([[pay.card, -4.27], [pay.cash, -7.37]]);
    // The same return retried with its client id is answered once.
    const retry = await create(sale([line(P, -1)], [], { refundingFrom: o.id, uuid: 'ret-1' }), admin);
    expect([retry.statusCode, retry.json().order.id]).toEqual([200, ret.id]);
    let now = await get(o.id);
    expect(now.status).toBe('Partially Returned');
    // The day's payment totals (what the closing expects in the drawer) keep what the partly returned
    // sale still took: card 10.00 - 4.27, cash 17.27 - 7.37 (its payments were left out before session 49).
    const after = await dayTotals();
    const added = (type: string) => Math.round(((after[type] ?? 0) - (paidBefore[type] ?? 0)) * 100);
    expect([added('credit card'), added('cash')]).toEqual([573, 990]);
    expect(now.items.map((i: any) => [i.returnedQuantity, i.refundableQuantity])).toEqual([[1, 1], [0, 1]]);
    // The old route returns everything left at once; all the refunds add up to the sale exactly.
    const rest = await t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${o.id}`, headers: cashier });
    expect(rest.statusCode, rest.body).toBe(201);
    expect(Math.round((ret.total + rest.json().order.total) * 100)).toBe(-2727);
    const refunded = [...ret.payments, ...rest.json().order.payments];
    const byType = (id: number) => Math.round(refunded.filter((p: any) => p.type.id === id).reduce((a: number, p: any) => a + p.total, 0) * 100);
    expect([byType(pay.card), byType(pay.cash)]).toEqual([-1000, -1727]);
    now = await get(o.id);
    expect(now.status).toBe('Returned');
    const again = await t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${o.id}`, headers: cashier });
    expect(again.statusCode).toBe(422);
    const lines = await t.app.db.select().from(orderProduct).where(eq(orderProduct.orderId, o.id)).orderBy(asc(orderProduct.id));
    expect(lines.map((l) => l.returnedQuantity)).toEqual(['2.000', '1.000']);
  });

  it('refunding a card payment in cash is for an administrator only', async () => {
    const s = (await create(sale([line(Q, 1)], [{ received: 4, type: pay.card }]))).json().order;
    const asCashier = await create(sale([line(Q, -1)], [{ received: -4, type: pay.cash }], { refundingFrom: s.id }));
    expect(asCashier.statusCode).toBe(403);
    const toCard = await create(sale([line(Q, -1)], [{ received: -5, type: pay.card }], { refundingFrom: s.id }));
    expect(toCard.statusCode).toBe(422);
    const asAdmin = await create(sale([line(Q, -1)], [{ received: -4, type: pay.cash }], { refundingFrom: s.id }), admin);
    expect(asAdmin.statusCode, asAdmin.body).toBe(201);
  });
});
