import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { api, members, storeAdmin, type Api } from './test-support.ts';

/**
 * Store scoping of the product list reads product.store_ids, a copy of the product's product_store
 * rows kept by triggers (migration 0002). These tests change the stock rows every way the product
 * can be linked or unlinked and check what each store's people see, and that the copy never drifts.
 */
let t: TestApp;
let admin: Api;
let mainTill: Api; // cashier: store 1 only
let mall: Api; // admin of store 2 only
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  const m = await storeAdmin(t, 'visadmin', [2]);
  admin = api(t, () => a);
  mainTill = api(t, () => c);
  mall = api(t, () => m);
});
afterAll(async () => { await t?.close(); });

/** Products whose store_ids differ from their product_store rows: must always be none. */
async function drift(): Promise<unknown[]> {
  const r: any = await t.app.db.execute(sql`select p.id, p.store_ids, array(select ps.store_id from product_store ps where ps.product_id = p.id order by 1) as rows
    from product p where p.store_ids <> array(select ps.store_id from product_store ps where ps.product_id = p.id order by 1)`);
  return r.rows ?? r;
}

const ids = async (who: Api, query: string) => members(await who.get(`/api/products?itemsPerPage=1000&page=1&${query}`)).map((p) => p.id as number);
const total = async (who: Api, query: string) => (await who.get(`/api/products?itemsPerPage=5&page=1&${query}`)).json()['hydra:totalItems'] as number;

function body(name: string, barcode: string, stores: number[]) {
  return {
    name, barcode, basePrice: '3.00', cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs', department: '/api/departments/3',
    taxes: [], terminals: [], categories: ['/api/categories/3'], suppliers: ['/api/suppliers/3'], brands: ['/api/brands/2'], prices: [],
    manageInventory: true, isActive: true, baseQuantity: 1, isAvailable: true,
    stores: stores.map((s) => ({ store: `/api/stores/${s}`, quantity: '4', location: null, reOrderLevel: null, product: null })),
  };
}

describe('product list: store scoping through product.store_ids', () => {
  it('starts in step with the seeded stock rows', async () => {
    expect(await drift()).toEqual([]);
  });

  it('follows a product from one store to both, to the other, to none (catalogue-wide)', async () => {
    const created = await admin.post('/api/products', body('Scoped Soap', 'VIS-1', [2]));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    expect(await ids(mall, `name=Scoped Soap`)).toEqual([id]);
    expect(await ids(mainTill, `name=Scoped Soap`)).toEqual([]);
    expect((await mainTill.get(`/api/products/${id}`)).statusCode).toBe(404);

    const both = await admin.put(`/api/products/${id}`, { stores: [...body('', '', [1, 2]).stores] });
    expect(both.statusCode).toBe(200);
    expect(await ids(mainTill, `name=Scoped Soap`)).toEqual([id]);
    expect(await ids(mall, `name=Scoped Soap`)).toEqual([id]);

    await admin.put(`/api/products/${id}`, { stores: body('', '', [1]).stores });
    expect(await ids(mainTill, `name=Scoped Soap`)).toEqual([id]);
    expect(await ids(mall, `name=Scoped Soap`)).toEqual([]);
    expect(await drift()).toEqual([]);

    // No stock row left at all: a catalogue-wide item, seen by every store.
    await t.app.db.execute(sql`delete from product_store where product_id = ${id}`);
    expect(await ids(mall, `name=Scoped Soap`)).toEqual([id]);
    expect(await ids(mainTill, `name=Scoped Soap`)).toEqual([id]);
    expect(await drift()).toEqual([]);
  });

  it('counts and pages what each caller may see, deep pages included', async () => {
    const all = await ids(admin, 'isActive=true');
    const mine = await ids(mainTill, 'isActive=true');
    expect(await total(admin, 'isActive=true')).toBe(all.length);
    expect(await total(mainTill, 'isActive=true')).toBe(mine.length);
    expect(mine.length).toBeLessThan(all.length);
    // Walking the till's pages of 7 gives exactly its list, in id order, with no repeats.
    const walked: number[] = [];
    for (let page = 1; page < 200; page++) {
      const m = members(await mainTill.get(`/api/products?itemsPerPage=7&page=${page}&isActive=true`)).map((p) => p.id as number);
      if (!m.length) break;
      walked.push(...m);
    }
    expect(walked).toEqual(mine);
    expect([...walked].sort((a, b) => a - b)).toEqual(walked);
  });

  it('keeps the copy right when stock rows move between products and stores directly', async () => {
    const a = await admin.post('/api/products', body('Moved Row A', 'VIS-A', [1]));
    const b = await admin.post('/api/products', body('Moved Row B', 'VIS-B', [2]));
    const c = await admin.post('/api/products', body('Moved Row C', 'VIS-C', [1]));
    expect([a.statusCode, b.statusCode, c.statusCode]).toEqual([201, 201, 201]);
    const [idA, idB, idC] = [a, b, c].map((r) => r.json().id as number);
    const storeIds = async () => {
      const rows: any = await t.app.db.execute(sql`select store_ids from product where id in (${idA}, ${idB}, ${idC}) order by id`);
      return (rows.rows ?? rows).map((r: any) => r.store_ids);
    };
    await t.app.db.execute(sql`update product_store set product_id = ${idA} where product_id = ${idB}`);
    expect(await storeIds()).toEqual([[1, 2], [], [1]]);
    await t.app.db.execute(sql`update product_store set product_id = ${idB} where product_id = ${idA} and store_id = 1`);
    await t.app.db.execute(sql`update product_store set store_id = 2 where product_id = ${idC}`);
    expect(await storeIds()).toEqual([[2], [1], [2]]);
    expect(await drift()).toEqual([]);
  });
});

describe('product.store_ids under concurrent writers', () => {
  it('runs its statements without JIT compilation (a 100,000-row count paid ~120 ms of JIT per request)', async () => {
    const r: any = await t.app.db.execute(sql`show jit`);
    expect((r.rows ?? r)[0].jit).toBe('off');
    // ...and with the index costs of a database in memory or on SSD, so the count uses the covering index.
    const plan: any = await t.app.db.execute(sql`explain select count(*) from product where is_active and (cardinality(store_ids) = 0 or store_ids && '{1}'::int[])`);
    const text = (plan.rows ?? plan).map((x: any) => x['QUERY PLAN']).join('\n');
    expect(text).not.toMatch(/JIT/);
    const cost: any = await t.app.db.execute(sql`show random_page_cost`);
    expect(Number((cost.rows ?? cost)[0].random_page_cost)).toBeLessThan(2);
  });

  it('two transactions linking one product to two stores at once both land', async () => {
    const created = await admin.post('/api/products', body('Race Rice', 'VIS-RACE', [1]));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as number;
    // Each transaction takes its own pooled connection.
    for (let round = 0; round < 10; round++) {
      await t.app.db.execute(sql`delete from product_store where product_id = ${id}`);
      await Promise.all([1, 2].map((store) => t.app.db.transaction(async (tx) => {
        await tx.execute(sql`insert into product_store (product_id, store_id, quantity) values (${id}, ${store}, 0)`);
        await tx.execute(sql`select pg_sleep(0.02)`);
      })));
      const r: any = await t.app.db.execute(sql`select store_ids from product where id = ${id}`);
      expect((r.rows ?? r)[0].store_ids).toEqual([1, 2]);
    }
  });
});
