/**
 * The customer credit the database keeps (customer_credit, customer_credit_day: migration 0021)
 * for the balances with ageing: after every kind of write a shop makes — credit sales, split
 * tenders, a partial and a full return, a void and its restore, customer payments, an order moved
 * to another day or customer, a payment type that stops being credit, a store that changes its
 * time zone, an order and a customer deleted — the kept sums are those computed from the rows
 * again, and the report read from them is the one read from every credit payment.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { customer, order, paymentType, product, productTax, store, terminal } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/raw.ts';
import { caller } from '../../plugins/auth.ts';
import { customerBalancesFromItems } from './balances-report.ts';
import { flatQuery, storesOf } from './reports.params.ts';

let t: TestApp;
let admin: Record<string, string>;
let main: number;
let terminalId: number;
let credit: number;
let cash: number;
let P: number;
let X: number;
let Y: number;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp({
    beforeReady: (app) => {
      // The reference: the same report from every credit payment joined to its order.
      app.get('/test/customers-from-items', { config: { auth: 'reports.view' } }, async (request) => {
        const who = caller(request);
        const q = flatQuery(request.query);
        return customerBalancesFromItems(app.db, who, await storesOf(app.db, who, q.store === undefined ? undefined : Number(q.store)));
      });
    },
  });
  admin = await t.login('admin');
  const db = t.app.db;
  [main] = (await db.select().from(store).orderBy(asc(store.id))).map((s) => s.id);
  terminalId = (await db.select().from(terminal)).find((x) => x.code === 'T1')!.id;
  const pays = await db.select().from(paymentType);
  credit = pays.find((p) => p.type === 'credit')!.id;
  cash = pays.find((p) => p.type === 'cash')!.id;
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  P = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !taxed.has(p.id) && !p.manageInventory)[3].id;
  await db.update(product).set({ basePrice: '5.00' }).where(eq(product.id, P));
  [{ id: X }, { id: Y }] = await db.insert(customer).values([{ name: 'Credit Xavier', allowCreditSale: true }, { name: 'Credit Yusuf', allowCreditSale: true }])
    .returning({ id: customer.id });
});
afterAll(async () => { await t?.close(); });

async function sell(customerId: number, quantity: number, payments: { received: number; type: number }[], refundingFrom?: number) {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: admin, payload: {
    items: [{ item: P, quantity }], payments, customerId, store: main, terminal: terminalId, refundingFrom,
  } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order as { id: number };
}
const ago = (id: number, days: number) => t.app.db.update(order).set({ createdAt: new Date(Date.now() - days * DAY) }).where(eq(order.id, id));

/** The kept rows (non-zero) against the same sums computed from the rows now, and the report both ways. */
async function holds(step: string) {
  const db = t.app.db;
  const kept = rowsOf(await db.execute(sql`select customer_id, day::text, debit::text, back::text from customer_credit_day
    where debit <> 0 or back <> 0 order by 1, 2`));
  const again = rowsOf(await db.execute(sql`select o.customer_id, (o.created_at at time zone s.time_zone)::date::text as day,
      coalesce(sum(p.total) filter (where p.total > 0), 0)::text as debit, coalesce(-sum(p.total) filter (where p.total < 0), 0)::text as back
    from order_payment p join payment t on t.id = p.type_id and t.type = 'credit'
      join "order" o on o.id = p.order_id and o.customer_id is not null and o.status in ('Completed', 'Dispatched', 'Partially Returned', 'Returned')
      join store s on s.id = o.store_id
    group by 1, 2 having sum(p.total) filter (where p.total > 0) <> 0 or sum(p.total) filter (where p.total < 0) <> 0 order by 1, 2`));
  const norm = (rows: unknown[]) => rows.map((r) => Object.fromEntries(Object.entries(r as object).map(([k, v]) => [k, k === 'debit' || k === 'back' ? Number(v) : v])));
  expect(norm(kept), step).toEqual(norm(again));
  const totals = rowsOf(await db.execute(sql`select cc.customer_id, cc.debit::float8 as debit, cc.back::float8 as back, cc.paid::float8 as paid from customer_credit cc
    where cc.debit <> 0 or cc.back <> 0 or cc.paid <> 0 order by 1`));
  const totalsAgain = rowsOf(await db.execute(sql`select c.id as customer_id, coalesce(d.debit, 0)::float8 as debit, coalesce(d.back, 0)::float8 as back, coalesce(cp.paid, 0)::float8 as paid
    from customer c left join (select customer_id, sum(debit) as debit, sum(back) as back from customer_credit_day group by 1) d on d.customer_id = c.id
      left join (select customer_id, sum(amount) as paid from customer_payment group by 1) cp on cp.customer_id = c.id
    where coalesce(d.debit, 0) <> 0 or coalesce(d.back, 0) <> 0 or coalesce(cp.paid, 0) <> 0 order by 1`));
  expect(totals, step).toEqual(totalsAgain);
  const report = await t.app.inject({ method: 'GET', url: `/api/reports/customers?store=${main}`, headers: admin });
  const reference = await t.app.inject({ method: 'GET', url: `/test/customers-from-items?store=${main}`, headers: admin });
  expect(report.statusCode, report.body).toBe(200);
  expect(report.json(), step).toEqual(reference.json());
  return report.json().rows as { key: string; balance: number; current: number; days1to30: number; days61to90: number; over90: number }[];
}
const of = (rows: Awaited<ReturnType<typeof holds>>, id: number) => rows.find((r) => r.key === String(id));

