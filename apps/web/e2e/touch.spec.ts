import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/sign-in.ts';
import { startDays } from './support/days.ts';

/**
 * Touch mode (spec 2.5, Settings > General 'Enable Touch support'): bigger targets and an on-screen
 * keyboard for every text and number field, on a screen 1224px wide (the product's breakpoint).
 */
test.use({ viewport: { width: 1224, height: 900 } });

const MILK = '5000000000001'; // Fresh Milk 1L: 10.75, no stock tracking, no tax
const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: false });

test.beforeAll(async ({ request }) => {
  await startDays(request);
});

test('touch mode: the on-screen keyboard types a quantity and a barcode into the till', async ({ page }) => {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 15_000 });

  // Settings > General > Enable Touch support.
  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'General' }).click();
  const toggle = settings.getByRole('switch', { name: /Enable Touch support/ });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await expect(page.locator('html')).toHaveClass(/\btouch\b/);
  await settings.getByRole('button', { name: 'Close' }).click();
  await expect(settings).toHaveCount(0);

  // Bigger targets.
  const add = await page.getByRole('search').getByRole('button', { name: 'Search items' }).boundingBox();
  expect(add!.height).toBeGreaterThanOrEqual(44);

  // The quantity: a digits pad; the field selects its text on focus, so the key replaces the 1.
  const keyboard = page.getByRole('group', { name: 'On-screen keyboard' });
  const quantity = page.getByRole('search').getByLabel('Quantity');
  await quantity.click();
  await expect(keyboard).toBeVisible();
  await expect(keyboard).toHaveAttribute('data-layout', 'digits');
  await keyboard.getByRole('button', { name: '3', exact: true }).click();
  await expect(quantity).toHaveValue('3');
  await expect(quantity).toBeFocused();

  // The barcode: the text keyboard, then its Enter adds the item with that quantity.
  const scan = page.getByTestId('scan-input');
  await scan.click();
  await expect(keyboard).toHaveAttribute('data-layout', 'latin');
  for (const digit of MILK) await keyboard.getByRole('button', { name: digit, exact: true }).click();
  await expect(scan).toHaveValue(MILK);
  await keyboard.getByRole('button', { name: 'Enter' }).click();
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await expect(page.getByTestId('cart-row')).toContainText('Fresh Milk');
  await expect(page.getByTestId('cart-quantity')).toHaveText('3');

  // The keyboard never covers the field it types into.
  await quantity.click();
  await expect(keyboard).toHaveAttribute('data-layout', 'digits');
  const field = await quantity.boundingBox();
  const pad = await keyboard.boundingBox();
  expect(field!.y + field!.height).toBeLessThanOrEqual(pad!.y);
  await shot(page, 'till-touch');

  // Hide it; a tap elsewhere keeps it closed; the preference survives a reload.
  await keyboard.getByRole('button', { name: 'Hide keyboard' }).click();
  await expect(keyboard).toHaveCount(0);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/\btouch\b/);
});
