import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { customer, customerPayment, store } from '../../db/schema/index.ts';

/**
 * Issue 19 point 7: a customer's opening balance, credit limit and payments are amounts in the
 * customer's store's currency. A KWD shop keeps its fils (three decimals); a USD shop refuses a
 * third decimal with a 422 naming the field, and nothing is written.
 */
let t: TestApp;
let admin: Record<string, string>;
let kwdStore: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const info = (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: admin })).json();
  kwdStore = info.user.stores[0].id;
});
afterAll(async () => { await t?.close(); });

const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, headers: admin, payload: payload as any });
const setCurrency = (currency: string) => t.database.db.update(store).set({ currency }).where(eq(store.id, kwdStore));

describe("a customer's amounts in the store's currency", () => {
  it('a KWD customer keeps three decimals: credit limit, opening balance and a payment', async () => {
    await setCurrency('KWD');
    const res = await post('/api/customers', { name: 'Kuwait Customer', phone: '555-0301', openingBalance: '2.125', allowCredit: true, creditLimit: '1.275' });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().customer.id;
    const [row] = await t.database.db.select().from(customer).where(eq(customer.id, id));
    expect([row.openingBalance, row.creditLimit].map(Number)).toEqual([2.125, 1.275]);
    const pay = await post('/api/customer_payments', { amount: '0.125', description: 'fils', customer: id });
    expect(pay.statusCode, pay.body).toBe(201);
    const [p] = await t.database.db.select().from(customerPayment).where(eq(customerPayment.customerId, id));
    expect(Number(p.amount)).toBe(0.125);
    const tooFine = await post('/api/customers', { name: 'Too Fine', phone: '555-0302', creditLimit: '1.2755' });
    expect(tooFine.statusCode).toBe(422);
    expect(tooFine.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['creditLimit']);
  });

  it('a USD customer refuses a third decimal, naming the field, and writes nothing', async () => {
    await setCurrency('USD');
    const before = (await t.database.db.select({ id: customer.id }).from(customer)).length;
    const res = await post('/api/customers', { name: 'Dollar Customer', phone: '555-0303', openingBalance: '10.125' });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['openingBalance']);
    expect((await t.database.db.select({ id: customer.id }).from(customer)).length).toBe(before);

    const ok = await post('/api/customers', { name: 'Dollar Customer', phone: '555-0303', openingBalance: '10.12' });
    expect(ok.statusCode, ok.body).toBe(201);
    const id = ok.json().customer.id;
    const edit = await t.app.inject({ method: 'PUT', url: `/api/customers/${id}`, headers: admin, payload: { creditLimit: '5.005' } });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['creditLimit']);
    const payments = (await t.database.db.select().from(customerPayment)).length;
    const pay = await post('/api/customer_payments', { amount: '1.005', description: 'too fine', customer: id });
    expect(pay.statusCode).toBe(422);
    expect(pay.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['amount']);
    expect((await t.database.db.select().from(customerPayment)).length).toBe(payments);
  });
});
