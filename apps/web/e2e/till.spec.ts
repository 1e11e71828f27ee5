import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { sendJsonContentTypeAlways } from './support/old-client.ts';
import { signIn, apiHeaders } from './support/sign-in.ts';
import { startDays } from './support/days.ts';

/**
 * The till, as a cashier uses it, against the real server and the demo shop (Harbour Mall sells
 * the clothing with size/colour variants; half the products track stock).
 */

const MILK = '5000000000001'; // Fresh Milk 1L: 10.75, no stock tracking, no tax
const BREAD = '5000000000002'; // Fresh Bread Loaf: 21.00, tracks stock
const TSHIRT_M_BLACK = '50000000001912'; // Fresh T-Shirt (31.00 + VAT 16 %), variant M-Black

const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });

/**
 * The cashier of these journeys (issue 22.2: a cashier's journeys sign in as a cashier): a user with
 * the built-in Cashier role in both demo stores, made by the owner through the API once per run.
 */
const CASHIER = { username: 'till_journeys', password: 'Till-Journeys-5531' };

async function createCashier(request: APIRequestContext) {
  const headers = await apiHeaders(request);
  const { user } = await (await request.get('/api/auth/info', { headers })).json();
  const res = await request.post('/api/admin/user/create', {
    headers,
    data: { ...CASHIER, displayName: 'Till Journeys', email: 'till-journeys@example.com', role: 'cashier', stores: user.stores.map((s: { id: number }) => String(s.id)) },
  });
  // A retried spec finds the user made by its first try.
  if (!res.ok() && !(await res.text()).includes('already')) throw new Error(`cashier not created: ${res.status()} ${await res.text()}`);
  await apiHeaders(request, CASHIER.username, CASHIER.password); // signs in, or throws
}

async function openTill(page: Page, store = 'Harbour Mall', terminal = 'M1') {
  await page.goto('/');
  await signIn(page, CASHIER.username, CASHIER.password); // a cashier lands on the till (issue 23)
  await page.getByRole('dialog', { name: 'Choose a store' }).getByRole('button', { name: store }).click();
  await page.getByRole('dialog', { name: 'Choose a Terminal' }).getByRole('button', { name: terminal }).click();
  await expect(page).toHaveURL(/\/pos$/);
  // The catalogue is loaded (the filters are built from it).
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 15_000 });
}

async function scan(page: Page, code: string) {
  const box = page.getByTestId('scan-input');
  await box.fill(code);
  await box.press('Enter');
}

const rows = (page: Page) => page.getByTestId('cart-row');

/** Clear: a cart with lines asks first (issue 23.3); the cashier confirms. */
async function clearCart(page: Page) {
  const hadLines = (await rows(page).count()) > 0;
  await page.getByRole('button', { name: 'Clear' }).click();
  if (hadLines) await page.getByRole('dialog', { name: 'Clear' }).getByRole('button', { name: 'Clear' }).click();
}
const receipt = (page: Page) => page.getByRole('dialog', { name: /^Receipt/ });

async function orderNumberOf(page: Page): Promise<string> {
  const text = await receipt(page).getByText(/^Order# \d+$/).innerText();
  return text.replace('Order# ', '');
}

test.beforeAll(async ({ request }) => {
  await createCashier(request);
  await startDays(request);
});

test('scan two items and a variant, pay cash with change, the receipt is shown', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK);
  await scan(page, BREAD);
  await scan(page, TSHIRT_M_BLACK);
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(2)).toContainText('Fresh T-Shirt');
  await expect(rows(page).nth(2)).toContainText('M-Black');
  await expect(page.getByTestId('cart-count')).toHaveText('3 items');
  // 10.75 + 21.00 + 31.00 x 1.16 = 67.71.
  await expect(page.getByTestId('grand-total')).toHaveText('$67.71');
  await expect(rows(page).nth(1).getByTestId('stock')).toBeVisible();
  await shot(page, 'till');

  await page.getByLabel('Received amount').fill('100');
  await expect(page.getByTestId('change-due')).toContainText('Change');
  await expect(page.getByTestId('change-amount')).toHaveText('$32.29');
  await page.getByRole('button', { name: 'Done' }).click();

  const r = receipt(page);
  await expect(r).toBeVisible();
  await expect(r).toContainText('Thank you for your visit');
  await expect(r).toContainText('Fresh T-Shirt');
  await expect(r).toContainText('M-Black');
  await expect(r.getByTestId('receipt-change')).toHaveText('$32.29');
  await r.getByRole('button', { name: 'Close' }).click();
  await expect(rows(page)).toHaveCount(0);
  await expect(page.getByTestId('grand-total')).toHaveText('$0.00');
});

