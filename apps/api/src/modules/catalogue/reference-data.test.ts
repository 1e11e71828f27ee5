import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { closing, product, purchase, purchaseOrder } from '../../db/schema/index.ts';
import { api, members, messageAt, paths, storeAdmin, type Api } from './test-support.ts';

const BLANK = 'This value should not be blank.';
const NOT_NUMBER = 'This value should be a valid number.';
const NOT_CHOICE = 'The value you selected is not a valid choice.';
const ADD_STORES = 'Please add some stores';

let t: TestApp;
let admin: Api;
let cashier: Api;
let mall: Api;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  const m = await storeAdmin(t, 'mallref', [2]);
  admin = api(t, () => a);
  cashier = api(t, () => c);
  mall = api(t, () => m);
});
afterAll(async () => { await t?.close(); });

interface Case {
  path: string;
  /** A valid create body linked to Main Street only (when store-scoped). */
  body: Record<string, unknown>;
  /** Fields the created record must show. */
  shows: Record<string, unknown>;
  update: Record<string, unknown>;
  bad: Record<string, unknown>;
  messages: Record<string, string>;
  filter: string;
  sortKey: string;
  toggle: boolean;
  storeScoped: boolean;
}

const main = ['/api/stores/1'];
const cases: Case[] = [
  {
    path: 'discounts', body: { name: 'Summer', rate: '10', rateType: 'percent', scope: 'exact', stores: main },
    shows: { name: 'Summer', rate: 10, rateType: 'percent', scope: 'exact' }, update: { name: 'Summer sale' },
    bad: { name: '', rate: 'ten', rateType: 'weird', stores: [] },
    messages: { name: BLANK, rate: NOT_NUMBER, rateType: NOT_CHOICE, scope: BLANK, stores: ADD_STORES },
    filter: 'rateType=percent&name=summer', sortKey: 'name', toggle: true, storeScoped: true,
  },
  {
    path: 'payments', body: { name: 'Voucher', type: 'credit card', canHaveChangeDue: false, stores: main },
    shows: { name: 'Voucher', type: 'credit card', canHaveChangeDue: false }, update: { canHaveChangeDue: true },
    bad: { name: ' ', type: 'bitcoin', stores: 'nope' },
    messages: { name: BLANK, type: NOT_CHOICE, stores: 'This value should be of type array.' },
    filter: 'type=credit%20card&name=vouch', sortKey: 'name', toggle: true, storeScoped: true,
  },
  {
    path: 'departments', body: { name: 'Garden', description: 'Outdoor', store: '/api/stores/1', isActive: true },
    shows: { name: 'Garden', description: 'Outdoor', store: expect.objectContaining({ id: 1 }) }, update: { description: 'Plants and tools' },
    bad: { name: '', description: '' }, messages: { name: BLANK, description: BLANK, store: BLANK },
    filter: 'name=gard&store=1', sortKey: 'description', toggle: false, storeScoped: true,
  },
  {
    path: 'categories', body: { name: 'Snacks', stores: main, type: 'product', isActive: true },
    shows: { name: 'Snacks', type: 'product', stores: [expect.objectContaining({ id: 1 })] }, update: { name: 'Snacks & sweets' },
    bad: { name: '', stores: [] }, messages: { name: BLANK, stores: ADD_STORES },
    filter: 'name=snack&store=1', sortKey: 'name', toggle: true, storeScoped: true,
  },
  {
    path: 'brands', body: { name: 'Fabrikam', stores: main, isActive: true },
    shows: { name: 'Fabrikam', stores: [expect.objectContaining({ id: 1 })] }, update: { name: 'Fabrikam Inc' },
    bad: { stores: ['/api/stores/abc'] }, messages: { name: BLANK, 'stores[0]': 'This value is not a valid reference.' },
    filter: 'name=fabri&store=/api/stores/1', sortKey: 'name', toggle: true, storeScoped: true,
  },
  {
    path: 'suppliers', body: { name: 'Wide World', phone: '555-0200', email: 'ww@example.com', openingBalance: '100.50', stores: main },
    shows: { name: 'Wide World', openingBalance: 100.5, purchaseTotal: 100.5, paid: 0, outstanding: 100.5 }, update: { phone: '555-0201' },
    bad: { name: '', phone: '', email: 'not-mail', openingBalance: 'abc', stores: [] },
    messages: { name: BLANK, phone: BLANK, email: 'This value is not a valid email address.', openingBalance: NOT_NUMBER, stores: ADD_STORES },
    filter: 'name=wide&email=ww@&store=1', sortKey: 'openingBalance', toggle: true, storeScoped: true,
  },
  {
    path: 'taxes', body: { name: 'Luxury', rate: '25', stores: main },
    shows: { name: 'Luxury', rate: 25 }, update: { rate: '26.5' },
    bad: { name: '', rate: '-1', stores: [] }, messages: { name: BLANK, rate: 'This value should be either positive or zero.', stores: ADD_STORES },
    filter: 'name=lux&store=1', sortKey: 'rate', toggle: true, storeScoped: true,
  },
  {
    path: 'devices', body: { name: 'Kitchen printer', ipAddress: '192.0.2.20', port: '9100', prints: 2 },
    shows: { name: 'Kitchen printer', ipAddress: '192.0.2.20', port: 9100, prints: 2 }, update: { prints: '3' },
    bad: { name: '', ipAddress: '', port: '70000', prints: 'x' },
    messages: { name: BLANK, ipAddress: BLANK, port: 'This value should be between 1 and 65535.', prints: NOT_NUMBER },
    filter: 'name=kitchen', sortKey: 'name', toggle: true, storeScoped: false,
  },
  {
    path: 'settings', body: { name: 'receipt_header', value: 'Welcome', description: 'Printed on top', type: 'sale_receipt' },
    shows: { name: 'receipt_header', value: 'Welcome', type: 'sale_receipt', user: null }, update: { value: 'Hello' },
    bad: { name: '' }, messages: { name: BLANK },
    filter: 'type=sale_receipt&name=header', sortKey: 'name', toggle: false, storeScoped: false,
  },
];

