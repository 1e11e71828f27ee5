/**
 * Report roll-ups (modules/reports/rollups.ts): a range read from the roll-up of closed days plus
 * today live answers exactly what the live report answers (every group, JSON and CSV, top sellers
 * and slow movers), in two stores of different time zones; a sale moved into a rolled day, a void
 * and a restore of an old sale change the next report; two concurrent reports roll a day once.
 * The live reference is the same report with `live` (every day from the orders), served by a
 * route this test adds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { createStaff, createTestApp, type TestApp } from './helpers.ts';
import { category, order, productCategory, productVariant, reportDayDone, store } from '../src/db/schema/index.ts';
import { caller, can } from '../src/plugins/auth.ts';
import { flatQuery, limitOf, oneOf, reportScope, SALES_GROUPS } from '../src/modules/reports/reports.params.ts';
import { salesReport } from '../src/modules/reports/sales-report.ts';
import { productsReport } from '../src/modules/reports/products-report.ts';
import { sendSalesCsv } from '../src/modules/reports/reports.routes.ts';
import { rollClosedDays, scheduleRollups } from '../src/modules/reports/rollups.ts';
import { rowsOf } from '../src/db/raw.ts';
import { reportShop } from '../src/modules/reports/reports.fixtures.ts';

let t: TestApp;
let admin: Record<string, string>;
let mgr: Record<string, string>;
let main: number; // Pacific/Auckland (UTC+13 in March)
let mall: number; // America/Los_Angeles (UTC-7 in March)
let t1: number;
let m1: number;
let cash: number;
let card: number;
let P: number;
let T: number;
let V: { productId: number; id: number } | undefined;

const FROM = '2026-03-08';
const TO = '2026-03-12';
const utcDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Every store's local today lies in yesterday..tomorrow (UTC dates). */
const today = () => utcDay(1);

beforeAll(async () => {
  t = await createTestApp({
    beforeReady: (app) => {
      // The live reference: the same reports computed from the orders for every day.
      app.get('/test/live/sales', { config: { auth: 'reports.view' } }, async (request, reply) => {
        const q = flatQuery(request.query);
        const who = caller(request);
        const scope = await reportScope(app.db, who, q);
        const report = await salesReport(app.db, scope, oneOf(SALES_GROUPS, q.group, 'group', 'day'), can(who, 'cost.view'),
          scope.csv ? null : limitOf(q.limit, 500, 10_000), { live: true });
        return scope.csv ? sendSalesCsv(reply, report, can(who, 'cost.view')) : report;
      });
      app.get('/test/live/products', { config: { auth: 'reports.view' } }, async (request) => {
        const q = flatQuery(request.query);
        const who = caller(request);
        return productsReport(app.db, await reportScope(app.db, who, q), q.sort === 'slow' ? 'slow' : 'top', 20, can(who, 'cost.view'), { live: true });
      });
    },
  });
  admin = await t.login('admin');
  const db = t.app.db;
  const shop = await reportShop(db);
  ({ main, mall, t1, m1, cash, card } = shop);
  P = shop.plain[3];
  T = shop.taxed;
  await db.update(store).set({ timeZone: 'Pacific/Auckland', maxDiscountPercent: 100 }).where(eq(store.id, main));
  await db.update(store).set({ timeZone: 'America/Los_Angeles', maxDiscountPercent: 100 }).where(eq(store.id, mall));
  [V] = await db.select({ productId: productVariant.productId, id: productVariant.id }).from(productVariant).orderBy(asc(productVariant.id)).limit(1);
  const m = await createStaff(t, { username: 'rollmgr', role: 'manager', stores: [main, mall], displayName: 'Rolf' });
  mgr = await t.login('rollmgr', m.password);

  // Sales over five days in both stores, some at the edges of the stores' local days.
  const at = (day: number, hourUtc: number) => `2026-03-${String(day).padStart(2, '0')}T${String(hourUtc).padStart(2, '0')}:30:00Z`;
  let n = 0;
  for (let day = 7; day <= 13; day++) {
    for (const h of [0, 10, 11, 23]) {
      n++;
      const items = [{ item: n % 2 ? P : T, quantity: 1 + (n % 3) }, ...(n % 3 === 0 ? [{ item: T, quantity: 2, discount: 0.35 }] : [])];
      if (V && n % 4 === 0) items.push({ item: V.productId, variant: V.id, quantity: 1 } as never);
      const s = await sell(at(day, h), items, { storeId: n % 2 ? main : mall, terminalId: n % 2 ? t1 : m1, card: n % 5 === 0 ? 3 : 0, headers: n % 3 ? admin : mgr });
      if (n % 7 === 0) await sell(at(day, h + 0), [{ item: items[0].item, quantity: -1 }], { storeId: n % 2 ? main : mall, terminalId: n % 2 ? t1 : m1, refundingFrom: s.id });
    }
  }
}, 120_000);
afterAll(async () => { await t?.close(); });