test("an unknown code says so; a weighed barcode adds its measured quantity at its price", async ({ page }) => {
  await openTill(page);
  await scan(page, '999999');
  await expect(page.getByRole('alert').filter({ hasText: '999999 not found' })).toBeVisible();
  await scan(page, '2100001005005');
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first().getByLabel('Quantity of Fresh Milk 1L')).toHaveValue('0.5');
  await expect(page.getByTestId('grand-total')).toHaveText('$1.25'); // 0.5 x 2.50
  // Clearing a cart asks first (issue 23.3): "No, wait" keeps the sale.
  await page.getByRole('button', { name: 'Clear' }).click();
  const ask = page.getByRole('dialog', { name: 'Clear' });
  await expect(ask).toContainText('Clear this sale?');
  await ask.getByRole('button', { name: 'No, wait' }).click();
  await expect(rows(page)).toHaveCount(1);
  await clearCart(page);
  await expect(rows(page)).toHaveCount(0);
});

test('split payment: card then cash', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK);
  await scan(page, MILK);
  await expect(page.getByTestId('grand-total')).toHaveText('$21.50');
  const field = page.getByLabel('Received amount');
  await page.getByRole('radio', { name: 'Credit Card' }).click();
  // More than the total on a card is refused.
  await field.fill('30');
  await field.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'Credit Card cannot pay more than the amount due ($21.50)' })).toBeVisible();
  await field.fill('10');
  await field.press('Enter');
  await expect(page.getByRole('list', { name: 'Payments' })).toContainText('Credit Card');
  await expect(field).toHaveValue('11.50');
  await page.getByRole('radio', { name: 'Cash' }).click();
  await field.fill('20');
  await expect(page.getByTestId('change-due')).toContainText('$8.50');
  await page.getByRole('button', { name: 'Done' }).click();
  const r = receipt(page);
  await expect(r).toContainText('Credit Card');
  await expect(r).toContainText('Credit Card$10.00');
  await expect(r).toContainText('Cash');
  await expect(r.getByTestId('receipt-change')).toHaveText('$8.50');
});

test('suspend a sale, then unsuspend it from Find order and settle it (bodiless DELETE with a JSON content type, as the old client sends it)', async ({ page }) => {
  await sendJsonContentTypeAlways(page);
  await openTill(page);
  await scan(page, MILK);
  await scan(page, BREAD);
  await page.getByRole('button', { name: 'Suspend' }).click();
  await expect(page.getByText('Order suspended')).toBeVisible();
  await expect(rows(page)).toHaveCount(0);

  await page.getByRole('button', { name: 'Find order' }).click();
  const lookup = page.getByRole('dialog', { name: 'Find order' });
  const held = lookup.getByRole('region', { name: 'Suspended orders' });
  await expect(held.getByRole('button').first()).toBeVisible();
  await held.getByRole('button').first().click();
  const detail = page.getByRole('dialog', { name: /^Order# / });
  await expect(detail).toContainText('On Hold');
  const unsuspended = page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/api\/admin\/order\/\d+$/.test(r.url()));
  await detail.getByRole('button', { name: 'Unsuspend' }).click();
  const answer = await unsuspended;
  expect(answer.status()).toBe(200);
  expect(answer.request().headers()['content-type']).toBe('application/json');
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByTestId('grand-total')).toHaveText('$31.75');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText('Fresh Bread Loaf');
});

