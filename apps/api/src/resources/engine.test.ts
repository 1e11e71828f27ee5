import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { api, members, type Api } from '../modules/catalogue/test-support.ts';
import { parseListQuery } from './engine.ts';

let t: TestApp;
let admin: Api;
let cashier: Api;
beforeAll(async () => {
  t = await createTestApp();
  const a = await t.login('admin');
  const c = await t.login('cashier');
  admin = api(t, () => a);
  cashier = api(t, () => c);
});
afterAll(async () => { await t?.close(); });

describe('resource engine: paging', () => {
  it('pages are 1-based with itemsPerPage, and hydra:view links the pages', async () => {
    const p1 = await admin.get('/api/products?page=1&itemsPerPage=10');
    const p2 = await admin.get('/api/products?page=2&itemsPerPage=10');
    expect(members(p1).map((p) => p.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(members(p2).map((p) => p.id)).toEqual([11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(p1.json()['hydra:totalItems']).toBe(200);
    expect(p2.json()['hydra:view']).toMatchObject({ 'hydra:first': '/api/products?page=1', 'hydra:last': '/api/products?page=20', 'hydra:previous': '/api/products?page=1', 'hydra:next': '/api/products?page=3' });
  });

  it('answers an empty page past the end (200, not 404), as the product preload needs', async () => {
    const res = await admin.get('/api/products?itemsPerPage=100&page=3&isActive=true');
    expect(res.statusCode).toBe(200);
    expect(members(res)).toEqual([]);
    expect(res.json()['hydra:totalItems']).toBe(200);
    const far = await admin.get('/api/products?page=2.7e77&itemsPerPage=100');
    expect(far.statusCode).toBe(200);
    expect(members(far)).toEqual([]);
  });

  it('defaults to 10 per page when only page is given, and to the whole list without paging', async () => {
    expect(members(await admin.get('/api/products?page=1'))).toHaveLength(10);
    expect(members(await admin.get('/api/taxes'))).toHaveLength(2);
    expect(members(await admin.get('/api/products?itemsPerPage=9999999&page=1'))).toHaveLength(200);
  });

  it('parses paging and order parameters', () => {
    const q = parseListQuery({ page: '3', itemsPerPage: '25', 'order[department_name]': 'DESC', 'order[x]': 'sideways' });
    expect(q.page).toBe(3);
    expect(q.itemsPerPage).toBe(25);
    expect(q.order).toEqual([{ key: 'department_name', dir: 'desc' }]);
  });
});

describe('resource engine: sorting and filters', () => {
  it('sorts with order[field]=asc|desc, ties broken by id', async () => {
    const asc = members(await admin.get('/api/products?order[basePrice]=asc&itemsPerPage=200&page=1')).map((p) => p.basePrice);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    const desc = members(await admin.get('/api/products?order%5Bname%5D=desc&itemsPerPage=5&page=1')).map((p) => p.name);
    expect(desc).toEqual([...desc].sort().reverse());
  });

  it('accepts underscored sort ids like order[department_name] and dotted ones like order[categories.name]', async () => {
    const byDept = members(await admin.get('/api/products?order[department_name]=desc&itemsPerPage=200&page=1')).map((p) => p.department.name);
    expect(byDept[0]).toBe('Household');
    expect(byDept.at(-1)).toBe('Clothing');
    const byCat = members(await admin.get('/api/products?order[categories.name]=asc&itemsPerPage=1&page=1'));
    expect(byCat[0].categories[0].name).toBe('Apparel');
    const suppliers = members(await admin.get('/api/suppliers?order[openingBalance]=desc'));
    expect(suppliers[0].name).toBe('CleanCo Wholesale');
  });

  it('filters by dotted parameters through relations', async () => {
    const house = await admin.get('/api/products?department.name=house&page=1&itemsPerPage=100');
    expect(house.json()['hydra:totalItems']).toBe(90);
    expect(new Set(members(house).map((p) => p.department.name))).toEqual(new Set(['Household']));
    const clean = await admin.get('/api/products?categories.name=Clean&itemsPerPage=0');
    expect(clean.json()['hydra:totalItems']).toBe(90);
    const taxed = await admin.get('/api/products?taxes.name=VAT&itemsPerPage=0');
    expect(taxed.json()['hydra:totalItems']).toBe(100);
    const term = await admin.get('/api/terminals?store.id=2');
    expect(members(term).map((x) => x.code)).toEqual(['M1', 'M2']);
  });

  it('filters isActive=true|false', async () => {
    const created = await admin.post('/api/brands', { name: 'Sleepy', stores: ['/api/stores/1'] });
    const id = created.json().id;
    await admin.put(`/api/brands/${id}`, { isActive: false });
    const active = members(await admin.get('/api/brands?isActive=true')).map((b) => b.id);
    const inactive = members(await admin.get('/api/brands?isActive=false')).map((b) => b.id);
    expect(active).not.toContain(id);
    expect(inactive).toEqual([id]);
    expect(members(await admin.get('/api/brands?isActive=1')).map((b) => b.id)).toEqual(active);
  });

  it('filters by the store parameter', async () => {
    expect(members(await admin.get('/api/departments?store=2')).map((d) => d.name)).toEqual(['Clothing']);
    expect(members(await admin.get('/api/departments?store=/api/stores/1')).map((d) => d.name)).toEqual(['Grocery', 'Household']);
    const mallOnly = await admin.get('/api/products?store=1&itemsPerPage=0');
    expect(mallOnly.json()['hydra:totalItems']).toBe(190);
  });

  it('ignores junk parameters: "undefined", "null", empty values and the empty key', async () => {
    const clean = await admin.get('/api/products?page=1&itemsPerPage=10');
    const junk = await admin.get('/api/products?=undefined&name=undefined&barcode=null&department.name=&isActive=undefined&order[name]=undefined&page=1&itemsPerPage=10');
    expect(junk.statusCode).toBe(200);
    expect(junk.json()['hydra:totalItems']).toBe(clean.json()['hydra:totalItems']);
    expect(members(junk).map((p) => p.id)).toEqual(members(clean).map((p) => p.id));
    const unknown = await admin.get('/api/taxes?colour=blue&foo[bar]=1');
    expect(members(unknown)).toHaveLength(2);
  });
});

describe('resource engine: writes', () => {
  it('treats PUT as a merge: a toggle {isActive} keeps every other field', async () => {
    const before = (await admin.get('/api/taxes/2')).json();
    const res = await admin.put('/api/taxes/2', { isActive: false });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after.isActive).toBe(false);
    expect({ ...after, isActive: true, updatedAt: null }).toEqual({ ...before, updatedAt: null });
    await admin.put('/api/taxes/2', { isActive: true });
    const store = (await admin.get('/api/stores/2')).json();
    const off = (await admin.put('/api/stores/2', { isActive: false })).json();
    expect(off).toMatchObject({ name: store.name, location: store.location, isActive: false });
    await admin.put('/api/stores/2', { isActive: true });
  });

  it('ignores read-only fields sent back on PUT (@id, @type, id, uuid, createdAt)', async () => {
    const before = (await admin.get('/api/taxes/1')).json();
    const res = await admin.put('/api/taxes/1', {
      ...before, '@id': '/api/taxes/999', '@type': 'Nope', id: 999, uuid: '00000000-0000-4000-8000-000000000000',
      createdAt: '2000-01-01T00:00:00.000Z', name: 'VAT', stores: before.stores,
    });
    expect(res.statusCode).toBe(200);
    const after = res.json();
    expect(after['@id']).toBe('/api/taxes/1');
    expect(after.uuid).toBe(before.uuid);
    expect(after.createdAt).toBe(before.createdAt);
  });

  it('answers 401 without a token or with "Bearer undefined"', async () => {
    for (const headers of [{}, { authorization: 'Bearer undefined' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/api/taxes', headers });
      expect(res.statusCode).toBe(401);
    }
  });

  it('answers 404 for an unknown id and for another store\'s record', async () => {
    expect((await admin.get('/api/taxes/99999')).statusCode).toBe(404);
    expect((await admin.get('/api/taxes/abc')).statusCode).toBe(404);
    expect((await admin.put('/api/departments/99999', { name: 'x' })).statusCode).toBe(404);
    // The cashier belongs to Main Street only: the Mall's department does not exist for them.
    const mallDept = members(await admin.get('/api/departments?store=2'))[0];
    expect((await cashier.get(`/api/departments/${mallDept.id}`)).statusCode).toBe(404);
    expect(members(await cashier.get('/api/departments')).map((d) => d.id)).not.toContain(mallDept.id);
  });

  it('answers 403 to a cashier writing a back-office resource', async () => {
    expect((await cashier.post('/api/taxes', { name: 'X', rate: '1', stores: ['/api/stores/1'] })).statusCode).toBe(403);
    expect((await cashier.put('/api/taxes/1', { isActive: false })).statusCode).toBe(403);
    expect((await cashier.get('/api/taxes')).statusCode).toBe(200);
  });

  it('reports 422 with violations always an array', async () => {
    const bad = await admin.post('/api/taxes', { name: '', rate: 'abc' });
    expect(bad.statusCode).toBe(422);
    const body = bad.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(Array.isArray(body.violations)).toBe(true);
    expect(body.violations).toEqual(expect.arrayContaining([
      { propertyPath: 'name', message: 'This value should not be blank.' },
      { propertyPath: 'rate', message: 'This value should be a valid number.' },
    ]));
    expect(typeof body.errorMessage).toBe('string');
    for (const payload of [[1, 2], 'text']) {
      const r = await t.app.inject({ method: 'POST', url: '/api/taxes', headers: { ...(await t.login('admin')), 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
      expect(r.statusCode).toBe(422);
      expect(Array.isArray(r.json().violations)).toBe(true);
    }
  });
});
