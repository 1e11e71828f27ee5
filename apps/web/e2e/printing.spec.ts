import { expect, test } from '@playwright/test';
import { decode, FakePrinter, freePort } from '../../api/test/fake-printer.ts';
import { signIn, apiHeaders } from './support/sign-in.ts';

/**
 * A receipt printer on the shop's network (issue 26), as a cashier: the till's printer is chosen in
 * Settings > General; after a cash sale the server sends the receipt to the printer (a TCP server in
 * this test on 127.0.0.1, decoded as an ESC/POS printer would print it) and kicks the drawer; with
 * the printer off the till says so, and Retry prints once it is back.
 */
const MILK = '5000000000001'; // Fresh Milk 1L: 10.75, no stock tracking, no tax
const NAME = `E2E Printer ${Date.now()}`;
let printer: FakePrinter;
let port: number;


test.beforeAll(async ({ request }) => {
  const headers = await apiHeaders(request);
  const { user } = await (await request.get('/api/auth/info', { headers })).json();
  for (const store of user.stores) {
    for (const terminal of store.terminals) {
      const res = await request.get(`/api/admin/closing/opened?store=${store.id}&terminal=${terminal.id}`, { headers });
      const { closing } = res.ok() ? await res.json() : { closing: null };
      if (closing && closing.openingBalance === null) {
        await request.post(`/api/admin/closing/${closing.id}`, { headers, data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id } });
      }
    }
  }
  port = await freePort();
  printer = await new FakePrinter(port).start();
  const res = await request.post('/api/devices', { headers, data: { name: NAME, ipAddress: '127.0.0.1', port } });
  expect(res.status(), await res.text()).toBe(201);
});
test.afterAll(async () => { await printer?.stop(); });
test.setTimeout(120_000);

test('a cash sale prints on the network printer and opens the drawer; printer off: told, Retry prints', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });

  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'General' }).click();
  await settings.getByLabel('Receipt printer (this till)').selectOption({ label: `${NAME} (127.0.0.1:${port})` });
  await settings.getByRole('button', { name: 'Close' }).click();

  const scan = page.getByTestId('scan-input');
  await scan.fill(MILK);
  await scan.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByLabel('Received amount').fill('20');
  await page.getByRole('button', { name: 'Done' }).click();

  const receipt = page.getByRole('dialog', { name: 'Receipt' });
  await expect(receipt.getByText(`Sent to ${NAME}`)).toBeVisible({ timeout: 15_000 });
  const first = decode(await printer.job(0));
  expect(first.text).toMatch(/1 x \$10\.75 +\$10\.75/);
  expect(first.text).toMatch(/TOTAL +\$10\.75/);
  expect(first.text).toMatch(/Cash tendered +\$20\.00/);
  expect(first.text).toMatch(/Change +\$9\.25/);
  expect(first.kicks).toBe(1);
  expect(first.cuts).toBe(1);

  // The printer is switched off: a copy cannot be printed, the till says why and offers Retry.
  await printer.stop();
  await receipt.getByRole('button', { name: 'Print', exact: true }).click();
  await expect(receipt.getByText(/refused the connection/)).toBeVisible({ timeout: 15_000 });
  await expect(receipt.getByRole('button', { name: 'Print in browser' })).toBeVisible();

  printer = await new FakePrinter(port).start();
  await receipt.getByRole('button', { name: 'Retry' }).click();
  await expect(receipt.getByText(`Sent to ${NAME}`)).toBeVisible({ timeout: 15_000 });
  const copy = decode(await printer.job(0));
  expect(copy.text).toContain('Receipt (copy)');
  expect(copy.kicks).toBe(0);
});