test('refund a completed order: the stock comes back', async ({ page }) => {
  await openTill(page);
  await scan(page, BREAD);
  const stockCell = rows(page).first().getByTestId('stock');
  await expect(stockCell).toHaveText(/^\d+$/);
  const before = Number(await stockCell.innerText());
  await page.getByRole('button', { name: 'QTY', exact: true }).click();
  const qtyDialog = page.getByRole('dialog', { name: 'Update quantity' });
  await qtyDialog.getByLabel('Quantity').fill('2');
  await qtyDialog.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByTestId('grand-total')).toHaveText('$42.00');
  await page.getByRole('button', { name: 'Done' }).click();
  const number = await orderNumberOf(page);
  await receipt(page).getByRole('button', { name: 'Close' }).click();

  await scan(page, BREAD);
  await expect(rows(page).first().getByTestId('stock')).toHaveText(String(before - 2));
  await clearCart(page);

  await page.getByTestId('scan-input').fill(number);
  await page.getByRole('button', { name: 'Refund' }).click();
  // The refund dialog lists the line with what is still refundable; all of it is chosen.
  const refund = page.getByRole('dialog', { name: `Refund Order# ${number}` });
  await expect(refund.getByRole('textbox', { name: 'Refund quantity of Fresh Bread Loaf' })).toHaveValue('2');
  await refund.getByRole('button', { name: 'Refund selected' }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first().getByLabel('Quantity of Fresh Bread Loaf')).toHaveValue('-2');
  await expect(page.getByTestId('grand-total')).toHaveText('-$42.00');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText(`Refund of Order# ${number}`);
  await receipt(page).getByRole('button', { name: 'Close' }).click();

  await scan(page, BREAD);
  await expect(rows(page).first().getByTestId('stock')).toHaveText(String(before));
  // A second refund of the same order is refused.
  await clearCart(page);
  await page.getByTestId('scan-input').fill(number);
  await page.getByRole('button', { name: 'Refund' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'only a completed sale can be refunded' })).toBeVisible();
});

