/**
 * Replay of the reference client's calls, sections 1.3 and 2.1–2.4 of reference-client.md: sign-in,
 * bootstrap, logout, password reset, locale, profile; the till's preloaded lists; products, keywords,
 * quantities, export, order and purchase lines, DynamicValue reads; barcodes. Sent the way that
 * client sends them (old-client.ts) and checked on the fields it reads.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hydra, ok, startOldClientServer, table, type OldClient, type OldClientServer } from './old-client.ts';

let s: OldClientServer;
let cashier: OldClient;
let admin: OldClient;
beforeAll(async () => {
  s = await startOldClientServer();
  cashier = await s.signIn('cashier');
  admin = await s.signIn('admin', 'admin', 'ROLE_ADMIN');
});
afterAll(async () => { await s?.close(); });

describe('1.3 auth as the old client does it', () => {
  it('bootstraps: GET /auth/info?role=… gives the user with stores[] each with terminals[]', async () => {
    const info = ok(await cashier.call('GET', '/api/auth/info?role=ROLE_USER'), 'auth/info');
    expect(info.user).toMatchObject({ username: 'cashier', roles: expect.arrayContaining(['ROLE_USER']) });
    expect(info.user.stores.length).toBeGreaterThan(0);
    for (const store of info.user.stores) {
      expect(store).toMatchObject({ id: expect.anything(), name: expect.any(String) });
      expect(Array.isArray(store.terminals)).toBe(true);
      for (const term of store.terminals) expect(term).toMatchObject({ id: expect.anything(), code: expect.any(String) });
    }
    const adminInfo = ok(await admin.call('GET', '/api/auth/info?role=ROLE_ADMIN'), 'auth/info admin');
    expect(adminInfo.user.roles).toContain('ROLE_ADMIN');
  });

  it('answers 401 to `Bearer undefined` and to a wrong password with {message}', async () => {
    const anon = await s.signIn('cashier');
    anon.jwt = undefined;
    expect((await anon.call('GET', '/api/auth/info?role=ROLE_USER')).status).toBe(401);
    const bad = await anon.call('POST', '/api/auth/login_check?role=ROLE_USER', { username: 'cashier', password: 'nope', role: 'ROLE_USER' });
    expect(bad.status).toBe(401);
    expect(typeof bad.json.message).toBe('string');
  });

  it('logs out with the cookie already gone (GET, `Bearer undefined`) and gets a 2xx JSON answer', async () => {
    const c = await s.signIn('cashier');
    c.jwt = undefined;
    ok(await c.call('GET', '/api/auth/logout'), 'logout');
  });

  it('forgot and reset password read `message`; the reset token comes from the mailed link', async () => {
    const anon = await s.signIn('cashier');
    anon.jwt = undefined;
    const forgot = ok(await anon.call('POST', '/api/auth/forgot-password', { username: 'admin', role: 'ROLE_USER' }), 'forgot');
    expect(typeof forgot.message).toBe('string');
    const mail = s.t.mail.sent.at(-1);
    const token = /reset-password\/([^\s"'<>]+)/.exec(mail?.text ?? mail?.html ?? '')?.[1];
    expect(token).toBeTruthy();
    const reset = ok(await anon.call('POST', '/api/auth/reset-password', { password: 'admin-new-pass-1', role: 'ROLE_USER', resetToken: token }), 'reset');
    expect(typeof reset.message).toBe('string');
    const again = await s.signIn('admin', 'admin-new-pass-1', 'ROLE_ADMIN');
    expect(ok(await again.call('GET', '/api/auth/info?role=ROLE_ADMIN'), 'info').user.username).toBe('admin');
    // A reset ends every session (issue 21): the replay goes on with the new one.
    admin = again;
  });

  it('POST /locale and POST /admin/profile/update (reads `user`) as the admin build sends them', async () => {
    ok(await admin.call('POST', '/api/locale', { locale: 'ar' }), 'locale');
    const me = ok(await admin.call('GET', '/api/auth/info?role=ROLE_ADMIN'), 'info').user;
    const updated = ok(await admin.call('POST', '/api/admin/profile/update', { ...me, displayName: 'Owner' }), 'profile');
    expect(updated.user).toMatchObject({ username: 'admin', displayName: 'Owner' });
  });
});

describe('2.2 the till preloads its lists', () => {
  it('pages /products?itemsPerPage=100&page=N&isActive=true until an empty page (never a 404)', async () => {
    let page = 1;
    let seen = 0;
    for (;;) {
      const rows = hydra(await cashier.call('GET', `/api/products?itemsPerPage=100&page=${page}&isActive=true`), `products page ${page}`);
      if (rows.length === 0) break;
      for (const p of rows) {
        expect(p).toMatchObject({ '@id': expect.any(String), id: expect.any(Number), name: expect.any(String), basePrice: expect.any(Number) });
        expect(Array.isArray(p.prices) && Array.isArray(p.variants) && Array.isArray(p.taxes) && Array.isArray(p.stores)).toBe(true);
      }
      seen += rows.length;
      page += 1;
      expect(page).toBeLessThan(50);
    }
    expect(seen).toBeGreaterThan(100);
  });

  it.each(['/api/discounts?isActive=true', '/api/taxes?isActive=true', '/api/payments?isActive=true', '/api/devices?isActive=true', '/api/settings'])(
    'GET %s is a hydra collection',
    async (path) => {
      const rows = hydra(await cashier.call('GET', path), path);
      expect(rows.length).toBeGreaterThan(0);
    },
  );

  it('payment types carry what the payment panel reads (name, type, canHaveChangeDue)', async () => {
    const rows = hydra(await cashier.call('GET', '/api/payments?isActive=true'), 'payments');
    expect(rows.find((p) => p.type === 'cash')).toMatchObject({ '@id': expect.any(String), name: 'Cash', canHaveChangeDue: true });
  });
});

describe('2.3 products and their lines', () => {
  it('settings table: filters, sort ids with _ and junk `=undefined` parameters', async () => {
    const rows = hydra(await admin.call('GET', `/api/products?${table({ name: 'Milk', undefined: 'undefined' }, ['department_name', 'asc'])}`), 'products table');
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ department: { name: expect.any(String) }, isActive: true });
    hydra(await admin.call('GET', `/api/products?${table({ 'categories.name': 'Food' }, ['categories.name', 'desc'])}`), 'by category');
  });

  it('GET /products/{id} gives what the purchase form reads', async () => {
    const p = ok(await admin.call('GET', '/api/products/191'), 'product');
    expect(p).toMatchObject({ '@id': '/api/products/191', name: expect.any(String), cost: expect.any(Number), purchaseUnit: expect.any(String) });
    expect(p.variants[0]).toMatchObject({ '@id': expect.any(String), attributeValue: expect.any(String), attributeName: expect.any(String) });
  });

  it('keywords answer {list} (not hydra) with and without paging parameters', async () => {
    for (const q of ['', '?page=1&itemsPerPage=9999999']) {
      const body = ok(await admin.call('GET', `/api/admin/product/keywords${q}`), 'keywords');
      expect(Array.isArray(body.list)).toBe(true);
      expect(body.list[0]).toMatchObject({ id: expect.any(Number), name: expect.any(String), '@id': expect.any(String) });
    }
  });

  it('quantities answer {quantity} per cart line (variantId absent is sent as nothing)', async () => {
    const body = ok(await cashier.call('GET', '/api/admin/product/quantities?itemId=2&store=1'), 'quantities');
    expect(body).toHaveProperty('quantity');
    const mall = admin; // signed in with the password reset above
    const shirt = ok(await mall.call('GET', '/api/products/191'), 'shirt');
    const variant = ok(await mall.call('GET', `/api/admin/product/quantities?itemId=191&variantId=${shirt.variants[0].id}&store=2`), 'variant quantity');
    expect(Number(variant.quantity)).toBe(shirt.variants[0].quantity);
  });

  it('export opens in a new tab with ?bearer= and no Authorization header: a CSV download', async () => {
    const r = await admin.open(`/api/admin/product/export?bearer=${admin.jwt}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/text\/csv/);
    expect(r.text.split('\n')[0]).toMatch(/Name/);
  });

  it('order lines at /order_products/ (trailing slash) filtered by a product IRI; purchase lines by item IRI', async () => {
    hydra(await admin.call('GET', `/api/order_products/?product.id=${encodeURIComponent('/api/products/1')}&${table()}`), 'order_products');
    hydra(await admin.call('GET', `/api/purchase_items?item.id=${encodeURIComponent('/api/products/1')}&${table({}, ['purchase.purchaseNumber', 'desc'])}`), 'purchase_items');
  });

  it('DynamicValue reads a single resource by its IRI with ?page=1&itemsPerPage=1', async () => {
    const p = ok(await admin.call('GET', '/api/products/191'), 'product');
    const v = ok(await admin.call('GET', `${p.variants[0]['@id']}?page=1&itemsPerPage=1`), 'variant');
    expect(v.attributeValue).toBe(p.variants[0].attributeValue);
  });
});

describe('2.4 barcodes', () => {
  it('a weighed barcode: hydra:member[0] with item (variants, taxes), measurement and price as strings', async () => {
    const [b] = hydra(await cashier.call('GET', '/api/barcodes?barcode=2100001005005'), 'barcode');
    expect(b.item).toMatchObject({ id: expect.any(Number), variants: expect.any(Array), taxes: expect.any(Array) });
    expect(typeof b.measurement).toBe('string');
    expect(typeof b.price).toBe('string');
    expect(hydra(await cashier.call('GET', '/api/barcodes?barcode=nothing-here'), 'miss')).toEqual([]);
  });

  it('the settings table: ?store=<id> plus table params', async () => {
    const rows = hydra(await admin.call('GET', `/api/barcodes?store=1&${table({}, ['barcode', 'asc'])}`), 'barcodes table');
    expect(rows[0]).toMatchObject({ barcode: expect.any(String), item: { name: expect.any(String) } });
  });
});
