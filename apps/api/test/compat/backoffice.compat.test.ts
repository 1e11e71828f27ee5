/**
 * Replay of the reference client's back-office calls, sections 2.3a and 2.7–2.13 of
 * reference-client.md: the item form (`stores: []` with the store only in `storesDropdown`), the
 * activate toggle, CSV import; suppliers, their payments and purchases; purchases and purchase
 * orders with their bodiless DELETEs; stores, terminals, users; taxes, discounts, payment types,
 * departments, categories, brands, settings and devices. Sent as that client sends them (admin).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydra, ok, startOldClientServer, table, type OldClient, type OldClientServer } from './old-client.ts';

let s: OldClientServer;
let admin: OldClient;
beforeAll(async () => {
  s = await startOldClientServer();
  admin = await s.signIn('admin', 'admin', 'ROLE_ADMIN');
});
afterAll(async () => { await s?.close(); });

/** The item form's create body (2.3a): strings for money, IRIs for relations, constant fields. */
const itemForm = (over: Record<string, unknown> = {}) => ({
  name: 'Replay Soap', barcode: String(Math.floor(Math.random() * 1e10)), basePrice: '3.25', cost: '1.10', saleUnit: 'pcs', purchaseUnit: 'box',
  department: '/api/departments/1', taxes: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'],
  manageInventory: true, stores: [], storesDropdown: [{ label: 'Main Street', value: '/api/stores/1' }],
  groups: [], variants: [], baseQuantity: 1, isAvailable: true, isActive: true, prices: [], ...over,
});

describe('2.3a the item form', () => {
  it('create with `stores: []` takes the store from `storesDropdown`; the cashier of that store sells it', async () => {
    const created = ok(await admin.call('POST', '/api/products', itemForm()), 'create');
    expect(created.stores.map((r: any) => r.store.id)).toEqual([1]);
    const cashier = await s.signIn('cashier');
    expect(ok(await cashier.call('GET', `/api/products/${created.id}`), 'cashier reads').name).toBe('Replay Soap');
    // A typed stock row wins over the dropdown.
    const typed = ok(await admin.call('POST', '/api/products', itemForm({
      stores: [{ store: '/api/stores/2', quantity: '4', location: 'Back', reOrderLevel: '1', product: null }],
      storesDropdown: [{ label: 'Main Street', value: '/api/stores/1' }, { label: 'Harbour Mall', value: '/api/stores/2' }],
    })), 'typed');
    expect(typed.stores).toEqual([expect.objectContaining({ store: expect.objectContaining({ id: 2 }), quantity: '4' })]);
  });

  it('update sends the loaded product back; `stores: []` with the dropdown keeps the stock; the toggle is a merge', async () => {
    const created = ok(await admin.call('POST', '/api/products', itemForm({ stores: [{ store: '/api/stores/1', quantity: '9', location: '', reOrderLevel: '', product: null }] })), 'create');
    const loaded = ok(await admin.call('GET', `/api/products/${created.id}`), 'load');
    const saved = ok(await admin.call('PUT', `/api/products/${created.id}`, { ...loaded, name: 'Replay Soap XL', basePrice: '3.75', stores: [], storesDropdown: [{ label: 'Main Street', value: '/api/stores/1' }] }), 'update');
    expect(saved).toMatchObject({ name: 'Replay Soap XL', basePrice: 3.75 });
    expect(saved.stores).toEqual([expect.objectContaining({ quantity: '9' })]);
    ok(await admin.call('PUT', `/api/products/${created.id}`, { isActive: false }), 'toggle');
    expect(ok(await admin.call('GET', `/api/products/${created.id}`), 'after').name).toBe('Replay Soap XL');
  });

  it('the CSV import posts multipart `file` with the Authorization header', async () => {
    const form = new FormData();
    form.append('file', new Blob(['ID,Name,Barcode,Is Available?,Purchase price,Sale price,Available Quantity,Purchase Unit,Sale Unit\n,Imported Tea,7700000000011,1,1.20,2.40,0,pcs,pcs\n'], { type: 'text/csv' }), 'products.csv');
    ok(await admin.upload('/api/products/import', form), 'import');
    const rows = hydra(await admin.call('GET', `/api/products?${table({ barcode: '7700000000011' })}`), 'imported');
    expect(rows[0]).toMatchObject({ name: 'Imported Tea' });
  });
});

