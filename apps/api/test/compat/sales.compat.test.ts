/**
 * Replay of the reference client's sale calls, sections 2.5, 2.6, 2.10 and 2.11 of
 * reference-client.md: sales as it builds them (whole cached objects, float totals, `received`/`due`),
 * hold → unsuspend (a bodiless DELETE with a JSON content type), pending orders settled by PUT,
 * history and closing lists, find, refund and restore (bodiless POSTs), customers and their
 * payments, expenses and the day closing. Checked on the fields that client reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydra, ok, startOldClientServer, type OldClient, type OldClientServer } from './old-client.ts';

let s: OldClientServer;
let cashier: OldClient;
let admin: OldClient;
/** The till's cached copies (GET /api/products, /api/payments), as the client keeps them. */
let plain: any;
let other: any;
let cash: any;
let card: any;
const STORE = 1;
const TERMINAL = 1;

beforeAll(async () => {
  s = await startOldClientServer();
  cashier = await s.signIn('cashier');
  admin = await s.signIn('admin', 'admin', 'ROLE_ADMIN');
  const products = hydra(await cashier.call('GET', '/api/products?itemsPerPage=100&page=1&isActive=true'), 'products');
  // Plain lines (no tax, no variants, no price rule) keep the client's float total exact.
  const simple = products.filter((p) => p.taxes.length === 0 && p.variants.length === 0 && p.prices.length === 0);
  [plain, other] = simple.slice(1, 3);
  const types = hydra(await cashier.call('GET', '/api/payments?isActive=true'), 'payments');
  cash = types.find((p) => p.type === 'cash');
  card = types.find((p) => p.type === 'credit card');
});
afterAll(async () => { await s?.close(); });

/** A cart line as the client sends it: the whole cached product, numbers, `stock: 0`. */
const line = (p: any, quantity: number | string, sign = 1) => ({
  item: p, variant: undefined, quantity: sign * Number(quantity), price: p.basePrice, discount: 0, taxIncluded: true, taxes: p.taxes, stock: 0, checked: false,
});
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The `sale.inline` body: undefined fields drop out of JSON as they do in the browser. */
function saleBody(items: any[], payments: any[], extra: Record<string, unknown> = {}) {
  const total = round2(items.reduce((sum, l) => sum + l.price * l.quantity, 0));
  return {
    items, discount: undefined, tax: undefined, taxAmount: 0, discountAmount: 0, discountRateType: undefined,
    payments, customerId: undefined, customer: '', refundingFrom: undefined, notes: undefined,
    store: STORE, terminal: TERMINAL, total, adjustment: 0, isSuspended: undefined, status: 'Completed', ...extra,
  };
}
const cashPayment = (total: number, received: number) => ({ received, total, due: round2(received - total), type: cash });

function expectOrderShape(order: any) {
  expect(order).toMatchObject({ id: expect.any(Number), status: expect.any(String), createdAt: expect.any(String), payments: expect.any(Array), items: expect.any(Array) });
  expect(Number.isNaN(Date.parse(order.createdAt))).toBe(false);
  for (const item of order.items) {
    expect(item).toMatchObject({ product: { id: expect.any(Number), name: expect.any(String) }, quantity: expect.any(Number), price: expect.any(Number), discount: expect.any(Number), taxesTotal: expect.any(Number) });
  }
  for (const p of order.payments) expect(p).toMatchObject({ total: expect.any(Number), received: expect.any(Number), due: expect.any(Number) });
}

