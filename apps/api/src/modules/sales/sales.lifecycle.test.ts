/** A sale after it is created: held and pending orders settled by edit, delete, restore, dispatch and returns. */
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog, stockMovement } from '../../db/schema/index.ts';
import { t, admin, main, t1, pay, gst, disc, A, B, C, cust, inject, body, cashPaid, create, storeQty, assertLedgerMatchesStock, maxNumber, sell, openSalesShop } from './sales.fixtures.ts';

openSalesShop();

describe('hold, pending and edit', () => {
  it('a held order has no number, moves no stock, and gets both when completed by edit', async () => {
    const before = await storeQty(A.id);
    const held = await create(body([{ p: A, qty: 2 }], { isSuspended: true, status: 'Completed', payments: [] }));
    expect(held.statusCode).toBe(201);
    const h = held.json().order;
    expect(h).toMatchObject({ status: 'On Hold', isSuspended: true, orderId: null, total: 20 });
    expect(await storeQty(A.id)).toBe(before);
    const last = await maxNumber(main);
    const done = await inject('PUT', `/api/admin/order/edit/${h.id}`, body([{ p: A, qty: 3 }], { total: 30, ...cashPaid(30) }));
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().order).toMatchObject({ id: h.id, status: 'Completed', isSuspended: false, orderId: last + 1, total: 30 });
    expect(done.json().order.items.map((i: any) => i.quantity)).toEqual([3]);
    expect(await storeQty(A.id)).toBe(before - 3);
    await assertLedgerMatchesStock();
    // The same settle sent again (a retried Done) answers the order, without selling twice.
    const retried = await inject('PUT', `/api/admin/order/edit/${h.id}`, body([{ p: A, qty: 3 }], { total: 30, ...cashPaid(30) }));
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    expect(retried.json().order).toMatchObject({ id: h.id, orderId: last + 1 });
    expect(await storeQty(A.id)).toBe(before - 3);
    const again = await inject('PUT', `/api/admin/order/edit/${h.id}`, body([{ p: A, qty: 1 }], cashPaid(10)));
    expect(again.statusCode).toBe(422);
    expect(again.json().violations[0].message).toBe(`Order #${last + 1} is Completed: only pending and held orders can be edited`);
  });

  it('a pending order (order mode) is numbered, listed as running, and settled by edit', async () => {
    const before = await storeQty(A.id);
    const res = await create(body([{ p: A, qty: 1 }], { status: 'Pending', total: 10, ...cashPaid(10) }));
    expect(res.statusCode).toBe(201);
    const p = res.json().order;
    expect(p).toMatchObject({ status: 'Pending', orderId: expect.any(Number) });
    expect(await storeQty(A.id)).toBe(before);
    const running = await inject('GET', `/api/orders?status=Pending&store.id=${main}&terminal.id=${t1}&itemsPerPage=100`);
    expect(running.statusCode).toBe(200);
    const members = running.json()['hydra:member'];
    expect(members.map((m: any) => m.id)).toContain(p.id);
    expect(members.every((m: any) => m.status === 'Pending' && m.terminal.id === t1)).toBe(true);
    const m = members.find((x: any) => x.id === p.id);
    expect(m).toMatchObject({ '@id': `/api/orders/${p.id}`, store: { name: 'Main Street' }, terminal: { code: 'T1' }, user: { displayName: 'Cashier' }, payments: [expect.objectContaining({ total: 10 })] });
    expect(m.items[0].product).toMatchObject({ id: A.id, name: expect.any(String) });
    const settled = await inject('PUT', `/api/admin/order/edit/${p.id}`, body([{ p: A, qty: 1 }], { total: 10, payments: [{ received: 10, type: pay.card }] }));
    expect(settled.statusCode, settled.body).toBe(200);
    expect(settled.json().order).toMatchObject({ status: 'Completed', orderId: p.orderId, payments: [expect.objectContaining({ total: 10, type: expect.objectContaining({ name: 'Credit Card' }) })] });
    expect(await storeQty(A.id)).toBe(before - 1);
  });
});

