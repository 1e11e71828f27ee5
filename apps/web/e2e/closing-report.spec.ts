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
  // Closing asks first, with the expected and the counted cash and what is over or short (issue 23.4).
  const ask = page.getByRole('dialog', { name: 'Close day' });
  await expect(ask).toContainText(`Expected cash ${expected}, counted $100.00`);
  await expect(ask).toContainText(/(Short by|Over by) \$[\d,]+\.\d\d|Balanced/);
  await ask.getByRole('button', { name: 'Close day' }).click();
  const z = decode(await till.printer.job(before));
  expect(z.text).toContain('Z REPORT');
  expect(z.text).toMatch(/Counted cash +\$100\.00/);
  expect(z.text).toMatch(/Closed by +\S/);

  // The next day must be started (as after any closing); start it so the till is left as found.
  const startDay = page.getByRole('dialog', { name: 'Start day' });
  await expect(startDay).toBeVisible();
  // Enter in the opening balance starts the day (issue 29.1).
  await startDay.getByLabel('Opening balance').fill('100');
  await startDay.getByLabel('Opening balance').press('Enter');
  await expect(startDay).toHaveCount(0);
  // Focus goes back to the control that opened the day closing, never to <body> (issue 29.1).
  await expect(page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Day closing' })).toBeFocused();

  // The closed day is in the past closings with its count, and its Z report prints again.
  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Day closing' }).click();
  const today = page.getByRole('dialog', { name: 'Day closing' });
  await today.getByRole('button', { name: 'Past closings' }).click();
  const last = today.getByRole('row').filter({ hasText: '$100.00' }).first();
  await expect(last).toContainText(expected);
  before = till.printer.jobs.length;
  await last.getByRole('button', { name: /Print the Z report of/ }).click();
  await expect(page.getByText(`Z report sent to ${till.name}`)).toBeVisible({ timeout: 15_000 });
  const again = decode(await till.printer.job(before));
  expect(again.text).toContain('Z REPORT');
  expect(again.text).toMatch(/Counted cash +\$100\.00/);
});