describe('2.5 sales', () => {
  it('a cash sale and a split sale answer {order}; Completed means the receipt prints', async () => {
    const items = [line(plain, 2), line(other, 1)];
    const total = round2(plain.basePrice * 2 + other.basePrice);
    const single = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [cashPayment(total, Math.ceil(total) + 5)])), 'cash sale');
    expectOrderShape(single.order);
    expect(single.order).toMatchObject({ status: 'Completed', orderId: expect.any(Number) });
    const half = round2(total / 2);
    const split = [{ total, received: half, due: round2(half - total), type: cash }, { total, received: round2(total - half), due: round2(-half), type: card }];
    const splitSale = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, split)), 'split sale');
    expect(splitSale.order.status).toBe('Completed');
    expect(splitSale.order.payments).toHaveLength(2);
  });

  it('hold → unsuspend: the held order is On Hold, and DELETE with no body (JSON content type) answers JSON', async () => {
    const items = [line(plain, 1)];
    const held = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [], { isSuspended: true })), 'hold').order;
    expect(held.status).toBe('On Hold');
    const history = ok(await cashier.call('GET', `/api/admin/order/list?page=1&itemsPerPage=10&${encodeURIComponent('order[orderId]')}=desc&q=${encodeURIComponent('On Hold')}`), 'history');
    expect(history.list.some((o: any) => o.id === held.id)).toBe(true);
    const unsuspend = ok(await cashier.call('DELETE', `/api/admin/order/${held.id}`), 'unsuspend');
    expect(unsuspend.order.items[0].product.id).toBe(plain.id);
    expect((await cashier.call('GET', `/api/admin/order/${held.id}`)).status).toBe(404);
  });

  it('payment mode: a Pending order is polled by store and terminal, then settled by PUT edit', async () => {
    const items = [line(other, 3)];
    const total = round2(other.basePrice * 3);
    const pending = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [], { status: 'Pending' })), 'pending').order;
    expect(pending.status).toBe('Pending');
    const polled = hydra(await cashier.call('GET', `/api/orders?status=Pending&store.id=${STORE}&terminal.id=${TERMINAL}&itemsPerPage=100`), 'poll');
    const row = polled.find((o) => o.id === pending.id);
    expect(row).toMatchObject({ terminal: { code: expect.any(String) }, store: { name: expect.any(String) }, user: { displayName: expect.any(String) }, payments: expect.any(Array) });
    expect(row.items[0].product.id).toBe(other.id);
    const settled = ok(await cashier.call('PUT', `/api/admin/order/edit/${pending.id}`, saleBody(items, [cashPayment(total, total)])), 'settle');
    expect(settled.order).toMatchObject({ id: pending.id, status: 'Completed', orderId: expect.any(Number) });
  });

  it('history and closing lists: {list, total, payments} with a cash key summed over every matching order', async () => {
    const pad = (n: number) => String(n).padStart(2, '0');
    const d = new Date(Date.now() - 86_400_000);
    const from = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T00:00`;
    const history = ok(await cashier.call('GET', `/api/admin/order/list?page=1&itemsPerPage=10&${encodeURIComponent('order[orderId]')}=desc&q=&dateTimeFrom=${from}&dateTimeTo=2999-01-01T23:59`), 'history');
    expect(Array.isArray(history.list)).toBe(true);
    expect(typeof history.total).toBe('number');
    expectOrderShape(history.list[0]);
    const closing = ok(await cashier.call('GET', `/api/admin/order/list?dateTimeFrom=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&store=${STORE}&page=1&itemsPerPage=10`), 'closing list');
    expect(typeof closing.payments.cash).toBe('number');
    expect(closing.payments.cash).toBeGreaterThan(0);
  });

  it('refund from history: POST refund with no body, then the negated cart with refundingFrom is the same return', async () => {
    const items = [line(plain, 2)];
    const total = round2(plain.basePrice * 2);
    const sold = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [cashPayment(total, total)])), 'sale').order;
    const found = hydra(await cashier.call('GET', `/api/orders?orderId=${sold.orderId}`), 'find');
    expect(found.some((o) => o.id === sold.id)).toBe(true);
    // DynamicValue: the order read by its IRI, for its `orderId`.
    expect(ok(await cashier.call('GET', `/api/orders/${sold.id}?page=1&itemsPerPage=1`), 'by IRI').orderId).toBe(sold.orderId);
    const refund = ok(await cashier.call('POST', `/api/admin/order/refund/${sold.id}`), 'refund');
    expect(refund.order.returnedFrom).toMatchObject({ id: sold.id });
    const replay = ok(await cashier.call('POST', '/api/admin/order/create', saleBody([line(plain, 2, -1)], [cashPayment(-total, -total)], { refundingFrom: sold.id })), 'refund replay');
    expect(replay.order.id).toBe(refund.order.id);
    const original = ok(await cashier.call('GET', `/api/admin/order/${sold.id}`), 'original').order;
    expect(original.status).toBe('Returned');
  });

  it('delete and restore (admin): bodiless DELETE and POST restore answer JSON; dispatch too', async () => {
    const items = [line(other, 1)];
    const total = round2(other.basePrice);
    const sold = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [cashPayment(total, total)])), 'sale').order;
    const deleted = ok(await admin.call('DELETE', `/api/admin/order/${sold.id}`), 'delete');
    expect(deleted.order.status).toBe('Deleted');
    const restored = ok(await admin.call('POST', `/api/admin/order/restore/${sold.id}`), 'restore');
    expect(restored.order.status).toBe('Completed');
    const dispatched = ok(await cashier.call('POST', `/api/admin/order/dispatch/${sold.id}`), 'dispatch');
    expect(dispatched.order.status).toBe('Dispatched');
  });
});

describe('2.6 customers and their payments', () => {
  it('create and edit read response.customer; the table filters; a payment names the order by its IRI in `orderId`', async () => {
    // Credit terms are an administrator's (issue 21): the admin signs in at the till to open a credit account.
    const created = ok(await admin.call('POST', '/api/customers', { name: 'Replay Customer', phone: '555-7777', cnic: '', openingBalance: '0', allowCredit: true, creditLimit: '100' }), 'create');
    expect(created.customer).toMatchObject({ '@id': expect.any(String), id: expect.any(Number), name: 'Replay Customer' });
    const c = created.customer;
    // The cashier's edit echoes the terms unchanged (with the stale allowCreditSale): accepted.
    const edited = ok(await cashier.call('PUT', `/api/customers/${c.id}`, { ...c, id: c.id, allowCreditSale: false, allowCredit: true, name: 'Replay Customer 2', openingBalance: '0', creditLimit: '100' }), 'edit');
    expect(edited.customer).toMatchObject({ name: 'Replay Customer 2', allowCreditSale: true });
    const rows = hydra(await cashier.call('GET', `/api/customers?name=Replay&page=1&itemsPerPage=10&${encodeURIComponent('order[openingBalance]')}=asc`), 'customers');
    expect(rows[0]).toMatchObject({ '@id': c['@id'], sale: expect.any(Number), paid: expect.any(Number), outstanding: expect.any(Number), payments: expect.any(Array), orders: expect.any(Array) });
    const items = [line(plain, 1)];
    const total = round2(plain.basePrice);
    const credit = hydra(await cashier.call('GET', '/api/payments?isActive=true'), 'payments').find((p) => p.type === 'credit');
    const sale = ok(await cashier.call('POST', '/api/admin/order/create', saleBody(items, [{ total, received: total, due: 0, type: credit }], { customerId: c.id })), 'credit sale').order;
    const payment = ok(await cashier.call('POST', '/api/customer_payments', { amount: String(total), description: 'Paid at the counter', orderId: sale['@id'] ?? `/api/orders/${sale.id}`, customer: c['@id'] }), 'payment');
    expect(payment).toMatchObject({ amount: total, description: 'Paid at the counter', createdAt: expect.any(String) });
  });
});

describe('2.10 expenses and 2.11 the day closing', () => {
  it('expenses: create with a store id, list with `store=undefined` (no store) and with the store', async () => {
    ok(await cashier.call('POST', '/api/admin/expense/create', { description: 'Tape', amount: '3.50', dateTime: new Date().toISOString(), store: STORE }), 'expense');
    for (const store of ['undefined', String(STORE)]) {
      const body = ok(await cashier.call('GET', `/api/admin/expense/list?dateTimeFrom=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}&dateTimeTo=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}&orderBy=id&orderMode=DESC&store=${store}`), `expenses store=${store}`);
      expect(body.list.find((e: any) => e.description === 'Tape')).toMatchObject({ amount: 3.5, createdAt: expect.any(String) });
    }
  });

  it('opened → start day → update → close day, with the misspelt dateTe and the payments copied from the list', async () => {
    const opened = ok(await cashier.call('GET', `/api/admin/closing/opened?store=${STORE}&terminal=${TERMINAL}`), 'opened').closing;
    expect(opened).toHaveProperty('openingBalance');
    expect(opened.createdAt).toMatchObject({ datetime: expect.any(String) });
    const base = { id: opened.id, cashAdded: 0, cashWithdrawn: 0, expenses: 0, data: {}, terminal: TERMINAL };
    const started = ok(await cashier.call('POST', `/api/admin/closing/${opened.id}`, { ...base, openingBalance: '100', updateOnly: true }), 'start').closing;
    expect(started.openingBalance).toBe(100);
    const list = ok(await cashier.call('GET', `/api/admin/order/list?dateTimeFrom=${encodeURIComponent(started.dateFrom.datetime)}&store=${STORE}&page=1&itemsPerPage=10`), 'list');
    const data = Object.fromEntries(Object.entries(list.payments).map(([k, v]) => [k, String(v)]));
    ok(await cashier.call('POST', `/api/admin/closing/${opened.id}`, { ...base, openingBalance: 100, cashAdded: '10', data, updateOnly: true, dateTe: { datetime: new Date().toISOString() }, closedBy: 2, closingBalance: 110 }), 'update');
    const closed = ok(await cashier.call('POST', `/api/admin/closing/${opened.id}`, { ...base, openingBalance: 100, cashAdded: 10, data, dateTe: { datetime: new Date().toISOString() }, closedBy: 2, closingBalance: 110, closedAt: { datetime: new Date().toISOString() } }), 'close').closing;
    expect(closed.closedAt).toMatchObject({ datetime: expect.any(String) });
  });
});