describe('2.7–2.9 suppliers, purchases, purchase orders', () => {
  it('supplier create, ledger reads, payment, edit with the whole object, and a bodiless DELETE', async () => {
    ok(await admin.call('POST', '/api/suppliers', { name: 'Replay Supply', phone: '555-2222', email: 'replay@supply.example', openingBalance: '0', stores: ['/api/stores/1'] }), 'create');
    const [sup] = hydra(await admin.call('GET', `/api/suppliers?store=1&${table({ name: 'Replay' })}`), 'list');
    expect(sup).toMatchObject({ '@id': expect.any(String), name: 'Replay Supply', stores: [expect.objectContaining({ name: 'Main Street' })] });
    hydra(await admin.call('GET', '/api/suppliers?page=1&itemsPerPage=9999999'), 'picker');
    ok(await admin.call('POST', '/api/supplier_payments', { amount: '12.5', description: 'Cash on delivery', supplier: sup['@id'] }), 'payment');
    const payments = hydra(await admin.call('GET', `/api/suppliers/${sup.id}/payments?limit=9999999&page=1&itemsPerPage=10`), 'payments');
    expect(payments[0]).toMatchObject({ amount: 12.5, description: 'Cash on delivery', createdAt: expect.any(String) });
    hydra(await admin.call('GET', `/api/suppliers/${sup.id}/purchases?limit=9999999&page=1&itemsPerPage=10`), 'purchases');
    ok(await admin.call('PUT', `/api/suppliers/${sup.id}`, { ...sup, phone: '555-3333', stores: ['/api/stores/1'] }), 'edit');
    ok(await admin.call('DELETE', `/api/suppliers/${sup.id}`), 'delete');
    expect((await admin.call('GET', `/api/suppliers/${sup.id}`)).status).toBe(404);
  });

  it('a purchase order, a purchase from it, edits, and bodiless DELETEs of both', async () => {
    const po = ok(await admin.call('POST', '/api/purchase_orders', {
      createdAt: '2026-11-20T09:30', poNumber: 'PO-REPLAY', supplier: '/api/suppliers/1', store: '/api/stores/1',
      items: [{ item: '/api/products/2', quantity: '6', price: '1.10', comments: '', unit: 'pcs', variants: [] }],
    }), 'po');
    const picker = hydra(await admin.call('GET', '/api/purchase_orders?isUsed=null&page=1&itemsPerPage=9999999'), 'po picker');
    expect(picker.find((x) => x.id === po.id)).toMatchObject({ '@id': expect.any(String), poNumber: 'PO-REPLAY', isUsed: false, supplier: { name: expect.any(String) } });
    ok(await admin.call('PUT', `/api/purchase_orders/${po.id}`, { ...po, id: po.id, store: po.store['@id'], poNumber: 'PO-REPLAY-2' }), 'po edit');
    hydra(await admin.call('GET', `/api/purchase_orders?store=1&${table({ poNumber: 'PO-REPLAY' }, ['supplier_name', 'asc'])}`), 'po table');
    const purchase = ok(await admin.call('POST', '/api/purchases', {
      createdAt: '2026-11-20T10:00', purchaseNumber: 'P-REPLAY', purchaseMode: 'Items list', purchaseOrder: undefined, supplier: '/api/suppliers/1',
      paymentType: '/api/payments/1', updateStocks: true, updatePrice: true, purchasedBy: '/api/users/1', store: '/api/stores/1',
      items: [{ item: '/api/products/2', quantity: '5', quantityRequested: null, purchasePrice: '1.05', comments: '', purchaseUnit: 'pcs', variants: [] }],
    }), 'purchase');
    expect(purchase.total).toBe(5.25);
    // DynamicValue: the purchase read by its IRI, for its `purchaseNumber`.
    expect(ok(await admin.call('GET', `/api/purchases/${purchase.id}?page=1&itemsPerPage=1`), 'by IRI').purchaseNumber).toBe('P-REPLAY');
    const [row] = hydra(await admin.call('GET', `/api/purchases?store=1&${table({ purchaseNumber: 'P-REPLAY' }, ['purchaseOrder_poNumber', 'asc'])}`), 'purchases');
    expect(row).toMatchObject({ supplier: { name: expect.any(String) }, paymentType: { name: expect.any(String) }, store: expect.anything(), items: expect.any(Array) });
    ok(await admin.call('PUT', `/api/purchases/${purchase.id}`, { ...row, store: row.store['@id'], purchasedBy: row.purchasedBy?.['@id'] ?? '/api/users/1', purchaseNumber: 'P-REPLAY-2' }), 'purchase edit');
    ok(await admin.call('DELETE', `/api/purchases/${purchase.id}`), 'purchase delete');
    ok(await admin.call('DELETE', `/api/purchase_orders/${po.id}`), 'po delete');
  });
});

