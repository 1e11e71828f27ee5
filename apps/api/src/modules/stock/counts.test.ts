import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { product, productCategory, productStore } from '../../db/schema/index.ts';
import { expectLedgerMatchesStock, ledgerRows, sell, stockFixture, stockRequests, storeQty, type StockFixture } from './stock.fixtures.ts';
import { COUNT_MESSAGES } from './counts.service.ts';

let f: StockFixture;
beforeAll(async () => { f = await stockFixture(); });
afterAll(async () => { await f?.t.close(); });

const C = '/api/admin/stock/count';
const { post, get, refused } = stockRequests(() => f);


async function open(body: Record<string, unknown> = {}) {
  const res = await post(`${C}/create`, { store: f.main, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().count;
}

describe('stock counts while the shop sells', () => {
  it('concurrent scans add up; sales during the count are no variance; approval books counted - expected once', async () => {
    const { A, B, main } = f;
    expect(await storeQty(f.t, A.id, main)).toBe(50);
    const count = await open({ note: 'Saturday' });
    expect(count).toMatchObject({ status: 'open', number: 1, scope: 'full', store: { id: main }, createdBy: { username: 'admin' }, lines: [] });

    await sell(f, A, 1); // sold after the count opened, before A is counted: in A's expected
    // 7 people scan A at once, 7 each: 49 on the shelf.
    const scans = await Promise.all(Array.from({ length: 7 }, () => post(`${C}/${count.id}/lines`, { lines: [{ barcode: A.barcode, quantity: 7 }] })));
    expect(scans.map((r) => r.statusCode)).toEqual(Array(7).fill(200));
    await sell(f, A, 2); // sold after A was counted: left the shelf and the ledger alike

    // B by product id, in two requests: 18 found, 20 expected.
    for (const q of [10, 8]) expect((await post(`${C}/${count.id}/lines`, { lines: [{ product: `/api/products/${B.id}`, quantity: q }] })).statusCode).toBe(200);
    await sell(f, B, 1);

    const view = (await get(`${C}/${count.id}`)).json().count;
    const line = (id: number) => view.lines.find((l: any) => l.product.id === id);
    expect(line(A.id)).toMatchObject({ counted: 49, expected: 49, variance: 0, varianceValue: 0, scans: 7, current: 47, movedSinceFirstCount: -2, firstCountedBy: { username: 'admin' } });
    expect(line(B.id)).toMatchObject({ counted: 18, expected: 20, variance: -2, cost: 2.5, varianceValue: -5, scans: 2, current: 19, movedSinceFirstCount: -1 });
    expect(view.totals).toMatchObject({ lines: 2, variance: -2, varianceValue: -5 });
    expect(view.totals.uncounted).toBeGreaterThan(0);

    const approved = await post(`${C}/${count.id}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().count).toMatchObject({ status: 'approved', approvedBy: { username: 'admin' }, totals: { varianceValue: -5 } });
    expect(await storeQty(f.t, A.id, main)).toBe(47); // no false variance from the sales
    expect(await storeQty(f.t, B.id, main)).toBe(17); // 20 - 1 sold - 2 missing
    const rows = await ledgerRows(f.t, 'count');
    expect(rows.map((r) => [r.productId, r.storeId, r.quantity])).toEqual([[B.id, main, -2]]);
    expect(rows[0].userId).toEqual(expect.any(Number));
    await expectLedgerMatchesStock(f.t);

    // Approving twice, scanning or cancelling after approval: refused, nothing written.
    expect((await refused(() => post(`${C}/${count.id}/approve`, {}), 409)).message).toBe(COUNT_MESSAGES.notOpen('approved'));
    await refused(() => post(`${C}/${count.id}/lines`, { lines: [{ product: A.id, quantity: 1 }] }), 409);
    await refused(() => post(`${C}/${count.id}/cancel`, {}), 409);
  });

  it('a partial count only takes products of its scope; bad scans are a 422 naming the line', async () => {
    const { A, U, main } = f;
    const cats = await f.t.app.db.select().from(productCategory).where(eq(productCategory.productId, A.id));
    const inCat = new Set((await f.t.app.db.select().from(productCategory).where(eq(productCategory.otherId, cats[0].otherId))).map((x) => x.productId));
    const outside = (await f.t.app.db.select().from(product).where(eq(product.manageInventory, true))).find((p) => !inCat.has(p.id))!;
    expect(outside).toBeDefined();
    expect(cats.length).toBeGreaterThan(0);
    await refused(() => post(`${C}/create`, { store: main, scope: 'category' }), 422, ['scopeId']);
    await refused(() => post(`${C}/create`, { store: main, scope: 'category', scopeId: 999999 }), 422, ['scopeId']);
    await refused(() => post(`${C}/create`, { store: main, scope: 'aisle' }), 422, ['scope']);
    await refused(() => post(`${C}/create`, { store: 999 }), 422, ['store']);
    const count = await open({ scope: 'category', scopeId: cats[0].otherId });
    const lines = (body: unknown) => () => post(`${C}/${count.id}/lines`, body);
    await refused(lines({ lines: [{ product: A.id, quantity: 1 }, { product: U.id, quantity: 1 }] }), 422, ['lines[1].product']);
    const out = await refused(lines({ lines: [{ product: outside.id, quantity: 1 }] }), 422, ['lines[0].product']);
    expect(out.violations[0].message).toBe(COUNT_MESSAGES.outOfScope);
    await refused(lines({ lines: [{ barcode: 'no-such-code', quantity: 1 }] }), 422, ['lines[0].barcode']);
    await refused(lines({ lines: [{ barcode: A.barcode, product: A.id, quantity: 1 }] }), 422, ['lines[0].barcode']);
    await refused(lines({ lines: [{ product: A.id, quantity: -1 }] }), 422, ['lines[0].quantity']);
    await refused(lines({ lines: [] }), 422, ['lines']);
    expect((await post(`${C}/${count.id}/lines`, { lines: [{ product: A.id, quantity: 1 }] }, f.cashier)).statusCode).toBe(403);
    // A counted zero is a count too: the whole stock is missing.
    const ok = await post(`${C}/${count.id}/lines`, { lines: [{ product: A.id, quantity: 0 }] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().count.lines).toHaveLength(1);
    expect(ok.json().count.lines[0]).toMatchObject({ counted: 0, expected: await storeQty(f.t, A.id, main) });
    // Cancelled: nothing is booked.
    const before = await storeQty(f.t, A.id, main);
    const c = await post(`${C}/${count.id}/cancel`, {});
    expect(c.json().count).toMatchObject({ status: 'cancelled', cancelledBy: { username: 'admin' } });
    await refused(() => post(`${C}/${count.id}/approve`, {}), 409);
    expect(await storeQty(f.t, A.id, main)).toBe(before);
    await expectLedgerMatchesStock(f.t);
  });

  it('a location count takes the products shelved there (its start, any case; % and _ literal); a location needs the location scope', async () => {
    const { A, B, main } = f;
    const shelve = (id: number, location: string) => f.t.app.db.update(productStore).set({ location }).where(and(eq(productStore.productId, id), eq(productStore.storeId, main)));
    await shelve(A.id, 'a3-01');
    await shelve(B.id, 'B1-02');
    await refused(() => post(`${C}/create`, { store: main, scope: 'location' }), 422, ['location']);
    await refused(() => post(`${C}/create`, { store: main, scope: 'location', location: '   ' }), 422, ['location']);
    await refused(() => post(`${C}/create`, { store: main, scope: 'full', location: 'A3' }), 422, ['location']);
    await refused(() => post(`${C}/create`, { store: main, scope: 'location', location: 'A3', scopeId: 1 }), 422, ['scopeId']);
    const count = await open({ scope: 'location', location: 'A3-' });
    expect(count).toMatchObject({ scope: 'location', location: 'A3-', scopeId: null });
    expect((await post(`${C}/${count.id}/lines`, { lines: [{ product: A.id, quantity: 1 }] })).statusCode).toBe(200);
    const out = await refused(() => post(`${C}/${count.id}/lines`, { lines: [{ product: B.id, quantity: 1 }] }), 422, ['lines[0].product']);
    expect(out.violations[0].message).toBe(COUNT_MESSAGES.outOfScope);
    // A wildcard is a character like any other: '%' is no location here.
    const literal = await open({ scope: 'location', location: '%' });
    await refused(() => post(`${C}/${literal.id}/lines`, { lines: [{ product: A.id, quantity: 1 }] }), 422, ['lines[0].product']);
    for (const id of [count.id, literal.id]) expect((await post(`${C}/${id}/cancel`, {})).statusCode).toBe(200);
  });

  it('two approvals of one count at once: one books, the other is a 409', async () => {
    const { B, main } = f;
    const count = await open();
    expect((await post(`${C}/${count.id}/lines`, { lines: [{ product: B.id, quantity: 100 }] })).statusCode).toBe(200);
    const before = await storeQty(f.t, B.id, main);
    const both = await Promise.all([post(`${C}/${count.id}/approve`, {}), post(`${C}/${count.id}/approve`, {})]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await storeQty(f.t, B.id, main)).toBe(100);
    expect(before).not.toBe(100);
    await expectLedgerMatchesStock(f.t);
  });

  it('lists counts of the caller\'s stores; another store\'s count is a 404', async () => {
    const list = (await get(`${C}/list`)).json();
    expect(list.total).toBeGreaterThanOrEqual(3);
    expect(list.list.map((c: any) => c.number).sort()).toEqual(list.list.map((_: unknown, i: number) => i + 1));
    const mallCount = await open({ store: f.mall });
    expect((await get(`${C}/${mallCount.id}`, f.cashier)).statusCode).toBe(404); // the cashier works in main only
    expect((await get(`${C}/list?store=${f.mall}`, f.cashier)).json().total).toBe(0);
  });
});
