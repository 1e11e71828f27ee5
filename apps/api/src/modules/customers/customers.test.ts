import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { paymentType, product, productTax, store, terminal } from '../../db/schema/index.ts';

let t: TestApp;
let cashier: Record<string, string>;
let admin: Record<string, string>;
let main: number;
let mall: number;
let t1: number;
let m1: number;
let cash: typeof paymentType.$inferSelect;
let credit: typeof paymentType.$inferSelect;
/** An untaxed product at 10.00. */
let P: typeof product.$inferSelect;

beforeAll(async () => {
  t = await createTestApp();
  cashier = await t.login('cashier');
  admin = await t.login('admin');
  const db = t.app.db;
  const stores = await db.select().from(store).orderBy(asc(store.id));
  [main, mall] = [stores[0].id, stores[1].id];
  const terms = await db.select().from(terminal);
  t1 = terms.find((x) => x.code === 'T1')!.id;
  m1 = terms.find((x) => x.code === 'M1')!.id;
  const types = await db.select().from(paymentType);
  cash = types.find((x) => x.type === 'cash')!;
  credit = types.find((x) => x.type === 'credit')!;
  const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
  P = (await db.select().from(product).orderBy(asc(product.id))).find((p) => !taxed.has(p.id) && !p.manageInventory)!;
  await db.update(product).set({ basePrice: '10.00' }).where(eq(product.id, P.id));
});
afterAll(async () => { await t?.close(); });

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = cashier) =>
  t.app.inject({ method, url, payload: payload as any, headers });

/** A credit customer, as the back office creates it (credit terms are an administrator's: customer-access.test.ts). */
async function newCustomer(extra: Record<string, unknown> = {}) {
  const res = await inject('POST', '/api/customers', { name: `C ${Math.random().toString(36).slice(2, 8)}`, phone: '555-0000', cnic: '', openingBalance: '0', allowCredit: true, creditLimit: '', ...extra }, admin);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().customer;
}

