import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiHeaders, chooseLanguage, signIn } from './support/sign-in.ts';

/**
 * Issue 25 in the back office (/admin/stock): an owner moves a product from one store to the other
 * (request by scanning, send, receive one short with the reason) and both stores' stock change as
 * the ledger says; a count with a variance is approved and the product's stock becomes the counted
 * quantity. The demo shop has two stores (Main Street, Harbour Mall).
 */
const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });

interface ProductWire { id: number; name: string; barcode: string; manageInventory: boolean; variants: unknown[]; stores: { store: { id: number; name: string }; quantity: string }[] }

async function products(request: APIRequestContext): Promise<ProductWire[]> {
  const headers = await apiHeaders(request);
  const res = await request.get('/api/products?manageInventory=true&itemsPerPage=60&order[id]=asc', { headers });
  expect(res.ok()).toBe(true);
  const list = (await res.json())['hydra:member'] as ProductWire[];
  return list.filter((p) => p.manageInventory && p.variants.length === 0 && p.stores.length >= 2);
}

/** A product's stock per store name, read through the API. */
async function stockOf(request: APIRequestContext, id: number): Promise<Record<string, number>> {
  const headers = await apiHeaders(request);
  const p = (await (await request.get(`/api/products/${id}`, { headers })).json()) as ProductWire;
  return Object.fromEntries(p.stores.map((s) => [s.store.name, Number(s.quantity)]));
}

async function openStock(page: Page) {
  await page.goto('/admin');
  await signIn(page, 'admin');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Stock' }).click();
  await expect(page.getByRole('heading', { name: 'Stock transfers', level: 1 })).toBeVisible();
}

