import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { signIn, backToEnglish } from './support/sign-in.ts';
import { startDays } from './support/days.ts';

/**
 * English and Arabic (issue 8): the language switch on the login turns the page right-to-left,
 * translates it, keeps the choice in localStorage 'locale', and the till follows in Arabic.
 */
type Tree = { [key: string]: string | Tree };
const locale = (lang: 'en' | 'ar', ns: string): Tree => JSON.parse(readFileSync(new URL(`../src/locales/${lang}/${ns}.json`, import.meta.url), 'utf8'));
const text = (tree: Tree, path: string): string => path.split('.').reduce<string | Tree>((at, k) => (at as Tree)[k], tree) as string;
const arAuth = locale('ar', 'auth');
const arSale = locale('ar', 'sale');

const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });

// Arabic journeys make Arabic the signed-in users' own language (kept by the server): English again for the next journey.
test.afterEach(async ({ request }) => {
  await backToEnglish(request);
});

test.beforeAll(async ({ request }) => {
  await startDays(request);
});

test('the login switches to Arabic: dir=rtl, translated labels, mirrored, kept after a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await page.getByRole('button', { name: 'العربية' }).click();
  const html = page.locator('html');
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(html).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('heading', { name: text(arAuth, 'login.title') })).toBeVisible();
  await expect(page.getByLabel(text(arAuth, 'login.username'))).toBeVisible();
  await expect(page.getByLabel(text(arAuth, 'login.password'))).toBeVisible();
  await expect(page.getByRole('button', { name: text(arAuth, 'login.submit') })).toBeVisible();
  await expect(page.getByRole('link', { name: text(arAuth, 'login.forgot') })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('ar');

  // Mirrored: the field label starts at the right edge of the field.
  const label = await page.locator('label', { hasText: text(arAuth, 'login.username') }).boundingBox();
  const input = await page.getByLabel(text(arAuth, 'login.username')).boundingBox();
  expect(Math.abs(label!.x + label!.width - (input!.x + input!.width))).toBeLessThan(4);

  await page.reload();
  await expect(html).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: text(arAuth, 'login.title') })).toBeVisible();
  await expect(page.getByLabel(text(arAuth, 'login.username'))).toBeFocused();

  // And back to English.
  await page.getByRole('button', { name: 'English' }).click();
  await expect(html).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
});

test('the till in Arabic: translated, right-to-left and mirrored, amounts per locale', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'العربية' }).click();
  await signIn(page, 'cashier', 'cashier', { username: text(arAuth, 'login.username'), password: text(arAuth, 'login.password'), submit: text(arAuth, 'login.submit') });
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // The catalogue is loaded (the filters are built from it).
  await expect(page.getByRole('group', { name: text(arSale, 'filters.departments') })).toBeVisible({ timeout: 15_000 });

  const toolbar = page.getByRole('navigation', { name: text(arSale, 'toolbar.title') });
  await expect(toolbar).toBeVisible();
  for (const key of ['settings', 'help', 'customers', 'history', 'closing']) {
    await expect(toolbar.getByRole('button', { name: text(arSale, `toolbar.${key}`) })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: text(arAuth, 'logout') })).toBeVisible();
  // Nothing left in English on the toolbar and the search form (product names are data, not UI).
  const uiText = `${await toolbar.innerText()} ${await page.getByRole('search').innerText()}`;
  expect(uiText).not.toMatch(/[A-Za-z]{2,}/);
  await expect(page.getByLabel(text(arSale, 'search.label'))).toBeVisible();

  // Mirrored: the payment panel, on the right in English, sits on the left.
  await expect(page.locator('.pos-payment')).toBeVisible({ timeout: 15_000 });
  const payment = await page.locator('.pos-payment').boundingBox();
  const sale = await page.locator('.pos-sale').boundingBox();
  expect(payment!.x).toBeLessThan(sale!.x);

  // An item in the cart: the total in the Arabic currency format (US dollars, two decimals, Arabic digits).
  const box = page.getByTestId('scan-input');
  await box.fill('5000000000001'); // Fresh Milk 1L, 10.75
  await box.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await expect(page.getByTestId('grand-total')).toHaveText(/١٠٫٧٥\s*US\$/);
  await shot(page, 'till-ar');
});