describe('2.12 stores, terminals, users', () => {
  it('store create (POST, also used to "edit"), toggle; terminal create/edit with ids and IRIs mixed; user create/edit', async () => {
    const store = ok(await admin.call('POST', '/api/stores', { name: 'Replay Kiosk', location: 'Station' }), 'store');
    const stores = hydra(await admin.call('GET', '/api/stores'), 'stores');
    expect(stores.find((x) => x.name === 'Replay Kiosk')).toMatchObject({ '@id': expect.any(String), isActive: true, location: 'Station' });
    const storeId = store.id ?? store.store?.id;
    ok(await admin.call('PUT', `/api/stores/${storeId}`, { isActive: true }), 'store toggle');
    // Products assigned to a terminal are those of its store (docs/api.md): a till of Main Street.
    const term = ok(await admin.call('POST', '/api/admin/terminal/create', { code: 'K1', store: 1, categories: [], products: ['/api/products/1'], excludeProducts: [] }), 'terminal');
    const terminal = term.terminal ?? term;
    const terms = hydra(await admin.call('GET', `/api/terminals?${table({ code: 'K1' }, ['code', 'asc'])}`), 'terminals');
    expect(terms[0]).toMatchObject({ code: 'K1', store: { id: 1, name: 'Main Street' }, products: [expect.objectContaining({ id: 1 })] });
    ok(await admin.call('PUT', `/api/admin/terminal/${terminal.id}`, { ...terms[0], code: 'K1', store: 1, products: [1, '/api/products/2'], categories: [], excludeProducts: [] }), 'terminal edit');
    ok(await admin.call('PUT', `/api/terminals/${terminal.id}`, { isActive: false }), 'terminal toggle');
    const edited = hydra(await admin.call('GET', `/api/terminals?store.id=1&page=1&itemsPerPage=10`), 'payment-mode filter').find((x) => x.id === terminal.id);
    expect(edited.products.map((p: any) => p.id).sort()).toEqual([1, 2]);
    const user = ok(await admin.call('POST', '/api/admin/user/create', { displayName: 'Replay Clerk', username: 'replayclerk', password: 'replay-clerk-pass', email: 'clerk@example.com', roles: ['ROLE_USER'], stores: [String(storeId)] }), 'user');
    const u = user.user ?? user;
    const users = hydra(await admin.call('GET', `/api/users?${table({ username: 'replayclerk' })}`), 'users');
    expect(users[0]).toMatchObject({ roles: ['ROLE_USER'], stores: [expect.objectContaining({ name: 'Replay Kiosk' })], isActive: true });
    ok(await admin.call('PUT', `/api/admin/user/${u.id}`, { ...users[0], displayName: 'Replay Clerk 2', stores: [String(storeId)] }), 'user edit');
    ok(await admin.call('PUT', `/api/users/${u.id}`, { isActive: false }), 'user toggle');
  });
});

