/**
 * Issue 21.1/21.2 at the till: a cashier's discount above the store's limit and a typed unit price
 * are refused (403 naming the field, nothing written) unless a manager approves that one sale with
 * their PIN; the approval is single use, bound to the action, and recorded with both names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { approval, userAccount } from '../../db/schema/index.ts';
import { staffShop } from './staff.fixtures.ts';

let t: TestApp;
let s: Awaited<ReturnType<typeof staffShop>>;
let manager: Awaited<ReturnType<typeof s.staffUser>>;
let clerk: Awaited<ReturnType<typeof s.staffUser>>;

beforeAll(async () => {
  t = await createTestApp();
  s = await staffShop(t);
  manager = await s.staffUser('margaret', 'manager', '4321');
  clerk = await s.staffUser('clerk', 'cashier', '1111');
});
afterAll(async () => { await t?.close(); });

const approve = (headers: Record<string, string>, body: Record<string, unknown>) =>
  s.inject('POST', '/api/approvals', headers, { permission: 'discount.overLimit', username: 'margaret', pin: '4321', store: s.main, ...body });

describe('discount above the store limit', () => {
  it("a cashier's 50 % line discount is refused, naming the line, and nothing is written", async () => {
    const before = await s.orderCount();
    const res = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 5 }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/^items\[0\]\.discount: A discount of 50% is above this store's limit of 20%/);
    expect(await s.orderCount()).toBe(before);
  });

  it('a discount within the limit needs nobody', async () => {
    const res = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 2 }));
    expect(res.statusCode, res.body).toBe(201);
  });

  it("the manager's PIN approves that one sale; the audit log names both; the token cannot be used again", async () => {
    const ok = await approve(clerk.headers, { upTo: 50 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ permission: 'discount.overLimit', approvedBy: { id: manager.id, name: manager.displayName }, upTo: 50 });
    const token = ok.json().approval as string;
    // The token is stored hashed only.
    expect((await s.db.select().from(approval)).some((a) => a.tokenHash === token)).toBe(false);

    const sold = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 5, approval: token }));
    expect(sold.statusCode, sold.body).toBe(201);
    const orderId = sold.json().order.id;
    const [row] = (await s.auditRows('sale.discountOverLimit')).filter((r) => r.entityId === String(orderId));
    expect(row).toMatchObject({ actorId: clerk.id, actorName: clerk.displayName, approverId: manager.id, approverName: manager.displayName, storeId: s.main });
    expect(row.details).toMatchObject({ percent: 50, limit: 20 });
    expect((await s.auditRows('approval.granted')).at(-1)).toMatchObject({ actorName: clerk.displayName, approverName: manager.displayName });

    const again = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 5, approval: token, qty: 1 }));
    expect(again.statusCode).toBe(403);
    expect(again.json().message).toMatch(/^approval:/);
  });

  it('an approval covers only what was approved: a larger discount or another cashier is refused', async () => {
    const small = (await approve(clerk.headers, { upTo: 30 })).json().approval;
    const tooMuch = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 5, approval: small }));
    expect(tooMuch.statusCode).toBe(403);
    const mine = (await approve(clerk.headers, { upTo: 50 })).json().approval;
    const other = await s.inject('POST', '/api/admin/order/create', s.cashier, s.sale({ discount: 5, approval: mine }));
    expect(other.statusCode).toBe(403);
  });

  it('a manager may give the discount themselves, and it is logged', async () => {
    const res = await s.inject('POST', '/api/admin/order/create', manager.headers, s.sale({ discount: 5 }));
    expect(res.statusCode, res.body).toBe(201);
    const [row] = (await s.auditRows('sale.discountOverLimit')).filter((r) => r.entityId === String(res.json().order.id));
    expect(row).toMatchObject({ actorId: manager.id, approverId: null });
  });
});

describe('approvals: who and how', () => {
  it('a wrong PIN, a cashier as approver, or oneself do not approve (403), and the refusal is logged', async () => {
    expect((await approve(clerk.headers, { pin: '9999' })).statusCode).toBe(403);
    expect((await approve(manager.headers, { username: 'clerk', pin: '1111' })).statusCode).toBe(403);
    expect((await approve(manager.headers, {})).statusCode).toBe(403);
    expect((await s.auditRows('approval.refused')).length).toBeGreaterThanOrEqual(3);
  });

  it('a PIN of the wrong shape is a 422 naming pin, nothing written', async () => {
    const before = (await s.db.select().from(approval)).length;
    for (const pin of ['12', '123456789', '12a4', 1.5]) {
      const res = await approve(clerk.headers, { pin });
      expect(res.statusCode, String(pin)).toBe(422);
      expect(res.json().violations).toEqual([{ propertyPath: 'pin', message: 'A PIN is 4 to 8 digits.' }]);
    }
    const unknown = await approve(clerk.headers, { permission: 'fly' });
    expect(unknown.json().violations[0].propertyPath).toBe('permission');
    expect((await s.db.select().from(approval)).length).toBe(before);
    // Setting a PIN of the wrong shape on a user: 422, the old PIN stays.
    const [beforePin] = await s.db.select({ h: userAccount.pinHash }).from(userAccount).where(eq(userAccount.id, clerk.id));
    const bad = await s.inject('PUT', `/api/admin/user/${clerk.id}`, s.owner, { pin: '12345678901' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations[0].propertyPath).toBe('pin');
    const [afterPin] = await s.db.select({ h: userAccount.pinHash }).from(userAccount).where(eq(userAccount.id, clerk.id));
    expect(afterPin.h).toBe(beforePin.h);
    expect(beforePin.h).toMatch(/^\$2[aby]\$/);
  });

  it('PIN guessing is rate-limited like passwords (429), even with the right PIN afterwards', async () => {
    const victim = await s.staffUser('guessme', 'manager', '2468');
    let last = 0;
    for (let i = 0; i < 11; i++) last = (await approve(clerk.headers, { username: 'guessme', pin: String(1000 + i) })).statusCode;
    expect(last).toBe(429);
    expect((await approve(clerk.headers, { username: 'guessme', pin: '2468' })).statusCode).toBe(429);
    expect(victim.id).toBeGreaterThan(0);
  });

  it("a manager's password approves as well as their PIN; a wrong one does not, and writes no approval", async () => {
    const before = (await s.db.select().from(approval)).length;
    const wrong = await s.inject('POST', '/api/approvals', clerk.headers, { permission: 'discount.overLimit', username: 'margaret', password: 'not-her-password-1', store: s.main, upTo: 50 });
    expect(wrong.statusCode).toBe(403);
    expect((await s.db.select().from(approval)).length).toBe(before);
    const ok = await s.inject('POST', '/api/approvals', clerk.headers, { permission: 'discount.overLimit', username: 'margaret', password: manager.password, store: s.main, upTo: 50 });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().approvedBy).toMatchObject({ id: manager.id });
    const sold = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ discount: 5, approval: ok.json().approval }));
    expect(sold.statusCode, sold.body).toBe(201);
  });

  it('setting your own PIN needs your current password', async () => {
    expect((await s.inject('PUT', '/api/admin/profile/pin', clerk.headers, { pin: '5555', currentPassword: 'wrong-password-1' })).statusCode).toBe(422);
    expect((await s.inject('PUT', '/api/admin/profile/pin', clerk.headers, { pin: '5555', currentPassword: clerk.password })).statusCode).toBe(200);
  });
});

describe('unit price override', () => {
  it("a cashier's typed price is refused naming the line's price; nothing written", async () => {
    const before = await s.orderCount();
    const res = await s.inject('POST', '/api/admin/order/create', clerk.headers, s.sale({ price: 1, priceOverride: true }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/^items\[0\]\.price: .*'price\.override'/);
    expect(await s.orderCount()).toBe(before);
  });

  it('a price sent without priceOverride stays a hint: the catalogue price is charged', async () => {
    const res = await s.inject('POST', '/api/admin/order/create', clerk.headers, { ...s.sale({ price: 1 }), total: 10, payments: [{ received: 10, total: 10, type: s.cash.id }] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().order.items[0].price).toBe(10);
  });

  it('a manager overrides the price; the audit log keeps the catalogue and the new price', async () => {
    const res = await s.inject('POST', '/api/admin/order/create', manager.headers, s.sale({ price: 7.5, priceOverride: true }));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().order).toMatchObject({ total: 7.5 });
    const [row] = (await s.auditRows('sale.priceOverride')).filter((r) => r.entityId === String(res.json().order.id));
    expect(row.details).toMatchObject({ catalogue: '10.00', price: '7.50' });
  });
});
