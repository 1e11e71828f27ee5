import { describe, expect, it } from 'vitest';
import { saleSchema } from './sale.ts';

const base = { items: [{ item: { id: 5, name: 'x', taxes: [] }, quantity: 1 }], store: 1, terminal: 2 };
const parse = (b: unknown) => saleSchema.safeParse(b);
const issues = (b: unknown) => {
  const r = parse(b);
  if (r.success) throw new Error('expected a failure');
  return r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('saleSchema: lenient on types', () => {
  it.each([
    ['whole product object', { item: { id: 5, basePrice: 3 } }, 5],
    ['IRI', { item: '/api/products/5' }, 5],
    ['plain id', { item: 5 }, 5],
    ['numeric string id', { item: '5' }, 5],
    ['product alias', { product: { '@id': '/api/products/5' } }, 5],
  ])('reads the line product from a %s', (_, line, id) => {
    const r = parse({ ...base, items: [{ ...line, quantity: '2' }] });
    expect(r.success && r.data.items[0].productId).toBe(id);
  });

  it('reads quantities, prices and discounts as numbers or strings, ignoring junk fields', () => {
    const r = parse({ ...base, items: [{ item: 5, quantity: '1.5', price: 2.99, discount: '', stock: 0, checked: true, taxes: [{ id: 1 }], variant: null }] });
    expect(r.success && r.data.items[0]).toEqual({ productId: 5, variantId: null, quantity: '1.5', price: '2.99', discount: null, discountTyped: false, taxIncluded: null, priceOverride: false });
    // A price typed on purpose is flagged (it needs 'price.override' on the server); otherwise the price is a hint.
    const typed = parse({ ...base, items: [{ item: 5, quantity: 1, price: '1.00', priceOverride: true }] });
    expect(typed.success && typed.data.items[0].priceOverride).toBe(true);
  });

  it('maps the status: default Completed, Pending kept, isSuspended means On Hold whatever the status', () => {
    expect(parse(base).success && (parse(base) as any).data.status).toBe('Completed');
    expect((parse({ ...base, status: 'Pending' }) as any).data.status).toBe('Pending');
    expect((parse({ ...base, status: 'Completed', isSuspended: true }) as any).data).toMatchObject({ status: 'On Hold', isSuspended: true });
    expect((parse({ ...base, status: 'On Hold' }) as any).data.isSuspended).toBe(true);
  });

  it('reads the free-text customer name, or a customer reference', () => {
    expect((parse({ ...base, customer: ' Mr Smith ' }) as any).data).toMatchObject({ customerName: 'Mr Smith', customerId: null });
    expect((parse({ ...base, customer: '' }) as any).data).toMatchObject({ customerName: null, customerId: null });
    expect((parse({ ...base, customer: '/api/customers/7' }) as any).data).toMatchObject({ customerName: null, customerId: 7 });
    expect((parse({ ...base, customer: { id: 7, name: 'A' } }) as any).data).toMatchObject({ customerId: 7 });
    expect((parse({ ...base, customerId: 3, customer: 'Walk in' }) as any).data).toMatchObject({ customerId: 3, customerName: 'Walk in' });
  });

  it('reads payments, discount, tax and the client id', () => {
    const r = parse({
      ...base, payments: [{ received: '12.50', total: 10, due: 2.5, type: { id: 1, name: 'Cash' } }],
      discount: { id: 2, rate: 5 }, discountAmount: 1.5, discountRateType: 'fixed', tax: '/api/taxes/3', adjustment: -2.5, uuid: 'abc',
    });
    expect(r.success && r.data).toMatchObject({
      payments: [{ received: '12.50', typed: true, typeId: 1 }], discountId: 2, discountAmount: '1.5', discountRateType: 'fixed', taxId: 3, adjustment: '-2.5', clientId: 'abc',
    });
  });
});

describe('saleSchema: strict on meaning', () => {
  it.each([
    ['no items', { ...base, items: [] }, [{ path: 'items', message: 'Please add some items' }]],
    ['missing items', { store: 1, terminal: 1 }, [{ path: 'items', message: 'Please add some items' }]],
    ['zero quantity', { ...base, items: [{ item: 5, quantity: 0 }] }, [{ path: 'items.0.quantity', message: 'Quantity cannot be less then 1' }]],
    ['blank quantity', { ...base, items: [{ item: 5, quantity: '' }] }, [{ path: 'items.0.quantity', message: 'This value should not be blank.' }]],
    ['junk quantity', { ...base, items: [{ item: 5, quantity: '1,5' }] }, [{ path: 'items.0.quantity', message: 'This value should be a valid number.' }]],
    ['no product', { ...base, items: [{ quantity: 1 }] }, [{ path: 'items.0.item', message: 'This value should not be blank.' }]],
    ['bad product ref', { ...base, items: [{ item: '/api/products/x', quantity: 1 }] }, [{ path: 'items.0.item', message: 'This value is not a valid reference.' }]],
    ['negative line without a return', { ...base, items: [{ item: 5, quantity: -1 }] }, [{ path: 'items.0.quantity', message: 'A negative quantity is a return: choose the order being refunded (refundingFrom)' }]],
    ['unknown status', { ...base, status: 'Returned' }, [{ path: 'status', message: 'The value you selected is not a valid choice.' }]],
    ['bad rate type', { ...base, discountRateType: 'half' }, [{ path: 'discountRateType', message: 'The value you selected is not a valid choice.' }]],
    ['no store', { ...base, store: undefined }, [{ path: 'store', message: 'This value should not be blank.' }]],
    ['payment without type', { ...base, payments: [{ received: 1 }] }, [{ path: 'payments.0.type', message: 'This value should not be blank.' }]],
    ['payment without amount', { ...base, payments: [{ received: '', type: 1 }] }, [{ path: 'payments.0.received', message: 'This value should not be blank.' }]],
  ])('%s', (_, b, expected) => {
    expect(issues(b)).toEqual(expected);
  });

  it('a negative line is accepted with refundingFrom', () => {
    expect(parse({ ...base, items: [{ item: 5, quantity: -2 }], refundingFrom: 9 }).success).toBe(true);
  });
});
