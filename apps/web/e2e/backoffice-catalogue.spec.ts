import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiHeaders, backToEnglish, chooseLanguage, signIn } from './support/sign-in.ts';

/**
 * Issue 23.1, "two places, one app": the till's catalogue and purchasing dialogs as back-office
 * pages with their own URLs (/admin/catalogue, /admin/purchasing/...). An owner creates a product
 * with a variant, finds it and opens it by its URL; orders a product by scanning its barcode and
 * receives the order scanning it again; the lists fit a tablet; the menu reads in Arabic; the item
 * form's store reads whole at a desktop, 10" tablet and phone size, in Arabic and in English.
 */
test.describe.configure({ timeout: 90_000 });

const BREAD = '5000000000002'; // Fresh Bread Loaf: tracks stock in both stores
const run = Date.now().toString().slice(-7);
const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });
const arAdmin = JSON.parse(readFileSync(new URL('../src/locales/ar/admin.json', import.meta.url), 'utf8')) as { sidebar: Record<string, string>; catalogue: { title: string } };

async function signInAdmin(page: Page) {
  await page.goto('/admin');
  await signIn(page, 'admin');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
}

/** Nothing on the page is wider than the window, nor any list wider than its box (no sideways scrolling). */
async function expectNoSidewaysScroll(page: Page) {
  const { scroll, client, lists } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
    lists: [...document.querySelectorAll('.list-table__scroll')].map((el) => el.scrollWidth - el.clientWidth),
  }));
  expect(scroll).toBeLessThanOrEqual(client);
  for (const overflow of lists) expect(overflow).toBeLessThanOrEqual(0);
}

/**
 * Every option of a <select> reads whole when chosen: the select is at least as wide as a copy of it
 * holding only that option at its own width (text, padding, border and arrow, as the browser lays them
 * out). A select's scrollWidth never passes its clientWidth, cut text or not: it cannot tell.
 */