type Line = { item: number; quantity: number; variant?: number; discount?: number };
async function sell(at: string | null, items: Line[], opts: { storeId: number; terminalId: number; card?: number; refundingFrom?: number; headers?: Record<string, string> }) {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: opts.headers ?? admin, payload: {
    items, payments: opts.refundingFrom ? [] : [...(opts.card ? [{ received: opts.card, type: card }] : []), { received: 1000, type: cash }],
    store: opts.storeId, terminal: opts.terminalId, refundingFrom: opts.refundingFrom,
  } });
  expect(res.statusCode, res.body).toBe(201);
  const o = res.json().order as { id: number };
  if (at) await t.app.db.update(order).set({ createdAt: new Date(at) }).where(eq(order.id, o.id));
  return o;
}

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: admin });
/** The report rolled and live, both answered 200; answers both bodies. */
async function both(path: 'sales' | 'products', query: string) {
  const rolled = await get(`/api/reports/${path}?${query}`);
  const live = await get(`/test/live/${path}?${query}`);
  expect(rolled.statusCode, rolled.body).toBe(200);
  expect(live.statusCode, live.body).toBe(200);
  return { rolled: rolled.body, live: live.body };
}
const doneDays = async () => (await t.app.db.select().from(reportDayDone).orderBy(asc(reportDayDone.storeId), asc(reportDayDone.day)))
  .map((d) => `${d.storeId}:${d.day}`);
const dayRow = async (day: string, storeId?: number) => JSON.parse((await get(`/api/reports/sales?group=day&from=${day}&to=${day}${storeId ? `&store=${storeId}` : ''}`)).body).totals;

