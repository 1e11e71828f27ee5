import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerMatchesStock, hasStoreRow, ledgerRows, stockFixture, stockRequests, storeQty, variantQty, variantStoreQty, type StockFixture } from './stock.fixtures.ts';
import { TRANSFER_MESSAGES } from './transfers.service.ts';

let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const T = '/api/admin/stock/transfer';
const { post, get, refused } = stockRequests(() => f);

async function request(lines: unknown[], over: Record<string, unknown> = {}) {
  const res = await post(`${T}/create`, { fromStore: f.main, toStore: `/api/stores/${f.mall}`, note: 'weekly', lines, ...over });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().transfer;
}


describe('transfers: request -> send -> receive through the ledger', () => {
  it('moves stock out of the sending store at sending (in transit), into the receiving store at receiving', async () => {
    const { A, B, main, mall } = f;
    const b0 = await storeQty(f.t, B.id, mall);
    expect(await hasStoreRow(f.t, B.id, mall)).toBe(false); // B is not stocked in the mall yet
    const tr = await request([{ product: A.id, quantity: 8 }, { product: `/api/products/${B.id}`, quantity: '2.5' }]);
    expect(tr).toMatchObject({ status: 'requested', number: 1, fromStore: { id: main }, toStore: { id: mall }, note: 'weekly', requestedBy: { username: 'admin' } });
    expect(tr.lines.map((l: any) => [l.product.id, l.requested, l.sent, l.inTransit])).toEqual([[A.id, 8, null, 0], [B.id, 2.5, null, 0]]);
    expect(await storeQty(f.t, A.id, main)).toBe(50); // a request moves nothing

    const sent = await post(`${T}/${tr.id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    const s = sent.json().transfer;
    expect(s).toMatchObject({ status: 'sent', sentBy: { username: 'admin' }, totals: { sent: 10.5, inTransit: 10.5, received: 0 } });
    expect(s.sentAt).toEqual(expect.any(String));
    expect(await storeQty(f.t, A.id, main)).toBe(42);
    expect(await storeQty(f.t, B.id, main)).toBe(17.5);
    expect(await storeQty(f.t, A.id, mall)).toBe(5); // in transit: neither store's
    expect((await ledgerRows(f.t, 'transfer_out')).map((r) => [r.productId, r.storeId, r.quantity])).toEqual([[A.id, main, -8], [B.id, main, -2.5]]);
    await expectLedgerMatchesStock(f.t);

    const got = await post(`${T}/${tr.id}/receive`, {});
    expect(got.statusCode, got.body).toBe(200);
    expect(got.json().transfer).toMatchObject({ status: 'received', receivedBy: { username: 'admin' }, lossReason: null, totals: { received: 10.5, lost: 0, inTransit: 0 } });
    expect(await storeQty(f.t, A.id, mall)).toBe(13);
    expect(await storeQty(f.t, B.id, mall)).toBe(b0 + 2.5); // its store row was created
    expect((await ledgerRows(f.t, 'transfer_in')).map((r) => [r.productId, r.storeId, r.quantity])).toEqual([[A.id, mall, 8], [B.id, mall, 2.5]]);
    await expectLedgerMatchesStock(f.t);

    // Received twice: refused, nothing moves.
    const again = await refused(() => post(`${T}/${tr.id}/receive`, {}), 409);
    expect(again.message).toBe('This transfer is already received.');
    await refused(() => post(`${T}/${tr.id}/send`, {}), 409);
    await refused(() => post(`${T}/${tr.id}/cancel`, {}), 409);
  });

  it('receiving less than sent books the difference as lost with its reason; a variant moves its store rows and the product\'s', async () => {
    const { A, V, variants, main, mall } = f;
    const before = {
      a: await storeQty(f.t, A.id, main), am: await storeQty(f.t, A.id, mall), v: await storeQty(f.t, V.id, main), vm: await storeQty(f.t, V.id, mall), v0: await variantQty(f.t, variants[0].id),
      v0main: await variantStoreQty(f.t, variants[0].id, main), v0mall: await variantStoreQty(f.t, variants[0].id, mall),
    };
    const tr = await request([{ product: A.id, quantity: 6 }, { product: V.id, variant: variants[0].id, quantity: 3 }]);
    expect(tr.lines[1].variant).toMatchObject({ id: variants[0].id });
    // Send less of A than requested.
    const s = await post(`${T}/${tr.id}/send`, { lines: [{ id: tr.lines[0].id, quantity: 5 }] });
    expect(s.statusCode, s.body).toBe(200);
    expect(s.json().transfer.lines.map((l: any) => [l.requested, l.sent, l.inTransit])).toEqual([[6, 5, 5], [3, 3, 3]]);
    // Receive 4 of 5: the reason is required for the missing one.
    await refused(() => post(`${T}/${tr.id}/receive`, { lines: [{ id: tr.lines[0].id, quantity: 4 }] }), 422, ['lossReason']);
    await refused(() => post(`${T}/${tr.id}/receive`, { lines: [{ id: tr.lines[0].id, quantity: 6 }] }), 422, ['lines[0].quantity']);
    await refused(() => post(`${T}/${tr.id}/receive`, { lines: [{ id: 999999, quantity: 1 }] }), 422, ['lines[0].id']);
    const r = await post(`${T}/${tr.id}/receive`, { lines: [{ id: tr.lines[0].id, quantity: 4 }], lossReason: 'broken in the van' });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().transfer).toMatchObject({ lossReason: 'broken in the van', totals: { sent: 8, received: 7, lost: 1, inTransit: 0 } });
    expect(r.json().transfer.lines.map((l: any) => [l.sent, l.received, l.lost])).toEqual([[5, 4, 1], [3, 3, 0]]);
    expect(await storeQty(f.t, A.id, main)).toBe(before.a - 5);
    expect(await storeQty(f.t, A.id, mall)).toBe(before.am + 4);
    expect(await storeQty(f.t, V.id, main)).toBe(before.v - 3);
    expect(await storeQty(f.t, V.id, mall)).toBe(before.vm + 3);
    expect(await variantStoreQty(f.t, variants[0].id, main)).toBe(before.v0main - 3);
    expect(await variantStoreQty(f.t, variants[0].id, mall)).toBe(before.v0mall + 3);
    expect(await variantQty(f.t, variants[0].id)).toBe(before.v0); // the variant's total over the stores: unchanged by a move between stores
    await expectLedgerMatchesStock(f.t);
  });

  it('refuses bad requests with a 422 naming the field and writes nothing', async () => {
    const { A, U, main, mall } = f;
    const ok = { fromStore: main, toStore: mall };
    const create = (body: unknown) => () => post(`${T}/create`, body);
    await refused(create({ ...ok, lines: [{ product: A.id, quantity: 0 }] }), 422, ['lines[0].quantity']);
    await refused(create({ ...ok, lines: [{ product: A.id, quantity: -2 }] }), 422, ['lines[0].quantity']);
    await refused(create({ ...ok, lines: [] }), 422, ['lines']);
    await refused(create({ fromStore: main, toStore: main, lines: [{ product: A.id, quantity: 1 }] }), 422, ['toStore']);
    await refused(create({ fromStore: main, toStore: 999, lines: [{ product: A.id, quantity: 1 }] }), 422, ['toStore']);
    await refused(create({ ...ok, lines: [{ product: A.id, quantity: 1 }, { product: 999999, quantity: 1 }] }), 422, ['lines[1].product']);
    await refused(create({ ...ok, lines: [{ product: U.id, quantity: 1 }] }), 422, ['lines[0].product']);
    await refused(create({ ...ok, lines: [{ product: A.id, quantity: 1 }, { product: A.id, quantity: 2 }] }), 422, ['lines[1].product']);
    await refused(create({ ...ok, lines: [{ product: A.id, variant: f.variants[0].id, quantity: 1 }] }), 422, ['lines[0].variant']);
    // N has no row in the mall: the mall cannot send it (checked at request, again at sending).
    const lacks = await refused(create({ fromStore: mall, toStore: main, lines: [{ product: A.id, quantity: 1 }, { product: f.N.id, quantity: 1 }] }), 422, ['lines[1].product']);
    expect(lacks.violations[0].message).toBe(TRANSFER_MESSAGES.notStocked);
    // Cashier (not admin): 403.
    expect((await post(`${T}/create`, { ...ok, lines: [{ product: A.id, quantity: 1 }] }, f.cashier)).statusCode).toBe(403);
  });

  it('cannot send more than the sending store has, nor a cancelled transfer', async () => {
    const { B, main } = f;
    const have = await storeQty(f.t, B.id, main);
    const tr = await request([{ product: B.id, quantity: have + 1 }]);
    const r = await refused(() => post(`${T}/${tr.id}/send`, {}), 422, ['lines[0].quantity']);
    expect(r.violations[0].message).toBe(TRANSFER_MESSAGES.moreThanStock(have * 1000));
    await refused(() => post(`${T}/${tr.id}/receive`, {}), 409); // not sent yet
    const c = await post(`${T}/${tr.id}/cancel`, {});
    expect(c.statusCode, c.body).toBe(200);
    expect(c.json().transfer).toMatchObject({ status: 'cancelled', cancelledBy: { username: 'admin' } });
    const s = await refused(() => post(`${T}/${tr.id}/send`, {}), 409);
    expect(s.message).toBe(TRANSFER_MESSAGES.notRequested('cancelled'));
    await refused(() => post(`${T}/${tr.id}/receive`, {}), 409);
    await expectLedgerMatchesStock(f.t);
  });

  it('two receipts of one transfer at once: one books, the other is a 409', async () => {
    const { A, main, mall } = f;
    const tr = await request([{ product: A.id, quantity: 2 }]);
    expect((await post(`${T}/${tr.id}/send`, {})).statusCode).toBe(200);
    const before = await storeQty(f.t, A.id, mall);
    const both = await Promise.all([post(`${T}/${tr.id}/receive`, {}), post(`${T}/${tr.id}/receive`, {})]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await storeQty(f.t, A.id, mall)).toBe(before + 2);
    expect(await storeQty(f.t, A.id, main)).toBeGreaterThanOrEqual(0);
    await expectLedgerMatchesStock(f.t);
  });

  it('numbers per sending store without gaps; lists and packing lists are store-scoped', async () => {
    const list = await get(`${T}/list?store=${f.main}`);
    expect(list.statusCode).toBe(200);
    const numbers = list.json().list.filter((x: any) => x.fromStore.id === f.main).map((x: any) => x.number).sort((a: number, b: number) => a - b);
    expect(numbers).toEqual(numbers.map((_: number, i: number) => i + 1));
    const one = list.json().list[0];
    const pack = await get(`${T}/${one.id}`, f.cashier); // the cashier works in main: may read it
    expect(pack.statusCode).toBe(200);
    expect(pack.json().transfer.lines[0]).toMatchObject({ product: { id: expect.any(Number), name: expect.any(String) } });
    expect((await get(`${T}/99999`)).statusCode).toBe(404);
    expect((await get(`${T}/list?store=99999`)).json().total).toBe(0);
  });
});