async function expectEveryChoiceReadable(select: Locator, what: string) {
  const { width, options } = await select.evaluate((el: HTMLSelectElement) => ({
    width: el.getBoundingClientRect().width,
    options: [...el.options].map((option) => {
      const probe = el.cloneNode(false) as HTMLSelectElement;
      probe.removeAttribute('id');
      probe.removeAttribute('name');
      probe.setAttribute('aria-hidden', 'true');
      probe.style.cssText = 'position: absolute; visibility: hidden; inline-size: max-content; min-inline-size: 0; max-inline-size: none';
      probe.append(new Option(option.text));
      el.after(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return { text: option.text, needed };
    }),
  }));
  expect(options.length, `${what}: options`).toBeGreaterThan(1);
  for (const { text, needed } of options) {
    expect(width, `${what}: "${text}" needs ${needed.toFixed(1)} px, the select is ${width.toFixed(1)} px`).toBeGreaterThanOrEqual(needed - 0.5);
  }
}

async function breadStock(request: APIRequestContext, store: number): Promise<{ id: number; quantity: number }> {
  const headers = await apiHeaders(request);
  const bread = (await (await request.get(`/api/products?barcode=${BREAD}`, { headers })).json())['hydra:member'][0] as { id: number };
  const { quantity } = await (await request.get(`/api/admin/product/quantities?itemId=${bread.id}&store=${store}`, { headers })).json();
  return { id: bread.id, quantity: Number(quantity) };
}

test('catalogue at 1366×768: create a product with a variant, find it by search, open it by its URL', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signInAdmin(page);
  const menu = page.getByRole('navigation', { name: 'Main menu' });
  await expect(menu.getByRole('link')).toHaveText(['Dashboard', 'Catalogue', 'Stock', 'To order', 'Purchasing', 'Customers', 'Staff', 'Reports', 'Settings', 'Audit log', 'Backups']);
  await menu.getByRole('link', { name: 'Catalogue' }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue$/);
  await expect(page.getByRole('heading', { name: 'Catalogue', level: 1 })).toBeVisible();
  // The CSV import and export stay on the list.
  await expect(page.getByRole('button', { name: 'Upload Items' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Export items' })).toBeVisible();

  await page.getByRole('button', { name: 'Item', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue\/new$/);
  await expect(page.getByRole('heading', { name: 'Create item', level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const name = `BO Tee ${run}`;
  await page.getByLabel(/^Name/).fill(name);
  await page.getByRole('textbox', { name: /^Barcode/ }).fill(`7${run}00`);
  await page.getByLabel(/^Department/).selectOption({ label: 'Clothing' });
  await page.getByLabel(/^Sale Price/).fill('25');
  await page.getByLabel(/^Purchase Price/).fill('10');
  await page.getByRole('group', { name: /^Categories/ }).getByRole('checkbox', { name: 'Apparel' }).check();
  await page.getByRole('group', { name: /^Suppliers/ }).getByRole('checkbox', { name: 'Threads Apparel' }).check();
  await page.getByRole('group', { name: /^Brands/ }).getByRole('checkbox', { name: 'Acme' }).check();
  await expect(page.getByLabel('Store of row 1')).toHaveValue('1'); // the page's store, Main Street
  await page.getByLabel('Variant group name').fill('Size');
  await page.getByRole('button', { name: 'Add group' }).click();
  const size = page.getByRole('region', { name: 'Variant group Size' });
  await size.getByLabel('New value of Size').fill('XL');
  await size.getByRole('button', { name: 'Add value' }).click();
  await expect(page.getByRole('table', { name: 'Variants to create' }).getByRole('row')).toHaveCount(2);
  await shot(page, 'admin-catalogue-new');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue$/);

  await page.getByRole('combobox', { name: 'Search column' }).selectOption({ label: 'Name' });
  await page.getByRole('searchbox', { name: 'Search' }).fill(name);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('1 variant');
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue\/\d+$/);
  const url = page.url();

  // The URL alone opens the product's form (a bookmark, a link sent by a colleague).
  await page.goto('about:blank');
  await page.goto(url);
  await expect(page.getByRole('heading', { name: 'Update item', level: 1 })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByLabel(/^Name/)).toHaveValue(name);
  await expect(page.getByLabel('Variant 1', { exact: true })).toHaveValue('XL');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/admin\/catalogue$/);
});

test('purchasing: an order made by scanning a barcode, received against the order scanning it again', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  const before = await breadStock(request, 1);
  await signInAdmin(page);
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Purchasing' }).click();
  await expect(page).toHaveURL(/\/admin\/purchasing\/orders$/);

  await page.getByRole('button', { name: 'Purchase order', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/purchasing\/orders\/new$/);
  const poNumber = `BO-PO-${run}`;
  await page.getByLabel(/^PO Number/).fill(poNumber);
  await page.getByLabel(/^Supplier/).selectOption({ label: 'Fresh Farms Ltd' });
  const scan = page.getByRole('textbox', { name: 'Scan or type a barcode' });
  await scan.fill(BREAD);
  await scan.press('Enter');
  await expect(page.getByRole('rowheader', { name: 'Fresh Bread Loaf' })).toBeVisible();
  await scan.fill(BREAD);
  await scan.press('Enter');
  await expect(page.getByLabel('Quantity of Fresh Bread Loaf')).toHaveValue('2');
  await page.getByLabel('Cost of Fresh Bread Loaf').fill('3');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/purchasing\/orders$/);
  const poRow = page.getByRole('row', { name: new RegExp(poNumber) });
  await expect(poRow).toContainText('Open');
  await poRow.getByRole('button', { name: `Edit ${poNumber}` }).click();
  await expect(page).toHaveURL(/\/admin\/purchasing\/orders\/\d+$/);
  await expect(page.getByLabel(/^PO Number/)).toHaveValue(poNumber);

  await page.goto('/admin/purchasing/receipts/new');
  await expect(page.getByRole('heading', { name: 'Create new purchase', level: 1 })).toBeVisible({ timeout: 15_000 });
  await page.getByLabel(/^Purchase number/).fill(`BO-R-${run}`);
  await page.getByLabel(/^Purchase mode/).selectOption({ label: 'Purchase order' });
  await page.getByLabel(/^Purchase order/).selectOption({ label: `${poNumber} — Fresh Farms Ltd` });
  await expect(page.getByLabel('Quantity of Fresh Bread Loaf')).toHaveValue('2');
  await scan.fill(BREAD);
  await scan.press('Enter');
  const received = page.getByLabel('Quantity of Fresh Bread Loaf');
  await expect(received).toBeFocused();
  await page.keyboard.type('3'); // the scan selected the quantity: typing replaces it
  await expect(received).toHaveValue('3');
  await page.getByLabel(/^Payment type/).selectOption({ label: 'Cash' });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/admin\/purchasing\/receipts$/);
  await expect(page.getByRole('row', { name: new RegExp(`BO-R-${run}`) })).toContainText(poNumber);
  expect((await breadStock(request, 1)).quantity).toBe(before.quantity + 3);
});

test('the lists at 768×1024 scroll only down; in Arabic the page is right to left with a translated menu; the item form\'s store reads whole', async ({ page, request }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await signInAdmin(page);
  for (const path of ['/admin/catalogue', '/admin/purchasing/orders', '/admin/purchasing/receipts', '/admin/purchasing/suppliers']) {
    await page.goto(path);
    await expect(page.getByRole('table')).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.list-table__loading, [aria-busy="true"]')).toHaveCount(0);
    await expectNoSidewaysScroll(page);
  }
  await shot(page, 'admin-purchasing-suppliers-768');

  // Arabic from the user menu (the owner's own language, kept on the server: back to English at the end,
  // through the API too if a step fails, or every journey after this one would start in Arabic).
  try {
    await page.goto('/admin/catalogue');
    await chooseLanguage(page, 'العربية');
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByRole('heading', { name: arAdmin.catalogue.title, level: 1 })).toBeVisible({ timeout: 15_000 });
    const menu = page.getByRole('navigation', { name: arAdmin.sidebar.label });
    for (const key of ['catalogue', 'stock', 'purchasing']) await expect(menu.getByRole('link', { name: arAdmin.sidebar[key] })).toBeVisible();
    await expect(page.getByRole('table')).toBeVisible();
    await expectNoSidewaysScroll(page);
    await shot(page, 'admin-catalogue-768-ar');

    // The item form's store (its stores table, row 1): the chosen store's name was cut off on a 10"
    // tablet, in Arabic most. Whole at every size, in both languages, the page never wider than the screen.
    await page.goto('/admin/catalogue/new');
    const store = page.locator('select[name="stores.0.store"]');
    await expect(store).toHaveValue('1', { timeout: 15_000 }); // the page's store, Main Street
    for (const lang of ['ar', 'en'] as const) {
      if (lang === 'en') await chooseLanguage(page, 'English');
      await expect(page.locator('html')).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
      for (const [width, height] of [[800, 1280], [1280, 800], [1366, 768], [390, 844]] as const) {
        await page.setViewportSize({ width, height });
        await expectEveryChoiceReadable(store, `store of row 1, ${lang} ${width}×${height}`);
        // The form's own selects too (the barcode type's "any code" reads long in Arabic).
        for (const name of ['barcodeType', 'department']) await expectEveryChoiceReadable(page.locator(`select[name="${name}"]`), `${name}, ${lang} ${width}×${height}`);
        await expectNoSidewaysScroll(page);
        if (lang === 'ar') await shot(page, `admin-catalogue-new-${width}-ar`);
      }
    }
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  } finally {
    await backToEnglish(request, ['admin']);
  }
});