describe('customer credit kept by the database', () => {
  it('stays the sum of its rows through every write, and the ageing report reads it', async () => {
    const a = await sell(X, 10, [{ received: 50, type: credit }]); // 50.00 on credit
    await ago(a.id, 100);
    const b = await sell(X, 6, [{ received: 20, type: credit }, { received: 10, type: cash }]); // 20.00 of 30.00 on credit
    let rows = await holds('two credit sales, one split');
    expect(of(rows, X)).toMatchObject({ balance: 7000, current: 2000, over90: 5000 });

    // A partial return of the old sale: 4 of 10 back, refunded to its tender (credit): what was kept is still owed.
    await sell(X, -4, [], a.id);
    rows = await holds('a partial return');
    expect(of(rows, X)!.balance).toBe(5000);
    const page = (await t.app.inject({ method: 'GET', url: `/api/customers/${X}`, headers: admin })).json();
    expect(page.balance ?? page.customer?.balance).toBe(50);

    const paid = await t.app.inject({ method: 'POST', url: '/api/customer_payments', headers: admin, payload: { amount: 15, description: 'cash', customer: `/api/customers/${X}` } });
    expect(paid.statusCode, paid.body).toBe(201);
    rows = await holds('a customer payment');
    expect(of(rows, X)!.balance).toBe(3500);

    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/order/${b.id}`, headers: admin });
    expect(del.statusCode, del.body).toBe(200);
    rows = await holds('a void');
    expect(of(rows, X)!.balance).toBe(1500);
    const back = await t.app.inject({ method: 'POST', url: `/api/admin/order/restore/${b.id}`, headers: admin, payload: {} });
    expect([200, 204], back.body).toContain(back.statusCode);
    rows = await holds('a restore');
    expect(of(rows, X)!.balance).toBe(3500);

    await ago(b.id, 70);
    rows = await holds('an order moved to another day');
    expect(of(rows, X)).toMatchObject({ current: 0, days61to90: 2000 });
    await t.app.db.update(order).set({ customerId: Y }).where(eq(order.id, b.id));
    rows = await holds('an order moved to another customer');
    expect([of(rows, X)!.balance, of(rows, Y)!.balance]).toEqual([1500, 2000]);

    // The full return of what is left of the old sale.
    const refund = await t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${a.id}`, headers: admin, payload: {} });
    expect([200, 201], refund.body).toContain(refund.statusCode);
    rows = await holds('a full return');
    expect(of(rows, X)!.balance).toBe(-1500);

    // Settings: the credit type stops being credit, then is credit again; a store changes its zone.
    await t.app.db.update(paymentType).set({ type: 'cheque' }).where(eq(paymentType.id, credit));
    rows = await holds('the credit type is no longer credit');
    expect(of(rows, Y)).toBeUndefined();
    await t.app.db.update(paymentType).set({ type: 'credit' }).where(eq(paymentType.id, credit));
    await holds('credit again');
    await t.app.db.update(store).set({ timeZone: 'Pacific/Kiritimati' }).where(eq(store.id, main));
    await holds('a store in another time zone');

    await t.app.db.execute(sql`delete from "order" where id = ${b.id}`);
    rows = await holds('an order deleted');
    expect(of(rows, Y)).toBeUndefined();
    const c = await sell(Y, 2, [{ received: 10, type: credit }]);
    expect(c.id).toBeGreaterThan(0);
    await t.app.db.delete(customer).where(eq(customer.id, Y));
    await holds('a customer deleted');
    expect(rowsOf(await t.app.db.execute(sql`select 1 from customer_credit where customer_id = ${Y} union all select 1 from customer_credit_day where customer_id = ${Y}`))).toEqual([]);
  });

  it('a credit sale holding its customer and a return of the customer\'s old sale wait for each other in one order: no deadlock', async () => {
    const [W] = await t.app.db.insert(customer).values({ name: 'Credit Wanda', allowCreditSale: true }).returning({ id: customer.id });
    const old = await sell(W.id, 2, [{ received: 10, type: credit }]);
    const [store0] = rowsOf<{ store_id: number; user_id: number }>(await t.app.db.execute(sql`select store_id, user_id from "order" where id = ${old.id}`));
    const sale = new pg.Client({ connectionString: t.database.url });
    const ret = new pg.Client({ connectionString: t.database.url });
    await sale.connect();
    await ret.connect();
    try {
      // The sale: its customer locked for the credit limit (as checkCredit does), its order written.
      await sale.query('begin');
      await sale.query('select 1 from customer where id = $1 for update', [W.id]);
      const [{ id: saleId }] = (await sale.query(`insert into "order" (customer_id, user_id, store_id, status) values ($1, $2, $3, 'Completed') returning id`,
        [W.id, store0.user_id, store0.store_id])).rows;
      // The return: the old sale marked returned (its credit moves), then the return's own order (its key needs the customer row).
      await ret.query('begin');
      const returned = ret.query(`update "order" set status = 'Partially Returned' where id = $1`, [old.id])
        .then(() => ret.query(`insert into "order" (customer_id, user_id, store_id, status, returned_from_id) values ($1, $2, $3, 'Completed', $4)`,
          [W.id, store0.user_id, store0.store_id, old.id]))
        .then(() => ret.query('commit'));
      await new Promise((r) => setTimeout(r, 200));
      // The sale's credit payment: its trigger takes the customer's credit rows.
      await sale.query('insert into order_payment (order_id, type_id, total, received, due) values ($1, $2, 5, 5, 0)', [saleId, credit]);
      await sale.query('commit');
      await returned;
    } finally {
      await sale.end();
      await ret.end();
    }
    const rows = await holds('a sale and a return of one customer interleaved');
    expect(of(rows, W.id)!.balance).toBe(1500);
  });

  it('tills selling to one customer on credit at once, while two of its old sales are returned, all go through and add up', async () => {
    const [Z] = await t.app.db.insert(customer).values({ name: 'Credit Zara', allowCreditSale: true }).returning({ id: customer.id });
    const old = [await sell(Z.id, 2, [{ received: 10, type: credit }]), await sell(Z.id, 3, [{ received: 15, type: credit }])];
    await ago(old[0].id, 40);
    await ago(old[1].id, 5);
    await Promise.all([
      ...Array.from({ length: 8 }, () => sell(Z.id, 1, [{ received: 5, type: credit }])),
      sell(Z.id, -1, [], old[0].id),
      sell(Z.id, -2, [], old[1].id),
    ]);
    const rows = await holds('concurrent credit sales and returns');
    // 10.00 + 15.00 + 8 x 5.00, less 5.00 and 10.00 returned.
    expect(of(rows, Z.id)!.balance).toBe(5000);
  });
});
