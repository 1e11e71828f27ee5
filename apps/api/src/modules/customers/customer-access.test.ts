import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

/**
 * Issue 21 point 6 (part), written as the attacks of a cashier: granting a customer credit,
 * raising their limit or opening balance, recording payments the customer never made, reading
 * national IDs. The administrator keeps every one of these.
 */
let t: TestApp;
let cashier: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  cashier = await t.login('cashier');
  admin = await t.login('admin');
});
afterAll(async () => { await t?.close(); });

const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as any });

async function adminCustomer(extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/customers', admin, { name: `C ${Math.random().toString(36).slice(2, 8)}`, phone: '555-0100', cnic: '35202-7654321-9', openingBalance: '0', allowCredit: false, creditLimit: '', ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().customer;
}

describe('a cashier cannot change a customer\'s credit terms', () => {
  it('cannot create a customer with credit, a limit or an opening balance (403 naming the field)', async () => {
    const base = { name: 'Mallory Friend', phone: '555-0666', cnic: '' };
    const credit = await call('POST', '/api/customers', cashier, { ...base, allowCredit: true });
    expect(credit.statusCode).toBe(403);
    expect(credit.json().message).toContain('allowCredit');
    const limit = await call('POST', '/api/customers', cashier, { ...base, creditLimit: '100000' });
    expect(limit.statusCode).toBe(403);
    expect(limit.json().message).toContain('creditLimit');
    const opening = await call('POST', '/api/customers', cashier, { ...base, openingBalance: '500' });
    expect(opening.statusCode).toBe(403);
    expect(opening.json().message).toContain('openingBalance');
    const list = (await call('GET', '/api/customers?name=Mallory', admin)).json()['hydra:member'];
    expect(list).toEqual([]);
  });

  it('cannot change them on an existing customer, with either field name; the customer is unchanged', async () => {
    const c = await adminCustomer({ allowCredit: true, creditLimit: '50' });
    for (const [body, field] of [
      [{ allowCreditSale: false }, 'allowCreditSale'],
      [{ allowCredit: false }, 'allowCredit'],
      [{ creditLimit: '99999' }, 'creditLimit'],
      [{ creditLimit: '' }, 'creditLimit'],
      [{ openingBalance: '-200' }, 'openingBalance'],
      [{ openingBalance: '10' }, 'openingBalance'],
    ] as const) {
      const res = await call('PUT', `/api/customers/${c.id}`, cashier, { name: 'Renamed', ...body });
      expect(res.statusCode, JSON.stringify(body)).toBeGreaterThanOrEqual(403);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.body).toContain(field);
    }
    const now = (await call('GET', `/api/customers/${c.id}`, admin)).json();
    expect(now).toMatchObject({ name: c.name, allowCreditSale: true, creditLimit: 50, openingBalance: 0 });
  });

  it('still edits other fields when the client echoes the unchanged terms back (the old client\'s PUT)', async () => {
    const c = await adminCustomer({ allowCredit: true, creditLimit: '50', openingBalance: '5' });
    const { cnic: _none, ...seen } = (await call('GET', `/api/customers/${c.id}`, cashier)).json();
    const res = await call('PUT', `/api/customers/${c.id}`, cashier, { ...seen, allowCredit: true, allowCreditSale: true, creditLimit: '50.00', openingBalance: '5', phone: '555-0999' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().customer).toMatchObject({ phone: '555-0999', allowCreditSale: true, creditLimit: 50 });
    const plain = await call('POST', '/api/customers', cashier, { name: 'Walk In', phone: '555-0001', cnic: '', openingBalance: '0', allowCredit: false, creditLimit: '' });
    expect(plain.statusCode).toBe(201);
  });

  it('a negative opening balance is refused, for the administrator too', async () => {
    const res = await call('POST', '/api/customers', admin, { name: 'Negative', phone: '555-0002', openingBalance: '-100' });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations.map((v: any) => v.propertyPath)).toEqual(['openingBalance']);
  });

  it('the administrator sets every term', async () => {
    const c = await adminCustomer();
    const res = await call('PUT', `/api/customers/${c.id}`, admin, { allowCredit: true, creditLimit: '300', openingBalance: '20' });
    expect(res.statusCode).toBe(200);
    expect(res.json().customer).toMatchObject({ allowCreditSale: true, creditLimit: 300, openingBalance: 20, balance: 20 });
  });
});

describe('customer payments', () => {
  it('a payment of zero or less is refused', async () => {
    const c = await adminCustomer({ openingBalance: '30' });
    for (const amount of ['0', '-5', -5]) {
      const res = await call('POST', '/api/customer_payments', admin, { amount, description: 'x', customer: c['@id'] });
      expect(res.statusCode).toBe(422);
      expect(res.json().violations[0].propertyPath).toBe('amount');
    }
  });

  it('a cashier cannot record more than the customer owes; up to it is fine', async () => {
    const c = await adminCustomer({ openingBalance: '30' });
    const over = await call('POST', '/api/customer_payments', cashier, { amount: '1000', description: 'fake', customer: c['@id'] });
    expect(over.statusCode).toBe(422);
    expect(over.json().violations[0]).toMatchObject({ propertyPath: 'amount' });
    expect(over.json().violations[0].message).toContain('30.00');
    expect((await call('POST', '/api/customer_payments', cashier, { amount: '20', description: 'part', customer: c['@id'] })).statusCode).toBe(201);
    expect((await call('POST', '/api/customer_payments', cashier, { amount: '10.01', description: 'over', customer: c['@id'] })).statusCode).toBe(422);
    expect((await call('POST', '/api/customer_payments', cashier, { amount: '10', description: 'rest', customer: c['@id'] })).statusCode).toBe(201);
    expect((await call('GET', `/api/customers/${c.id}`, admin)).json().balance).toBe(0);
    // The administrator may record an advance (a payment above what is owed).
    expect((await call('POST', '/api/customer_payments', admin, { amount: '15', description: 'advance', customer: c['@id'] })).statusCode).toBe(201);
  });
});

describe('national IDs are an administrator\'s to read', () => {
  it('a cashier reads customers without cnic, and cannot find one by it', async () => {
    const c = await adminCustomer({ cnic: '61101-5555555-3' });
    const one = (await call('GET', `/api/customers/${c.id}`, cashier)).json();
    expect(one.name).toBe(c.name);
    expect(one).not.toHaveProperty('cnic');
    const list = await call('GET', `/api/customers?itemsPerPage=100`, cashier);
    expect(list.body).not.toContain('61101-5555555-3');
    expect((await call('GET', '/api/customers?cnic=61101', cashier)).json()['hydra:member']).toEqual([]);
    expect((await call('GET', '/api/customers?q=61101', cashier)).json()['hydra:member']).toEqual([]);
    const edited = await call('PUT', `/api/customers/${c.id}`, cashier, { phone: '555-0303' });
    expect(edited.json().customer).not.toHaveProperty('cnic');
    expect((await call('GET', `/api/customers/${c.id}`, admin)).json().cnic).toBe('61101-5555555-3');
    expect((await call('GET', '/api/customers?cnic=61101', admin)).json()['hydra:member'].map((x: any) => x.id)).toEqual([c.id]);
  });
});
