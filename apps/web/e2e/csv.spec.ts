import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, apiHeaders } from './support/sign-in.ts';

/**
 * Issue 23.5 in a real browser: the CSV import dialog of Settings > Items list. Template download,
 * a file with one bad row (the preview names its line, Import stays disabled), the fixed file
 * imported, then export -> re-import of the whole catalogue reports no changes.
 */
test.describe.configure({ timeout: 120_000 });

const run = Date.now().toString().slice(-7);

async function startDay(request: APIRequestContext) {
  const headers = await apiHeaders(request);
  const { closing } = await (await request.get('/api/admin/closing/opened?store=1&terminal=1', { headers })).json();
  if (closing.openingBalance === null) {
    await request.post(`/api/admin/closing/${closing.id}`, { headers, data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: 1 } });
  }
}

async function openItems(page: Page) {
  await page.goto('/pos'); // an owner signing in at / lands in the back office (issue 23)
  await signIn(page, 'admin');
  await page.getByRole('dialog', { name: 'Choose a store' }).getByRole('button', { name: 'Main Street' }).click();
  await page.getByRole('dialog', { name: 'Choose a Terminal' }).getByRole('button', { name: 'T1' }).click();
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Items list' }).click();
  await expect(settings.getByRole('columnheader', { name: /^Sale Price/ })).toBeVisible({ timeout: 10_000 });
  return settings;
}

const csvLine = (cells: string[]) => cells.map((c) => (/[",\r\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(',') + '\r\n';

test.beforeAll(async ({ request }) => { await startDay(request); });

test('template, a bad row named by its line, the fixed file imported, and an unchanged round trip', async ({ page }) => {
  const settings = await openItems(page);
  await settings.getByRole('button', { name: 'Upload Items' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import items from a CSV file' });

  const [template] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download template' }).click()]);
  expect(template.suggestedFilename()).toBe('products-template.csv');
  const header = (await readFile((await template.path())!, 'utf8')).replace(/^\uFEFF/, '').split('\r\n')[0].split(',');
  expect(header).toEqual(expect.arrayContaining(['Name', 'Sale price', 'Quantity [Main Street #1]', 'Variant of', 'Attribute Value']));

  const row = (cells: Record<string, string>) => csvLine(header.map((h) => cells[h] ?? ''));
  const good = { Name: `CSV Kettle ${run}`, 'Is Available?': '1', 'Purchase price': '9', 'Sale price': '15.50', 'Purchase Unit': 'pcs', 'Sale Unit': 'pcs' };
  const second = { ...good, Name: `CSV Toaster ${run}`, 'Sale price': 'twelve' };
  const input = dialog.getByLabel('CSV file of items');
  await input.setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csvLine(header) + row(good) + row(second)) });
  const errors = dialog.getByRole('list', { name: 'Errors' });
  await expect(errors).toContainText('Line 3 Sale price:');
  await expect(dialog.getByRole('button', { name: 'Import', exact: true })).toBeDisabled();

  await input.setInputFiles({ name: 'items.csv', mimeType: 'text/csv', buffer: Buffer.from(csvLine(header) + row(good) + row({ ...second, 'Sale price': '12' })) });
  await expect(dialog.getByText('Import will create 2, update 0 and leave 0 unchanged.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText('Imported: 2 created, 0 updated, 0 unchanged.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await settings.getByRole('combobox', { name: 'Search column' }).selectOption({ label: 'Name' });
  await settings.getByRole('searchbox', { name: 'Search' }).fill(`CSV Toaster ${run}`);
  await settings.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(settings.getByRole('cell', { name: `CSV Toaster ${run}`, exact: true })).toBeVisible();

  // Export -> re-import: the preview and the import both report no changes.
  const [exported] = await Promise.all([page.waitForEvent('download'), settings.getByRole('button', { name: 'Export items' }).click()]);
  const file = await readFile((await exported.path())!);
  const total = file.toString('utf8').split('\r\n').filter((l) => l !== '').length - 1;
  await settings.getByRole('button', { name: 'Upload Items' }).click();
  await dialog.getByLabel('CSV file of items').setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: file });
  const products = Number((await dialog.getByText(/^\d+ rows\./).innerText()).match(/\d+/)![0]);
  expect(products).toBe(total);
  await expect(dialog.getByText(/Import will create 0, update 0 and leave \d+ unchanged\./)).toBeVisible({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByText(/^Imported: 0 created, 0 updated, \d+ unchanged\.$/)).toBeVisible({ timeout: 20_000 });
});
