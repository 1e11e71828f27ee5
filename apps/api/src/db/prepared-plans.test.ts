import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { rowsOf } from './raw.ts';
import { paymentType, product, productTax, store, terminal } from './schema/index.ts';

/**
 * The hottest statements are named prepared statements that PostgreSQL must plan once per
 * connection and then reuse (a generic plan): a plain sale's read and its one write (sales.service
 * createOrderOn, outside any transaction), and a product page's JSON (products.presenter). Planned
 * again at every call, each cost about as much to plan as to run. Their estimate-shaping parameters
 * are read through db/raw `opaque` for this.
 */
describe('hot statements on PostgreSQL keep one plan per connection', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const before = process.env.PG_POOL_MAX;

  beforeAll(async () => {
    // One connection: every sale runs on the session whose statements are inspected below.
    process.env.PG_POOL_MAX = '1';
    t = await createTestApp();
    admin = await t.login('admin');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (before === undefined) delete process.env.PG_POOL_MAX; else process.env.PG_POOL_MAX = before;
  });

  it('a plain sale: its read and its write keep a generic plan', async () => {
    const db = t.app.db;
    const [s] = await db.select().from(store).orderBy(asc(store.id));
    const term = (await db.select().from(terminal)).find((x) => x.storeId === s.id)!;
    const cash = (await db.select().from(paymentType)).find((x) => x.type === 'cash')!;
    const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
    const items = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => p.isActive && !taxed.has(p.id)).slice(0, 6);
    expect(items.length).toBe(6);
    for (let i = 0; i < 14; i++) {
      // Sales of 1 to 6 lines: a plan fitted to one size must not be re-made for the next.
      const lines = items.slice(0, 1 + (i % 6));
      const total = lines.reduce((sum, p) => sum + Math.round(Number(p.basePrice) * 100), 0) / 100;
      const res = await t.app.inject({
        method: 'POST', url: '/api/admin/order/create', headers: admin,
        payload: {
          items: lines.map((p) => ({ item: { id: p.id }, quantity: 1, price: Number(p.basePrice), discount: 0, taxIncluded: true })),
          store: s.id, terminal: term.id, total, adjustment: 0, status: 'Completed',
          payments: [{ received: total, total, due: 0, type: { id: cash.id } }],
        },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const plans = rowsOf<{ name: string; generic: number; custom: number }>(await db.execute(sql`select name, generic_plans::int as generic, custom_plans::int as custom
      from pg_prepared_statements where name in ('sale_read', 'sale_write') order by name`));
    expect(plans.map((p) => p.name)).toEqual(['sale_read', 'sale_write']);
    for (const p of plans) {
      // PostgreSQL tries at most five custom plans before it settles; every later sale reuses one plan.
      expect(p.custom, p.name).toBeLessThanOrEqual(5);
      expect(p.generic, p.name).toBeGreaterThanOrEqual(9);
    }
  });

  it('a product page: its JSON statement keeps a generic plan, for the till and for the admin sorted by name', async () => {
    const db = t.app.db;
    const cashier = await t.login('cashier');
    for (let i = 0; i < 14; i++) {
      for (const [h, url] of [[cashier, `/api/products?itemsPerPage=5&page=${1 + (i % 3)}&isActive=true`], [admin, `/api/products?itemsPerPage=5&page=${1 + (i % 3)}&order[name]=asc`]] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers: h });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()['hydra:member'].length).toBe(5);
      }
    }
    const plans = rowsOf<{ name: string; generic: number; custom: number }>(await db.execute(sql`select name, generic_plans::int as generic, custom_plans::int as custom
      from pg_prepared_statements where name like 'products_json_%' order by name`));
    // One statement text per number of the caller's stores (the cashier has one, the admin several).
    expect(plans.length).toBeGreaterThanOrEqual(1);
    for (const p of plans) {
      expect(p.custom, p.name).toBeLessThanOrEqual(5);
      expect(p.generic, p.name).toBeGreaterThanOrEqual(9);
    }
  });
});