for (const c of cases) {
  describe(`/api/${c.path}`, () => {
    let id: number;
    it('creates, reads, updates (merge) and toggles', async () => {
      const created = await admin.post(`/api/${c.path}`, c.body);
      expect(created.statusCode).toBe(201);
      id = created.json().id;
      expect(created.json()).toMatchObject({ '@id': `/api/${c.path}/${id}`, ...c.shows });
      const read = await admin.get(`/api/${c.path}/${id}`);
      expect(read.json()).toMatchObject(c.shows);
      const updated = await admin.put(`/api/${c.path}/${id}`, c.update);
      expect(updated.statusCode).toBe(200);
      const expected = { ...read.json(), ...updated.json(), updatedAt: 0 };
      expect({ ...updated.json(), updatedAt: 0 }).toEqual(expected);
      for (const [k, v] of Object.entries(c.update)) expect(String(updated.json()[k])).toBe(String(v));
      for (const [k, v] of Object.entries(c.shows)) if (!(k in c.update) && !['purchaseTotal', 'outstanding'].includes(k)) expect(updated.json()[k]).toEqual(v);
      if (c.toggle) {
        const off = await admin.put(`/api/${c.path}/${id}`, { isActive: false });
        expect(off.json()).toEqual({ ...updated.json(), isActive: false, updatedAt: off.json().updatedAt });
        expect(members(await admin.get(`/api/${c.path}?isActive=false`)).map((x) => x.id)).toContain(id);
        expect(members(await admin.get(`/api/${c.path}?isActive=true`)).map((x) => x.id)).not.toContain(id);
        await admin.put(`/api/${c.path}/${id}`, { isActive: true });
      }
    });

    it('filters, sorts and pages', async () => {
      const found = members(await admin.get(`/api/${c.path}?${c.filter}&page=1&itemsPerPage=10`));
      expect(found.map((x) => x.id)).toEqual([id]);
      const asc = members(await admin.get(`/api/${c.path}?order[${c.sortKey}]=asc`)).map((x) => x[c.sortKey]);
      const desc = members(await admin.get(`/api/${c.path}?order[${c.sortKey}]=desc`)).map((x) => x[c.sortKey]);
      expect(asc.length).toBeGreaterThan(1);
      expect(desc).toEqual([...asc].reverse());
      const page = await admin.get(`/api/${c.path}?page=2&itemsPerPage=1`);
      expect(members(page)).toHaveLength(1);
      expect(page.json()['hydra:totalItems']).toBe(asc.length);
    });

    it('answers 422 with the spec messages', async () => {
      const res = await admin.post(`/api/${c.path}`, c.bad);
      expect(res.statusCode).toBe(422);
      for (const [path, message] of Object.entries(c.messages)) expect(messageAt(res, path), path).toBe(message);
    });

    it('refuses a cashier writing (403)', async () => {
      expect((await cashier.post(`/api/${c.path}`, c.body)).statusCode).toBe(403);
      expect((await cashier.put(`/api/${c.path}/${id}`, { isActive: false })).statusCode).toBe(403);
    });

    if (c.storeScoped) {
      it('never shows or changes it from another store (404)', async () => {
        expect((await mall.get(`/api/${c.path}/${id}`)).statusCode).toBe(404);
        expect((await mall.put(`/api/${c.path}/${id}`, c.update)).statusCode).toBe(404);
        expect(members(await mall.get(`/api/${c.path}`)).map((x) => x.id)).not.toContain(id);
        const cross = await mall.post(`/api/${c.path}`, c.body);
        expect(cross.statusCode).toBe(422);
        expect(paths(cross).some((p) => p.startsWith('store'))).toBe(true);
      });
    }
  });
}

