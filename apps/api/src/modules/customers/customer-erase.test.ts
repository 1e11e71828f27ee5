/**
 * Issue 21.6: a customer erased on request. Personal data removed, their sales kept (anonymous),
 * their balance kept; only with 'customer.creditTerms'; the audit entry names no person. And
 * customers per store or shared across the chain, as a setting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { auditLog, customer, order } from '../../db/schema/index.ts';
import { staffShop } from '../staff/staff.fixtures.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
});
afterAll(async () => { await t?.close(); });

describe('erasing a customer', () => {
  it('removes the personal data, keeps the sales anonymous; a cashier may not do it', async () => {
    const made = await s.inject('POST', '/api/customers', s.owner, { name: 'Yasmin Haddad', phone: '0555 123 456', email: 'yasmin@example.com', cnic: '12345-6789', address: '4 Cedar Road', birthday: '1990-04-02' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().customer.id;
    const sale = await s.inject('POST', '/api/admin/order/create', s.cashier, { ...s.sale(), customer: `/api/customers/${id}` });
    expect(sale.statusCode, sale.body).toBe(201);
    await s.db.update(order).set({ customerName: 'Yasmin Haddad' }).where(eq(order.id, sale.json().order.id));

    expect((await s.inject('POST', `/api/customers/${id}/erase`, s.cashier)).statusCode).toBe(403);
    expect((await s.db.select().from(customer).where(eq(customer.id, id)))[0].name).toBe('Yasmin Haddad');

    const res = await s.inject('POST', `/api/customers/${id}/erase`, s.owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ erased: true, sales: 1 });
    const [row] = await s.db.select().from(customer).where(eq(customer.id, id));
    expect(row).toMatchObject({ name: `Erased customer #${id}`, phone: null, email: null, cnic: null, address: null, birthday: null });
    expect(row.erasedAt).toBeInstanceOf(Date);
    const [o] = await s.db.select().from(order).where(eq(order.id, sale.json().order.id));
    expect(o).toMatchObject({ customerId: id, customerName: null, total: '10.000' });
    const entries = await s.db.select().from(auditLog).where(eq(auditLog.action, 'customer.erased'));
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries)).not.toMatch(/Yasmin|Haddad|0555|12345/);
    expect((await s.inject('POST', '/api/customers/999999/erase', s.owner)).statusCode).toBe(404);
  });
});

describe('per-store customers (setting customers_per_store)', () => {
  it("a store's customer is hidden from another store's staff while the setting is on; shared when off", async () => {
    const mall = await s.staffUser('mallmanager', 'manager', undefined, [2]);
    const made = await s.inject('POST', '/api/customers', mall.headers, { name: 'Harbour Regular', phone: '0700 000 111' });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().customer.id;
    const seen = async () => (await s.inject('GET', `/api/customers/${id}`, s.cashier)).statusCode;
    expect(await seen()).toBe(200); // shared by default, as before

    const on = await s.inject('POST', '/api/settings', s.owner, { name: 'customers_per_store', value: 'true' });
    expect(on.statusCode, on.body).toBe(201);
    expect(await seen()).toBe(404);
    const list = (await s.inject('GET', '/api/customers?itemsPerPage=1000', s.cashier)).json()['hydra:member'];
    expect(list.map((c: any) => c.id)).not.toContain(id);
    expect((await s.inject('PUT', `/api/customers/${id}`, s.cashier, { name: 'Renamed' })).statusCode).toBe(404);
    const sale = await s.inject('POST', '/api/admin/order/create', s.cashier, { ...s.sale(), customer: `/api/customers/${id}` });
    expect(sale.statusCode).toBe(422);
    expect(sale.json().violations[0].propertyPath).toBe('customerId');
    // Their own store and the owner still see them; customers from before (no store) stay shared.
    expect((await s.inject('GET', `/api/customers/${id}`, mall.headers)).statusCode).toBe(200);
    expect((await s.inject('GET', `/api/customers/${id}`, s.owner)).statusCode).toBe(200);

    await s.inject('PUT', `/api/settings/${on.json().id}`, s.owner, { value: 'false' });
    expect(await seen()).toBe(200);
  });
});
