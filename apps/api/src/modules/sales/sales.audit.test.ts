/**
 * Nothing lost unseen (issue 23.3): a held order removed from the till (deleted, or taken back into
 * a cart) and a voided sale are written to the audit log with who did it and what the order held;
 * a bad `unsuspend` flag is a 422 naming it, and nothing is removed.
 */
import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema/index.ts';
import { t, admin, main, A, B, inject, cashPaid, sell, openSalesShop } from './sales.fixtures.ts';

openSalesShop();

const auditOf = (action: string, id: number) =>
  t.app.db.select().from(auditLog).where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id)))).orderBy(asc(auditLog.id));

describe('destructive actions in the audit log', () => {
  it('deleting a held order records it with its lines, the cashier and the store', async () => {
    const held = await sell([{ p: A, qty: 2, discount: 1 }, { p: B, qty: 1 }], { isSuspended: true, payments: [], customer: 'Nadia' });
    const del = await inject('DELETE', `/api/admin/order/${held.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().removed).toBe(true);
    const [row, ...more] = await auditOf('sale.heldDeleted', held.id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ actorName: 'Cashier', storeId: main, entity: 'order' });
    const before = row.before as { status: string; customerName: string; lines: Array<{ productId: number; quantity: string; discount: string }> };
    expect(before.status).toBe('On Hold');
    expect(before.customerName).toBe('Nadia');
    expect(before.lines.map((l) => [l.productId, Number(l.quantity), Number(l.discount)]).sort()).toEqual([[A.id, 2, 1], [B.id, 1, 0]].sort());
    expect(await auditOf('sale.heldResumed', held.id)).toEqual([]);
  });

  it('a held order taken back into the cart ({unsuspend: true}) is recorded as resumed, not deleted', async () => {
    const held = await sell([{ p: A, qty: 1 }], { isSuspended: true, payments: [] });
    const del = await inject('DELETE', `/api/admin/order/${held.id}`, { unsuspend: true });
    expect(del.statusCode, del.body).toBe(200);
    expect(await auditOf('sale.heldResumed', held.id)).toHaveLength(1);
    expect(await auditOf('sale.heldDeleted', held.id)).toEqual([]);
  });

  it("an unsuspend flag that is not a boolean is a 422 naming it; the held order stays", async () => {
    const held = await sell([{ p: A, qty: 1 }], { isSuspended: true, payments: [] });
    const bad = await inject('DELETE', `/api/admin/order/${held.id}`, { unsuspend: 'yes' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations).toEqual([expect.objectContaining({ propertyPath: 'unsuspend' })]);
    expect((await inject('GET', `/api/admin/order/${held.id}`)).statusCode).toBe(200);
    expect(await auditOf('sale.heldDeleted', held.id)).toEqual([]);
  });

  it('voiding a completed sale is recorded with its total and number', async () => {
    const sale = await sell([{ p: A, qty: 1 }], cashPaid(10));
    const del = await inject('DELETE', `/api/admin/order/${sale.id}`, undefined, admin);
    expect(del.statusCode, del.body).toBe(200);
    const [row] = await auditOf('sale.voided', sale.id);
    expect(row).toMatchObject({ actorName: 'Admin', before: expect.objectContaining({ status: 'Completed', orderId: sale.orderId }), after: { status: 'Deleted' } });
  });
});