describe('reference data rules', () => {
  it('discounts: an empty rate is dropped (open scope); an exact discount needs a rate; percent at most 100', async () => {
    const open = await admin.post('/api/discounts', { name: 'Manager', rate: '', rateType: 'fixed', scope: 'open', stores: main });
    expect(open.statusCode).toBe(201);
    expect(open.json().rate).toBeNull();
    const exact = await admin.post('/api/discounts', { name: 'Broken', rateType: 'fixed', scope: 'exact', stores: main });
    expect(messageAt(exact, 'rate')).toBe(BLANK);
    const big = await admin.post('/api/discounts', { name: 'Too much', rate: '150', rateType: 'percent', scope: 'exact', stores: main });
    expect(messageAt(big, 'rate')).toBe('This value should be between 0 and 100.');
    const toggled = await admin.put(`/api/discounts/${open.json().id}`, { isActive: false });
    expect(toggled.json()).toMatchObject({ rate: null, scope: 'open', isActive: false });
  });

  it('departments: delete keeps the products, without a department', async () => {
    const dep = (await admin.post('/api/departments', { name: 'Temp', description: 'Temporary', store: '/api/stores/1' })).json();
    await t.app.db.update(product).set({ departmentId: dep.id }).where(eq(product.id, 5));
    const del = await admin.del(`/api/departments/${dep.id}`);
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ deleted: true });
    expect((await admin.get(`/api/departments/${dep.id}`)).statusCode).toBe(404);
    expect((await admin.get('/api/products/5')).json().department).toBeNull();
    expect((await cashier.del('/api/departments/1')).statusCode).toBe(403);
  });

  it('suppliers: delete removes its purchases and purchase orders; refused when another store uses it', async () => {
    const s = (await admin.post('/api/suppliers', { name: 'Gone Soon', phone: '1', email: 'g@example.com', openingBalance: '0', stores: main })).json();
    const [po] = await t.app.db.insert(purchaseOrder).values({ supplierId: s.id, storeId: 1, poNumber: 'PO-DEL-1' }).returning();
    await t.app.db.insert(purchase).values({ supplierId: s.id, storeId: 1, purchasedById: 1, purchaseNumber: 'P-DEL-1', purchaseMode: 'Items list', purchaseOrderId: po.id });
    const res = await admin.del(`/api/suppliers/${s.id}`);
    expect(res.statusCode).toBe(200);
    expect(await t.app.db.select().from(purchase).where(eq(purchase.supplierId, s.id))).toEqual([]);
    expect(await t.app.db.select().from(purchaseOrder).where(eq(purchaseOrder.supplierId, s.id))).toEqual([]);
    const shared = (await admin.post('/api/suppliers', { name: 'Shared', phone: '2', email: 's@example.com', openingBalance: '0', stores: ['/api/stores/1', '/api/stores/2'] })).json();
    const refused = await mall.del(`/api/suppliers/${shared.id}`);
    expect(refused.statusCode).toBe(422);
    expect((await admin.get(`/api/suppliers/${shared.id}`)).statusCode).toBe(200);
  });

  it('settings: a per-user setting is the owner\'s only', async () => {
    const mine = await admin.post('/api/settings', { name: 'defaultMode', value: 'pos', user: '/api/users/1' });
    expect(mine.statusCode).toBe(201);
    expect(mine.json().user).toBe('/api/users/1');
    expect((await cashier.get(`/api/settings/${mine.json().id}`)).statusCode).toBe(404);
    expect(members(await cashier.get('/api/settings')).map((s) => s.name)).not.toContain('defaultMode');
    const other = await admin.post('/api/settings', { name: 'x', user: '/api/users/2' });
    expect(messageAt(other, 'user')).toBe("'User' with ID '2' not found");
  });
});