describe('report roll-ups', () => {
  it('rolls the closed days of a range on its first report, once, and marks them', async () => {
    expect(await doneDays()).toEqual([]);
    const { rolled, live } = await both('sales', `group=day&from=${FROM}&to=${TO}`);
    expect(rolled).toBe(live);
    const days = ['08', '09', '10', '11', '12'].map((d) => `2026-03-${d}`);
    expect(await doneDays()).toEqual([...days.map((d) => `${main}:${d}`), ...days.map((d) => `${mall}:${d}`)]);
    expect(JSON.parse(rolled).totals.orders).toBeGreaterThan(10);
  });

  it.each(SALES_GROUPS)('group=%s: the rolled range is the live one, JSON and CSV, all stores and one', async (group) => {
    for (const q of [`group=${group}&from=${FROM}&to=${TO}`, `group=${group}&from=${FROM}&to=${TO}&store=${mall}`, `group=${group}&from=2026-03-01&to=${today()}`,
      `group=${group}&from=${FROM}&to=${TO}&limit=2`, `group=${group}&from=${FROM}&to=${TO}&format=csv`]) {
      const { rolled, live } = await both('sales', q);
      expect(rolled, q).toBe(live);
    }
  });

  it('top sellers and slow movers are the live ones', async () => {
    for (const sort of ['top', 'slow']) {
      const { rolled, live } = await both('products', `sort=${sort}&from=${FROM}&to=${TO}`);
      expect(rolled).toBe(live);
    }
  });

  it('merges today, read live, with the rolled days', async () => {
    const range = async () => JSON.parse((await get(`/api/reports/sales?group=day&from=${utcDay(-1)}&to=${utcDay(1)}`)).body).totals;
    const before = await range();
    await sell(null, [{ item: P, quantity: 2 }], { storeId: main, terminalId: t1 });
    const after = await range();
    expect(after.orders).toBe(before.orders + 1);
    for (const group of ['day', 'product', 'payment']) {
      const { rolled, live } = await both('sales', `group=${group}&from=2026-03-01&to=${today()}`);
      expect(rolled).toBe(live);
    }
  });

  it('a sale moved into a rolled day un-marks it and counts in the next report', async () => {
    const before = await dayRow('2026-03-10', mall);
    expect(await doneDays()).toContain(`${mall}:2026-03-10`);
    // 2026-03-10 12:00 in Los Angeles: an offline till's sale recorded late.
    await sell('2026-03-10T19:00:00Z', [{ item: T, quantity: 3 }], { storeId: mall, terminalId: m1 });
    expect(await doneDays()).not.toContain(`${mall}:2026-03-10`);
    expect(await doneDays()).toContain(`${main}:2026-03-10`);
    const after = await dayRow('2026-03-10', mall);
    expect(after.orders).toBe(before.orders + 1);
    expect(after.quantity).toBe(before.quantity + 3);
    expect(await doneDays()).toContain(`${mall}:2026-03-10`);
    const { rolled, live } = await both('sales', `group=hour&from=${FROM}&to=${TO}`);
    expect(rolled).toBe(live);
  });

  it('voiding and restoring an old sale change the next report', async () => {
    const [old] = rowsOf<{ id: number; total: string }>(await t.app.db.execute(sql`select id, total::text from "order"
      where store_id = ${main} and status = 'Completed' and returned_from_id is null and not is_returned
        and (created_at at time zone 'Pacific/Auckland')::date = '2026-03-09' order by id limit 1`));
    const before = await dayRow('2026-03-09', main);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/order/${old.id}`, headers: admin });
    expect(del.statusCode, del.body).toBe(200);
    const voided = await dayRow('2026-03-09', main);
    expect(voided.orders).toBe(before.orders - 1);
    expect(voided.gross).toBe(before.gross - Math.round(Number(old.total) * 100));
    const back = await t.app.inject({ method: 'POST', url: `/api/admin/order/restore/${old.id}`, headers: admin, payload: {} });
    expect([200, 204], back.body).toContain(back.statusCode);
    expect(await dayRow('2026-03-09', main)).toEqual(before);
    for (const group of SALES_GROUPS) {
      const { rolled, live } = await both('sales', `group=${group}&from=${FROM}&to=${TO}`);
      expect(rolled, group).toBe(live);
    }
  });

  it('two concurrent reports roll each day once', async () => {
    await t.app.db.execute(sql`delete from report_day_done`);
    await t.app.db.execute(sql`delete from report_day_sales`);
    const q = `/api/reports/sales?group=product&from=${FROM}&to=${TO}`;
    const [a, b] = await Promise.all([get(q), get(q)]);
    expect(a.body).toBe(b.body);
    expect((await doneDays()).length).toBe(10);
    const dup = rowsOf(await t.app.db.execute(sql`select store_id, day, kind, k1, k2, rate, count(*) from report_day_sales
      group by 1, 2, 3, 4, 5, 6 having count(*) > 1`));
    expect(dup).toEqual([]);
    expect(a.body).toBe((await get(`/test/live/sales?group=product&from=${FROM}&to=${TO}`)).body);
  });

  it('a store that changes its time zone has its days rolled again', async () => {
    await t.app.db.update(store).set({ timeZone: 'Asia/Tokyo' }).where(eq(store.id, mall));
    expect((await doneDays()).filter((d) => d.startsWith(`${mall}:`))).toEqual([]);
    const { rolled, live } = await both('sales', `group=day&from=${FROM}&to=${TO}`);
    expect(rolled).toBe(live);
  });

  it('the background pass rolls the closed days before any report asks (every process may run it)', async () => {
    await t.app.db.execute(sql`delete from report_day_done`);
    await t.app.db.execute(sql`delete from report_day_sales`);
    const errors: unknown[] = [];
    const stops = [0, 1].map(() => scheduleRollups(t.app.db, { firstAfterMs: 0, everyMs: 3_600_000, onError: (e) => errors.push(e) }));
    const deadline = Date.now() + 30_000;
    while (!(await doneDays()).includes(`${mall}:${utcDay(-2)}`) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await Promise.all(stops.map((stop) => stop()));
    expect(errors).toEqual([]);
    const done = await doneDays();
    for (const d of ['08', '09', '10', '11', '12']) expect(done).toEqual(expect.arrayContaining([`${main}:2026-03-${d}`, `${mall}:2026-03-${d}`]));
    // Two passes at once rolled each day once; the report then reads them and rolls nothing itself.
    const dup = rowsOf(await t.app.db.execute(sql`select store_id, day, kind, k1, k2, rate from report_day_sales group by 1, 2, 3, 4, 5, 6 having count(*) > 1`));
    expect(dup).toEqual([]);
    const { rolled, live } = await both('sales', `group=cashier&from=${FROM}&to=${TO}`);
    expect(rolled).toBe(live);
    expect(await doneDays()).toEqual(done);
  });

  it('a closed day\'s sales stay under the category the product had when the day was rolled; today\'s follow the product', async () => {
    const db = t.app.db;
    const [before, after] = await db.insert(category).values([{ name: 'Roll cat before' }, { name: 'Roll cat after' }]).returning({ id: category.id });
    const moveTo = async (id: number) => {
      await db.delete(productCategory).where(eq(productCategory.productId, P));
      await db.insert(productCategory).values({ productId: P, otherId: id });
    };
    await moveTo(before.id);
    await db.execute(sql`delete from report_day_done`);
    const range = `group=category&from=${FROM}&to=${TO}`;
    const rolledAt = await both('sales', range);
    expect(rolledAt.rolled).toBe(rolledAt.live);
    const sold = (body: string, id: number) => JSON.parse(body).rows.find((r: { key: string }) => r.key === String(id))?.quantity ?? 0;
    const quantity = sold(rolledAt.rolled, before.id);
    expect(quantity).toBeGreaterThan(0);
    // The product moves: the rolled days keep their category, the same days read live follow it.
    await moveTo(after.id);
    const moved = await both('sales', range);
    expect([sold(moved.rolled, before.id), sold(moved.rolled, after.id)]).toEqual([quantity, 0]);
    expect([sold(moved.live, before.id), sold(moved.live, after.id)]).toEqual([0, quantity]);
    expect(JSON.parse(moved.rolled).totals).toEqual(JSON.parse(moved.live).totals);
    // Today is read live: a sale of it now is under its category of now.
    await sell(null, [{ item: P, quantity: 2 }], { storeId: main, terminalId: t1 });
    const now = JSON.parse((await get(`/api/reports/sales?group=category&from=${utcDay(-1)}&to=${today()}`)).body);
    expect(now.rows.find((r: { key: string }) => r.key === String(after.id))?.quantity).toBeGreaterThanOrEqual(2);
    await db.delete(productCategory).where(eq(productCategory.productId, P));
  });

  it('a roll out of time stops after its first chunk: every request makes progress, none rolls for long, the answer is the same', async () => {
    await t.app.db.execute(sql`delete from report_day_done`);
    await t.app.db.execute(sql`delete from report_day_sales`);
    // Out of time at once: one chunk (a week of the first store) and no more; every request makes progress.
    expect(await rollClosedDays(t.app.db, { storeIds: [main, mall], from: FROM, to: TO }, { budgetMs: 0 })).toBe(5);
    expect(await doneDays()).toEqual(['08', '09', '10', '11', '12'].map((d) => `${main}:2026-03-${d}`));
    const { rolled, live } = await both('sales', `group=hour&from=${FROM}&to=${TO}`);
    expect(rolled).toBe(live);
  });
});
