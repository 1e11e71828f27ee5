import { expect, test, type Page } from '@playwright/test';
import { signIn } from './support/sign-in.ts';
import { startDays } from './support/days.ts';

/** Every keyboard shortcut of spec 2.5, in a real Chromium against the real server. */

const MILK = '5000000000001';
const BREAD = '5000000000002';
const SUGAR = '5000000000005';

/** The cashier has one store with one terminal: picked by itself. */
async function openTill(page: Page) {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 15_000 });
}

async function scan(page: Page, code: string) {
  const box = page.getByTestId('scan-input');
  await box.fill(code);
  await box.press('Enter');
}

/** Plain-key shortcuts are for when no field is being typed in. */
const blur = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
const rows = (page: Page) => page.getByTestId('cart-row');

async function closeDialog(page: Page) {
  const dialog = page.getByRole('dialog').last();
  await page.keyboard.press('Escape');
  if (await dialog.isVisible().catch(() => false)) await dialog.getByRole('button', { name: /^(Close|×)$/ }).first().click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
}

test.beforeAll(async ({ request }) => {
  await startDays(request);
});

test('? opens help with its toggles and search; / and F3 focus the search box', async ({ page }) => {
  await openTill(page);
  await blur(page);
  await page.keyboard.press('Shift+Slash');
  const help = page.getByRole('dialog', { name: 'Help' });
  await expect(help).toBeVisible();
  await expect(help.getByRole('switch', { name: 'Enable shortcuts' })).toHaveAttribute('aria-checked', 'true');
  await expect(help.getByRole('switch', { name: 'Display shortcut texts' })).toHaveAttribute('aria-checked', 'false');
  await expect(help.getByRole('row')).toHaveCount(24); // header + every shortcut (ctrl+shift+s exact cash, F2/F4/F8/F9: issue 29.3)
  await help.getByLabel('Search shortcuts').fill('customers');
  await expect(help.getByRole('row')).toHaveCount(2); // header + ctrl+shift+c
  await expect(help).toContainText('ctrl+shift+c');

  // While a dialog is open the till's shortcuts are ignored.
  await page.keyboard.press('Control+Shift+Q');
  await expect(page.getByRole('dialog', { name: 'Taxes' })).toHaveCount(0);

  // Display shortcut texts shows them on the buttons.
  await help.getByRole('switch', { name: 'Display shortcut texts' }).click();
  await closeDialog(page);
  await expect(page.getByRole('button', { name: /Done/ })).toContainText('ctrl+s');

  await blur(page);
  await page.keyboard.press('Slash');
  await expect(page.getByTestId('scan-input')).toBeFocused();
  await blur(page);
  await page.keyboard.press('F3');
  await expect(page.getByTestId('scan-input')).toBeFocused();

  // Shortcuts can be turned off.
  await page.getByRole('button', { name: /^Help/ }).click();
  await page.getByRole('dialog', { name: 'Help' }).getByRole('switch', { name: 'Enable shortcuts' }).click();
  await closeDialog(page);
  await blur(page);
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByRole('dialog', { name: 'Help' })).toHaveCount(0);
  await page.getByRole('button', { name: /^Help/ }).click();
  await page.getByRole('dialog', { name: 'Help' }).getByRole('switch', { name: 'Enable shortcuts' }).click();
  await closeDialog(page);
});

