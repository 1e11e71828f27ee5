import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, apiHeaders, pickLanguageForReload, backToEnglish } from './support/sign-in.ts';

/**
 * Money a shop can trust (issue 19), as a cashier (ROLE_USER) on Main Street / T1 (one store, one
 * terminal: the till picks them by itself). Every expected figure is worked out by hand in the
 * comments (half away from zero at each rounding), never by calling the app's own maths.
 */

const stamp = Date.now();
const ITEM = `MONEY-A-${stamp}`; // 10.75, taxed 8.25 %
const PLAIN = `MONEY-B-${stamp}`; // 4.00, untaxed
const YEN = `MONEY-Y-${stamp}`; // 1075, taxed 8.25 % (sold in the JPY store)
const DINAR = `MONEY-K-${stamp}`; // 1.275, taxed 8.25 % (sold in the KWD store)

let headers: Record<string, string>;
let storeId: number;
let terminalId: number;
/** The store's money settings before this file: put back afterwards (other files expect the seed's). */
let before: Record<string, unknown>;


/** The store's money settings, set through the API as a back-office user would. */
async function setStore(request: APIRequestContext, settings: Record<string, unknown>) {
  const res = await request.put(`/api/stores/${storeId}`, { headers, data: settings });
  expect(res.status(), await res.text()).toBe(200);
}

async function addProduct(request: APIRequestContext, name: string, barcode: string, basePrice: string, taxes: string[]) {
  const product = await request.post('/api/products', {
    headers,
    data: {
      name, barcode, basePrice, cost: '1.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
      department: '/api/departments/1', taxes, terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'], prices: [],
      manageInventory: false, isActive: true, baseQuantity: 1, isAvailable: true,
      stores: [{ store: `/api/stores/${storeId}`, quantity: '0', location: null, reOrderLevel: null, product: null }],
    },
  });
  expect(product.status(), await product.text()).toBe(201);
}

// Arabic journeys make Arabic the signed-in users' own language (kept by the server): English again for the next journey.
test.afterEach(async ({ request }) => {
  await backToEnglish(request);
});

test.beforeAll(async ({ request }) => {
  headers = await apiHeaders(request);
  const { user } = await (await request.get('/api/auth/info', { headers })).json();
  const main = user.stores.find((s: { name: string }) => s.name === 'Main Street');
  storeId = main.id;
  terminalId = main.terminals.find((x: { code: string }) => x.code === 'T1').id;
  const own = await (await request.get(`/api/stores/${storeId}`, { headers })).json();
  before = { currency: own.currency, locale: own.locale, legacyTaxBase: own.legacyTaxBase, pricesIncludeTax: own.pricesIncludeTax, cashRoundingStep: own.cashRoundingStep };
  // The day is started, so the forced "Start day" dialog stays closed.
  for (const terminal of main.terminals) {
    const res = await request.get(`/api/admin/closing/opened?store=${main.id}&terminal=${terminal.id}`, { headers });
    const { closing } = await res.json();
    if (closing && closing.openingBalance === null) {
      await request.post(`/api/admin/closing/${closing.id}`, { headers, data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id } });
    }
  }
  // A store that taxes what is charged, in US dollars, without cash rounding (explicit, not the seed's).
  await setStore(request, { currency: 'USD', locale: 'en-US', legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 });
  const tax = await request.post('/api/taxes', { headers, data: { name: 'Sales tax', rate: '8.25', stores: [`/api/stores/${main.id}`] } });
  expect(tax.status(), await tax.text()).toBe(201);
  const taxIri = `/api/taxes/${(await tax.json()).id}`;
  await addProduct(request, 'Money Journey Item', ITEM, '10.75', [taxIri]);
  await addProduct(request, 'Money Plain Item', PLAIN, '4.00', []);
  await addProduct(request, 'Money Yen Item', YEN, '1075', [taxIri]);
  await addProduct(request, 'Money Dinar Item', DINAR, '1.275', [taxIri]);
});

test.afterAll(async ({ request }) => {
  await setStore(request, before);
});

async function openTillAsCashier(page: Page) {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page).toHaveURL(/\/pos$/, { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });
}