describe('terminals', () => {
  it('creates with products / categories / excludeProducts (all conditions must match), answers {terminal}', async () => {
    const byProducts = await admin.post('/api/admin/terminal/create', { code: 'T9', store: 1, products: ['/api/products/1', '/api/products/2'], categories: [], excludeProducts: [] });
    expect(byProducts.statusCode).toBe(200);
    const term = byProducts.json().terminal;
    expect(term).toMatchObject({ code: 'T9', store: { id: 1, name: 'Main Street', terminals: [] }, createdAt: { datetime: expect.any(String) }, isActive: true });
    expect(term.products).toEqual([{ label: 'Fresh Milk 1L', value: 1 }, { label: 'Fresh Bread Loaf', value: 2 }]);
    const byCategory = (await admin.post('/api/admin/terminal/create', { code: 'T10', store: '1', categories: [2], excludeProducts: ['/api/products/101'] })).json().terminal;
    expect(byCategory.products).toHaveLength(89);
    expect(byCategory.products.map((p: any) => p.value)).not.toContain(101);
    const allBut = (await admin.post('/api/admin/terminal/create', { code: 'T11', store: 1, excludeProducts: [1] })).json().terminal;
    expect(allBut.products).toHaveLength(189); // Main Street sees 190 products
    const both = (await admin.post('/api/admin/terminal/create', { code: 'T12', store: 1, products: [1, 101], categories: [2] })).json().terminal;
    expect(both.products.map((p: any) => p.value)).toEqual([101]);
  });

  it('edits at PUT /api/admin/terminal/{id} with ids mixed with IRIs; lists, filters by store.id, toggles', async () => {
    const term = (await admin.post('/api/admin/terminal/create', { code: 'E1', store: 1, products: [1] })).json().terminal;
    const res = await admin.put(`/api/admin/terminal/${term.id}`, { ...term, id: 999, code: 'E1b', store: term.store.id, products: [1, '/api/products/3', { value: 4 }] });
    expect(res.statusCode).toBe(200);
    expect(res.json().terminal).toMatchObject({ id: term.id, code: 'E1b' });
    expect(res.json().terminal.products.map((p: any) => p.value)).toEqual([1, 3, 4]);
    const list = (await admin.get('/api/admin/terminal/list?q=E1')).json();
    expect(list).toMatchObject({ total: 1, count: 1 });
    const resources = members(await cashier.get('/api/terminals?store.id=1&page=1&itemsPerPage=10'));
    expect(resources.every((x) => x.store.id === 1)).toBe(true);
    const e1 = resources.find((x) => x.id === term.id);
    expect(e1.products.map((p: any) => [p.id, p.name])).toEqual([[1, 'Fresh Milk 1L'], [3, 'Fresh Eggs Dozen'], [4, 'Fresh Rice 5kg']]);
    const off = await admin.put(`/api/terminals/${term.id}`, { isActive: false });
    expect(off.json()).toMatchObject({ isActive: false, code: 'E1b' });
    expect(off.json().products).toHaveLength(3);
    const filtered = members(await admin.get('/api/terminals?products.name=rice&order[code]=asc'));
    expect(filtered.map((x) => x.id)).toContain(term.id);
  });

  it('validates, protects writes, scopes by store, and deletes only terminals without history', async () => {
    const bad = await admin.post('/api/admin/terminal/create', { products: ['x'] });
    expect(messageAt(bad, 'code')).toBe(BLANK);
    expect(messageAt(bad, 'store')).toBe(BLANK);
    expect(messageAt(bad, 'products[0]')).toBe('This value is not a valid reference.');
    const missing = await admin.post('/api/admin/terminal/create', { code: 'Z', store: 1, products: [99999] });
    expect(messageAt(missing, 'products[0]')).toBe("'Product' with ID '99999' not found");
    expect((await cashier.post('/api/admin/terminal/create', { code: 'C1', store: 1 })).statusCode).toBe(403);
    expect((await mall.get('/api/admin/terminal/1')).statusCode).toBe(404);
    expect((await mall.put('/api/admin/terminal/1', { code: 'hack' })).statusCode).toBe(404);
    const other = await mall.post('/api/admin/terminal/create', { code: 'M9', store: 1 });
    expect(messageAt(other, 'store')).toBe("'Store' with ID '1' not found");
    const tmp = (await admin.post('/api/admin/terminal/create', { code: 'TMP', store: 2 })).json().terminal;
    expect((await admin.del(`/api/admin/terminal/${tmp.id}`)).statusCode).toBe(200);
    await t.app.db.insert(closing).values({ storeId: 1, terminalId: 1 });
    const used = await admin.del('/api/admin/terminal/1');
    expect(used.statusCode).toBe(422);
  });
});

