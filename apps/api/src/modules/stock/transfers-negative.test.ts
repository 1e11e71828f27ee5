import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerMatchesStock, hasStoreRow, ledgerRows, stockFixture, stockRequests, storeQty, type StockFixture } from './stock.fixtures.ts';
import { TRANSFER_MESSAGES } from './transfers.service.ts';

/**
 * Negative stock by setting (issue 25.1): a store's `allowNegativeStock` (off by default) lets a
 * transfer from it request a product it does not stock and send more than it has; off, both are
 * refused with a 422 naming the line, nothing written.
 */
let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const T = '/api/admin/stock/transfer';
const { post, get, refused } = stockRequests(() => f);
const setNegative = (storeId: number, value: unknown) => f.t.app.inject({ method: 'PUT', url: `/api/stores/${storeId}`, headers: f.admin, payload: { allowNegativeStock: value } });

describe('transfers and the store setting allowNegativeStock', () => {
  it('is off by default: a product the sending store lacks and more than its stock are refused', async () => {
    const { A, N, mall, main } = f;
    expect((await get(`/api/stores/${mall}`)).json()).toMatchObject({ id: mall, allowNegativeStock: false });
    const lacks = await refused(() => post(`${T}/create`, { fromStore: mall, toStore: main, lines: [{ product: N.id, quantity: 1 }] }), 422, ['lines[0].product']);
    expect(lacks.violations[0].message).toBe(TRANSFER_MESSAGES.notStocked);
    const tr = (await post(`${T}/create`, { fromStore: mall, toStore: main, lines: [{ product: A.id, quantity: 8 }] })).json().transfer;
    const more = await refused(() => post(`${T}/${tr.id}/send`, {}), 422, ['lines[0].quantity']);
    expect(more.violations[0].message).toBe(TRANSFER_MESSAGES.moreThanStock(5000));
    expect((await post(`${T}/${tr.id}/cancel`)).statusCode).toBe(200);
  });

  it('on: sends more than the store has (its stock goes negative, ledger rows written), also a product it does not stock', async () => {
    const { A, N, mall, main } = f;
    const on = await setNegative(mall, true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ allowNegativeStock: true });
    const before = { a: await storeQty(f.t, A.id, mall), am: await storeQty(f.t, A.id, main), n: await storeQty(f.t, N.id, main) };
    expect(await hasStoreRow(f.t, N.id, mall)).toBe(false);
    const created = await post(`${T}/create`, { fromStore: mall, toStore: main, lines: [{ product: A.id, quantity: 8 }, { product: N.id, quantity: 2 }] });
    expect(created.statusCode, created.body).toBe(201);
    const tr = created.json().transfer;
    const sent = await post(`${T}/${tr.id}/send`, {});
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await storeQty(f.t, A.id, mall)).toBe(before.a - 8);
    expect(before.a - 8).toBeLessThan(0);
    expect(await storeQty(f.t, N.id, mall)).toBe(-2);
    expect((await ledgerRows(f.t, 'transfer_out')).filter((r) => r.storeId === mall).map((r) => [r.productId, r.quantity])).toEqual([[A.id, -8], [N.id, -2]]);
    await expectLedgerMatchesStock(f.t);
    expect((await post(`${T}/${tr.id}/receive`, {})).statusCode).toBe(200);
    expect(await storeQty(f.t, A.id, main)).toBe(before.am + 8);
    expect(await storeQty(f.t, N.id, main)).toBe(before.n + 2);
    await expectLedgerMatchesStock(f.t);
  });

  it('off again: refused again; a setting that is not a boolean is a 422 naming it', async () => {
    const { A, mall, main } = f;
    expect((await setNegative(mall, false)).json()).toMatchObject({ allowNegativeStock: false });
    const tr = (await post(`${T}/create`, { fromStore: mall, toStore: main, lines: [{ product: A.id, quantity: 1 }] })).json().transfer;
    await refused(() => post(`${T}/${tr.id}/send`, {}), 422, ['lines[0].quantity']);
    const bad = await setNegative(mall, 'maybe');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations.map((v: any) => v.propertyPath)).toEqual(['allowNegativeStock']);
    expect((await get(`/api/stores/${mall}`)).json()).toMatchObject({ allowNegativeStock: false });
  });
});
