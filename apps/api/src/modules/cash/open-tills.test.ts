import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { store, terminal } from '../../db/schema/index.ts';

/** Issue 23: the back office's dashboard lists the open tills (day started, not closed) of the caller's stores. */
let t: TestApp;
let owner: Record<string, string>;
let mallOnly: Record<string, string>;
let main: number;
let t1: number;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.login('admin');
  const stores = await t.app.db.select().from(store).orderBy(asc(store.id));
  main = stores[0].id;
  t1 = (await t.app.db.select().from(terminal)).find((x) => x.code === 'T1' && x.storeId === main)!.id;
  const staff = await createStaff(t, { username: 'mallonly', role: 'cashier', stores: [stores[1].id] });
  mallOnly = await t.login('mallonly', staff.password);
});
afterAll(async () => { await t?.close(); });

const open = (headers: Record<string, string>) => t.app.inject({ method: 'GET', url: '/api/admin/closing/open', headers });

describe('GET /api/admin/closing/open', () => {
  it('lists a till once its day is started, and no more once it is closed', async () => {
    expect((await open(owner)).json()).toEqual({ list: [], count: 0 });
    const opened = await t.app.inject({ method: 'GET', url: `/api/admin/closing/opened?store=${main}&terminal=${t1}`, headers: owner });
    const id = opened.json().closing.id as number;
    // Looked at but not started: not an open till yet.
    expect((await open(owner)).json().count).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/closing/${id}`, headers: owner, payload: { openingBalance: 100, updateOnly: true } })).statusCode).toBe(200);
    const answer = (await open(owner)).json();
    expect(answer.count).toBe(1);
    expect(answer.list[0]).toMatchObject({ closing: id, store: { id: main, name: 'Main Street' }, terminal: { id: t1, code: 'T1' }, openedBy: expect.any(String) });
    expect(Number.isNaN(Date.parse(answer.list[0].openedAt))).toBe(false);
    // Another store's clerk does not see Main Street's till.
    expect((await open(mallOnly)).json().count).toBe(0);
    expect((await t.app.inject({ method: 'POST', url: `/api/admin/closing/${id}`, headers: owner, payload: { closingBalance: 100 } })).statusCode).toBe(200);
    expect((await open(owner)).json().count).toBe(0);
  });

  it('refuses a caller who is not signed in', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/closing/open' })).statusCode).toBe(401);
  });
});
