import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userAccount } from '../../db/schema/index.ts';
import { stockFixture, stockRequests, type StockFixture } from './stock.fixtures.ts';

/**
 * Every stock adjustment, count approval (and cancellation) and transfer step writes its audit
 * entry in its transaction (issue 25.3), read back through the audit log's route; a refused
 * request writes none.
 */
let f: StockFixture;
let admin: { id: number; name: string };
beforeAll(async () => {
  f = await stockFixture();
  const [u] = await f.t.app.db.select().from(userAccount).where(eq(userAccount.username, 'admin'));
  admin = { id: u.id, name: u.displayName };
});
afterAll(async () => { await f?.t.close(); });

const { post, get, refused } = stockRequests(() => f);

/** The stock entries of the audit log, oldest first, through GET /api/audit_log (action prefix "stock."). */
async function stockAudit() {
  const res = await get('/api/audit_log?action=stock.&limit=500');
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().list as any[]).reverse();
}

describe('the audit log of stock documents', () => {
  it('records an adjustment, a count approval and each transfer step: who, what, which document, which store', async () => {
    const { A, B, main, mall } = f;
    expect(await stockAudit()).toEqual([]);

    const adj = await post('/api/admin/stock/adjustment/create', { store: main, note: 'broken jar', lines: [{ product: A.id, quantity: -2, reason: 'damage' }] });
    expect(adj.statusCode, adj.body).toBe(201);
    const adjId = adj.json().adjustment.id;

    const count = (await post('/api/admin/stock/count/create', { store: main })).json().count;
    expect((await post(`/api/admin/stock/count/${count.id}/lines`, { lines: [{ product: B.id, quantity: 18 }] })).statusCode).toBe(200);
    expect((await post(`/api/admin/stock/count/${count.id}/approve`)).statusCode).toBe(200);

    const tr = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: A.id, quantity: 3 }] })).json().transfer;
    expect((await post(`/api/admin/stock/transfer/${tr.id}/send`, { lines: [{ id: tr.lines[0].id, quantity: 2 }] })).statusCode).toBe(200);
    expect((await post(`/api/admin/stock/transfer/${tr.id}/receive`, { lines: [{ id: tr.lines[0].id, quantity: 1 }], lossReason: 'broken' })).statusCode).toBe(200);
    const other = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: B.id, quantity: 1 }] })).json().transfer;
    expect((await post(`/api/admin/stock/transfer/${other.id}/cancel`)).statusCode).toBe(200);

    const rows = await stockAudit();
    expect(rows.map((r) => [r.action, r.actor, r.entity, r.entityId, r.store])).toEqual([
      ['stock.adjusted', admin, 'stock_adjustment', String(adjId), main],
      ['stock.countApproved', admin, 'stock_count', String(count.id), main],
      ['stock.transferRequested', admin, 'stock_transfer', String(tr.id), main],
      ['stock.transferSent', admin, 'stock_transfer', String(tr.id), main],
      ['stock.transferReceived', admin, 'stock_transfer', String(tr.id), mall],
      ['stock.transferRequested', admin, 'stock_transfer', String(other.id), main],
      ['stock.transferCancelled', admin, 'stock_transfer', String(other.id), main],
    ]);
    expect(rows[0].details).toEqual({ number: 1, note: 'broken jar', lines: [{ product: A.id, variant: null, quantity: '-2', reason: 'damage' }] });
    expect(rows[1]).toMatchObject({ before: { status: 'open' }, after: { status: 'approved' }, details: { number: count.number, lines: 1, variances: [{ product: B.id, delta: '-2' }] } });
    expect(rows[2].details).toMatchObject({ number: tr.number, fromStore: main, toStore: mall, lines: [{ product: A.id, quantity: '3' }] });
    expect(rows[3]).toMatchObject({ before: { status: 'requested' }, after: { status: 'sent' }, details: { lines: [{ product: A.id, sent: '2' }] } });
    expect(rows[4]).toMatchObject({ after: { status: 'received' }, details: { lossReason: 'broken', lines: [{ product: A.id, received: '1', lost: '1' }] } });
    expect(rows[6]).toMatchObject({ before: { status: 'requested' }, after: { status: 'cancelled' } });
    // The same entries by document: the audit log filters by who and store as well.
    const byStore = (await get(`/api/audit_log?action=stock.&store=${mall}`)).json();
    expect(byStore.list.map((r: any) => [r.action, r.entityId])).toEqual([['stock.transferReceived', String(tr.id)]]);
  });

  it('writes no entry for a refused adjustment, count approval or transfer step', async () => {
    const { A, N, U, main, mall } = f;
    const before = (await stockAudit()).length;
    await refused(() => post('/api/admin/stock/adjustment/create', { store: main, lines: [{ product: A.id, quantity: 2, reason: 'theft' }] }), 422, ['lines[0].quantity']);
    await refused(() => post('/api/admin/stock/adjustment/create', { store: main, lines: [{ product: U.id, quantity: -1, reason: 'damage' }] }), 422, ['lines[0].product']);
    await refused(() => post('/api/admin/stock/adjustment/create', { store: main, lines: [{ product: A.id, quantity: -1, reason: 'damage' }] }, f.cashier), 403);
    await refused(() => post('/api/admin/stock/transfer/create', { fromStore: mall, toStore: main, lines: [{ product: N.id, quantity: 1 }] }), 422, ['lines[0].product']);
    const tr = (await post('/api/admin/stock/transfer/create', { fromStore: mall, toStore: main, lines: [{ product: A.id, quantity: 1 }] })).json().transfer;
    const afterRequest = (await stockAudit()).length;
    expect(afterRequest).toBe(before + 1);
    await refused(() => post(`/api/admin/stock/transfer/${tr.id}/send`, { lines: [{ id: tr.lines[0].id, quantity: 10_000 }] }), 422, ['lines[0].quantity']);
    await refused(() => post(`/api/admin/stock/transfer/${tr.id}/receive`), 409);
    const count = (await post('/api/admin/stock/count/create', { store: main })).json().count;
    expect((await post(`/api/admin/stock/count/${count.id}/approve`)).statusCode).toBe(200);
    const afterApprove = (await stockAudit()).length;
    await refused(() => post(`/api/admin/stock/count/${count.id}/approve`), 409);
    await refused(() => post(`/api/admin/stock/count/${count.id}/cancel`), 409);
    await refused(() => post('/api/admin/stock/count/999999/approve'), 404);
    expect((await stockAudit()).length).toBe(afterApprove);
    expect(afterApprove).toBe(afterRequest + 1);
  });
});
