import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiHeaders, chooseLanguage, signIn } from './support/sign-in.ts';

/**
 * Issue 23 point 1, "two places, one app": an owner signs in and lands in the back office, keeps
 * customers there (one address per customer), edits a tax at its settings address, switches to
 * Arabic from the user menu and finds Arabic again at the next sign-in (the server remembers it);
 * a cashier lands on the till with no way to the back office. At a desktop and a phone size,
 * never wider than the screen.
 */
test.describe.configure({ timeout: 120_000 });

type Tree = { [key: string]: string | Tree };
const arAdmin: Tree = JSON.parse(readFileSync(new URL('../src/locales/ar/admin.json', import.meta.url), 'utf8'));
const signOutAr = (arAdmin.header as Tree).signOut as string;
const run = Date.now().toString().slice(-6);
const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });

async function noSidewaysScroll(page: Page, what: string) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(client);
}

for (const [width, height] of [[1366, 768], [390, 844]] as const) {
  const size = `${width}×${height}`;

  test(`an owner works in the back office and keeps their language (${size})`, async ({ page, request }) => {
    await page.setViewportSize({ width, height });
    const headers = await apiHeaders(request);
    const taxName = `E2E levy ${run}-${width}`;
    const tax = await request.post('/api/taxes', { headers, data: { name: taxName, rate: '5', stores: ['/api/stores/1'] } });
    expect(tax.status()).toBe(201);

    // Signs in at /login and lands on the back office's dashboard, with no store chooser on the way.
    await page.goto('/login');
    await signIn(page, 'admin');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('open-tills-tile')).toBeVisible();
    await expect(page.getByRole('heading', { name: "Today's sales" })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Last backup' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Till' })).toHaveAttribute('href', '/pos');
    await noSidewaysScroll(page, `dashboard ${size}`);
    await shot(page, `bo-dashboard-${width}`);

    // Customers: create one, then open it by its address.
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Customers' }).click();
    await expect(page).toHaveURL(/\/admin\/customers$/);
    const form = page.getByRole('form', { name: 'Create customer' });
    const name = `Noor Haddad ${run}-${width}`;
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Phone').fill(`555-${run}`);
    await form.getByRole('button', { name: 'Create customer' }).click();
    await expect(page).toHaveURL(/\/admin\/customers\/\d+$/);
    const address = new URL(page.url()).pathname;
    await page.goto('/admin/dashboard');
    await page.goto(address);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByRole('form', { name: 'Update customer' }).getByLabel('Phone')).toHaveValue(`555-${run}`);
    await expect(page.getByRole('form', { name: 'Receive payment' })).toBeVisible();
    await noSidewaysScroll(page, `customer ${size}`);
    await shot(page, `bo-customer-${width}`);

    // Settings › Taxes by its address: edit the tax made for this journey.
    await page.goto('/admin/settings/taxes');
    await expect(page.getByRole('tab', { name: 'Taxes' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: `Edit ${taxName}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Update tax' });
    await dialog.getByLabel('Rate').fill('6.5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByRole('row', { name: new RegExp(taxName) })).toContainText('6.5%');
    await noSidewaysScroll(page, `settings ${size}`);
    await shot(page, `bo-settings-taxes-${width}`);

    // Arabic from the user menu: right to left, remembered for this user by the server.
    const remembered = page.waitForRequest((r) => r.url().endsWith('/api/locale') && r.method() === 'POST');
    await chooseLanguage(page, 'العربية');
    expect((await remembered).postDataJSON()).toEqual({ locale: 'ar' });
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await noSidewaysScroll(page, `settings in Arabic ${size}`);
    await page.getByRole('button', { name: signOutAr }).click();
    await expect(page).toHaveURL(/\/admin$/);

    // This browser forgets its own choice: the Arabic that comes back is the user's, from the server.
    await page.evaluate(() => localStorage.clear());
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await signIn(page, 'admin');
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { name: (arAdmin.dashboard as Tree).title as string, level: 1 })).toBeVisible();
    await noSidewaysScroll(page, `dashboard in Arabic ${size}`);
    await shot(page, `bo-dashboard-ar-${width}`);

    // Back to English for the journeys after this one (one database per run), and the tax made here retired.
    await chooseLanguage(page, 'English');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    expect((await request.put(`/api/taxes/${(await tax.json()).id}`, { headers, data: { isActive: false } })).status()).toBe(200);
  });

  test(`a cashier signs in and lands on the till, with no way to the back office (${size})`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/login');
    await signIn(page, 'cashier');
    await expect(page).toHaveURL(/\/pos$/);
    await expect(page.getByRole('navigation', { name: 'Till toolbar' })).toBeAttached();
    await expect(page.getByRole('link', { name: 'Back office' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Account' })).toBeAttached();
    await noSidewaysScroll(page, `till ${size}`);
  });
}