/** Scans a code until the cart has `count` lines (the till's catalogue may still be loading a new product). */
async function scan(page: Page, code: string, count: number) {
  const box = page.getByTestId('scan-input');
  const rows = page.getByTestId('cart-row');
  await expect(async () => {
    if ((await rows.count()) < count) {
      await box.fill(code);
      await box.press('Enter');
    }
    await expect(rows).toHaveCount(count, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

const receipt = (page: Page) => page.getByRole('dialog', { name: 'Receipt' });

async function orderNumberOf(page: Page): Promise<string> {
  const text = await receipt(page).getByText(/^Order# \d+$/).innerText();
  return text.replace('Order# ', '');
}

/** The stored order with this number in Main Street, as the API answers it. */
async function stored(request: APIRequestContext, number: string) {
  const page = await (await request.get(`/api/orders?orderId=${number}&store.id=${storeId}`, { headers })).json();
  const id = page['hydra:member'][0].id;
  return (await (await request.get(`/api/admin/order/${id}`, { headers })).json()).order;
}

/** Opens the sale history (ctrl+h) and presses Refund on an order: the refund dialog opens (issue 19). */
async function refundFromHistory(page: Page, number: string) {
  await page.keyboard.press('Control+h');
  const history = page.getByRole('dialog', { name: 'Sale history' });
  await history.getByRole('button', { name: `Refund order ${number}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Refund Order# ${number}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.setTimeout(180_000); // a busy shared machine: the till's first catalogue load can be slow

test('10.75 with 8.25 % tax and a 10 % line discount, cash 20: two decimals, tendered 20.00, change 9.53', async ({ page, request }) => {
  await openTillAsCashier(page);
  await scan(page, ITEM, 1);
  await page.getByRole('button', { name: 'Disc.', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Update discount' });
  await dialog.getByLabel('Discount type').selectOption('percent');
  await dialog.getByRole('textbox', { name: /^Discount/ }).fill('10');
  await dialog.getByRole('button', { name: 'Update' }).click();

  // By hand: 10 % of 10.75 = 1.075 -> 1.08; charged 10.75 - 1.08 = 9.67; tax 8.25 % of 9.67 =
  // 0.797775 -> 0.80; total 9.67 + 0.80 = 10.47; cash 20.00 -> change 20.00 - 10.47 = 9.53.
  await expect(page.getByTestId('grand-total')).toHaveText('$10.47');
  await expect(page.getByTestId('payment-total')).toHaveText('$10.47');
  await expect(page.getByTestId('cart-row')).toContainText('$0.80'); // the line's tax
  await expect(page.getByTestId('cart-row')).toContainText('$10.47'); // the line's total
  await expect(page.getByTestId('payment-rounding')).toHaveCount(0); // the store does not round cash
  await expect(page.getByRole('button', { name: /Round to/ })).toHaveCount(0);

  await page.getByLabel('Received amount').fill('20');
  await expect(page.getByTestId('change-due')).toContainText('Change');
  await expect(page.getByTestId('change-amount')).toHaveText('$9.53');

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toBeVisible();
  await expect(receipt(page)).toContainText('Money Journey Item');
  await expect(receipt(page)).toContainText('$10.75');
  await expect(receipt(page)).toContainText('$10.47');
  await expect(receipt(page)).toContainText('Cash tendered');
  await expect(receipt(page).getByTestId('receipt-tendered')).toHaveText('$20.00');
  await expect(receipt(page).getByTestId('receipt-change')).toHaveText('$9.53');
  await expect(receipt(page)).toContainText('$0.80'); // the tax line of the breakdown
  await expect(receipt(page)).not.toContainText(/\$\d+\.\d(?!\d)/); // never one decimal
  // What the panel showed is what the server stored.
  const order = await stored(request, await orderNumberOf(page));
  expect(order).toMatchObject({ total: 10.47, itemTaxes: 0.8, payments: [expect.objectContaining({ tendered: 20, change: 9.53 })] });
});

test('a two-line order refunded one line at a time from the history: Partially Returned, then Returned', async ({ page, request }) => {
  await openTillAsCashier(page);
  await scan(page, ITEM, 1);
  await scan(page, PLAIN, 2);
  // By hand: 10.75 + 8.25 % of 10.75 (0.886875 -> 0.89) = 11.64; + 4.00 = 15.64.
  await expect(page.getByTestId('grand-total')).toHaveText('$15.64');
  await page.getByLabel('Received amount').fill('20');
  await expect(page.getByTestId('change-amount')).toHaveText('$4.36');
  await page.getByRole('button', { name: 'Done' }).click();
  const number = await orderNumberOf(page);
  await receipt(page).getByRole('button', { name: 'Close' }).click();

  // First refund: only the taxed line.
  let dialog = await refundFromHistory(page, number);
  await dialog.getByRole('checkbox', { name: 'Refund Money Plain Item' }).uncheck();
  await dialog.getByRole('button', { name: 'Refund selected' }).click();
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await expect(page.getByTestId('grand-total')).toHaveText('-$11.64');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText(`Refund of Order# ${number}`);
  await expect(receipt(page)).toContainText('-$11.64');
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  expect((await stored(request, number)).status).toBe('Partially Returned');

  // Second refund: the taxed line has nothing left, the plain line is refunded.
  dialog = await refundFromHistory(page, number);
  await expect(dialog.getByRole('checkbox', { name: 'Refund Money Journey Item' })).toBeDisabled();
  await expect(dialog.getByRole('textbox', { name: 'Refund quantity of Money Plain Item' })).toHaveValue('1');
  await dialog.getByRole('button', { name: 'Refund selected' }).click();
  await expect(page.getByTestId('grand-total')).toHaveText('-$4.00');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText('-$4.00');
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  const original = await stored(request, number);
  expect(original.status).toBe('Returned');
  // The history shows it Returned, with no Refund button any more.
  await page.keyboard.press('Control+h');
  const history = page.getByRole('dialog', { name: 'Sale history' });
  const row = history.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) }).filter({ hasText: '$15.64' });
  await expect(row.getByTestId('order-status')).toHaveText('Returned');
  await expect(history.getByRole('button', { name: `Refund order ${number}`, exact: true })).toHaveCount(0);
});

test('a card sale is refunded to the card by default', async ({ page, request }) => {
  await openTillAsCashier(page);
  await scan(page, PLAIN, 1);
  await page.getByRole('radio', { name: 'Credit Card' }).click();
  await expect(page.getByLabel('Received amount')).toHaveValue('4.00');
  await page.getByRole('button', { name: 'Done' }).click();
  const number = await orderNumberOf(page);
  await receipt(page).getByRole('button', { name: 'Close' }).click();

  const dialog = await refundFromHistory(page, number);
  await dialog.getByRole('button', { name: 'Refund selected' }).click();
  // The refund's payment row is the card, for the whole refund; a cashier cannot swap it for cash.
  const rows = page.getByRole('list', { name: 'Payments' });
  await expect(rows).toContainText('Credit Card');
  await expect(rows).toContainText('-$4.00');
  await expect(rows.getByRole('button', { name: 'Remove Credit Card payment' })).toBeDisabled();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText(`Refund of Order# ${number}`);
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  const refund = (await (await request.get(`/api/orders?store.id=${storeId}&order[id]=desc`, { headers })).json())['hydra:member'][0];
  const full = (await (await request.get(`/api/admin/order/${refund.id}`, { headers })).json()).order;
  expect(full.returnedFrom).toBeTruthy();
  expect(full.payments).toEqual([expect.objectContaining({ total: -4, type: expect.objectContaining({ name: 'Credit Card' }) })]);
});

test('an administrator refunds a card sale in cash; a cashier cannot (the card row stays, the server refuses)', async ({ page, request }) => {
  // As the administrator: two stores, so the till asks for the store and the terminal.
  await page.goto('/pos');
  await signIn(page, 'admin');
  await page.getByRole('dialog', { name: 'Choose a store' }).getByRole('button', { name: 'Main Street' }).click();
  await page.getByRole('dialog', { name: 'Choose a Terminal' }).getByRole('button', { name: 'T1' }).click();
  await expect(page).toHaveURL(/\/pos$/, { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });
  await scan(page, PLAIN, 1);
  await page.getByRole('radio', { name: 'Credit Card' }).click();
  await expect(page.getByLabel('Received amount')).toHaveValue('4.00');
  await page.getByRole('button', { name: 'Done' }).click();
  const number = await orderNumberOf(page);
  await receipt(page).getByRole('button', { name: 'Close' }).click();

  const dialog = await refundFromHistory(page, number);
  await dialog.getByRole('button', { name: 'Refund selected' }).click();
  const rows = page.getByRole('list', { name: 'Payments' });
  await expect(rows).toContainText('Credit Card');
  // The administrator may take the card row away and give the 4.00 back in cash instead.
  await rows.getByRole('button', { name: 'Remove Credit Card payment' }).click();
  await expect(page.getByRole('list', { name: 'Payments' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Cash' }).click();
  await page.getByRole('button', { name: 'Exact' }).click();
  await expect(page.getByLabel('Received amount')).toHaveValue('-4.00');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(receipt(page)).toContainText(`Refund of Order# ${number}`);
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  const refund = (await (await request.get(`/api/orders?store.id=${storeId}&order[id]=desc`, { headers })).json())['hydra:member'][0];
  const full = (await (await request.get(`/api/admin/order/${refund.id}`, { headers })).json()).order;
  expect(full.returnedFrom).toBeTruthy();
  expect(full.payments).toEqual([expect.objectContaining({ total: -4, type: expect.objectContaining({ name: 'Cash' }) })]);

  // A cashier's card sale: in the till the card row of its refund cannot be removed ...
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await openTillAsCashier(page);
  await scan(page, PLAIN, 1);
  await page.getByRole('radio', { name: 'Credit Card' }).click();
  await expect(page.getByLabel('Received amount')).toHaveValue('4.00');
  await page.getByRole('button', { name: 'Done' }).click();
  const second = await orderNumberOf(page);
  await receipt(page).getByRole('button', { name: 'Close' }).click();
  const cashierDialog = await refundFromHistory(page, second);
  await cashierDialog.getByRole('button', { name: 'Refund selected' }).click();
  await expect(page.getByRole('list', { name: 'Payments' }).getByRole('button', { name: 'Remove Credit Card payment' })).toBeDisabled();
  // ... and a cash refund of it sent straight to the API as the cashier is refused, nothing written.
  const cashierHeaders = await apiHeaders(request, 'cashier');
  const original = await stored(request, second);
  const types = (await (await request.get('/api/payments', { headers })).json())['hydra:member'];
  const cashType = types.find((x: { type: string }) => x.type === 'cash');
  const refused = await request.post('/api/admin/order/create', {
    headers: { ...cashierHeaders, 'idempotency-key': crypto.randomUUID() },
    data: {
      items: [{ item: original.items[0].product.id, quantity: -1 }], payments: [{ received: -4, type: cashType.id }],
      refundingFrom: original.id, store: storeId, terminal: terminalId,
    },
  });
  expect(refused.status(), await refused.text()).toBe(403);
  expect((await stored(request, second)).status).toBe('Completed');
});

test('a JPY store: whole yen, no decimals anywhere', async ({ page, request }) => {
  await setStore(request, { currency: 'JPY' });
  try {
    await openTillAsCashier(page);
    await scan(page, YEN, 1);
    // By hand: 8.25 % of 1,075 = 88.6875 -> 89 yen; total 1,164; cash 2,000 -> change 836.
    await expect(page.getByTestId('grand-total')).toHaveText('¥1,164');
    await expect(page.getByTestId('payment-total')).toHaveText('¥1,164');
    await expect(page.getByLabel('Received amount')).toHaveValue('1164');
    await page.getByLabel('Received amount').fill('2000');
    await expect(page.getByTestId('change-amount')).toHaveText('¥836');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(receipt(page).getByTestId('receipt-tendered')).toHaveText('¥2,000');
    await expect(receipt(page).getByTestId('receipt-change')).toHaveText('¥836');
    await expect(receipt(page)).toContainText('¥1,164');
    await expect(receipt(page)).not.toContainText(/¥[\d,]+\.\d/); // never a decimal
    const order = await stored(request, await orderNumberOf(page));
    expect(order).toMatchObject({ total: 1164, itemTaxes: 89, store: expect.objectContaining({ currency: 'JPY' }) });
  } finally {
    await setStore(request, { currency: 'USD' });
  }
});

test('a KWD store: the till, the sale history and the day closing keep the fils; the drawer is counted in dinars and fils', async ({ page, request }) => {
  await setStore(request, { currency: 'KWD' });
  try {
    await openTillAsCashier(page);
    await scan(page, DINAR, 1);
    // By hand: 8.25 % of 1.275 = 0.1051875 -> 0.105; total 1.380; cash 2 -> change 0.620.
    await expect(page.getByTestId('grand-total')).toHaveText(/^KWD\s1\.380$/);
    await page.getByLabel('Received amount').fill('2');
    await expect(page.getByTestId('change-amount')).toHaveText(/^KWD\s0\.620$/);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(receipt(page).getByTestId('receipt-change')).toHaveText(/^KWD\s0\.620$/);
    const number = await orderNumberOf(page);
    await receipt(page).getByRole('button', { name: 'Close' }).click();

    // The history's row: rate 1.275, item taxes 0.105, total 1.380 (in hundredths they read 1.280, 0.110, 1.380).
    await page.keyboard.press('Control+h');
    const history = page.getByRole('dialog', { name: 'Sale history' });
    const row = history.getByRole('row').filter({ has: page.getByRole('cell', { name: number, exact: true }) });
    await expect(row).toContainText(/KWD\s1\.275/);
    await expect(row).toContainText(/KWD\s0\.105/);
    await expect(row).toContainText(/KWD\s1\.380/);
    await expect(history.getByTestId('tile-amount')).toHaveText(/^KWD\s[\d,]+\.\d{3}$/);
    await history.getByRole('button', { name: 'Close', exact: true }).click();

    // The day closing: every figure with three decimals, the drawer counted in Kuwaiti notes and coins.
    await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Day closing', exact: true }).click();
    const closing = page.getByRole('dialog', { name: 'Day closing' });
    await expect(closing.getByTestId('cash-in-hand')).toHaveText(/^-?KWD\s[\d,]+\.\d{3}$/);
    await expect(closing.getByLabel(/^Count of KWD\s0\.005$/)).toBeVisible();
    await expect(closing.getByLabel(/^Count of KWD\s5,000\.000$/)).toHaveCount(0); // no US-dollar-sized notes
    await closing.getByLabel(/^Count of KWD\s0\.250$/).fill('3');
    await closing.getByLabel(/^Count of KWD\s0\.005$/).fill('3');
    await expect(closing.getByTestId('counted-cash')).toHaveText(/^KWD\s0\.765$/);
    await closing.getByRole('button', { name: 'Close', exact: true }).click();
    const order = await stored(request, number);
    expect(order).toMatchObject({ total: 1.38, itemTaxes: 0.105, store: expect.objectContaining({ currency: 'KWD' }) });
  } finally {
    await setStore(request, { currency: 'USD' });
  }
});

test('Arabic: the same sale in Arabic-Indic digits, two decimals', async ({ page }) => {
  await openTillAsCashier(page);
  // The language choice the login's switch keeps; the till follows after a reload.
  await pickLanguageForReload(page, 'ar');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByTestId('scan-input')).toBeVisible({ timeout: 60_000 });
  await scan(page, ITEM, 1);
  // 10.75 + 0.89 = 11.64, written in Arabic-Indic digits with the Arabic decimal separator.
  await expect(page.getByTestId('grand-total')).toContainText('١١٫٦٤');
  await expect(page.getByTestId('payment-total')).toContainText('١١٫٦٤');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // Payment method names in Arabic (the shop's defaults: cash, credit card).
  await expect(page.getByRole('radio', { name: 'نقدًا' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'بطاقة ائتمان' })).toBeVisible();
});