describe('users', () => {
  it('creates with stores as id strings; the password is hashed and never returned', async () => {
    const res = await admin.post('/api/admin/user/create', { displayName: 'Sam', username: 'sam', password: 'secret-pass-1', email: 'sam@example.com', roles: ['ROLE_USER'], stores: ['1'] });
    expect(res.statusCode).toBe(200);
    const { user } = res.json();
    expect(user).toMatchObject({ username: 'sam', displayName: 'Sam', roles: ['ROLE_USER'], isActive: true, stores: [expect.objectContaining({ id: 1, terminals: expect.any(Array) })] });
    expect(JSON.stringify(res.json())).not.toContain('password');
    expect(JSON.stringify((await admin.get(`/api/users/${user.id}`)).json())).not.toContain('secret-pass-1');
    await t.login('sam', 'secret-pass-1');
  });

  it('validates with the spec messages', async () => {
    const res = await admin.post('/api/admin/user/create', { displayName: '', username: 'admin', email: 'bad', roles: ['ROLE_GOD'], stores: [] });
    expect(messageAt(res, 'displayName')).toBe(BLANK);
    expect(messageAt(res, 'password')).toBe(BLANK);
    expect(messageAt(res, 'email')).toBe('This value is not a valid email address.');
    expect(messageAt(res, 'roles[0]')).toBe(NOT_CHOICE);
    expect(messageAt(res, 'stores')).toBe(ADD_STORES);
    const dup = await admin.post('/api/admin/user/create', { displayName: 'X', username: 'admin', password: 'secret-pass-1', email: 'x@example.com', roles: ['ROLE_USER'], stores: ['1'] });
    expect(messageAt(dup, 'username')).toBe('This value is already used.');
  });

  it('edits at PUT /api/admin/user/{id}: no password keeps it, a new one replaces it', async () => {
    const { user } = (await admin.post('/api/admin/user/create', { displayName: 'Kim', username: 'kim', password: 'first-pw', email: 'kim@example.com', roles: ['ROLE_USER'], stores: ['1'] })).json();
    const kept = await admin.put(`/api/admin/user/${user.id}`, { ...user, displayName: 'Kim L', password: '', stores: ['1', '2'] });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().user).toMatchObject({ displayName: 'Kim L', stores: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })] });
    await t.login('kim', 'first-pw');
    await admin.put(`/api/admin/user/${user.id}`, { password: 'second-pw' });
    const old = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'kim', password: 'first-pw' } });
    expect(old.statusCode).toBe(401);
    await t.login('kim', 'second-pw');
  });

  it('toggles at PUT /api/users/{id}; a deactivated user cannot sign in; nobody deactivates themselves', async () => {
    const { user } = (await admin.post('/api/admin/user/create', { displayName: 'Lee', username: 'lee', password: 'lee-password-1', email: 'lee@example.com', roles: ['ROLE_USER'], stores: ['1'] })).json();
    const off = await admin.put(`/api/users/${user.id}`, { isActive: false, password: 'ignored' });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ isActive: false, username: 'lee', roles: ['ROLE_USER'] });
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'lee', password: 'lee-password-1' } });
    expect(login.statusCode).toBe(401);
    expect(messageAt(await admin.put('/api/users/1', { isActive: false }), 'isActive')).toBe('You cannot deactivate your own account.');
    expect(members(await admin.get('/api/users?isActive=false&username=lee')).map((u) => u.id)).toEqual([user.id]);
  });

  it('lists with filters; admins only; scoped by store; deletes', async () => {
    const list = members(await admin.get('/api/users?displayName=cash&order[username]=desc'));
    expect(list.map((u) => u.username)).toEqual(['cashier']);
    expect((await admin.get('/api/admin/user/list?displayName=Adm')).json()).toMatchObject({ total: 1, count: 1 });
    expect(members(await cashier.get('/api/users')).map((u) => u.username)).toEqual(['cashier']);
    expect((await cashier.get('/api/users/1')).statusCode).toBe(404);
    expect((await cashier.get('/api/admin/user/1')).statusCode).toBe(404);
    expect((await cashier.put('/api/users/2', { displayName: 'Me' })).statusCode).toBe(403);
    expect((await cashier.post('/api/admin/user/create', {})).statusCode).toBe(403);
    expect((await mall.get('/api/admin/user/2')).statusCode).toBe(404);
    expect((await mall.put('/api/users/2', { isActive: false })).statusCode).toBe(404);
    expect(members(await mall.get('/api/users')).map((u) => u.username)).not.toContain('cashier');
    const { user } = (await admin.post('/api/admin/user/create', { displayName: 'Tmp', username: 'tmp', password: 'tmp-password-1', email: 'tmp@example.com', roles: ['ROLE_USER'], stores: ['2'] })).json();
    expect((await admin.del(`/api/admin/user/${user.id}`)).statusCode).toBe(200);
    expect((await admin.get(`/api/admin/user/${user.id}`)).statusCode).toBe(404);
    expect((await admin.del('/api/admin/user/1')).statusCode).toBe(422);
  });
});