test('ctrl+f searches items: arrows wrap, enter adds; the items of another store stay out', async ({ page }) => {
  await openTill(page);
  await page.keyboard.press('Control+f');
  const search = page.getByRole('dialog', { name: /^Search items/ });
  await expect(search).toBeVisible();
  await expect(search).toHaveAccessibleName(/Search items \(\d+\)/);
  const box = search.getByLabel('Search by name, barcode or price');
  await box.fill('Milk');
  await expect(search).toHaveAccessibleName('Search items (10)'); // the ten "... Milk 1L"
  const first = (await search.locator('.item-search-name').first().innerText()).trim();
  await expect(search.getByRole('option', { selected: true })).toContainText(first);
  // Up from the first row wraps to the last one, down comes back.
  await box.press('ArrowUp');
  await expect(search.getByRole('option', { selected: true })).not.toContainText(first);
  await box.press('ArrowDown');
  await expect(search.getByRole('option', { selected: true })).toContainText(first);
  await box.press('Enter');
  await expect(search).toHaveCount(0); // closes after adding (default setting)
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText(first);

  // An item with variants opens the chooser (Harbour Mall sells them; here a name finds none).
  await page.keyboard.press('Control+f');
  await page.getByRole('dialog', { name: /^Search items/ }).getByLabel('Search by name, barcode or price').fill('T-Shirt');
  await expect(page.getByRole('dialog', { name: /^Search items/ })).toHaveAccessibleName('Search items (0)');
  await closeDialog(page);

  // A search word over 32 characters is refused with the search facility's message.
  await page.keyboard.press('Control+f');
  await page.getByRole('dialog', { name: /^Search items/ }).getByLabel('Search by name, barcode or price').fill('x'.repeat(33));
  await expect(page.getByRole('dialog', { name: /^Search items/ }).getByText('Pattern length exceeds max of 32.')).toBeVisible();
  await closeDialog(page);
});

test('ctrl+arrows move the active row (wrapping) and field; del removes the active row', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK);
  await scan(page, BREAD);
  await scan(page, SUGAR);
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(2)).toHaveAttribute('aria-selected', 'true');
  await blur(page);
  await page.keyboard.press('Control+ArrowDown');
  await expect(rows(page).nth(0)).toHaveAttribute('aria-selected', 'true');
  await expect(rows(page).nth(0).getByLabel(/^Quantity of/)).toBeFocused();
  await page.keyboard.press('Control+ArrowUp');
  await expect(rows(page).nth(2)).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Control+ArrowRight');
  await expect(rows(page).nth(2).getByLabel(/^Discount of/)).toBeFocused();
  await page.keyboard.press('Control+ArrowLeft');
  await expect(rows(page).nth(2).getByLabel(/^Quantity of/)).toBeFocused();
  // Typing a quantity below one is refused.
  await rows(page).nth(2).getByLabel(/^Quantity of/).fill('0');
  await rows(page).nth(2).getByLabel(/^Quantity of/).press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Quantity cannot be less then 1' })).toBeVisible();
  await expect(rows(page).nth(2).getByLabel(/^Quantity of/)).toHaveValue('1');

  await blur(page);
  await page.keyboard.press('Delete');
  const confirm = page.getByRole('dialog', { name: 'Confirmation' });
  await expect(confirm).toContainText(/Remove .+\?/);
  await confirm.getByRole('button', { name: 'Yes, please' }).click();
  await expect(rows(page)).toHaveCount(2);
});

test('ctrl+enter focuses the payment and adds a payment from it; alt+p+index picks a type; ctrl+s settles; ctrl+x clears', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK);
  await scan(page, MILK); // 21.50
  await page.keyboard.press('Control+Enter');
  const field = page.getByLabel('Received amount');
  await expect(field).toBeFocused();

  await page.keyboard.down('Alt');
  await page.keyboard.down('p');
  await page.keyboard.press('2');
  await page.keyboard.up('p');
  await page.keyboard.up('Alt');
  await expect(page.getByRole('radio', { name: 'Credit Card' })).toHaveAttribute('aria-checked', 'true');

  await field.fill('10');
  await field.press('Control+Enter');
  await expect(page.getByRole('list', { name: 'Payments' })).toContainText('Credit Card');
  await expect(field).toHaveValue('11.50');
  await page.getByRole('radio', { name: 'Cash' }).click();
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('dialog', { name: /^Receipt/ })).toBeVisible();
  await closeDialog(page);
  await expect(rows(page)).toHaveCount(0);

  await scan(page, BREAD);
  await expect(rows(page)).toHaveCount(1);
  await page.keyboard.press('Control+x');
  // It asks first, with the answer focused: Enter clears (issue 23.3).
  await expect(page.getByRole('dialog', { name: 'Clear' })).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(rows(page)).toHaveCount(0);
});

