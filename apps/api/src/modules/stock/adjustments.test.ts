import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { userAccount } from '../../db/schema/index.ts';
import { expectLedgerMatchesStock, ledgerRows, sell, stockFixture, stockRequests, storeQty, variantQty, type StockFixture } from './stock.fixtures.ts';
import { ADJUSTMENT_MESSAGES } from './adjustments.service.ts';

let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const A_ = '/api/admin/stock/adjustment';
const { post, get, refused } = stockRequests(() => f);


describe('stock adjustments with reasons', () => {
  it('books each line as a ledger row with its reason, the caller and the time; the note stays on the document', async () => {
    const { A, B, V, variants, main } = f;
    const before = { a: await storeQty(f.t, A.id, main), b: await storeQty(f.t, B.id, main), v: await storeQty(f.t, V.id, main), v0: await variantQty(f.t, variants[0].id) };
    const res = await post(`${A_}/create`, {
      store: `/api/stores/${main}`, note: 'monthly check',
      lines: [
        { product: A.id, quantity: -2, reason: 'damage', note: 'dropped' },
        { product: A.id, quantity: '-1', reason: 'theft' },
        { product: B.id, quantity: 3, reason: 'found', note: 'behind the shelf' },
        { product: B.id, quantity: -0.5, reason: 'own_use' },
        { product: A.id, quantity: 4, reason: 'correction' },
        { product: V.id, variant: { id: variants[0].id }, quantity: -1, reason: 'expiry' },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const adj = res.json().adjustment;
    expect(adj).toMatchObject({ number: 1, store: { id: main }, note: 'monthly check', createdBy: { username: 'admin' } });
    expect(adj.lines.map((l: any) => [l.product.id, l.quantity, l.reason, l.note])).toEqual([
      [A.id, -2, 'damage', 'dropped'], [A.id, -1, 'theft', null], [B.id, 3, 'found', 'behind the shelf'], [B.id, -0.5, 'own_use', null],
      [A.id, 4, 'correction', null], [V.id, -1, 'expiry', null],
    ]);
    // Value at cost: A 6.00, B 2.50: -12 - 6 + 7.5 - 1.25 + 24 + (V's cost x -1)
    expect(adj.lines[0]).toMatchObject({ cost: 6, value: -12 });
    expect(adj.lines[2]).toMatchObject({ cost: 2.5, value: 7.5 });
    expect(adj.lines[5].variant).toMatchObject({ id: variants[0].id });

    expect(await storeQty(f.t, A.id, main)).toBe(before.a + 1);
    expect(await storeQty(f.t, B.id, main)).toBe(before.b + 2.5);
    expect(await storeQty(f.t, V.id, main)).toBe(before.v - 1);
    expect(await variantQty(f.t, variants[0].id)).toBe(before.v0 - 1); // a variant line moves the variant too, as a sale does

    const [adminRow] = await f.t.app.db.select().from(userAccount).where(eq(userAccount.username, 'admin'));
    for (const [reason, want] of [['damage', [[A.id, main, null, -2]]], ['theft', [[A.id, main, null, -1]]], ['found', [[B.id, main, null, 3]]],
      ['own_use', [[B.id, main, null, -0.5]]], ['correction', [[A.id, main, null, 4]]], ['expiry', [[V.id, main, null, -1], [V.id, main, variants[0].id, -1]]]] as const) {
      const rows = await ledgerRows(f.t, reason);
      expect(rows.map((r) => [r.productId, r.storeId, r.variantId, r.quantity]), reason).toEqual(want);
      for (const r of rows) {
        expect(r.userId).toBe(adminRow.id);
        expect(Math.abs(r.createdAt.getTime() - Date.parse(adj.createdAt))).toBeLessThan(1000);
      }
    }
    await expectLedgerMatchesStock(f.t);

    const one = await get(`${A_}/${adj.id}`);
    expect(one.json().adjustment.totals.value).toBe(adj.totals.value);
    expect((await get(`${A_}/list`)).json()).toMatchObject({ total: 1, count: 1 });
  });

  it('refuses wrong signs, zero, unknown reasons, products and stores with a 422 naming the field; nothing written', async () => {
    const { A, U, main } = f;
    const create = (lines: unknown[], over: Record<string, unknown> = {}) => () => post(`${A_}/create`, { store: main, lines, ...over });
    const r = await refused(create([{ product: A.id, quantity: 1, reason: 'correction' }, { product: A.id, quantity: 2, reason: 'damage' }]), 422, ['lines[1].quantity']);
    expect(r.violations[0].message).toBe(ADJUSTMENT_MESSAGES.mustBeNegative('damage'));
    await refused(create([{ product: A.id, quantity: -2, reason: 'found' }]), 422, ['lines[0].quantity']);
    await refused(create([{ product: A.id, quantity: 0, reason: 'correction' }]), 422, ['lines[0].quantity']);
    await refused(create([{ product: A.id, quantity: -1, reason: 'gift' }]), 422, ['lines[0].reason']);
    await refused(create([{ product: A.id, quantity: -1, reason: 'damage' }, { product: U.id, quantity: -1, reason: 'damage' }]), 422, ['lines[1].product']);
    await refused(create([{ product: 999999, quantity: -1, reason: 'damage' }]), 422, ['lines[0].product']);
    await refused(create([{ product: A.id, variant: f.variants[0].id, quantity: -1, reason: 'damage' }]), 422, ['lines[0].variant']);
    await refused(create([{ product: A.id, quantity: -1, reason: 'damage' }], { store: 999 }), 422, ['store']);
    await refused(create([]), 422, ['lines']);
    await refused(() => post(`${A_}/create`, [1, 2]), 422, ['']);
    expect((await post(`${A_}/create`, { store: main, lines: [{ product: A.id, quantity: -1, reason: 'damage' }] }, f.cashier)).statusCode).toBe(403);
    expect((await get(`${A_}/list`, { authorization: 'Bearer nope' })).statusCode).toBe(401);
  });

  it('another store\'s adjustment is a 404 for a user of one store; a store outside the caller\'s is a 422', async () => {
    const created = await post('/api/admin/user/create', {
      username: 'mallkeeper', password: 'mallkeeper', displayName: 'Mall keeper', email: 'mk@example.com', roles: ['ROLE_ADMIN'], stores: [String(f.mall)],
    });
    expect(created.statusCode, created.body).toBeLessThan(300); // the user module answers 200 today
    const mallAdmin = await f.t.login('mallkeeper');
    const mainAdj = (await get(`${A_}/list`)).json().list[0];
    expect((await get(`${A_}/${mainAdj.id}`, mallAdmin)).statusCode).toBe(404);
    await refused(() => post(`${A_}/create`, { store: f.main, lines: [{ product: f.A.id, quantity: -1, reason: 'damage' }] }, mallAdmin), 422, ['store']);
    await refused(() => post('/api/admin/stock/transfer/create', { fromStore: f.mall, toStore: f.main, lines: [{ product: f.A.id, quantity: 1 }] }, mallAdmin), 422, ['toStore']);
    expect((await get(`${A_}/list`, mallAdmin)).json().total).toBe(0);
  });

  it('after transfers, a count with a sale during it and adjustments, the ledger sums to the stock of every row', async () => {
    const { A, B, main, mall } = f;
    const tr = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: A.id, quantity: 3 }, { product: B.id, quantity: 2 }] })).json().transfer;
    expect((await post(`/api/admin/stock/transfer/${tr.id}/send`, {})).statusCode).toBe(200);
    const count = (await post('/api/admin/stock/count/create', { store: main })).json().count;
    expect((await post(`/api/admin/stock/count/${count.id}/lines`, { lines: [{ product: A.id, quantity: 1 }] })).statusCode).toBe(200);
    await sell(f, A, 1);
    expect((await post(`/api/admin/stock/transfer/${tr.id}/receive`, { lines: [{ id: tr.lines[1].id, quantity: 1 }], lossReason: 'short' })).statusCode).toBe(200);
    expect((await post(`${A_}/create`, { store: mall, lines: [{ product: B.id, quantity: -1, reason: 'damage' }] })).statusCode).toBe(201);
    expect((await post(`/api/admin/stock/count/${count.id}/approve`, {})).statusCode).toBe(200);
    expect((await post(`/api/admin/stock/transfer/${tr.id}/receive`, {})).statusCode).toBe(409);
    await expectLedgerMatchesStock(f.t);
  });
});
