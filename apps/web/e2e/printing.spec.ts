import { expect, test } from '@playwright/test';
import { decode, FakePrinter } from '../../api/test/fake-printer.ts';
import { signIn } from './support/sign-in.ts';
import { addTillPrinter, chooseTillPrinter } from './support/till-printer.ts';

/**
 * A receipt printer on the shop's network (issue 26), as a cashier: the till's printer is chosen in
 * Settings > General; after a cash sale the server sends the receipt to the printer (a TCP server in
 * this test on 127.0.0.1, decoded as an ESC/POS printer would print it) and kicks the drawer; with
 * the printer off the till says so, and Retry prints once it is back.
 */
const MILK = '5000000000001'; // Fresh Milk 1L: 10.75, no stock tracking, no tax
const till = addTillPrinter('E2E Printer');
test.setTimeout(120_000);

test('a cash sale prints on the network printer and opens the drawer; printer off: told, Retry prints', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });

  await chooseTillPrinter(page, till);

  const scan = page.getByTestId('scan-input');
  await scan.fill(MILK);
  await scan.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByLabel('Received amount').fill('20');
  await page.getByRole('button', { name: 'Done' }).click();

  const receipt = page.getByRole('dialog', { name: 'Receipt' });
  await expect(receipt.getByText(`Sent to ${till.name}`)).toBeVisible({ timeout: 15_000 });
  const first = decode(await till.printer.job(0));
  expect(first.text).toMatch(/1 x \$10\.75 +\$10\.75/);
  expect(first.text).toMatch(/TOTAL +\$10\.75/);
  expect(first.text).toMatch(/Cash tendered +\$20\.00/);
  expect(first.text).toMatch(/Change +\$9\.25/);
  expect(first.kicks).toBe(1);
  expect(first.cuts).toBe(1);

  // The printer is switched off: a copy cannot be printed, the till says why and offers Retry.
  await till.printer.stop();
  await receipt.getByRole('button', { name: 'Print', exact: true }).click();
  await expect(receipt.getByText(/refused the connection/)).toBeVisible({ timeout: 15_000 });
  await expect(receipt.getByRole('button', { name: 'Print in browser' })).toBeVisible();

  till.printer = await new FakePrinter(till.port).start();
  await receipt.getByRole('button', { name: 'Retry' }).click();
  await expect(receipt.getByText(`Sent to ${till.name}`)).toBeVisible({ timeout: 15_000 });
  const copy = decode(await till.printer.job(0));
  expect(copy.text).toContain('Receipt (copy)');
  expect(copy.kicks).toBe(0);
});
