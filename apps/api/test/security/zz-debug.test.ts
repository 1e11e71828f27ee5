import { it } from 'vitest';
import { createTestApp } from '../helpers.ts';
it('debug', async () => {
  const t = await createTestApp();
  const h = await t.login('cashier');
  t.app.log.level = 'error';
  for (const u of ['/api/taxes', '/api/supplier_payments', '/api/purchase_items', '/api/suppliers/1/payments']) {
    const origErr = console.error;
    const res = await t.app.inject({ method: 'GET', url: u, headers: h });
    console.log(u, res.statusCode, res.body.slice(0, 200));
  }
  await t.close();
});
