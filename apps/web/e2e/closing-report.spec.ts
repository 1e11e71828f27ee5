import { expect, test } from '@playwright/test';
import { decode } from '../../api/test/fake-printer.ts';
import { signIn } from './support/sign-in.ts';
import { addTillPrinter, chooseTillPrinter } from './support/till-printer.ts';

/**
 * X and Z reports (issue 26), as a cashier at a till with a network receipt printer (a TCP server
 * in this test on 127.0.0.1, decoded as an ESC/POS printer would print it): "Print X report" in
 * the day closing prints the day so far and leaves it open; "Close day" prints the Z report with
 * the cash counted.
 */
const till = addTillPrinter('E2E Report printer');
test.setTimeout(120_000);

test('Print X report prints the day so far on the till printer; Close day prints the Z report with the count', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });

  await chooseTillPrinter(page, till);

  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Day closing' }).click();
  const closing = page.getByRole('dialog', { name: 'Day closing' });
  const expected = (await closing.getByTestId('cash-in-hand').textContent())!.trim();

  let before = till.printer.jobs.length;
  await closing.getByRole('button', { name: 'Print X report' }).click();
  await expect(page.getByText(`X report sent to ${till.name}`)).toBeVisible({ timeout: 15_000 });
  const x = decode(await till.printer.job(before));
  expect(x.text).toContain('X REPORT');
  // The paper's expected cash is the one the dialog shows.
  expect(x.text).toMatch(new RegExp(`Expected cash +${expected.replace(/[$.]/g, '\\$&')}\\n`));
  expect(x.cuts).toBe(1);
  await expect(closing).toBeVisible();

  before = till.printer.jobs.length;
  await closing.getByLabel('Count of $100.00', { exact: true }).fill('1');
  await closing.getByRole('button', { name: 'Close day' }).click();
  const z = decode(await till.printer.job(before));
  expect(z.text).toContain('Z REPORT');
  expect(z.text).toMatch(/Counted cash +\$100\.00/);
  expect(z.text).toMatch(/Closed by +\S/);

  // The next day must be started (as after any closing); start it so the till is left as found.
  const startDay = page.getByRole('dialog', { name: 'Start day' });
  await expect(startDay).toBeVisible();
  await startDay.getByLabel('Opening balance').fill('100');
  await startDay.getByRole('button', { name: 'Start day' }).click();
  await expect(startDay).toHaveCount(0);
});
