import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { store, supplier, supplierPayment } from '../../db/schema/index.ts';

/**
 * Issue 19 point 7: a payment to a supplier is an amount in the store's currency. A KWD shop pays
 * 1.275 exactly; a USD shop's 1.005 is a 422 naming `amount`, and nothing is written.
 */
let t: TestApp;
let admin: Record<string, string>;
let firstStore: number;
let freshFarms: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  firstStore = (await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: admin })).json().user.stores[0].id;
  freshFarms = (await t.database.db.select().from(supplier).where(eq(supplier.name, 'Fresh Farms Ltd')))[0].id;
});
afterAll(async () => { await t?.close(); });

const pay = (amount: string) => t.app.inject({ method: 'POST', url: '/api/supplier_payments', headers: admin, payload: { amount, description: 'on account', supplier: freshFarms } });
const payments = async () => (await t.database.db.select().from(supplierPayment).where(eq(supplierPayment.supplierId, freshFarms))).map((p) => Number(p.amount));

describe('a supplier payment in the store\'s currency', () => {
  it('USD: a third decimal is refused naming the amount; two are stored', async () => {
    await t.database.db.update(store).set({ currency: 'USD' }).where(eq(store.id, firstStore));
    const before = await payments();
    const bad = await pay('1.005');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toEqual(['amount']);
    expect(await payments()).toEqual(before);
    expect((await pay('1.25')).statusCode).toBe(201);
    expect(await payments()).toEqual([...before, 1.25]);
  });

  it('KWD: the fils are kept', async () => {
    await t.database.db.update(store).set({ currency: 'KWD' }).where(eq(store.id, firstStore));
    const res = await pay('1.275');
    expect(res.statusCode, res.body).toBe(201);
    expect((await payments()).at(-1)).toBe(1.275);
  });
});
