import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { signIn, apiHeaders } from './support/sign-in.ts';

/**
 * Issue 20.5 in a real browser against the real server: the owner takes a backup from the back
 * office, downloads it, enters something new, restores the downloaded file after the confirmation,
 * and the new entry is gone while what the backup held is back.
 */
test.describe.configure({ timeout: 90_000 });

async function addTax(request: APIRequestContext, name: string, rate: string) {
  const h = await apiHeaders(request);
  const [store] = (await (await request.get('/api/stores', { headers: h })).json())['hydra:member'] as { id: number }[];
  const res = await request.post('/api/taxes', { headers: h, data: { name, rate, stores: [`/api/stores/${store.id}`] } });
  expect(res.status(), await res.text()).toBe(201);
}
const taxNames = async (request: APIRequestContext) => {
  const res = await request.get('/api/taxes?itemsPerPage=500', { headers: await apiHeaders(request) });
  return ((await res.json())['hydra:member'] as { name: string }[]).map((t) => t.name);
};

test('back up, download, restore the downloaded file: what came after is gone', async ({ page, request }) => {
  const run = Date.now().toString().slice(-6);
  const kept = `Kept tax ${run}`;
  const lost = `Lost tax ${run}`;
  await addTax(request, kept, '5');

  await page.goto('/admin');
  await signIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Backups' }).click();
  await expect(page.getByRole('heading', { name: 'Backups', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Back up now' }).click();
  const toastText = await page.getByText(/^Backup taken: pos-.*-manual\.posbak/).innerText();
  const name = /pos-\S+-manual\.posbak/.exec(toastText)![0];
  await expect(page.getByTestId('backup-last')).toContainText('(taken by hand)');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download ${name}` }).click()]);
  expect(download.suggestedFilename()).toBe(name);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pos-e2e-backup-')), name);
  await download.saveAs(file);
  expect(fs.statSync(file).size).toBeGreaterThan(1000);

  await addTax(request, lost, '7');
  expect(await taxNames(request)).toEqual(expect.arrayContaining([kept, lost]));

  await page.getByLabel('Backup file', { exact: true }).setInputFiles(file);
  await page.getByRole('button', { name: 'Restore' }).click();
  const dialog = page.getByRole('dialog', { name: 'Restore' });
  await expect(dialog).toContainText(`Replace all of the shop's data with ${name}?`);
  await dialog.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText(/^Restored the backup of .* The data it replaced is kept as pos-.*-pre-restore\.posbak\. On each till/)).toBeVisible({ timeout: 30_000 });
  await page.screenshot({ path: `${import.meta.dirname}/screenshots/backup-restored.png`, fullPage: true });

  const names = await taxNames(request);
  expect(names).toContain(kept);
  expect(names).not.toContain(lost);
  // The file list now also holds the copy of the data before the restore.
  await expect(page.getByRole('cell', { name: 'before a restore' })).toBeVisible();
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

test('a file that is not a backup is refused with the reason, nothing restored', async ({ page }) => {
  await page.goto('/admin');
  await signIn(page, 'admin');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.goto('/admin/backups');
  await page.getByLabel('Backup file', { exact: true }).setInputFiles({ name: 'notes.posbak', mimeType: 'text/plain', buffer: Buffer.from('not a backup at all') });
  await page.getByRole('button', { name: 'Restore' }).click();
  await page.getByRole('dialog', { name: 'Restore' }).getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByRole('alert')).toContainText('The file is not a POS backup');
});
