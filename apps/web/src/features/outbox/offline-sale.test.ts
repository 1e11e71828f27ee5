import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '@/test/render';
import type { Customer } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/lib/sale-body';
import { saveOrder } from '@/features/payment/api/save-order';
import { OutboxDb } from './outbox-db';
import { Outbox } from './outbox';
import { setOutbox } from './outbox-app';
import { type SendSale } from './outbox-rules';
import { signIn } from '@/features/list-table/testing/fake-api';
import { resetSession } from '@/lib/session';

const fetchMock = vi.fn<typeof fetch>();
let box: Outbox;
let n = 0;
const send = vi.fn<SendSale>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  send.mockReset();
  send.mockRejectedValue(new TypeError('Failed to fetch'));
  box = new Outbox({ db: new OutboxDb(`offline-sale-${++n}`), send, locks: null });
  setOutbox(box);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setOutbox(null);
});

const cash = { received: 20, total: 10.75, due: 9.25, type: { id: 1, name: 'Cash', type: 'cash' } };
const credit = (total: number) => ({ received: total, total, due: 0, type: { id: 3, name: 'Credit', type: 'credit' } });

function sale(patch: Partial<SaleBody> = {}): SaleBody {
  return {
    uuid: `u-${Math.random().toString(36).slice(2)}`,
    items: [{ item: { id: 1, '@id': '/api/products/1', name: 'Fresh Milk 1L' }, variant: null, quantity: 1, price: 10.75, discount: 0, taxIncluded: false, discountIncluded: false, taxes: [] }],
    discount: null, tax: null, taxAmount: 0, discountAmount: null, discountRateType: null,
    payments: [cash], customerId: null, customer: null, refundingFrom: null, notes: null,
    store: 1, terminal: 1, total: 10.75, adjustment: 0, isSuspended: false, status: 'Completed',
    ...patch,
  };
}

const offline = () => fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

describe('saveOrder offline', () => {
  it('no answer: a new completed sale is queued and answered with a provisional order (no number, local reference)', async () => {
    offline();
    const body = sale();
    const { order } = await saveOrder(body, null);
    expect(order.offline).toBe(true);
    expect(order.orderId).toBeNull();
    expect(order.localRef).toMatch(/^T1-\d{8}-001$/);
    expect(order.status).toBe('Completed');
    const row = await box.db.sale(body.uuid);
    expect(row?.body).toEqual(body);
    expect(row?.status).toBe('pending');
  });

  it('502/503/504 count as unreachable; a 422 or a 500 from the server is an answer and is thrown', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'Bad gateway' }, 502));
    expect((await saveOrder(sale(), null)).order.offline).toBe(true);
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'VALIDATION_FAILED', message: 'Validation failed', violations: [] }, 422));
    await expect(saveOrder(sale(), null)).rejects.toMatchObject({ status: 422 });
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'INTERNAL', message: 'Internal error' }, 500));
    await expect(saveOrder(sale(), null)).rejects.toMatchObject({ status: 500 });
    expect(await box.db.count()).toBe(1);
  });

  it('a hold is queued (On Hold); a pending order and the settle of a running order need the server', async () => {
    offline();
    const held = await saveOrder(sale({ isSuspended: true, payments: [] }), null);
    expect(held.order.status).toBe('On Hold');
    await expect(saveOrder(sale({ status: 'Pending' }), null)).rejects.toMatchObject({ name: 'NetworkError' });
    await expect(saveOrder(sale(), 42)).rejects.toMatchObject({ name: 'NetworkError' });
    expect(await box.db.count()).toBe(1);
  });

  it('credit offline only within the cached balance and limit, counting credit still in the outbox', async () => {
    offline();
    const customer: Customer = { id: 7, name: 'Carla Diaz', allowCreditSale: true, creditLimit: 50, outstanding: 20, openingBalance: 0 };
    const first = await saveOrder(sale({ customerId: 7, payments: [credit(25)], total: 25 }), null, { customer });
    expect(first.order.offline).toBe(true);
    // 20 owed + 25 queued + 10 = 55 > 50.
    await expect(saveOrder(sale({ customerId: 7, payments: [credit(10)], total: 10 }), null, { customer })).rejects.toThrow(/credit limit of \$50\.00 exceeded/i);
    await expect(saveOrder(sale({ customerId: 7, payments: [credit(5)], total: 5 }), null, { customer })).resolves.toMatchObject({ order: { offline: true } });
    await expect(saveOrder(sale({ customerId: 8, payments: [credit(5)], total: 5 }), null, { customer: { id: 8, name: 'No credit', allowCreditSale: false } })).rejects.toThrow('Credit sales are not allowed for this customer');
    expect(await box.db.count()).toBe(2);
  });

  it('in a KWD store the offline credit check and the queued total keep the fils (issue 19)', async () => {
    signIn({ currency: 'KWD', locale: 'en-US' });
    try {
      offline();
      const customer: Customer = { id: 9, name: 'Fils', allowCreditSale: true, creditLimit: 1.5, outstanding: 1.275, openingBalance: 0 };
      // 1.275 owed + 0.226 = 1.501 > 1.500; + 0.225 is exactly the limit (in hundredths both would read 1.51).
      await expect(saveOrder(sale({ customerId: 9, payments: [credit(0.226)], total: 0.226 }), null, { customer })).rejects.toThrow(/credit limit of KWD\s1\.500 exceeded \(balance would be KWD\s1\.501/);
      await expect(saveOrder(sale({ customerId: 9, payments: [credit(0.225)], total: 0.225 }), null, { customer })).resolves.toMatchObject({ order: { offline: true } });
      const [row] = await box.db.sales();
      expect(row.summary?.total).toBe(0.225);
    } finally {
      resetSession();
    }
  });
});