async function sale(customerId: number, qty: number, payments: { received: number; type: unknown }[], headers = cashier, where = { store: main, terminal: t1 }) {
  const res = await inject('POST', '/api/admin/order/create', {
    items: [{ item: { id: P.id }, quantity: qty, price: 10, discount: 0, taxIncluded: true }],
    customerId, ...where, payments, total: qty * 10, adjustment: 0, status: 'Completed',
  }, headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
}

describe('customers', () => {
  it('creates a customer and answers {customer} with its figures', async () => {
    const res = await inject('POST', '/api/customers', { name: ' Zed Ali ', phone: '555-9', cnic: '35202-1', openingBalance: '12.50', allowCredit: true, creditLimit: '200' }, admin);
    expect(res.statusCode).toBe(201);
    const { customer } = res.json();
    expect(customer).toMatchObject({
      '@id': `/api/customers/${customer.id}`, '@type': 'Customer', name: 'Zed Ali', phone: '555-9', cnic: '35202-1',
      openingBalance: 12.5, allowCreditSale: true, creditLimit: 200, sale: 0, paid: 0, outstanding: 0, balance: 12.5, payments: [], orders: [],
    });
  });

  it('validates name, phone and numbers with the spec messages', async () => {
    const res = await inject('POST', '/api/customers', { name: '  ', openingBalance: 'abc', creditLimit: '-1' });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual(expect.arrayContaining([
      { propertyPath: 'name', message: 'This value should not be blank.' },
      { propertyPath: 'phone', message: 'This value should not be blank.' },
      { propertyPath: 'openingBalance', message: 'This value should be a valid number.' },
      { propertyPath: 'creditLimit', message: 'This value should be either positive or zero.' },
    ]));
    const email = await inject('POST', '/api/customers', { name: 'X', phone: '1', email: 'nope' });
    expect(email.json().violations).toEqual([{ propertyPath: 'email', message: 'This value is not a valid email address.' }]);
  });

  it('updates by merge; the form field allowCredit wins over the stale allowCreditSale; empty limit = no limit', async () => {
    const c = await newCustomer({ creditLimit: '50' });
    const res = await inject('PUT', `/api/customers/${c.id}`, { id: 999, name: 'Renamed', allowCredit: false, allowCreditSale: true, creditLimit: '' }, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().customer).toMatchObject({ id: c.id, name: 'Renamed', phone: '555-0000', allowCreditSale: false, creditLimit: null });
    expect((await inject('PUT', '/api/customers/999999', { name: 'x' })).statusCode).toBe(404);
    expect((await inject('PUT', `/api/customers/${c.id}`, { name: '' })).statusCode).toBe(422);
  });

  it('sale, paid, outstanding and balance follow credit sales, returns and payments exactly', async () => {
    const c = await newCustomer({ openingBalance: '25.10' });
    await sale(c.id, 3, [{ received: 30, type: credit }]); // credit 30
    await sale(c.id, 1, [{ received: 10, type: cash }]); // cash: not credit
    await sale(c.id, 2, [{ received: 5, type: credit }, { received: 15, type: cash }]); // credit 5
    const refunded = await sale(c.id, 1, [{ received: 10, type: credit }]); // credit 10, then returned
    expect((await inject('POST', `/api/admin/order/refund/${refunded.id}`)).statusCode).toBe(201);
    const held = await inject('POST', '/api/admin/order/create', {
      items: [{ item: P.id, quantity: 9 }], customerId: c.id, store: main, terminal: t1, isSuspended: true, payments: [{ received: 90, type: credit }],
    });
    expect(held.json().order.status).toBe('On Hold'); // held orders do not count
    const pay = await inject('POST', '/api/customer_payments', { amount: '7.35', description: 'part payment', customer: `/api/customers/${c.id}` });
    expect(pay.statusCode, pay.body).toBe(201);
    expect(pay.json()).toMatchObject({ '@type': 'CustomerPayment', amount: 7.35, description: 'part payment', order: null, createdAt: expect.any(String) });
    const res = await inject('GET', `/api/customers/${c.id}`);
    expect(res.json()).toMatchObject({ sale: 35, paid: 7.35, outstanding: 27.65, openingBalance: 25.1, balance: 52.75 });
    expect(res.json().payments.map((p: any) => p.amount)).toEqual([7.35]);
    const orders = res.json().orders;
    expect(orders).toHaveLength(6);
    expect(orders[0].customer).toBeNull(); // not repeated inside the customer's own ledger
    expect(orders.flatMap((o: any) => o.payments.map((p: any) => p.type.name))).toEqual(expect.arrayContaining(['Credit', 'Cash']));
    expect(orders.every((o: any) => Array.isArray(o.items) && o.items.length > 0)).toBe(true);
  });

  it('a payment may name one of the customer\'s orders (orderId is the order IRI)', async () => {
    const c = await newCustomer();
    const o = await sale(c.id, 1, [{ received: 10, type: credit }]);
    const res = await inject('POST', '/api/customer_payments', { amount: 10, description: 'settles #' + o.orderId, orderId: `/api/orders/${o.id}`, customer: `/api/customers/${c.id}` });
    expect(res.statusCode).toBe(201);
    expect(res.json().order).toMatchObject({ id: o.id, orderId: o.orderId });
    expect((await inject('GET', `/api/customers/${c.id}`)).json()).toMatchObject({ sale: 10, paid: 10, outstanding: 0 });
    const list = await inject('GET', `/api/customer_payments?customer=${c.id}`);
    expect(list.json()['hydra:member'].map((p: any) => p.amount)).toEqual([10]);
    const other = await newCustomer();
    const wrong = await inject('POST', '/api/customer_payments', { amount: 1, description: 'x', orderId: `/api/orders/${o.id}`, customer: `/api/customers/${other.id}` });
    expect(wrong.json().violations).toEqual([{ propertyPath: 'orderId', message: `'Order' with ID '${o.id}' not found` }]);
  });

  it('validates customer payments', async () => {
    const res = await inject('POST', '/api/customer_payments', { amount: '', description: '', customer: '/api/customers/999999' });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual(expect.arrayContaining([
      { propertyPath: 'amount', message: 'This value should not be blank.' },
      { propertyPath: 'description', message: 'This value should not be blank.' },
    ]));
    const zero = await inject('POST', '/api/customer_payments', { amount: '0', description: 'x', customer: '/api/customers/1' });
    expect(zero.json().violations).toEqual([{ propertyPath: 'amount', message: 'This value should be positive.' }]);
    const missing = await inject('POST', '/api/customer_payments', { amount: '5', description: 'x', customer: '/api/customers/999999' });
    expect(missing.json().violations).toEqual([{ propertyPath: 'customer', message: "'Customer' with ID '999999' not found" }]);
  });

  it('lists customers as a hydra collection with filters, paging and sorting', async () => {
    await newCustomer({ name: 'Listy One', phone: '777-1' });
    await newCustomer({ name: 'Listy Two', phone: '777-2' });
    const res = await inject('GET', '/api/customers?name=listy&page=1&itemsPerPage=1&order[name]=desc');
    expect(res.statusCode).toBe(200);
    const j = res.json();
    expect(j['hydra:totalItems']).toBe(2);
    expect(j['hydra:member'].map((c: any) => c.name)).toEqual(['Listy Two']);
    expect(j['hydra:member'][0]).toMatchObject({ sale: 0, paid: 0, outstanding: 0, payments: [], orders: [] });
    const byPhone = await inject('GET', '/api/customers?phone=777-1&=undefined&cnic=undefined');
    expect(byPhone.json()['hydra:member'].map((c: any) => c.name)).toEqual(['Listy One']);
  });

  it("the till's customer box: a cashier creates one with name and phone, and q finds it by name, phone or customer number", async () => {
    const made = await inject('POST', '/api/customers', { name: 'Quick Qadir', phone: '0300 555 7781', cnic: '', email: '', openingBalance: '0', allowCredit: false, creditLimit: null });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().customer.id as number;
    const names = async (q: string) => (await inject('GET', `/api/customers?q=${encodeURIComponent(q)}&itemsPerPage=8`)).json()['hydra:member'].map((c: any) => c.id);
    expect(await names('qadir')).toEqual([id]);
    expect(await names('555 778')).toEqual([id]);
    expect(await names(String(id))).toContain(id);
    expect(await names(String(id + 100000))).not.toContain(id);
  });

  it('embeds only orders of the caller\'s stores; figures stay shop-wide', async () => {
    const c = await newCustomer();
    await sale(c.id, 1, [{ received: 10, type: credit }], admin, { store: mall, terminal: m1 });
    const res = await inject('GET', `/api/customers/${c.id}`);
    expect(res.json()).toMatchObject({ sale: 10, outstanding: 10, orders: [] });
    const asAdmin = await inject('GET', `/api/customers/${c.id}`, undefined, admin);
    expect(asAdmin.json().orders).toHaveLength(1);
  });
});