/** Nothing on the page is wider than the window (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
  expect(scroll).toBeLessThanOrEqual(client);
}

test('a transfer from Main Street to Harbour Mall: requested, sent, received one short with the reason', async ({ page, request }) => {
  const [product] = await products(request);
  const before = await stockOf(request, product.id);
  expect(before['Main Street']).toBeGreaterThanOrEqual(5);

  await openStock(page);
  await page.getByRole('link', { name: 'New transfer' }).click();
  await expect(page.getByRole('heading', { name: 'Request a transfer' })).toBeVisible();
  await page.getByLabel(/^From store/).selectOption({ label: 'Main Street' });
  await page.getByLabel(/^To store/).selectOption({ label: 'Harbour Mall' });
  const scan = page.getByRole('textbox', { name: 'Scan or type a barcode' });
  await scan.fill(product.barcode);
  await scan.press('Enter');
  const qty = page.getByLabel(`Quantity of ${product.name}`);
  await expect(qty).toHaveValue('1');
  await qty.fill('5');
  await page.getByRole('button', { name: 'Request transfer' }).click();

  await expect(page).toHaveURL(/\/admin\/stock\/transfers\/\d+$/);
  await expect(page.locator('h1 .badge')).toHaveText('Requested');
  expect(await stockOf(request, product.id)).toEqual(before); // a request moves nothing

  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, please' }).click();
  await expect(page.locator('h1 .badge')).toHaveText('In transit');
  let now = await stockOf(request, product.id);
  expect(now['Main Street']).toBe(before['Main Street'] - 5);
  expect(now['Harbour Mall']).toBe(before['Harbour Mall']); // in transit: neither store's

  await page.setViewportSize({ width: 768, height: 1024 });
  await expectNoSidewaysScroll(page);
  const received = page.getByLabel(`Received quantity: ${product.name}`);
  await expect(received).toHaveValue('5');
  await received.fill('4');
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.getByText('Required when less arrived than was sent.').first()).toBeVisible();
  await page.getByLabel(/^Reason for what is missing/).fill('one broken in the van');
  await page.getByRole('button', { name: 'Receive', exact: true }).click();
  await expect(page.locator('h1 .badge')).toHaveText('Received');
  await expect(page.getByText('one broken in the van')).toBeVisible();

  now = await stockOf(request, product.id);
  expect(now['Main Street']).toBe(before['Main Street'] - 5);
  expect(now['Harbour Mall']).toBe(before['Harbour Mall'] + 4);

  // The list shows it received.
  await page.getByRole('link', { name: 'Transfers' }).click();
  await expect(page.getByRole('table').getByText('Received').first()).toBeVisible();
});

test('a count with a variance is approved: the stock becomes the counted quantity', async ({ page, request }) => {
  const list = await products(request);
  const product = list[1];
  const before = await stockOf(request, product.id);
  const shelf = before['Main Street'] - 2; // two are missing from the shelf
  expect(shelf).toBeGreaterThan(1);

  await page.setViewportSize({ width: 390, height: 844 });
  await openStock(page);
  await page.getByRole('link', { name: 'Counts' }).click();
  await page.getByRole('link', { name: 'New count' }).click();
  await page.getByLabel(/^Store/).selectOption({ label: 'Main Street' });
  await page.getByLabel(/^What to count/).selectOption('full');
  await page.getByRole('button', { name: 'Start count' }).click();
  await expect(page).toHaveURL(/\/admin\/stock\/counts\/\d+$/);
  await expect(page.locator('h1 .badge')).toHaveText('Open');

  // Two scans that add up: the quantity box (shelf - 1), then one more.
  const scan = page.getByRole('textbox', { name: 'Barcode' });
  await page.getByRole('textbox', { name: 'Quantity' }).fill(String(shelf - 1));
  await scan.fill(product.barcode);
  await scan.press('Enter');
  await expect(page.getByText(`${product.name}: ${shelf - 1} counted`)).toBeVisible();
  await scan.fill(product.barcode);
  await scan.press('Enter');
  await expect(page.getByText(`${product.name}: ${shelf} counted`)).toBeVisible();
  await expect(page.locator('tbody tr', { hasText: product.name }).locator('td', { hasText: /^-2$/ })).toBeVisible();
  await expect(page.getByTestId('count-variance-value')).toHaveText(/^-\$\d+\.\d\d$/);
  await expectNoSidewaysScroll(page);
  const box = await page.getByRole('button', { name: /^Count \+/ }).boundingBox();
  expect(box!.height).toBeGreaterThanOrEqual(44);
  expect(await stockOf(request, product.id)).toEqual(before); // counting books nothing

  await page.getByRole('button', { name: 'Approve count' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('becomes the counted quantity');
  await dialog.getByRole('button', { name: 'Yes, please' }).click();
  await expect(page.locator('h1 .badge')).toHaveText('Approved');
  const after = await stockOf(request, product.id);
  expect(after['Main Street']).toBe(shelf);
  expect(after['Harbour Mall']).toBe(before['Harbour Mall']);
});

test('every stock page fits 1366×768, 1024×768, 768×1024 and 390×844 without sideways scrolling, in English and in Arabic (right to left)', async ({ page, request }) => {
  test.setTimeout(120_000);
  const headers = await apiHeaders(request);
  const [a, b] = await products(request);
  const stores = ((await (await request.get('/api/stores', { headers })).json())['hydra:member'] as { id: number; name: string }[]).sort((x, y) => x.id - y.id);
  const tr = await request.post('/api/admin/stock/transfer/create', { headers, data: { fromStore: stores[0].id, toStore: stores[1].id, note: 'a rather long note about the weekly van that should wrap on a phone', lines: [{ product: a.id, quantity: 1 }, { product: b.id, quantity: 2 }] } });
  expect(tr.status()).toBe(201);
  const sent = await request.post(`/api/admin/stock/transfer/${(await tr.json()).transfer.id}/send`, { headers, data: {} });
  expect(sent.status()).toBe(200);
  const count = await request.post('/api/admin/stock/count/create', { headers, data: { store: stores[0].id } });
  expect(count.status()).toBe(201);
  const countId = (await count.json()).count.id as number;
  expect((await request.post(`/api/admin/stock/count/${countId}/lines`, { headers, data: { lines: [{ barcode: a.barcode, quantity: 3 }, { product: b.id, quantity: 1 }] } })).status()).toBe(200);
  const transferId = (await sent.json()).transfer.id as number;
  const requested = await request.post('/api/admin/stock/transfer/create', { headers, data: { fromStore: stores[0].id, toStore: stores[1].id, lines: [{ product: a.id, quantity: 1 }] } });
  expect(requested.status()).toBe(201);
  const requestedId = (await requested.json()).transfer.id as number;

  await openStock(page);
  const pages: [string, string][] = [
    ['/admin/stock/transfers', 'h1'], ['/admin/stock/transfers/new', 'h1'], [`/admin/stock/transfers/${transferId}`, 'h1 .badge'], [`/admin/stock/transfers/${requestedId}`, 'h1 .badge'],
    ['/admin/stock/counts', 'h1'], ['/admin/stock/counts/new', 'h1'], [`/admin/stock/counts/${countId}`, 'h1 .badge'],
    ['/admin/stock/adjustments', 'h1'], ['/admin/stock/adjustments/new', 'h1'],
  ];
  for (const lang of ['en', 'ar'] as const) {
    if (lang === 'ar') {
      await chooseLanguage(page, 'العربية');
      await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    }
    for (const [path, ready] of pages) {
      await page.goto(path);
      await expect(page.locator(ready).first()).toBeVisible();
      await expect(page.locator('[data-testid="list-loader"]')).toHaveCount(0);
      if (path.endsWith('/new') && !path.includes('counts')) {
        // A line with its inputs (quantity, variant, reason, note) is the widest part of these forms.
        const scan = page.locator('.stock-scan__input');
        await scan.fill(a.barcode);
        await scan.press('Enter');
        await expect(page.locator('tbody tr', { hasText: a.name })).toBeVisible();
      }
      for (const [width, height] of [[1366, 768], [1024, 768], [768, 1024], [390, 844]]) {
        await page.setViewportSize({ width, height });
        await expect.poll(() => page.evaluate(() => document.documentElement.clientWidth)).toBeLessThanOrEqual(width);
        const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(scroll, `${path} at ${width}×${height} (${lang})`).toBeLessThanOrEqual(client);
        if (width === 390 || width === 1024) await shot(page, `stock-${lang}-${width}-${path.split('/').slice(3).join('-')}`);
      }
      await page.setViewportSize({ width: 1366, height: 768 });
    }
  }
  await expect(page.getByRole('heading', { level: 1 })).toContainText('تسوية المخزون');
  // The admin's language is remembered by the server: back to English for the journeys after this one.
  await chooseLanguage(page, 'English');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});
