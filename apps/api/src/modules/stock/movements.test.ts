import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaff } from '../../../test/helpers.ts';
import { parseCsv } from '../../lib/csv.ts';
import { sell, stockFixture, stockRequests, type StockFixture } from './stock.fixtures.ts';

/**
 * One product's movement history names the document of every row (issue 25.6): a sale's order,
 * and the transfer, count or adjustment of the stock documents (kind, id, number); and answers the
 * same rows as CSV, amounts in major units, the cost only for 'cost.view'.
 */
let f: StockFixture;
const docs = { adjustment: 0, count: 0, transfer: 0, order: 0, transferNumber: 0, countNumber: 0 };
beforeAll(async () => {
  f = await stockFixture();
  const { A, main, mall } = f;
  const adj = await post('/api/admin/stock/adjustment/create', { store: main, lines: [{ product: A.id, quantity: -1, reason: 'damage' }, { product: A.id, quantity: 3, reason: 'found' }] });
  docs.adjustment = adj.json().adjustment.id;
  const count = (await post('/api/admin/stock/count/create', { store: main })).json().count;
  await post(`/api/admin/stock/count/${count.id}/lines`, { lines: [{ product: A.id, quantity: 50 }] });
  expect((await post(`/api/admin/stock/count/${count.id}/approve`)).statusCode).toBe(200);
  docs.count = count.id; docs.countNumber = count.number;
  const tr = (await post('/api/admin/stock/transfer/create', { fromStore: main, toStore: mall, lines: [{ product: A.id, quantity: 4 }] })).json().transfer;
  await post(`/api/admin/stock/transfer/${tr.id}/send`, {});
  await post(`/api/admin/stock/transfer/${tr.id}/receive`, {});
  docs.transfer = tr.id; docs.transferNumber = tr.number;
  docs.order = (await sell(f, A, 2)).id;
});
afterAll(async () => { await f?.t.close(); });

const { post, get } = stockRequests(() => f);

describe('the movement history of one product: documents and CSV', () => {
  it('every transfer, count and adjustment row carries its document (kind, id, number); a sale its order', async () => {
    const { A, main, mall } = f;
    const h = (await get(`/api/stock/movements?product=${A.id}&store=${main}&itemsPerPage=200`)).json();
    const rows = h.list.map((m: any) => [m.reason, m.quantity, m.document]);
    expect(rows).toEqual([
      ['sale', -2, { kind: 'order', id: docs.order, number: expect.any(Number) }],
      ['transfer_out', -4, { kind: 'transfer', id: docs.transfer, number: docs.transferNumber }],
      // 50 - 1 + 3 = 52 expected at the count's first scan, 50 counted.
      ['count', -2, { kind: 'count', id: docs.count, number: docs.countNumber }],
      ['found', 3, { kind: 'adjustment', id: docs.adjustment, number: 1 }],
      ['damage', -1, { kind: 'adjustment', id: docs.adjustment, number: 1 }],
      ['adjustment', expect.any(Number), null], // the fixture's stock (a product edit: no document)
      ['opening', expect.any(Number), null], // the demo shop's opening stock
    ]);
    expect(h.list[0].order).toEqual({ id: docs.order, number: h.list[0].document.number });
    const inMall = (await get(`/api/stock/movements?product=${A.id}&store=${mall}`)).json();
    expect(inMall.list[0]).toMatchObject({ reason: 'transfer_in', quantity: 4, document: { kind: 'transfer', id: docs.transfer, number: docs.transferNumber } });
  });

  it('format=csv: every row of the range with its document, quantities and the unit cost in major units', async () => {
    const { A, main } = f;
    const json = (await get(`/api/stock/movements?product=${A.id}&store=${main}&itemsPerPage=2`)).json();
    const res = await get(`/api/stock/movements?product=${A.id}&store=${main}&itemsPerPage=2&format=csv`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="stock-movements-[\w.-]+\.csv"$/);
    const csv = parseCsv(res.body).rows;
    expect(csv[0]).toEqual(['Time', 'Store', 'Reason', 'Document', 'Document number', 'Document ID', 'User', 'Quantity', 'Balance', 'Unit cost', 'Currency']);
    expect(csv.length - 1).toBe(json.total); // every row, not one page
    expect(csv[1]).toEqual([json.list[0].at, json.list[0].store.name, 'sale', 'order', String(json.list[0].document.number), String(docs.order), 'Cashier', '-2', String(json.list[0].balance), '6.00', 'USD']);
    expect(csv[2].slice(2, 9)).toEqual(['transfer_out', 'transfer', String(docs.transferNumber), String(docs.transfer), 'Admin', '-4', String(json.list[1].balance)]);
    expect(csv.find((r) => r[2] === 'count')!.slice(3, 6)).toEqual(['count', String(docs.countNumber), String(docs.count)]);
    expect(csv.filter((r) => r[3] === 'adjustment').map((r) => r[2])).toEqual(['found', 'damage']);
  });

  it("without 'cost.view' the CSV has no cost; bad parameters are a 422 naming them; a cashier is refused", async () => {
    const { A, main } = f;
    const role = await f.t.app.inject({ method: 'POST', url: '/api/roles', headers: f.admin, payload: { name: 'Stock clerk', permissions: ['purchasing'] } });
    expect(role.statusCode, role.body).toBe(201);
    const u = await createStaff(f.t, { username: 'clerk', role: role.json().role.id, stores: [main] });
    const clerk = await f.t.login('clerk', u.password);
    const csv = parseCsv((await get(`/api/stock/movements?product=${A.id}&format=csv`, clerk)).body).rows;
    expect(csv[0]).toEqual(['Time', 'Store', 'Reason', 'Document', 'Document number', 'Document ID', 'User', 'Quantity', 'Balance']);
    expect(csv.every((r) => r.length === 9)).toBe(true);
    for (const [q, field] of [[`product=${A.id}&format=pdf`, 'format'], [`format=csv`, 'product'], [`product=${A.id}&format=csv&store=999`, 'store']] as const) {
      const bad = await get(`/api/stock/movements?${q}`);
      expect(bad.statusCode, q).toBe(422);
      expect(bad.json().violations.map((v: any) => v.propertyPath)).toEqual([field]);
    }
    expect((await get(`/api/stock/movements?product=${A.id}&format=csv`, f.cashier)).statusCode).toBe(403);
    expect((await get('/api/stock/movements?product=999999&format=csv')).statusCode).toBe(404);
  });
});
