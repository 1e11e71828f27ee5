import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { and, asc, eq, sql } from 'drizzle-orm';
import { createThrowawayPg, UNHURRIED_ADMISSION } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { customer, order, paymentType, product, productStore, productTax, stockMovement, store, terminal } from '../../db/schema/index.ts';

/**
 * Real concurrency on real connections: two API instances, each with its own pool of 10
 * connections, share one throwaway database, as two processes behind a load balancer would.
 */
describe('sales under concurrency (two API instances)', () => {
  let drop: () => Promise<void>;
  let url: string;
  const dbs: Database[] = [];
  const apps: FastifyInstance[] = [];
  const tokens: Record<string, string>[] = [];
  let main: number;
  let mall: number;
  let t1: number;
  let m1: number;
  let cash: number;
  let credit: number;
  let P: typeof product.$inferSelect;

  beforeAll(async () => {
    process.env.PG_POOL_MAX = '10';
    const pg = await createThrowawayPg();
    drop = pg.drop;
    url = pg.url;
    for (let i = 0; i < 2; i++) {
      const database = await openDatabase({ databaseUrl: pg.url, dataDir: '' });
      // 50 sales at once: queued, never shed (this test is about numbering and stock, not load).
      const app = await buildApp({ env: {}, database, logger: false, config: { seedDemo: i === 0, bcryptRounds: 4, jwtSecret: 'test-secret' }, admission: UNHURRIED_ADMISSION });
      await app.ready();
      dbs.push(database);
      apps.push(app);
      const res = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
      tokens.push({ authorization: `Bearer ${res.json().token}` });
    }
    const db = apps[0].db;
    const stores = await db.select().from(store).orderBy(asc(store.id));
    [main, mall] = [stores[0].id, stores[1].id];
    const terms = await db.select().from(terminal);
    t1 = terms.find((x) => x.code === 'T1')!.id;
    m1 = terms.find((x) => x.code === 'M1')!.id;
    const types = await db.select().from(paymentType);
    cash = types.find((x) => x.type === 'cash')!.id;
    credit = types.find((x) => x.type === 'credit')!.id;
    const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
    P = (await db.select().from(product).orderBy(asc(product.id))).find((p) => p.manageInventory && !taxed.has(p.id) && p.departmentId !== null)!;
    await db.update(product).set({ basePrice: '10.00' }).where(eq(product.id, P.id));
    // Plenty of stock in both stores, through the ledger.
    for (const s of [main, mall]) {
      const [row] = await db.select().from(productStore).where(and(eq(productStore.productId, P.id), eq(productStore.storeId, s)));
      await db.update(productStore).set({ quantity: sql`${productStore.quantity} + 1000` }).where(eq(productStore.id, row.id));
      await db.insert(stockMovement).values({ productId: P.id, storeId: s, quantity: '1000', reason: 'adjustment' });
    }
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const d of dbs) await d.close();
    await drop?.();
  });

  const saleBody = (storeId: number, terminalId: number, extra: Record<string, unknown> = {}) => ({
    items: [{ item: { id: P.id }, quantity: 1, price: 10, discount: 0, taxIncluded: true }],
    store: storeId, terminal: terminalId, total: 10, adjustment: 0, status: 'Completed',
    payments: [{ received: 10, total: 10, due: 0, type: { id: cash } }], ...extra,
  });
  const sell = (i: number, b: unknown, headers: Record<string, string> = {}) =>
    apps[i].inject({ method: 'POST', url: '/api/admin/order/create', payload: b as any, headers: { ...tokens[i], ...headers } });

  const qty = async (storeId: number) => {
    const [row] = await apps[0].db.select().from(productStore).where(and(eq(productStore.productId, P.id), eq(productStore.storeId, storeId)));
    return Number(row.quantity);
  };
  const ledger = async (storeId: number) => {
    const [{ s }] = await apps[0].db.select({ s: sql<string>`coalesce(sum(${stockMovement.quantity}), 0)::text` }).from(stockMovement)
      .where(and(eq(stockMovement.productId, P.id), eq(stockMovement.storeId, storeId)));
    return Number(s);
  };
  const numbers = async (storeId: number) => (await apps[0].db.select({ n: order.orderId }).from(order)
    .where(and(eq(order.storeId, storeId), sql`${order.orderId} is not null`)).orderBy(asc(order.orderId))).map((r) => r.n!);
  const gapFree = (ns: number[]) => expect(ns).toEqual(ns.map((_, i) => i + 1));

  it('50 sales of the same item at once: stock exactly start - 50, 50 distinct numbers without gaps, ledger = stock', async () => {
    const start = await qty(main);
    const before = (await numbers(main)).length;
    const results = await Promise.all(Array.from({ length: 50 }, () => sell(0, saleBody(main, t1))));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(201));
    const got = results.map((r) => r.json().order.orderId as number);
    expect(new Set(got).size).toBe(50);
    expect(await qty(main)).toBe(start - 50);
    expect(await ledger(main)).toBe(await qty(main));
    const ns = await numbers(main);
    expect(ns).toHaveLength(before + 50);
    gapFree(ns);
  });

  it('the same sale sent 5 times at once with one key makes one order', async () => {
    const start = await qty(main);
    const key = { 'idempotency-key': `dup-${Date.now()}` };
    const b = saleBody(main, t1);
    const results = await Promise.all(Array.from({ length: 5 }, () => sell(0, b, key)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.json().order.id)).size).toBe(1);
    const rows = await apps[0].db.select().from(order).where(eq(order.clientId, key['idempotency-key']));
    expect(rows).toHaveLength(1);
    expect(await qty(main)).toBe(start - 1);
    gapFree(await numbers(main));
  });

  it('two API processes selling at once (two stores, one duplicated key across both) keep every guarantee', async () => {
    const start = { main: await qty(main), mall: await qty(mall) };
    const key = { 'idempotency-key': `both-${Date.now()}` };
    const dup = saleBody(mall, m1);
    const jobs: Promise<any>[] = [];
    for (let i = 0; i < 30; i++) jobs.push(sell(i % 2, saleBody(main, t1)));
    for (let i = 0; i < 20; i++) jobs.push(sell(i % 2, saleBody(mall, m1)));
    for (let i = 0; i < 6; i++) jobs.push(sell(i % 2, dup, key));
    const results = await Promise.all(jobs);
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 200)).toBe(true);
    expect(new Set(results.slice(50).map((r) => r.json().order.id)).size).toBe(1);
    expect(await qty(main)).toBe(start.main - 30);
    expect(await qty(mall)).toBe(start.mall - 21);
    expect(await ledger(main)).toBe(await qty(main));
    expect(await ledger(mall)).toBe(await qty(mall));
    gapFree(await numbers(main));
    gapFree(await numbers(mall));
  });

  it('two products sold at once in both stores, lines in either order: no deadlock error, exact stock, ledger = stock, numbers gap-free', async () => {
    const [Q] = await apps[0].db.select().from(product).where(and(eq(product.manageInventory, true), sql`${product.id} <> ${P.id}`,
      sql`not exists (select 1 from ${productTax} where ${productTax.productId} = ${product.id})`,
      sql`not exists (select 1 from product_variant v where v.product_id = ${product.id})`,
      sql`exists (select 1 from ${productStore} s where s.product_id = ${product.id} and s.store_id = ${mall})`)).orderBy(asc(product.id)).limit(1);
    await apps[0].db.update(product).set({ basePrice: '5.00' }).where(eq(product.id, Q.id));
    const qtyOf = async (id: number, s: number) => Number((await apps[0].db.select().from(productStore)
      .where(and(eq(productStore.productId, id), eq(productStore.storeId, s))))[0]?.quantity ?? 0);
    const start = { pm: await qty(main), pl: await qty(mall), qm: await qtyOf(Q.id, main), ql: await qtyOf(Q.id, mall) };
    const lines = [{ item: { id: P.id }, quantity: 1 }, { item: { id: Q.id }, quantity: 2 }];
    const jobs = Array.from({ length: 40 }, (_, i) => sell(i % 2, saleBody(i % 4 < 2 ? main : mall, i % 4 < 2 ? t1 : m1, {
      items: i % 3 ? lines : [...lines].reverse(), total: 20, payments: [{ received: 20, type: { id: cash } }],
    })));
    const results = await Promise.all(jobs);
    expect(results.map((r) => r.statusCode)).toEqual(Array(40).fill(201));
    expect(await qty(main)).toBe(start.pm - 20);
    expect(await qty(mall)).toBe(start.pl - 20);
    expect(await qtyOf(Q.id, main)).toBe(start.qm - 40);
    expect(await qtyOf(Q.id, mall)).toBe(start.ql - 40);
    expect(await ledger(main)).toBe(await qty(main));
    expect(await ledger(mall)).toBe(await qty(mall));
    const bad = await apps[0].db.execute(sql`select ps.product_id from ${productStore} ps where ps.product_id = ${Q.id}
      and ps.quantity <> coalesce((select sum(m.quantity) from ${stockMovement} m where m.product_id = ps.product_id and m.store_id = ps.store_id and m.variant_id is null), 0)`);
    expect((bad as any).rows ?? bad).toEqual([]);
    gapFree(await numbers(main));
    gapFree(await numbers(mall));
  });

  it('a sale takes its store counter last: while it waits for its number it already holds its stock rows', async () => {
    expect((await sell(0, saleBody(main, t1))).statusCode).toBe(201); // the store has a counter row
    const holder = new pg.Client({ connectionString: url });
    const probe = new pg.Client({ connectionString: url });
    await holder.connect();
    await probe.connect();
    try {
      await holder.query('begin');
      await holder.query('select 1 from store_counter where store_id = $1 for update', [main]);
      const pending = sell(0, saleBody(main, t1));
      // The sale's one write is now queued on the counter row…
      let waiting = false;
      for (let i = 0; i < 100 && !waiting; i++) {
        const { rows } = await probe.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'with %'`);
        waiting = rows[0].n > 0;
        if (!waiting) await new Promise((r) => setTimeout(r, 20));
      }
      expect(waiting).toBe(true);
      // …holding the product's stock row of that store already.
      await probe.query('begin');
      await expect(probe.query('select 1 from product_store where product_id = $1 and store_id = $2 for update nowait', [P.id, main]))
        .rejects.toMatchObject({ code: '55P03' });
      await probe.query('rollback');
      await holder.query('rollback');
      expect((await pending).statusCode).toBe(201);
    } finally {
      await holder.end();
      await probe.end();
    }
  });

  it('sale transactions (BEGIN with generic plans) leave no setting and no connection behind, also when they fail', async () => {
    const bad = await Promise.all(Array.from({ length: 30 }, () => sell(0, saleBody(main, m1)))); // a terminal of another store: 422
    expect(bad.map((r) => r.statusCode)).toEqual(Array(30).fill(422));
    const good = await Promise.all(Array.from({ length: 30 }, () => sell(0, saleBody(main, t1))));
    expect(good.map((r) => r.statusCode)).toEqual(Array(30).fill(201));
    // Every pooled connection (10 asked at once) is back to the default plan mode, outside any transaction.
    const modes = await Promise.all(Array.from({ length: 10 }, () => apps[0].db.execute(sql`select current_setting('plan_cache_mode') as m, now() = statement_timestamp() as outside, pg_sleep(0.05)`)));
    for (const r of modes) expect(((r as any).rows ?? r)[0]).toMatchObject({ m: 'auto', outside: true });
    gapFree(await numbers(main));
  });

  it('concurrent credit sales cannot overrun a credit limit (customer row lock)', async () => {
    const [c] = await apps[0].db.insert(customer).values({ name: 'Race Credit', allowCreditSale: true, creditLimit: '100' }).returning();
    const body = saleBody(main, t1, { customerId: c.id, payments: [{ received: 20, type: { id: credit } }], total: 20, items: [{ item: { id: P.id }, quantity: 2 }] });
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => sell(i % 2, body)));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((x) => x === 201)).toHaveLength(5);
    expect(codes.filter((x) => x === 422)).toHaveLength(5);
    const res = await apps[1].inject({ method: 'GET', url: `/api/customers/${c.id}`, headers: tokens[1] });
    expect(res.json()).toMatchObject({ sale: 100, outstanding: 100 });
  });

  it('concurrent refunds of one order make one return; concurrent delete/restore keep the ledger equal to the stock', async () => {
    const sold = (await sell(0, saleBody(main, t1))).json().order;
    const refunds = await Promise.all(Array.from({ length: 4 }, (_, i) => apps[i % 2].inject({ method: 'POST', url: `/api/admin/order/refund/${sold.id}`, headers: tokens[i % 2] })));
    expect(refunds.map((r) => r.statusCode).sort()).toEqual([201, 422, 422, 422]);
    const sales = await Promise.all(Array.from({ length: 6 }, () => sell(1, saleBody(main, t1))));
    const ids = sales.map((r) => r.json().order.id);
    await Promise.all(ids.map((id, i) => apps[i % 2].inject({ method: 'DELETE', url: `/api/admin/order/${id}`, headers: tokens[i % 2] })));
    await Promise.all(ids.slice(0, 3).map((id, i) => apps[i % 2].inject({ method: 'POST', url: `/api/admin/order/restore/${id}`, headers: tokens[i % 2] })));
    expect(await ledger(main)).toBe(await qty(main));
    gapFree(await numbers(main));
  });
});