describe('pickers of the forms (2.7, 2.8, 2.12, 2.13)', () => {
  it.each([
    '/api/suppliers?isActive=true&page=1&itemsPerPage=999999',
    '/api/payments?page=1&itemsPerPage=9999999',
    '/api/terminals?isActive=true&page=1&itemsPerPage=999999',
    '/api/stores?page=1&itemsPerPage=10',
    '/api/categories?isActive=true',
    '/api/brands?isActive=true',
  ])('GET %s lists rows with @id and name (or code)', async (path) => {
    const rows = hydra(await admin.call('GET', path), path);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ '@id': expect.any(String) });
    expect(rows.every((r) => typeof (r.name ?? r.code) === 'string')).toBe(true);
  });
});

describe('2.13 reference data', () => {
  it.each([
    ['taxes', { name: 'Replay Tax', rate: '7', stores: ['/api/stores/1'] }, ['name', 'rate']],
    ['discounts', { name: 'Replay 3%', rate: '3', rateType: 'percent', scope: 'exact', stores: ['/api/stores/1'] }, ['name', 'rateType', 'scope']],
    ['payments', { name: 'Replay Voucher', type: 'credit card', canHaveChangeDue: false, stores: ['/api/stores/1'] }, ['name', 'type']],
    ['categories', { name: 'Replay Cat', stores: ['/api/stores/1'], type: 'product', isActive: true }, ['name']],
    ['brands', { name: 'Replay Brand', stores: ['/api/stores/1'], isActive: true }, ['name']],
  ])('%s: table with ?store=, create, edit spreading the entity, partial PUT toggle', async (resource, body, cols) => {
    const created = ok(await admin.call('POST', `/api/${resource}`, body), `${resource} create`);
    const rows = hydra(await admin.call('GET', `/api/${resource}?store=1&${table({ name: 'Replay' }, [cols[0], 'asc'])}`), `${resource} table`);
    const row = rows.find((x) => x.id === created.id);
    expect(row).toMatchObject({ '@id': expect.any(String), name: body.name, isActive: true });
    ok(await admin.call('PUT', `/api/${resource}/${created.id}`, { ...row, name: `${body.name} 2`, stores: ['/api/stores/1'] }), `${resource} edit`);
    ok(await admin.call('PUT', `/api/${resource}/${created.id}`, { isActive: false }), `${resource} toggle`);
    const after = ok(await admin.call('GET', `/api/${resource}/${created.id}`), `${resource} read`);
    expect(after).toMatchObject({ name: `${body.name} 2`, isActive: false });
  });

  it('departments: create with store IRI, table, bodiless DELETE; settings and devices read', async () => {
    const dep = ok(await admin.call('POST', '/api/departments', { name: 'Replay Dept', description: 'Test', store: '/api/stores/1', isActive: true }), 'department');
    const rows = hydra(await admin.call('GET', `/api/departments?store=1&${table({ name: 'Replay' }, ['description', 'asc'])}`), 'departments');
    expect(rows[0]).toMatchObject({ name: 'Replay Dept', description: 'Test' });
    ok(await admin.call('DELETE', `/api/departments/${dep.id}`), 'department delete');
    const settings = hydra(await admin.call('GET', '/api/settings'), 'settings');
    expect(settings.find((x) => x.type === 'sale_receipt')).toMatchObject({ name: expect.any(String), value: expect.any(String) });
    const [device] = hydra(await admin.call('GET', '/api/devices?isActive=true'), 'devices');
    expect(device).toMatchObject({ name: expect.any(String), ipAddress: expect.any(String), prints: expect.any(Number) });
  });
});