describe('delete, restore, dispatch', () => {
  it('unsuspend removes the held order; a cashier may delete pending but not completed orders', async () => {
    const held = await sell([{ p: A, qty: 1 }], { isSuspended: true, payments: [] });
    const del = await inject('DELETE', `/api/admin/order/${held.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ removed: true, order: { id: held.id, status: 'On Hold', items: [expect.objectContaining({ quantity: 1 })] } });
    expect((await inject('GET', `/api/admin/order/${held.id}`)).statusCode).toBe(404);
    const pending = await sell([{ p: A, qty: 1 }], { status: 'Pending', payments: [] });
    const d2 = await inject('DELETE', `/api/admin/order/${pending.id}`);
    expect(d2.json()).toMatchObject({ removed: false, order: { status: 'Deleted', isDeleted: true } });
    const sale = await sell([{ p: A, qty: 1 }], cashPaid(10));
    const denied = await inject('DELETE', `/api/admin/order/${sale.id}`);
    expect(denied.statusCode).toBe(403);
  });

  it('a held order deleted is on the audit log (sale.heldDeleted); one resumed in the till is recorded as resumed', async () => {
    const entries = (id: number) => t.app.db.select().from(auditLog).where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(id))));
    const thrown = await sell([{ p: A, qty: 2 }], { isSuspended: true, payments: [] });
    const bad = await inject('DELETE', `/api/admin/order/${thrown.id}`, { unsuspend: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations[0].propertyPath).toBe('unsuspend');
    expect(await entries(thrown.id)).toHaveLength(0);
    expect((await inject('DELETE', `/api/admin/order/${thrown.id}`)).json()).toMatchObject({ removed: true });
    const [gone] = await entries(thrown.id);
    expect(gone).toMatchObject({ action: 'sale.heldDeleted', actorName: expect.any(String), storeId: main, before: { status: 'On Hold', terminalId: t1 } });
    expect(Number((gone.before as any).total)).toBe(20);
    // Visible on the audit page's list for an administrator.
    const listed = await inject('GET', '/api/audit_log?action=sale.heldDeleted', undefined, admin);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(JSON.stringify(listed.json())).toContain(`"entityId":"${thrown.id}"`);
    const resumed = await sell([{ p: A, qty: 1 }], { isSuspended: true, payments: [] });
    expect((await inject('DELETE', `/api/admin/order/${resumed.id}`, { unsuspend: true })).json()).toMatchObject({ removed: true });
    expect((await entries(resumed.id)).map((e) => e.action)).toEqual(['sale.heldResumed']);
  });

  it('delete of a completed sale gives the stock back; restore takes it again; the ledger follows', async () => {
    const before = await storeQty(B.id);
    const sale = await sell([{ p: B, qty: 4 }], cashPaid(20));
    expect(await storeQty(B.id)).toBe(before - 4);
    const del = await inject('DELETE', `/api/admin/order/${sale.id}`, undefined, admin);
    expect(del.statusCode).toBe(200);
    expect(del.json().order).toMatchObject({ status: 'Deleted', isDeleted: true, orderId: sale.orderId });
    expect(await storeQty(B.id)).toBe(before);
    expect((await inject('DELETE', `/api/admin/order/${sale.id}`, undefined, admin)).json().violations[0].message).toBe(`Order #${sale.orderId} is already deleted`);
    expect((await inject('POST', `/api/admin/order/restore/${sale.id}`)).json()).toEqual({ code: 'FORBIDDEN', message: "Restoring an order needs the 'sale.void' permission or a manager's approval." }); // a cashier (issue 21.2)
    const restored = await inject('POST', `/api/admin/order/restore/${sale.id}`, undefined, admin);
    expect(restored.statusCode).toBe(200);
    expect(restored.json().order).toMatchObject({ status: 'Completed', isDeleted: false });
    expect(await storeQty(B.id)).toBe(before - 4);
    const twice = await inject('POST', `/api/admin/order/restore/${sale.id}`, undefined, admin);
    expect(twice.json().violations[0].message).toBe(`Order #${sale.orderId} is Completed: only deleted orders can be restored`);
    const moves = await t.app.db.select().from(stockMovement).where(eq(stockMovement.orderId, sale.id)).orderBy(asc(stockMovement.id));
    expect(moves.map((m) => [m.reason, Number(m.quantity)])).toEqual([['sale', -4], ['delete', 4], ['restore', -4]]);
    await assertLedgerMatchesStock();
  });

  it('dispatch: only completed sales; a dispatched sale can still be deleted (stock back)', async () => {
    const before = await storeQty(A.id);
    const sale = await sell([{ p: A, qty: 2 }], cashPaid(20));
    const res = await inject('POST', `/api/admin/order/dispatch/${sale.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().order).toMatchObject({ status: 'Dispatched', isDispatched: true });
    const again = await inject('POST', `/api/admin/order/dispatch/${sale.id}`);
    expect(again.statusCode).toBe(422);
    expect((await inject('DELETE', `/api/admin/order/${sale.id}`, undefined, admin)).json().order.status).toBe('Deleted');
    expect(await storeQty(A.id)).toBe(before);
    const restored = await inject('POST', `/api/admin/order/restore/${sale.id}`, undefined, admin);
    expect(restored.json().order.status).toBe('Dispatched');
    expect(await storeQty(A.id)).toBe(before - 2);
  });
});

describe('refunds', () => {
  it('POST refund creates the mirrored return, gives the stock back, marks the original Returned, once', async () => {
    const before = await storeQty(B.id);
    const sale = await sell([{ p: A, qty: 2, discount: 1 }, { p: B, qty: 3 }], {
      tax: gst, discount: disc.pct5, ...cashPaid(50),
    });
    const res = await inject('POST', `/api/admin/order/refund/${sale.id}`);
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json().order;
    expect(r).toMatchObject({
      status: 'Completed', orderId: sale.orderId + 1, returnedFrom: { id: sale.id, orderId: sale.orderId },
      subTotal: -sale.subTotal, itemTaxes: -sale.itemTaxes, total: -sale.total,
      tax: expect.objectContaining({ amount: -sale.tax.amount }), discount: expect.objectContaining({ amount: -sale.discount.amount }),
    });
    expect(r.items.map((i: any) => [i.quantity, i.price, i.discount, i.taxesTotal])).toEqual(sale.items.map((i: any) => [-i.quantity, i.price, 0 - i.discount + 0, 0 - i.taxesTotal + 0]));
    expect(r.payments).toEqual([expect.objectContaining({ total: -sale.total, received: -sale.total, due: 0, type: expect.objectContaining({ type: 'cash' }) })]);
    expect(await storeQty(B.id)).toBe(before);
    const original = (await inject('GET', `/api/admin/order/${sale.id}`)).json().order;
    expect(original).toMatchObject({ status: 'Returned', isReturned: true });
    const twice = await inject('POST', `/api/admin/order/refund/${sale.id}`);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().violations[0].message).toBe(`Order #${sale.orderId} has already been returned`);
    expect((await inject('POST', `/api/admin/order/refund/${r.id}`)).json().violations[0].message).toBe('A return cannot be refunded');
    // The old client then submits the negated cart with refundingFrom: it gets the same return, not a second one.
    const resubmit = await create(body(sale.items.map((i: any) => ({ p: { id: i.product.id }, qty: -i.quantity })), { refundingFrom: sale.id, ...cashPaid(-sale.total) }));
    expect(resubmit.statusCode).toBe(200);
    expect(resubmit.json().order.id).toBe(r.id);
    const different = await create(body([{ p: A, qty: -1 }], { refundingFrom: sale.id, ...cashPaid(-9) }));
    expect(different.json().violations).toEqual([{ propertyPath: 'refundingFrom', message: `Order #${sale.orderId} has already been returned` }]);
    await assertLedgerMatchesStock();
    // A returned order cannot be deleted; a return neither.
    expect((await inject('DELETE', `/api/admin/order/${sale.id}`, undefined, admin)).statusCode).toBe(422);
    expect((await inject('DELETE', `/api/admin/order/${r.id}`, undefined, admin)).json().violations[0].message).toBe('A return cannot be deleted');
  });

  it('a partial return through create prices lines from the original (pro-rata discount), never more than sold', async () => {
    const before = await storeQty(A.id);
    const sale = await sell([{ p: A, qty: 3, discount: 3 }, { p: C, qty: 1 }], { discount: disc.fixed10, ...cashPaid(40) });
    expect(sale.total).toBe(21.5); // 27 + 4.5 - 10
    const tooMany = await create(body([{ p: A, qty: -4 }], { refundingFrom: sale.id, payments: [] }));
    expect(tooMany.json().violations).toEqual([{ propertyPath: 'items[0].quantity', message: `Cannot return more than 3 of '${A.name}'` }]);
    const notSold = await create(body([{ p: B, qty: -1 }], { refundingFrom: sale.id, payments: [] }));
    expect(notSold.json().violations[0].message).toBe(`'${B.name}' is not in order #${sale.orderId}`);
    const positive = await create(body([{ p: A, qty: -1 }, { p: B, qty: 1 }], { refundingFrom: sale.id, payments: [] }));
    expect(positive.json().violations[0]).toEqual({ propertyPath: 'items[1].quantity', message: 'A return can only contain returned items (negative quantities)' });
    // One of three A at 10 with 1 of the 3 discount: -9; the fixed 10 on 31.5 gives back its share 10 x 9 / 31.5 = 2.86.
    const ret = await create(body([{ p: A, qty: -1, price: 999, discount: 0 }], { refundingFrom: sale.id, total: -6.14, ...cashPaid(-6.14) }));
    expect(ret.statusCode, ret.body).toBe(201);
    const r = ret.json().order;
    expect(r).toMatchObject({ total: -6.14, returnedFrom: { id: sale.id }, discount: expect.objectContaining({ amount: -2.86 }) });
    expect(r.items[0]).toMatchObject({ quantity: -1, price: 10, discount: -1 });
    expect(await storeQty(A.id)).toBe(before - 2);
    expect((await inject('GET', `/api/admin/order/${sale.id}`)).json().order.status).toBe('Partially Returned');
    // Issue 19: more returns until nothing is left; each gives back its exact share, all of them the whole sale.
    const c = await create(body([{ p: C, qty: -1 }], { refundingFrom: sale.id, ...cashPaid(-3.07) }));
    expect(c.statusCode, c.body).toBe(201);
    expect(c.json().order.total).toBe(-3.07); // -4.50 + its share of the discount (10 x 13.5 / 31.5 - 2.86)
    const rest = await inject('POST', `/api/admin/order/refund/${sale.id}`);
    expect(rest.statusCode, rest.body).toBe(201);
    expect(rest.json().order.total).toBe(-12.29);
    expect(-6.14 - 3.07 - 12.29).toBeCloseTo(-sale.total, 10);
    const original = (await inject('GET', `/api/admin/order/${sale.id}`)).json().order;
    expect(original.status).toBe('Returned');
    expect(original.items.map((i: any) => [i.returnedQuantity, i.refundableQuantity])).toEqual([[3, 0], [1, 0]]);
    // The same return sent again answers the one stored; any other return of it is refused.
    const again = await create(body([{ p: C, qty: -1 }], { refundingFrom: sale.id, ...cashPaid(-3.07) }));
    expect([again.statusCode, again.json().order.id]).toEqual([200, c.json().order.id]);
    const overpaid = await create(body([{ p: A, qty: -1 }, { p: C, qty: -1 }], { refundingFrom: sale.id, ...cashPaid(-4.5) }));
    expect(overpaid.json().violations[0].message).toBe(`Order #${sale.orderId} has already been returned`);
  });

  it('a return of a credit sale reduces the customer sale and outstanding', async () => {
    const sale = await sell([{ p: A, qty: 2 }], { customerId: cust.aisha, payments: [{ received: 20, type: pay.credit }] });
    const mid = (await inject('GET', `/api/customers/${cust.aisha}`)).json();
    const res = await inject('POST', `/api/admin/order/refund/${sale.id}`);
    expect(res.statusCode).toBe(201);
    expect(res.json().order.customer).toMatchObject({ id: cust.aisha });
    const after = (await inject('GET', `/api/customers/${cust.aisha}`)).json();
    expect(after.sale).toBe(mid.sale - 20);
    expect(after.outstanding).toBe(mid.outstanding - 20);
  });
});
