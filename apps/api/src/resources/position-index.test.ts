import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { api, members, type Api } from '../modules/catalogue/test-support.ts';
import { MARK_EVERY } from './position-index.ts';

/**
 * The product list pages through the position index (list_index, list_version): every page and
 * total must be what a plain count and OFFSET would give, for every caller, right after any change
 * that moves products in or out of a list — and a sale must not throw the index away.
 */
let t: TestApp;
let admin: Api;
let till: Api; // the cashier: store 1 only
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  admin = api(t, () => a);
  till = api(t, () => c);
});
afterAll(async () => { await t?.close(); });

const rowsOf = (r: any) => (r.rows ?? r) as any[];
/** What the list must hold: visible (store scoping as in shared.ts) and matching, in id order, by plain SQL. */
async function expected(storeIds: number[] | 'all', where = 'true'): Promise<number[]> {
  const scope = storeIds === 'all' ? 'true' : `(not exists (select 1 from product_store ps where ps.product_id = p.id)
    or exists (select 1 from product_store ps where ps.product_id = p.id and ps.store_id in (${storeIds.join(',')})))`;
  return rowsOf(await t.app.db.execute(sql.raw(`select id from product p where ${scope} and ${where} order by id`))).map((r) => Number(r.id));
}
async function walk(who: Api, size: number, query: string): Promise<{ ids: number[]; totals: Set<number> }> {
  const ids: number[] = [];
  const totals = new Set<number>();
  for (let page = 1; page < 1000; page++) {
    const res = await who.get(`/api/products?itemsPerPage=${size}&page=${page}${query}`);
    expect(res.statusCode).toBe(200);
    totals.add(res.json()['hydra:totalItems']);
    const m = members(res).map((p) => p.id as number);
    if (!m.length) break;
    ids.push(...m);
  }
  return { ids, totals };
}
const version = async () => Number(rowsOf(await t.app.db.execute(sql`select v from list_version where id = 1`))[0].v);

