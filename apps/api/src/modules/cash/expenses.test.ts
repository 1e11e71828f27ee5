import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { expense, store } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let main: number;
let mall: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  const stores = await t.app.db.select().from(store).orderBy(asc(store.id));
  [main, mall] = [stores[0].id, stores[1].id];
});
afterAll(async () => { await t?.close(); });

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, headers = cashier) =>
  t.app.inject({ method, url, payload: payload as any, headers });
const count = async () => Number((await t.app.db.select({ n: sql<number>`count(*)::int` }).from(expense))[0].n);
/** "yyyy-MM-ddTHH:mm" in local time, as the expenses dialog sends its range. */
const local = (d: Date) => new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

describe('expenses', () => {
  it('a cashier records petty cash for their store; the answer is {expense}', async () => {
    const res = await inject('POST', '/api/admin/expense/create', { description: 'Milk for the office', amount: '12.50', dateTime: new Date().toISOString(), store: main });
    expect(res.statusCode, res.body).toBe(201);
    const { expense: e } = res.json();
    expect(e).toMatchObject({ amount: 12.5, description: 'Milk for the office', store: { id: main }, user: { username: 'cashier' } });
    expect(typeof e.id).toBe('number');
    expect(Date.parse(e.createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('validation: description and a positive amount required, a store of the caller; nothing written', async () => {
    const before = await count();
    const cases: [unknown, string[]][] = [
      [{ store: main }, ['description', 'amount']],
      [{ description: 'x', amount: 'ten', store: main }, ['amount']],
      [{ description: 'x', amount: '0', store: main }, ['amount']],
      [{ description: '  ', amount: '-3', store: main }, ['description', 'amount']],
      [{ description: 'x', amount: '1' }, ['store']],
      [{ description: 'x', amount: '1', store: mall }, ['store']],
    ];
    for (const [payload, paths] of cases) {
      const res = await inject('POST', '/api/admin/expense/create', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().violations.map((v: any) => v.propertyPath)).toEqual(paths);
    }
    expect((await inject('POST', '/api/admin/expense/create', { description: 'x', amount: '' , store: main })).json().violations[0].message).toBe('This value should not be blank.');
    expect(await count()).toBe(before);
  });

  it('lists by store and time range, newest first, amounts as numbers; store "undefined" means the caller stores', async () => {
    await inject('POST', '/api/admin/expense/create', { description: 'Stamps', amount: 3, store: main });
    await inject('POST', '/api/admin/expense/create', { description: 'Mall cleaning', amount: '7.25', store: mall }, admin);
    const now = new Date();
    const from = local(new Date(now.getFullYear(), now.getMonth(), now.getDate()));
    const to = local(new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59));
    const res = await inject('GET', `/api/admin/expense/list?dateTimeFrom=${from}&dateTimeTo=${to}&orderBy=id&orderMode=DESC&store=${main}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.list.map((e: any) => e.description)).toEqual(['Stamps', 'Milk for the office']);
    expect(body.list.map((e: any) => e.amount)).toEqual([3, 12.5]);
    expect(body.total).toBe(2);
    expect(body.list.reduce((a: number, e: any) => a + e.amount, 0)).toBe(15.5);

    const mine = (await inject('GET', '/api/admin/expense/list?store=undefined&orderBy=id&orderMode=ASC')).json();
    expect(mine.list.map((e: any) => e.store.id)).toEqual([main, main]);
    const all = (await inject('GET', '/api/admin/expense/list?store=undefined', undefined, admin)).json();
    expect(all.total).toBe(3);
    expect((await inject('GET', `/api/admin/expense/list?store=${mall}`)).statusCode).toBe(422);
    const future = (await inject('GET', `/api/admin/expense/list?dateTimeFrom=${encodeURIComponent(new Date(Date.now() + 3_600_000).toISOString())}&store=${main}`)).json();
    expect(future.list).toEqual([]);
    expect((await inject('GET', '/api/admin/expense/list?dateTimeFrom=notadate')).statusCode).toBe(422);
  });

  it('delete is admin-only and soft', async () => {
    const { expense: e } = (await inject('POST', '/api/admin/expense/create', { description: 'typo', amount: '1', store: main })).json();
    expect((await inject('DELETE', `/api/admin/expense/${e.id}`)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/admin/expense/${e.id}`, undefined, admin)).statusCode).toBe(200);
    expect((await inject('GET', `/api/admin/expense/${e.id}`)).statusCode).toBe(404);
    const list = (await inject('GET', `/api/admin/expense/list?store=${main}`)).json();
    expect(list.list.map((x: any) => x.id)).not.toContain(e.id);
    expect(await count()).toBeGreaterThan(0); // the row stays
  });
});