test('ctrl+shift+q taxes, ctrl+shift+d discounts, ctrl+shift+c customers, ctrl+e expenses, ctrl+h history', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK); // 10.75
  await blur(page);

  await page.keyboard.press('Control+Shift+Q');
  const taxes = page.getByRole('dialog', { name: 'Taxes' });
  await taxes.getByRole('button', { name: 'GST 5%' }).click();
  await expect(taxes).toHaveCount(0);
  await expect(page.getByTestId('order-tax')).toHaveText('$0.54'); // 5 % of 10.75
  await page.keyboard.press('Control+Shift+Q');
  await page.getByRole('dialog', { name: 'Taxes' }).getByRole('button', { name: 'Clear Tax' }).click();
  await expect(page.getByTestId('order-tax')).toHaveText('$0.00');

  await page.keyboard.press('Control+Shift+D');
  const discounts = page.getByRole('dialog', { name: 'Discounts' });
  await discounts.getByRole('button', { name: 'Fixed 10' }).click();
  await expect(page.getByTestId('order-discount')).toHaveText('$10.00');
  await expect(page.getByTestId('grand-total')).toHaveText('$0.75');
  await page.keyboard.press('Control+Shift+D');
  await page.getByRole('dialog', { name: 'Discounts' }).getByRole('button', { name: 'Clear Discount' }).click();
  await expect(page.getByTestId('order-discount')).toHaveText('$0.00');
  // An open discount typed as a percent: the server applies the same 10 % (1.075 -> 1.08).
  await page.keyboard.press('Control+Shift+D');
  const open = page.getByRole('dialog', { name: 'Discounts' });
  await open.getByRole('radio', { name: 'Percent' }).click();
  await open.getByLabel('Amount').fill('10');
  await open.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('order-discount')).toHaveText('$1.08');
  await expect(page.getByTestId('grand-total')).toHaveText('$9.67');
  await page.keyboard.press('Control+s');
  const receipt = page.getByRole('dialog', { name: /^Receipt/ });
  await expect(receipt).toContainText('Discount-$1.08');
  await closeDialog(page);
  await scan(page, MILK);
  await blur(page);

  await page.keyboard.press('Control+Shift+C');
  await expect(page.getByRole('dialog', { name: 'Customers' })).toBeVisible();
  await closeDialog(page);

  await page.keyboard.press('Control+e');
  await expect(page.getByRole('dialog')).toBeVisible();
  await closeDialog(page);

  await page.keyboard.press('Control+h');
  await expect(page.getByRole('dialog')).toBeVisible();
  await closeDialog(page);
});

test('F2 quantity and F4 line discount from the scan box, F8 holds the sale, F9 lists the held sales to resume (issue 29.3)', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK); // 10.75, the scan box keeps focus
  await expect(page.getByTestId('scan-input')).toBeFocused();

  await page.keyboard.press('F2');
  const qty = page.getByRole('dialog', { name: 'Update quantity' });
  await expect(qty.getByLabel('Quantity')).toBeFocused();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('3');
  await page.keyboard.press('Enter');
  await expect(qty).toHaveCount(0);
  await expect(page.getByTestId('grand-total')).toHaveText('$32.25');

  await page.keyboard.press('F4');
  const disc = page.getByRole('dialog', { name: 'Update discount' });
  await expect(disc.getByRole('textbox', { name: 'Discount', exact: true })).toBeFocused();
  await page.keyboard.type('2');
  await page.keyboard.press('Enter');
  await expect(disc).toHaveCount(0);
  await expect(page.getByTestId('grand-total')).toHaveText('$30.25');

  await page.keyboard.press('F8');
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('held-orders-button')).toContainText(/Held \([1-9]\d*\)/);

  await page.keyboard.press('F9');
  const held = page.getByRole('dialog', { name: 'Held sales' });
  await expect(held).toBeVisible();
  await held.getByRole('button', { name: /^Resume the sale held at/ }).filter({ hasText: '$30.25' }).first().click();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByTestId('grand-total')).toHaveText('$30.25');
  await page.keyboard.press('Control+s');
  await expect(page.getByRole('dialog', { name: /^Receipt/ })).toBeVisible();
  await closeDialog(page);
});
