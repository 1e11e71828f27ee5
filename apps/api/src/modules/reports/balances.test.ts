/**
 * Issue 25.6: customer and supplier balances with ageing. Payments settle the oldest debts first;
 * what is left of each debt is aged by its date: current, 1–30, 31–60, 61–90, over 90 days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { customer, order, paymentType, product, productTax, purchase, store, supplier, supplierPayment, terminal, userAccount } from '../../db/schema/index.ts';
import { parseCsv } from '../../lib/csv.ts';

let t: TestApp;
let admin: Record<string, string>;
let main: number;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  [main] = (await t.app.db.select().from(store).orderBy(asc(store.id))).map((s) => s.id);
  await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { timeZone: 'UTC' } });
});
afterAll(async () => { await t?.close(); });

describe('customer balances', () => {
  it('ages what is left after payments, oldest first', async () => {
    const db = t.app.db;
    const terminalId = (await db.select().from(terminal)).find((x) => x.code === 'T1')!.id;
    const credit = (await db.select().from(paymentType)).find((p) => p.type === 'credit')!.id;
    const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
    const P = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !taxed.has(p.id) && !p.manageInventory)[3].id;
    await db.update(product).set({ basePrice: '5.00' }).where(eq(product.id, P));
    const aisha = (await db.select().from(customer)).find((c) => c.name === 'Aisha Khan')!.id;
    const onCredit = async (quantity: number, daysAgo: number) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: admin, payload: {
        items: [{ item: P, quantity }], payments: [{ received: 5 * quantity, type: credit }], customerId: aisha, store: main, terminal: terminalId,
      } });
      expect(res.statusCode, res.body).toBe(201);
      await db.update(order).set({ createdAt: new Date(Date.now() - daysAgo * DAY) }).where(eq(order.id, res.json().order.id));
    };
    await onCredit(10, 120); // 50.00
    await onCredit(6, 75); // 30.00
    await onCredit(4, 45); // 20.00
    await onCredit(2, 10); // 10.00
    await onCredit(1, 0); // 5.00
    const paid = await t.app.inject({ method: 'POST', url: '/api/customer_payments', headers: admin, payload: { amount: 60, description: 'cash', customer: aisha } });
    expect(paid.statusCode, paid.body).toBe(201);

    const res = await t.app.inject({ method: 'GET', url: `/api/reports/customers?store=${main}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.buckets).toEqual(['current', 'days1to30', 'days31to60', 'days61to90', 'over90']);
    // 60.00 paid: the 120-day debt (50.00) and 10.00 of the 75-day one.
    expect(r.rows.find((x: any) => x.key === String(aisha))).toMatchObject({
      label: 'Aisha Khan', balance: 5500, current: 500, days1to30: 1000, days31to60: 2000, days61to90: 2000, over90: 0,
    });
    // The demo's Bilal Ahmed owes his opening balance of 25.00, from today.
    expect(r.rows.find((x: any) => x.label === 'Bilal Ahmed')).toMatchObject({ balance: 2500, current: 2500 });
    expect(r.totals.balance).toBe(r.rows.reduce((s: number, x: any) => s + x.balance, 0));
    // The customer page's own figure agrees.
    const page = (await t.app.inject({ method: 'GET', url: `/api/customers/${aisha}`, headers: admin })).json();
    expect(page.balance ?? page.customer?.balance).toBe(55);

    const csv = parseCsv((await t.app.inject({ method: 'GET', url: `/api/reports/customers?store=${main}&format=csv`, headers: admin })).body).rows;
    expect(csv[0]).toEqual(['ID', 'Name', 'Phone', 'Balance', 'Current', '1-30 days', '31-60 days', '61-90 days', 'Over 90 days']);
    expect(csv.find((x) => x[1] === 'Aisha Khan')!.slice(3)).toEqual(['55.00', '5.00', '10.00', '20.00', '20.00', '0.00']);
  });
});

describe('supplier balances', () => {
  it('opening balance and credit purchases less payments, aged', async () => {
    const db = t.app.db;
    const credit = (await db.select().from(paymentType)).find((p) => p.type === 'credit')!.id;
    const [owner] = await db.select().from(userAccount).where(eq(userAccount.username, 'admin'));
    const [s] = await db.insert(supplier).values({ name: 'Ageing Supplies', openingBalance: '100' }).returning();
    await db.insert(purchase).values({ supplierId: s.id, storeId: main, purchasedById: owner.id, purchaseNumber: 'AGE-1', purchaseMode: 'direct',
      paymentTypeId: credit, total: '40', createdAt: new Date(Date.now() - 200 * DAY) });
    await db.insert(supplierPayment).values({ supplierId: s.id, amount: '30', description: 'part' });
    const res = await t.app.inject({ method: 'GET', url: `/api/reports/suppliers?store=${main}`, headers: admin });
    expect(res.statusCode, res.body).toBe(200);
    // Debts: 40.00 from 200 days ago, then 100.00 opening from today; 30.00 paid settles the oldest first.
    expect(res.json().rows.find((x: any) => x.key === String(s.id))).toMatchObject({ balance: 11000, current: 10000, over90: 1000, days1to30: 0 });
  });

  it('a cashier may not read balances', async () => {
    const cashier = await t.login('cashier');
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/suppliers', headers: cashier })).statusCode).toBe(403);
  });
});
