/**
 * Issues 25 + 26: a stock transfer's packing list printed on a network printer (the fake TCP
 * printer; its bytes decoded independently of our encoder): the transfer number, both stores, each
 * line's product and quantities, the cut; Arabic stores as a raster; who may print it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { decode, FakePrinter, pictures, printed } from '../../../test/fake-printer.ts';
import { printJob, product, store } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let printer: FakePrinter;
let printerId: number;
let narrowId: number;
let main: { id: number; name: string };
let mall: { id: number; name: string };
let milk: { id: number; name: string };

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  const db = t.app.db;
  [main, mall] = await db.select({ id: store.id, name: store.name }).from(store).orderBy(asc(store.id));
  // The first stock-tracked product (the demo stocks 20 or more of each in both stores).
  [milk] = await db.select({ id: product.id, name: product.name }).from(product).where(eq(product.manageInventory, true)).orderBy(asc(product.id)).limit(1);
  printer = await new FakePrinter().start();
  const d = await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Back room', ipAddress: '127.0.0.1', port: printer.port } });
  expect(d.statusCode, d.body).toBe(201);
  printerId = d.json().id;
  const n = await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Narrow', ipAddress: '127.0.0.1', port: printer.port, paperWidth: 58 } });
  expect(n.statusCode, n.body).toBe(201);
  narrowId = n.json().id;
});
afterAll(async () => { await printer?.stop(); await t?.close(); });

const post = (url: string, payload: unknown, headers = admin) => t.app.inject({ method: 'POST', url, headers, payload: payload as object });

async function transfer(quantity: number) {
  const res = await post('/api/admin/stock/transfer/create', { fromStore: main.id, toStore: mall.id, note: 'Friday van', lines: [{ product: milk.id, quantity }] });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().transfer as { id: number; number: number; lines: { id: number }[] };
}

async function printList(id: number, device: unknown = printerId, headers = admin) {
  const before = printer.jobs.length;
  const res = await post(`/api/print/transfer/${id}`, { device }, headers);
  return { res, bytes: res.statusCode === 201 ? await printer.job(before) : null };
}

describe('a transfer printed as a packing list', () => {
  it('names the transfer, both stores, each product with its quantities, and cuts; after receiving short: received, lost and why', async () => {
    const tr = await transfer(6);
    let { res, bytes } = await printList(tr.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'printed', kind: 'packing-list', opensDrawer: false });
    let text = printed(bytes!);
    expect(text).toContain('PACKING LIST');
    expect(text).toMatch(new RegExp(`Transfer# ${tr.number} `));
    expect(text).toMatch(new RegExp(`From +${main.name}\\n`));
    expect(text).toMatch(new RegExp(`To +${mall.name}\\n`));
    expect(text).toContain(milk.name);
    expect(text).toMatch(/Requested 6\n/);
    expect(text).toMatch(/Total quantity +6\n/);
    expect(text).toContain('Friday van');
    expect(decode(bytes!).cuts).toBe(1);
    expect(decode(bytes!).kicks).toBe(0);
    const [job] = await t.app.db.select().from(printJob).where(eq(printJob.id, res.json().id));
    expect(job).toMatchObject({ kind: 'packing-list', deviceId: printerId });

    expect((await post(`/api/admin/stock/transfer/${tr.id}/send`, {})).statusCode).toBe(200);
    const got = await post(`/api/admin/stock/transfer/${tr.id}/receive`, { lines: [{ id: tr.lines[0].id, quantity: 5 }], lossReason: 'one carton crushed' });
    expect(got.statusCode, got.body).toBe(200);
    ({ res, bytes } = await printList(tr.id, `/api/devices/${printerId}`));
    text = printed(bytes!);
    expect(text).toMatch(/ {2}Sent +6\n/);
    expect(text).toMatch(/ {2}Received +5\n/);
    expect(text).toMatch(/ {2}Lost +1\n/);
    expect(text).toMatch(/Total quantity +5\n/);
    expect(text).toContain('Reason: one carton crushed');
    expect(text).toMatch(/Received by +\S/);
  });

  it('fits 58 mm paper, and an Arabic sending store gets Arabic words as a picture of the paper width', async () => {
    const tr = await transfer(2);
    const narrow = await printList(tr.id, narrowId);
    expect(narrow.res.statusCode, narrow.res.body).toBe(201);
    const lines = printed(narrow.bytes!).split('\n');
    expect(lines.find((l) => l.startsWith('Total quantity'))).toHaveLength(32);

    const put = await t.app.inject({ method: 'PUT', url: `/api/stores/${main.id}`, headers: admin, payload: { locale: 'ar-SA' } });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const { res, bytes } = await printList(tr.id);
      expect(res.statusCode, res.body).toBe(201);
      expect(decode(bytes!).text).not.toMatch(/[A-Za-z?]/);
      expect(pictures(bytes!)[0].width).toBe(576);
      expect(decode(bytes!).cuts).toBe(1);
    } finally {
      await t.app.inject({ method: 'PUT', url: `/api/stores/${main.id}`, headers: admin, payload: { locale: 'en-US' } });
    }
  });

  it('bad device: 422 naming it; another store\'s transfer: 404; without the stock permission: 403; signed out: 401', async () => {
    const tr = await transfer(1);
    for (const device of ['printer', 999999, null]) {
      const { res } = await printList(tr.id, device);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().violations[0].propertyPath).toBe('device');
    }
    expect((await printList(999999)).res.statusCode).toBe(404);
    const other = await post('/api/stores', { name: 'Harbour' });
    expect(other.statusCode, other.body).toBe(201);
    const role = (await post('/api/roles', { name: 'Stock keeper', permissions: ['purchasing'] })).json().role;
    const keeper = await createStaff(t, { username: 'keeper1', role: role.id, stores: [other.json().id] });
    const keeperH = await t.login('keeper1', keeper.password);
    expect((await printList(tr.id, printerId, keeperH)).res.statusCode).toBe(404);
    expect((await printList(tr.id, printerId, await t.login('cashier'))).res.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: `/api/print/transfer/${tr.id}`, payload: { device: printerId } })).statusCode).toBe(401);
  });
});
