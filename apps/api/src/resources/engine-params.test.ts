import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

describe('resource engine: hostile query keys', () => {
  it('ignores parameters named like Object.prototype members instead of failing', async () => {
    const h = await t.login('admin');
    for (const key of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      for (const path of ['/api/taxes', '/api/stores', '/api/products', '/api/payments']) {
        const res = await t.app.inject({ method: 'GET', url: `${path}?${key}=0&order[${key}]=asc`, headers: h });
        expect(res.statusCode, `${path}?${key}`).toBe(200);
        expect(Array.isArray(res.json()['hydra:member'])).toBe(true);
      }
    }
  });

  it('store-scoped link-table lists answer with the caller\'s rows (valid SQL for EXISTS scoping)', async () => {
    const h = await t.login('cashier');
    const res = await t.app.inject({ method: 'GET', url: '/api/taxes?store=1', headers: h });
    expect(res.statusCode).toBe(200);
    expect(res.json()['hydra:totalItems']).toBeGreaterThan(0);
  });
});
