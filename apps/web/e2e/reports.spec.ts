import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { withDatabase } from './support/database.ts';
import { apiHeaders, signIn } from './support/sign-in.ts';

/**
 * Issue 25.6: an owner's morning. Two sales are made through the API and dated yesterday at 10:15
 * and 10:40 on the store's clock (no API back-dates a sale: the test's database helper does); the
 * owner opens Reports in the back office, asks for yesterday by hour, sees the bar chart and the
 * 10:00 row with the two sales' total, and downloads the same report as CSV.
 */
test('sales by hour for yesterday: the chart, the 10:00 row and the CSV', async ({ page, request }) => {
  const headers = await apiHeaders(request);
  const ids = await withDatabase(async (db) => (await db.query(`select
      (select min(id) from store) as store, (select t.id from terminal t where t.store_id = (select min(id) from store) order by t.id limit 1) as terminal,
      (select id from payment where type = 'cash' order by id limit 1) as cash,
      (select p.id from product p where p.is_active and not p.manage_inventory and not exists (select 1 from product_tax pt where pt.product_id = p.id)
        and exists (select 1 from product_store ps where ps.product_id = p.id and ps.store_id = (select min(id) from store)) order by p.id limit 1) as product`)).rows[0]);
  const sold: number[] = [];
  let total = 0;
  for (const quantity of [2, 1]) {
    const res = await request.post('/api/admin/order/create', { headers, data: {
      items: [{ item: ids.product, quantity }], payments: [{ received: 1000, type: ids.cash }], store: ids.store, terminal: ids.terminal,
    } });
    expect(res.status(), await res.text()).toBe(201);
    const { order } = await res.json();
    sold.push(order.id);
    total += Math.round(order.total * 100);
  }
  await withDatabase((db) => db.query(`update "order" o set created_at = (((now() at time zone s.time_zone)::date - 1) + time '10:00'
      + (case when o.id = $1 then interval '15 minutes' else interval '40 minutes' end)) at time zone s.time_zone
    from store s where s.id = o.store_id and o.id = any($2::int[])`, [sold[0], sold]));
  const money = `$${(total / 100).toFixed(2)}`;

  await page.goto('/admin');
  await signIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await page.getByLabel('Sales by', { exact: true }).selectOption('hour');
  await page.getByLabel('Store', { exact: true }).selectOption(String(ids.store));
  await page.getByRole('button', { name: 'Show' }).click();

  const chart = page.getByTestId('report-chart');
  await expect(chart).toContainText('Sales by hour');
  await expect(chart.locator('canvas')).toBeVisible();
  const row = page.getByTestId('report-row').filter({ has: page.getByRole('rowheader', { name: '10:00' }) });
  await expect(row).toContainText(money);
  await expect(row.getByRole('cell').first()).toHaveText('2'); // two orders

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const file = await (await download).path();
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/).map((l) => l.split(','));
  expect(lines[0].slice(0, 7)).toEqual(['Key', 'Label', 'Orders', 'Quantity', 'Net', 'Tax', 'Gross']);
  const ten = lines.find((l) => l[0] === '10');
  expect(ten?.slice(1, 4)).toEqual(['10:00', '2', '3']);
  expect(ten?.[6]).toBe((total / 100).toFixed(2));
});
