/** Creating a sale through POST /api/admin/order/create: the server prices it, answers what it wrote, and names each faulty field. */
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { customer, stockMovement } from '../../db/schema/index.ts';
import { t, admin, cashier, main, mall, t1, m1, pay, gst, disc, A, B, C, R, W, clothing, variants, cust, inject, body, cashPaid, create, storeQty, variantQty, assertLedgerMatchesStock, type Headers, type Line, openSalesShop } from './sales.fixtures.ts';

openSalesShop();

describe('create: the server prices the sale', () => {
  it('records a completed sale with its number, stock move, ledger row and OrderDto shape', async () => {
    const before = await storeQty(A.id);
    const res = await create(body([{ p: A, qty: 3 }], { total: 30, ...cashPaid(50) }));
    expect(res.statusCode).toBe(201);
    const { order: o } = res.json();
    expect(o).toMatchObject({
      '@id': `/api/orders/${o.id}`, orderId: expect.any(Number), status: 'Completed', isSuspended: false, isDeleted: false, isReturned: false,
      isDispatched: false, subTotal: 30, total: 30, adjustment: 0, itemTaxes: 0, notes: 'test', returnedFrom: null, customer: null,
      user: { username: 'cashier', displayName: 'Cashier' }, store: { id: main, name: 'Main Street' }, terminal: { id: t1, code: 'T1' },
      discount: null, tax: null,
    });
    expect(o.items).toHaveLength(1);
    expect(o.items[0]).toMatchObject({ quantity: 3, price: 10, discount: 0, taxesTotal: 0, taxes: [], variant: null });
    // The cashier has no 'cost.view': the cost is in the answer's shape, but null (issue 21.1).
    expect(o.items[0].product).toMatchObject({ id: A.id, basePrice: 10, cost: null, manageInventory: true, taxes: [], prices: [] });
    expect(o.items[0].cost).toBeNull();
    // Cash 50 for 30: the row settles 30 and hands back 20.
    expect(o.payments).toEqual([{ id: expect.any(Number), total: 30, received: 50, due: 20, tendered: 50, change: 20, type: { '@id': expect.any(String), '@type': 'Payment', id: pay.cash.id, name: 'Cash', type: 'cash', canHaveChangeDue: true } }]);
    expect(new Date(o.createdAt).toISOString()).toBe(o.createdAt);
    expect(await storeQty(A.id)).toBe(before - 3);
    const moves = await t.app.db.select().from(stockMovement).where(eq(stockMovement.orderId, o.id));
    expect(moves.map((m) => [m.productId, m.storeId, Number(m.quantity), m.reason])).toEqual([[A.id, main, -3, 'sale']]);
    await assertLedgerMatchesStock();
  });

  // Every formula of spec 4 / 9 as the server applies it (the maths itself is tested in @pos/domain).
  const cases: { name: string; lines: () => Line[]; extra?: () => Record<string, unknown>; expect: Record<string, unknown>; line0?: Record<string, unknown> }[] = [
    { name: 'price x quantity', lines: () => [{ p: A, qty: 2 }], expect: { subTotal: 20, itemTaxes: 0, total: 20 } },
    { name: 'fractional quantity', lines: () => [{ p: B, qty: '1.5', taxIncluded: false }], expect: { subTotal: 4.49, total: 4.49 }, line0: { quantity: 1.5, price: 2.99 } },
    { name: 'line discount', lines: () => [{ p: A, qty: 2, discount: 3.5 }], expect: { subTotal: 16.5, total: 16.5 }, line0: { discount: 3.5 } },
    { name: 'line discount capped at price x quantity', lines: () => [{ p: A, qty: 2, discount: 999 }], expect: { subTotal: 0, total: 0 }, line0: { discount: 20 } },
    { name: 'item tax on gross, before the line discount', lines: () => [{ p: B, qty: 3, discount: 1 }], expect: { subTotal: 9.41, itemTaxes: 1.44, total: 9.41 }, line0: { taxesTotal: 1.44, taxes: [expect.objectContaining({ id: expect.any(Number), rate: 16 })] } },
    { name: 'tax toggled off', lines: () => [{ p: B, qty: 3, taxIncluded: false }], expect: { subTotal: 8.97, itemTaxes: 0, total: 8.97 }, line0: { taxes: [] } },
    { name: 'order tax on the taxable amount', lines: () => [{ p: A, qty: 1 }, { p: B, qty: 1 }], extra: () => ({ tax: { ...gst } }), expect: { subTotal: 13.47, itemTaxes: 0.48, total: 14.12, tax: expect.objectContaining({ rate: 5, amount: 0.65 }) } },
    { name: 'percent discount of subtotal + order tax', lines: () => [{ p: A, qty: 2 }], extra: () => ({ tax: gst, discount: { ...disc.pct5 } }), expect: { subTotal: 20, total: 19.95, tax: expect.objectContaining({ amount: 1 }), discount: expect.objectContaining({ amount: 1.05, rateType: 'percent', rate: 5 }) } },
    { name: 'fixed discount', lines: () => [{ p: A, qty: 2 }], extra: () => ({ discount: disc.fixed10, discountAmount: 10 }), expect: { total: 10, discount: expect.objectContaining({ amount: 10, type: expect.objectContaining({ name: 'Fixed 10' }) }) } },
    { name: 'fixed discount capped at the order', lines: () => [{ p: C, qty: 1 }], extra: () => ({ discount: disc.fixed10 }), expect: { total: 0, discount: expect.objectContaining({ amount: 4.5 }) } },
    { name: 'open discount: the amount typed', lines: () => [{ p: A, qty: 3 }], extra: () => ({ discount: disc.open, discountAmount: 2.25, discountRateType: 'fixed' }), expect: { total: 27.75, discount: expect.objectContaining({ amount: 2.25 }) } },
    { name: 'rounding adjustment to a multiple of 10', lines: () => [{ p: C, qty: 3 }], extra: () => ({ adjustment: -3.5 }), expect: { total: 13.5, adjustment: -3.5, grandTotal: 10 } },
    { name: 'adjustment rounds 5 up', lines: () => [{ p: C, qty: 10 }], extra: () => ({ adjustment: 5 }), expect: { total: 45, adjustment: 5, grandTotal: 50 } },
    { name: 'no adjustment on a multiple of 10', lines: () => [{ p: C, qty: 10 }, { p: C, qty: 1 }, { p: A, qty: 0.05 }], extra: () => ({ adjustment: 0 }), expect: { total: 50, adjustment: 0 } },
    { name: 'price rule in force', lines: () => [{ p: R, qty: 2 }], expect: { total: 2.46 }, line0: { price: 1.23 } },
    { name: 'weighed barcode price of that product', lines: () => [{ p: W, qty: '0.5', price: 2.5 }], expect: { total: 1.25 }, line0: { price: 2.5, quantity: 0.5 } },
  ];
  for (const c of cases) {
    it(`prices: ${c.name}`, async () => {
      const res = await create(body(c.lines(), { ...(c.extra?.() ?? {}), total: undefined, payments: [] }));
      // No payments on purpose: a non-zero total answers 422 naming payments, so price with a hold.
      const held = res.statusCode === 201 ? res : await create(body(c.lines(), { ...(c.extra?.() ?? {}), isSuspended: true, payments: [] }));
      expect(held.statusCode, held.body).toBe(201);
      const o = held.json().order;
      expect(o).toMatchObject(c.expect);
      if (c.line0) expect(o.items[0]).toMatchObject(c.line0);
    });
  }

  it('open percent discount: the typed percent (our till) or the computed amount (reference client), told apart by the total', async () => {
    // 3 x 10.00 with 10 % off. Our till sends the percent it typed...
    const typed = await create(body([{ p: A, qty: 3 }], { discount: disc.open, discountAmount: 10, discountRateType: 'percent', total: 27, ...cashPaid(27) }));
    expect(typed.statusCode, typed.body).toBe(201);
    expect(typed.json().order).toMatchObject({ total: 27, discount: { rateType: 'percent', rate: 10, amount: 3 } });
    // ...the reference client sends the discount total it computed, with the same rate type.
    const computed = await create(body([{ p: A, qty: 3 }], { discount: disc.open, discountAmount: 3, discountRateType: 'percent', total: 27, ...cashPaid(27) }));
    expect(computed.statusCode, computed.body).toBe(201);
    expect(computed.json().order).toMatchObject({ total: 27, discount: { rateType: 'fixed', rate: 3, amount: 3 } });
    // An exact discount ignores discountAmount: the entity's rate applies.
    const exact = await create(body([{ p: A, qty: 3 }], { discount: disc.pct5, discountAmount: 25, total: 28.5, ...cashPaid(28.5) }));
    expect(exact.json().order).toMatchObject({ total: 28.5, discount: { rateType: 'percent', amount: 1.5 } });
  });

  it('ignores the client price (a stale cache) and refuses a total that does not match', async () => {
    const res = await create(body([{ p: A, qty: 1, price: 0.01 }], { total: 0.01, ...cashPaid(0.01) }));
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual([{ propertyPath: 'total', message: 'Total mismatch: the order comes to 10.00, not 0.01. Prices may have changed: reload the items.' }]);
    const ok = await create(body([{ p: A, qty: 1, price: 0.01 }], { total: 10, ...cashPaid(10) }));
    expect(ok.statusCode).toBe(201);
    expect(ok.json().order.items[0].price).toBe(10);
  });

  it('accepts the drift of a client that does not round per line (1 cent per line)', async () => {
    const res = await create(body([{ p: B, qty: 3 }, { p: B, qty: 1 }], { total: 13.8752, ...cashPaid(20) }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().order.total).toBe(13.88);
  });

  it('a barcode price of another product is not accepted', async () => {
    const res = await create(body([{ p: A, qty: 1, price: 2.5 }], { total: 10, ...cashPaid(10) }));
    expect(res.json().order.items[0].price).toBe(10);
  });

  it('sells a variant at its own price, else the product price, and moves variant and store stock', async () => {
    const [v0, v1] = variants;
    const before = [await variantQty(v0.id), await variantQty(v1.id), await storeQty(clothing.id, mall)];
    const res = await create(body([{ p: clothing, qty: 1, variant: v0 }, { p: clothing, qty: 2, variant: { id: v1.id } }], {
      store: mall, terminal: m1, ...cashPaid(500),
    }), admin);
    expect(res.statusCode, res.body).toBe(201);
    const o = res.json().order;
    expect(o.items.map((i: any) => [i.variant.id, i.price])).toEqual([[v0.id, 33], [v1.id, Number(clothing.basePrice)]]);
    expect(o.items[0].variant).toMatchObject({ attributeValue: v0.attributeValue });
    expect([await variantQty(v0.id), await variantQty(v1.id), await storeQty(clothing.id, mall)]).toEqual([before[0] - 1, before[1] - 2, before[2] - 3]);
    await assertLedgerMatchesStock();
  });

  it('does not move stock of products that do not manage inventory', async () => {
    const before = await storeQty(C.id);
    const res = await create(body([{ p: C, qty: 2 }], cashPaid(9)));
    expect(res.statusCode).toBe(201);
    expect(await storeQty(C.id)).toBe(before);
    expect(await t.app.db.select().from(stockMovement).where(eq(stockMovement.orderId, res.json().order.id))).toEqual([]);
  });

  it('stores the free-text customer name on the order, not as a customer row', async () => {
    const [{ n: before }] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(customer);
    const res = await create(body([{ p: C, qty: 1 }], { customer: 'Mr Smith', ...cashPaid(4.5) }));
    expect(res.json().order).toMatchObject({ customerName: 'Mr Smith', customer: { id: null, name: 'Mr Smith' } });
    const [{ n: after }] = await t.app.db.select({ n: sql<number>`count(*)::int` }).from(customer);
    expect(after).toBe(before);
  });
});

describe('create: the answer is built from what the sale wrote', () => {
  it('is exactly what GET /api/admin/order/{id} reads back (lines, taxes, variants, discount, order tax, payments, held, names)', async () => {
    const card = { received: 5, total: 5, due: 0, type: { ...pay.card } };
    const bodies = [
      body([{ p: A, qty: 3 }], cashPaid(50)),
      body([{ p: B, qty: 2 }, { p: C, qty: '1.5' }, { p: A, qty: 1, discount: 1 }], { payments: [card, { received: 100, type: { ...pay.cash } }] }),
      body([{ p: clothing, qty: 1, variant: { id: variants[0].id } }, { p: clothing, qty: 2, variant: { id: variants[1].id } }], { store: mall, terminal: m1, ...cashPaid(500) }),
      body([{ p: A, qty: 2 }, { p: B, qty: 1 }], { tax: { ...gst }, discount: { ...disc.pct5 }, ...cashPaid(100) }),
      body([{ p: B, qty: 1, taxIncluded: false }], { customer: 'Walk-in without account', ...cashPaid(10) }),
      body([{ p: A, qty: 1 }], { status: 'On Hold', payments: [] }),
    ];
    for (const b of bodies) {
      const res = await create(b, admin);
      expect(res.statusCode, res.body).toBe(201);
      const answered = res.json().order;
      const read = await inject('GET', `/api/admin/order/${answered.id}`, undefined, admin);
      expect(JSON.stringify(answered)).toBe(JSON.stringify(read.json().order));
    }
  });
});

describe('create: validation messages', () => {
  const v = async (b: unknown, headers: Headers = cashier) => {
    const res = await create(b, headers);
    expect(res.statusCode, res.body).toBe(422);
    const json = res.json();
    expect(Array.isArray(json.violations)).toBe(true);
    return json.violations as { propertyPath: string; message: string }[];
  };
  it('names each faulty field with the spec messages', async () => {
    expect(await v(body([], cashPaid(1)))).toEqual([{ propertyPath: 'items', message: 'Please add some items' }]);
    expect(await v(body([{ p: A, qty: 0 }], cashPaid(1)))).toEqual([{ propertyPath: 'items[0].quantity', message: 'Quantity cannot be less then 1' }]);
    expect((await v(body([{ p: A, qty: -1 }], cashPaid(1))))[0].propertyPath).toBe('items[0].quantity');
    expect(await v(body([{ p: A, qty: 'abc' }], cashPaid(1)))).toEqual([{ propertyPath: 'items[0].quantity', message: 'This value should be a valid number.' }]);
    expect(await v(body([{ p: { id: 999999 }, qty: 1 }], cashPaid(1)))).toEqual([{ propertyPath: 'items[0].item', message: "'Product' with ID '999999' not found" }]);
    expect(await v(body([{ p: A, qty: 1, variant: { id: variants[0].id } }], cashPaid(10)))).toEqual([{ propertyPath: 'items[0].variant', message: `'Product variant' with ID '${variants[0].id}' not found` }]);
    expect(await v(body([{ p: A, qty: 1 }], { payments: [] }))).toEqual([{ propertyPath: 'payments', message: 'Please add some payments by clicking on + button' }]);
    expect(await v(body([{ p: A, qty: 1 }], cashPaid(0)))).toEqual([{ propertyPath: 'payments[0].received', message: 'Amount cannot be zero' }]);
    expect(await v(body([{ p: A, qty: 1 }], { payments: [{ received: 12, type: pay.card }] }))).toEqual([{ propertyPath: 'payments[0].received', message: 'Please add exact amount for Credit Card' }]);
    expect(await v(body([{ p: A, qty: 1 }], { payments: [{ received: 6, type: pay.card }, { received: 5, type: pay.card }] }))).toEqual([{ propertyPath: 'payments[1].received', message: 'Please add exact amount for Credit Card' }]);
    expect(await v(body([{ p: A, qty: 1 }], cashPaid(9)))).toEqual([{ propertyPath: 'payments', message: 'The payments do not cover the total: 1.00 still to receive' }]);
    expect(await v(body([{ p: A, qty: 1 }], { payments: [{ received: 10, type: pay.credit }] }))).toEqual([{ propertyPath: 'payments[0].type', message: 'A customer is required for credit payments' }]);
    expect(await v(body([{ p: A, qty: 1 }], { payments: [{ received: 10, type: { id: 99999 } }] }))).toEqual([{ propertyPath: 'payments[0].type', message: "'Payment' with ID '99999' not found" }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), adjustment: 3 }))).toEqual([{ propertyPath: 'adjustment', message: 'The adjustment can only round the total to a multiple of 10 (0.00)' }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), status: 'Deleted' }))).toEqual([{ propertyPath: 'status', message: 'The value you selected is not a valid choice.' }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), customerId: 99999 }))).toEqual([{ propertyPath: 'customerId', message: "'Customer' with ID '99999' not found" }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), tax: { id: 99999 } }))).toEqual([{ propertyPath: 'tax', message: "'Tax' with ID '99999' not found" }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), store: undefined }))).toEqual([{ propertyPath: 'store', message: 'This value should not be blank.' }]);
  });

  it('refuses another store and a terminal of another store', async () => {
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), store: mall, terminal: m1 }))).toEqual([{ propertyPath: 'store', message: `'Store' with ID '${mall}' not found` }]);
    expect(await v(body([{ p: A, qty: 1 }], { ...cashPaid(10), terminal: m1 }), admin)).toEqual([{ propertyPath: 'terminal', message: `'Terminal' with ID '${m1}' not found` }]);
  });

  it('credit needs a customer allowed credit, within the limit (422 naming the limit)', async () => {
    const credit = (customerId: number, amount: number) => create(body([{ p: A, qty: amount / 10 }], { customerId, payments: [{ received: amount, total: amount, due: 0, type: pay.credit }] }));
    const walkin = await credit(cust.walkin, 10);
    expect(walkin.json().violations).toEqual([{ propertyPath: 'payments', message: 'Credit sales are not allowed for this customer' }]);
    expect((await credit(cust.carla, 60)).statusCode).toBe(201);
    const over = await credit(cust.carla, 50);
    expect(over.statusCode).toBe(422);
    expect(over.json().violations).toEqual([{ propertyPath: 'payments', message: 'Credit limit of 100.00 exceeded: balance would be 110.00' }]);
    expect((await credit(cust.carla, 40)).statusCode).toBe(201);
    // Bilal has no limit and an opening balance of 25.
    expect((await credit(cust.bilal, 1000)).statusCode).toBe(201);
    const res = await inject('GET', `/api/customers/${cust.carla}`);
    expect(res.json()).toMatchObject({ sale: 100, paid: 0, outstanding: 100, balance: 100, creditLimit: 100 });
  });
});