test('credit is refused without a customer and accepted with one', async ({ page }) => {
  await openTill(page);
  await scan(page, MILK);
  const credit = page.getByRole('radio', { name: 'Credit', exact: true });
  await expect(credit).toBeDisabled();

  await page.keyboard.press('Control+Shift+C');
  const customers = page.getByRole('dialog', { name: 'Customers' });
  await customers.getByLabel('Search customers').fill('Aisha');
  const row = customers.getByRole('row', { name: /Aisha Khan/ });
  await row.getByRole('button', { name: 'Select', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Totals' })).toContainText('Aisha Khan');

  await expect(credit).toBeEnabled();
  await credit.click();
  await page.getByRole('button', { name: 'Done' }).click();
  const r = receipt(page);
  await expect(r).toContainText('Customer: Aisha Khan');
  await expect(r).toContainText('Credit');
});

test('take an order in order mode, then settle it in payment mode', async ({ page }) => {
  await openTill(page, 'Harbour Mall', 'M2');
  await page.getByRole('button', { name: /^Mode:/ }).click();
  await page.getByRole('dialog', { name: 'Select a mode' }).getByRole('button', { name: 'Order only' }).click();
  await expect(page.getByRole('button', { name: 'Mode: Order only' })).toBeVisible();
  await scan(page, BREAD);
  await scan(page, MILK);
  await page.getByRole('button', { name: 'Done' }).click();
  const placed = page.getByText(/^Order# \d+ placed$/);
  await expect(placed).toBeVisible();
  const number = (await placed.innerText()).match(/\d+/)![0];
  await expect(rows(page)).toHaveCount(0);

  await page.getByRole('button', { name: /^Mode:/ }).click();
  await page.getByRole('dialog', { name: 'Select a mode' }).getByRole('button', { name: 'Payment only' }).click();
  const list = page.getByRole('listbox', { name: 'Running orders' });
  const option = list.getByRole('option', { name: new RegExp(`^Order# ${number} M2`) });
  await expect(option).toBeVisible({ timeout: 10_000 });
  await option.click();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByRole('region', { name: 'Order details' })).toContainText('M2');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText(`Order# ${number}`);
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  // Settled: it leaves the running orders at the next poll.
  await expect(option).toHaveCount(0, { timeout: 10_000 });
  // Back to the normal till for the next journeys.
  await page.getByRole('button', { name: /^Mode:/ }).click();
  await page.getByRole('dialog', { name: 'Select a mode' }).getByRole('button', { name: 'Pos' }).click();
});

test('a product changed on the server reaches the running till without a reload (issue 10)', async ({ page, request }) => {
  const headers = await apiHeaders(request);
  const milk = (await (await request.get(`/api/products?barcode=${MILK}`, { headers })).json())['hydra:member'][0];
  await openTill(page);
  await page.evaluate(() => { (window as unknown as { sameDocument: boolean }).sameDocument = true; });
  const renamed = `Milk Renamed ${Date.now()}`;
  try {
    const put = await request.put(`/api/products/${milk.id}`, { headers, data: { name: renamed, basePrice: '12.34' } });
    expect(put.status()).toBe(200);
    // Within the 10 s: the item search finds the new name...
    await page.getByTestId('scan-input').focus();
    await page.keyboard.press('Control+f');
    const search = page.getByRole('dialog', { name: /Search items/ });
    await search.getByRole('combobox').fill(renamed);
    await expect(search.getByRole('option').filter({ hasText: renamed })).toBeVisible({ timeout: 10_000 });
    await page.keyboard.press('Escape');
    // ...and a scan sells it under that name at the new price.
    await scan(page, MILK);
    await expect(rows(page).first()).toContainText(renamed);
    await expect(rows(page).first().getByLabel(`Rate of ${renamed}`)).toHaveValue('12.34');
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    await clearCart(page);
  } finally {
    await request.put(`/api/products/${milk.id}`, { headers, data: { name: milk.name, basePrice: String(milk.basePrice) } });
  }
});

test('a line with no stock left blinks for at most five seconds, then stays marked (WCAG 2.2.2; no endless repainting)', async ({ page, request }) => {
  const CEREAL = '5000000000010'; // a grocery product that tracks stock, used by no other journey
  const headers = await apiHeaders(request);
  const [p] = (await (await request.get(`/api/products?barcode=${CEREAL}`, { headers })).json())['hydra:member'] as { id: number; stores: { store: { id: number; name: string }; quantity: string }[] }[];
  const mall = p.stores.find((s) => s.store.name === 'Harbour Mall')!;
  const qty = Number(mall.quantity);
  if (qty !== 0) {
    const res = await request.post('/api/admin/stock/adjustment/create', { headers, data: { store: mall.store.id, lines: [{ product: p.id, quantity: String(-qty), reason: 'correction' }] } });
    expect(res.ok(), await res.text()).toBe(true);
  }
  await openTill(page);
  await scan(page, CEREAL);
  const stock = rows(page).first().getByTestId('stock');
  await expect(stock).toHaveText('0');
  await expect(stock).toHaveClass(/stock-warning/);
  const running = () => stock.evaluate((el) => el.getAnimations().filter((a) => a.playState === 'running').length);
  expect(await running()).toBe(1);
  await expect.poll(running, { timeout: 8_000 }).toBe(0);
  // Still marked, and shown (the blink ends visible).
  await expect(stock).toBeVisible();
  expect(await stock.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  await expect(stock).toHaveClass(/stock-warning/);
});
