/**
 * Issue 21.2 from the sale history: a cashier whose role lacks 'sale.void' or 'sale.refund' who
 * voids, restores or refunds an order is refused (403 naming the permission, nothing changed)
 * unless a manager approves that one action with their PIN on the same till; the approval is single
 * use, bound to the permission, and the audit log records the action with both names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { order } from '../../db/schema/index.ts';
import { staffShop } from './staff.fixtures.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;
let manager: Awaited<ReturnType<typeof s.staffUser>>;
let clerk: Awaited<ReturnType<typeof s.staffUser>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
  manager = await s.staffUser('hmanager', 'manager', '4321');
  // A till role with neither 'sale.void' nor 'sale.refund'.
  const role = (await s.inject('POST', '/api/roles', s.owner, { name: 'Till only', permissions: ['customer.payments'] })).json().role;
  clerk = await s.staffUser('hclerk', role.id, '1111');
});
afterAll(async () => { await t?.close(); });

/** A completed sale of one kettle rung up by the clerk; its id. */
async function sold(): Promise<number> {
  const res = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale());
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order.id;
}

const approve = async (permission: string) => {
  const res = await s.inject('POST', '/api/approvals', clerk.headers, { permission, username: 'hmanager', pin: '4321', store: s.main });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().approval as string;
};
const statusOf = async (id: number) => (await s.db.select({ status: order.status }).from(order).where(eq(order.id, id)))[0].status;

describe('void from the sale history', () => {
  it("is refused without 'sale.void', naming it; nothing changes", async () => {
    const id = await sold();
    const res = await s.inject('DELETE', `/api/admin/order/${id}`, clerk.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/'sale\.void'.*manager's approval/);
    expect(await statusOf(id)).toBe('Completed');
    expect((await s.auditRows('sale.voided')).filter((r) => r.entityId === String(id))).toEqual([]);
  });

  it("a manager's PIN approves that one void; the audit log names both; the token is spent", async () => {
    const id = await sold();
    const token = await approve('sale.void');
    const res = await s.inject('DELETE', `/api/admin/order/${id}`, clerk.headers, { approval: token });
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf(id)).toBe('Deleted');
    const [row] = (await s.auditRows('sale.voided')).filter((r) => r.entityId === String(id));
    expect(row).toMatchObject({ actorId: clerk.id, actorName: clerk.displayName, approverId: manager.id, approverName: manager.displayName, storeId: s.main });

    // The approval covered that one action: a second void with it is refused, nothing changes.
    const other = await sold();
    const again = await s.inject('DELETE', `/api/admin/order/${other}`, clerk.headers, { approval: token });
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toMatch(/^approval:/);
    expect(await statusOf(other)).toBe('Completed');
  });

  it('an approval for another permission does not void; a malformed one is a 422 naming approval', async () => {
    const id = await sold();
    const refundToken = await approve('sale.refund');
    expect((await s.inject('DELETE', `/api/admin/order/${id}`, clerk.headers, { approval: refundToken })).statusCode).toBe(403);
    const bad = await s.inject('DELETE', `/api/admin/order/${id}`, clerk.headers, { approval: 12345 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations).toEqual([{ propertyPath: 'approval', message: 'This value should be an approval token.' }]);
    expect(await statusOf(id)).toBe('Completed');
    // The refund approval was not spent by the refused void: it still refunds.
    expect((await s.inject('POST', `/api/admin/order/refund/${id}`, clerk.headers, { approval: refundToken })).statusCode).toBe(201);
  });

  it("restoring a voided order needs 'sale.void' or an approval, recorded with both names", async () => {
    const id = await sold();
    expect((await s.inject('DELETE', `/api/admin/order/${id}`, manager.headers)).statusCode).toBe(200);
    const refused = await s.inject('POST', `/api/admin/order/restore/${id}`, clerk.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/'sale\.void'/);
    expect(await statusOf(id)).toBe('Deleted');
    const ok = await s.inject('POST', `/api/admin/order/restore/${id}`, clerk.headers, { approval: await approve('sale.void') });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await statusOf(id)).toBe('Completed');
    const [row] = (await s.auditRows('sale.restored')).filter((r) => r.entityId === String(id));
    expect(row).toMatchObject({ actorId: clerk.id, approverId: manager.id, approverName: manager.displayName });
  });
});

describe('refund from the sale history', () => {
  it("is refused without 'sale.refund', naming it; no return is written", async () => {
    const id = await sold();
    const before = await s.orderCount();
    const res = await s.inject('POST', `/api/admin/order/refund/${id}`, clerk.headers);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/'sale\.refund'.*manager's approval/);
    expect(await s.orderCount()).toBe(before);
    expect(await statusOf(id)).toBe('Completed');
  });

  it("a manager's PIN approves that one refund; the audit log names both; the token is spent", async () => {
    const id = await sold();
    const token = await approve('sale.refund');
    const res = await s.inject('POST', `/api/admin/order/refund/${id}`, clerk.headers, { approval: token });
    expect(res.statusCode, res.body).toBe(201);
    const returnId = res.json().order.id;
    expect(await statusOf(id)).toBe('Returned');
    const [row] = (await s.auditRows('sale.refunded')).filter((r) => r.entityId === String(returnId));
    expect(row).toMatchObject({ actorId: clerk.id, actorName: clerk.displayName, approverId: manager.id, approverName: manager.displayName });
    expect(row.details).toMatchObject({ from: id });

    const other = await sold();
    const before = await s.orderCount();
    const again = await s.inject('POST', `/api/admin/order/refund/${other}`, clerk.headers, { approval: token });
    expect(again.statusCode).toBe(403);
    expect(await s.orderCount()).toBe(before);
  });

  it('a void approval does not refund', async () => {
    const id = await sold();
    const before = await s.orderCount();
    const res = await s.inject('POST', `/api/admin/order/refund/${id}`, clerk.headers, { approval: await approve('sale.void') });
    expect(res.statusCode).toBe(403);
    expect(await s.orderCount()).toBe(before);
  });
});