describe('product list through the position index', () => {
  it('pages exactly like count + OFFSET, at every page size and depth, for every caller', async () => {
    const all = await expected('all', 'is_active');
    const mine = await expected([1], 'is_active');
    expect(all.length).toBeGreaterThan(MARK_EVERY); // the demo catalogue spans several marks
    for (const size of [7, 100, 250]) {
      const a = await walk(admin, size, '&isActive=true');
      expect(a.ids).toEqual(all);
      expect([...a.totals]).toEqual([all.length]);
      const m = await walk(till, size, '&isActive=true');
      expect(m.ids).toEqual(mine);
      expect([...m.totals]).toEqual([mine.length]);
    }
    // A page that starts exactly on a mark, and the one just before it.
    const at = members(await till.get(`/api/products?itemsPerPage=${MARK_EVERY}&page=2&isActive=true`)).map((p) => p.id);
    expect(at).toEqual(mine.slice(MARK_EVERY, 2 * MARK_EVERY));
    const before = members(await till.get(`/api/products?itemsPerPage=${MARK_EVERY - 1}&page=2&isActive=true`)).map((p) => p.id);
    expect(before).toEqual(mine.slice(MARK_EVERY - 1, 2 * (MARK_EVERY - 1)));
    // The entry is stored for the current version.
    const entries = rowsOf(await t.app.db.execute(sql`select key, version, total from list_index`));
    expect(entries.length).toBeGreaterThan(0);
    const current = await version();
    expect(entries.filter((e) => Number(e.version) === current).map((e) => Number(e.total))).toContain(mine.length);
  });

  it('sees a deactivation, a new product and a store change at once', async () => {
    const first = await walk(till, 100, '&isActive=true');
    const victim = first.ids[150];
    const v0 = await version();
    expect((await admin.put(`/api/products/${victim}`, { isActive: false })).statusCode).toBe(200);
    expect(await version()).toBeGreaterThan(v0);
    const after = await walk(till, 100, '&isActive=true');
    expect(after.ids).toEqual(first.ids.filter((id) => id !== victim));
    expect([...after.totals]).toEqual([first.ids.length - 1]);
    // Deactivated products still show in the unfiltered list, in place.
    expect((await walk(till, 100, '')).ids).toEqual(await expected([1]));

    expect((await admin.put(`/api/products/${victim}`, { isActive: true })).statusCode).toBe(200);
    expect((await walk(till, 100, '&isActive=true')).ids).toEqual(first.ids);

    // Moving a product's stock row to the other store takes it off store 1's till.
    const moved = first.ids[5];
    const stocked: any[] = rowsOf(await t.app.db.execute(sql`select store_id from product_store where product_id = ${moved}`));
    expect(stocked.map((r) => Number(r.store_id))).toContain(1);
    await t.app.db.execute(sql`delete from product_store where product_id = ${moved} and store_id <> 2`);
    await t.app.db.execute(sql`insert into product_store (product_id, store_id, quantity) values (${moved}, 2, 0) on conflict do nothing`);
    const now = await walk(till, 100, '&isActive=true');
    expect(now.ids).toEqual(await expected([1], 'is_active'));
    expect(now.ids).not.toContain(moved);

    // A product created at the back office is on the till's last page at once.
    const created = await admin.post('/api/products', {
      name: 'Index Newcomer', barcode: 'IDX-NEW', basePrice: '2.00', cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
      department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'],
      brands: ['/api/brands/1'], prices: [], manageInventory: false, isActive: true, baseQuantity: 1, isAvailable: true,
      stores: [{ store: '/api/stores/1', quantity: '1', location: null, reOrderLevel: null, product: null }],
    });
    expect(created.statusCode, created.body).toBe(201);
    const withNew = await walk(till, 100, '&isActive=true');
    expect(withNew.ids.at(-1)).toBe(created.json().id);
    expect(withNew.ids).toEqual(await expected([1], 'is_active'));
  });

  it('pages the list sorted by name the same way, and follows a rename at once', async () => {
    const byName = async (storeIds: number[] | 'all', where = 'true') => {
      const scope = storeIds === 'all' ? 'true' : `(not exists (select 1 from product_store ps where ps.product_id = p.id)
        or exists (select 1 from product_store ps where ps.product_id = p.id and ps.store_id in (${storeIds.join(',')})))`;
      return rowsOf(await t.app.db.execute(sql.raw(`select id from product p where ${scope} and ${where} order by name, id`))).map((r) => Number(r.id));
    };
    for (const size of [7, 100]) {
      expect((await walk(admin, size, '&order[name]=asc')).ids).toEqual(await byName('all'));
      expect((await walk(till, size, '&order[name]=asc&isActive=true')).ids).toEqual(await byName([1], 'is_active'));
    }
    // The product standing on a mark gets a name with quotes and a backslash (stored in the mark).
    const list = await byName('all');
    const onMark = list[MARK_EVERY];
    const [{ name }] = rowsOf(await t.app.db.execute(sql`select name from product where id = ${onMark}`));
    const v0 = await version();
    expect((await admin.put(`/api/products/${onMark}`, { name: `${name} "x\\y"` })).statusCode).toBe(200);
    expect(await version()).toBeGreaterThan(v0);
    expect((await walk(admin, 100, '&order[name]=asc')).ids).toEqual(await byName('all'));
    const entries = rowsOf(await t.app.db.execute(sql`select mark_texts from list_index where key like '%order=name%' and version = (select v from list_version)`));
    expect(entries.some((e) => (e.mark_texts as string[]).includes(`${name} "x\\y"`))).toBe(true);
    // A rename that moves a product to the front of the list.
    expect((await admin.put(`/api/products/${list.at(-1)}`, { name: '0000 First Now' })).statusCode).toBe(200);
    const after = await walk(admin, 100, '&order[name]=asc');
    expect(after.ids[0]).toBe(list.at(-1));
    expect(after.ids).toEqual(await byName('all'));
    // Descending is paged the plain way, and right.
    const desc = await walk(admin, 100, '&order[name]=desc');
    expect(desc.ids).toEqual(rowsOf(await t.app.db.execute(sql`select id from product order by name desc, id`)).map((r) => Number(r.id)));
  });

  it('is not thrown away by a sale, a price edit or a stock count', async () => {
    await walk(till, 100, '&isActive=true');
    const v0 = await version();
    const [p] = members(await till.get('/api/products?itemsPerPage=1&page=1&isActive=true'));
    // A stock adjustment and a price edit: the list's membership does not change.
    await t.app.db.execute(sql`update product_store set quantity = quantity + 5 where product_id = ${p.id}`);
    expect((await admin.put(`/api/products/${p.id}`, { basePrice: '12.34' })).statusCode).toBe(200);
    // A cash sale of a stock-managed product at the till.
    const one = (q: string) => t.app.db.execute(sql.raw(q)).then((r) => rowsOf(r)[0]);
    const item = await one(`select p.id from product p where p.manage_inventory and p.is_active and p.store_ids @> '{1}'
      and not exists (select 1 from product_variant v where v.product_id = p.id) order by p.id limit 1`);
    const cash = await one(`select id, name, type from payment where type = 'cash' order by id limit 1`);
    const t1 = await one(`select id from terminal where code = 'T1'`);
    const sale = await t.app.inject({
      method: 'POST', url: '/api/admin/order/create', headers: await t.login('cashier'),
      payload: {
        items: [{ item: { id: item.id }, variant: null, quantity: 2, price: 1, discount: 0, taxIncluded: true, taxes: [], stock: 0 }],
        payments: [{ received: 100000, type: { id: cash.id, '@id': `/api/payments/${cash.id}`, name: cash.name, type: cash.type } }],
        store: 1, terminal: Number(t1.id), adjustment: 0, status: 'Completed', customer: '',
      },
    });
    expect(sale.statusCode, sale.body).toBe(201);
    expect(await version()).toBe(v0);
  });
});
