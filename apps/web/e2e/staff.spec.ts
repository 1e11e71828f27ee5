import { expect, test, type Page } from '@playwright/test';
import { signIn, apiHeaders } from './support/sign-in.ts';

/**
 * Issue 21 at the till, as a real cashier user: a 50 % line discount is above the store's limit
 * (20 %), so the till asks for a manager; the manager approves on the same till with their PIN; the
 * sale completes; the owner's audit log shows it with both names.
 */

const CODE = `STAFF-${Date.now()}`;
const CASHIER = { username: 'e2e-cashier', password: 'e2e-Cashier-pass-71', displayName: 'Carla Cashier' };
const MANAGER = { username: 'e2e-manager', password: 'e2e-Manager-pass-71', displayName: 'Mona Manager', pin: '2580' };


test.beforeAll(async ({ request }) => {
  const headers = await apiHeaders(request);
  const { user } = await (await request.get('/api/auth/info', { headers })).json();
  const main = user.stores.find((s: { name: string }) => s.name === 'Main Street');
  for (const terminal of main.terminals) {
    const { closing } = await (await request.get(`/api/admin/closing/opened?store=${main.id}&terminal=${terminal.id}`, { headers })).json();
    if (closing && closing.openingBalance === null) {
      await request.post(`/api/admin/closing/${closing.id}`, { headers, data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id } });
    }
  }
  const product = await request.post('/api/products', {
    headers,
    data: {
      name: 'Staff Journey Kettle', barcode: CODE, basePrice: '10.00', cost: '6.00', saleUnit: 'pcs', purchaseUnit: 'pcs',
      department: '/api/departments/1', taxes: [], terminals: [], categories: ['/api/categories/1'], suppliers: ['/api/suppliers/1'], brands: ['/api/brands/1'], prices: [],
      manageInventory: false, isActive: true, baseQuantity: 1, isAvailable: true,
      stores: [{ store: `/api/stores/${main.id}`, quantity: '0', location: null, reOrderLevel: null, product: null }],
    },
  });
  expect(product.status(), await product.text()).toBe(201);
  for (const [who, role, pin] of [[CASHIER, 'cashier', undefined], [MANAGER, 'manager', MANAGER.pin]] as const) {
    const res = await request.post('/api/admin/user/create', {
      headers,
      data: { username: who.username, password: who.password, displayName: who.displayName, email: `${who.username}@example.com`, role, pin, stores: [String(main.id)] },
    });
    expect(res.status(), await res.text()).toBe(200);
  }
});

test.setTimeout(120_000);

async function openTill(page: Page) {
  await page.goto('/');
  await signIn(page, CASHIER.username, CASHIER.password);
  await expect(page).toHaveURL(/\/pos$/, { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });
}

test("a cashier's 50 % discount asks for a manager; the manager's PIN approves it; the audit log shows both names", async ({ page, browser }) => {
  await openTill(page);
  const box = page.getByTestId('scan-input');
  await box.fill(CODE);
  await box.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);

  await page.getByRole('button', { name: 'Disc.', exact: true }).click();
  const discount = page.getByRole('dialog', { name: 'Update discount' });
  await discount.getByLabel('Discount type').selectOption('percent');
  await discount.getByRole('textbox', { name: /^Discount/ }).fill('50');
  await discount.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByTestId('grand-total')).toHaveText('$5.00');

  await page.getByLabel('Received amount').fill('5');
  await page.getByRole('button', { name: 'Done' }).click();

  // The server refuses the cashier's discount: the till asks for a manager on the spot.
  const approval = page.getByRole('dialog', { name: 'Manager approval' });
  await expect(approval).toBeVisible();
  await expect(approval).toContainText("above this store's limit of 20%");
  // A wrong PIN is refused, the dialog stays.
  await approval.getByLabel("Manager's user name").fill(MANAGER.username);
  await approval.getByLabel('PIN').fill('1111');
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval.getByRole('alert')).toContainText('Not approved');
  await approval.getByLabel('PIN').fill(MANAGER.pin);
  await approval.getByRole('button', { name: 'Approve' }).click();

  const receipt = page.getByRole('dialog', { name: 'Receipt' });
  await expect(receipt).toBeVisible();
  await expect(receipt).toContainText('Staff Journey Kettle');
  const orderNumber = (await receipt.getByText(/^Order# \d+$/).innerText()).replace('Order# ', '');

  // The owner, in the back office: the audit log, filtered on over-limit discounts.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto('/admin');
  await signIn(owner, 'admin');
  await owner.getByRole('link', { name: 'Audit log' }).click();
  await owner.getByLabel('What (action)').fill('sale.discountOverLimit');
  await owner.getByRole('button', { name: 'Filter' }).click();
  const row = owner.getByTestId('audit-row').filter({ hasText: MANAGER.displayName }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('sale.discountOverLimit');
  await expect(row).toContainText(CASHIER.displayName);
  await expect(row).toContainText('percent: 50');
  expect(orderNumber).toMatch(/^\d+$/);
  await ownerContext.close();
});

const SUPERVISOR = { username: 'e2e-supervisor', password: 'e2e-Supervisor-pass-71', displayName: 'Sam Supervisor' };

/** Signs in at the till as a user with one store (no chooser). */
async function signInTill(page: Page, who: { username: string; password: string }) {
  await page.goto('/');
  await signIn(page, who.username, who.password);
  await expect(page).toHaveURL(/\/pos$/, { timeout: 30_000 });
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });
}

/** Sells one kettle, paid in cash (exact); the order number from the receipt. */
async function sellKettle(page: Page): Promise<string> {
  const box = page.getByTestId('scan-input');
  await box.fill(CODE);
  await box.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Done' }).click();
  const receipt = page.getByRole('dialog', { name: /^Receipt/ });
  await expect(receipt).toBeVisible();
  const number = (await receipt.getByText(/^Order# \d+$/).innerText()).replace('Order# ', '');
  await receipt.getByRole('button', { name: 'Close' }).click();
  return number;
}

test('an owner creates the role "Supervisor" (refund) in Settings > Roles and gives it to a user: they refund, cannot manage products, and void only with a manager\'s PIN', async ({ page, browser, request }) => {
  // The owner, at the till: Settings > Roles, then Settings > Users.
  await page.goto('/pos');
  await signIn(page, 'admin');
  await page.getByRole('dialog', { name: 'Choose a store' }).getByRole('button', { name: 'Main Street' }).click();
  await page.getByRole('dialog', { name: 'Choose a Terminal' }).getByRole('button', { name: 'T1' }).click();
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'Roles' }).click();
  await expect(settings.getByRole('cell', { name: 'Owner', exact: true })).toBeVisible();
  await settings.getByRole('button', { name: 'Role', exact: true }).click();
  const create = page.getByRole('dialog', { name: 'Create role' });
  await create.getByLabel(/^Name/).fill('Supervisor');
  await create.getByRole('checkbox', { name: 'Refund a sale' }).check();
  await create.getByRole('button', { name: 'Save' }).click();
  await expect(create).toHaveCount(0);
  await expect(settings.getByRole('row').filter({ hasText: 'Supervisor' })).toContainText('1 permission');

  await settings.getByRole('tab', { name: 'Users' }).click();
  await settings.getByRole('button', { name: 'User', exact: true }).click();
  const form = page.getByRole('dialog', { name: 'Create user' });
  await form.getByLabel(/^Display name/).fill(SUPERVISOR.displayName);
  await form.getByLabel(/^Username/).fill(SUPERVISOR.username);
  await form.getByLabel(/^Email/).fill(`${SUPERVISOR.username}@example.com`);
  await form.getByLabel(/^Password/).fill(SUPERVISOR.password);
  await form.getByLabel('Role', { exact: true }).selectOption({ label: 'Supervisor' });
  await form.getByRole('checkbox', { name: 'Main Street' }).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(settings.getByRole('row').filter({ hasText: SUPERVISOR.username })).toContainText('Supervisor');

  // The supervisor, at their till: a sale, then its refund from the sale history.
  const supContext = await browser.newContext();
  const sup = await supContext.newPage();
  await signInTill(sup, SUPERVISOR);
  const sold = await sellKettle(sup);
  await sup.keyboard.press('Control+h');
  let history = sup.getByRole('dialog', { name: 'Sale history' });
  await history.getByRole('row').filter({ has: sup.getByRole('cell', { name: sold, exact: true }) }).getByRole('button', { name: `Refund order ${sold}` }).click();
  await sup.getByRole('dialog', { name: `Refund Order# ${sold}` }).getByRole('button', { name: 'Refund selected' }).click();
  const refunded = sup.waitForResponse((r) => r.request().method() === 'POST' && /\/api\/admin\/order\/create$/.test(r.url()));
  await sup.getByRole('button', { name: 'Done' }).click();
  expect((await refunded).status()).toBe(201);
  await expect(sup.getByRole('dialog', { name: /^Receipt/ })).toContainText(`Refund of Order# ${sold}`);
  await sup.getByRole('dialog', { name: /^Receipt/ }).getByRole('button', { name: 'Close' }).click();

  // No product management: no Items tab in Settings, and the server refuses it.
  await sup.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const supSettings = sup.getByRole('dialog', { name: 'Settings' });
  await expect(supSettings.getByRole('tab', { name: 'Profile' })).toBeVisible();
  await expect(supSettings.getByRole('tab', { name: 'Items list' })).toHaveCount(0);
  await expect(supSettings.getByRole('tab', { name: 'Roles' })).toHaveCount(0);
  await sup.keyboard.press('Escape');
  const product = await request.post('/api/products', { headers: await apiHeaders(request, SUPERVISOR.username, SUPERVISOR.password), data: { name: 'Not allowed', basePrice: '1.00' } });
  expect(product.status()).toBe(403);

  // Voiding a sale is not in the role: the history asks for a manager, whose PIN approves that one void.
  const toVoid = await sellKettle(sup);
  await sup.keyboard.press('Control+h');
  history = sup.getByRole('dialog', { name: 'Sale history' });
  const row = history.getByRole('row').filter({ has: sup.getByRole('cell', { name: toVoid, exact: true }) });
  await row.getByRole('button', { name: `Delete order ${toVoid}` }).click();
  await sup.getByRole('dialog', { name: 'Confirmation' }).getByRole('button', { name: 'Yes, please' }).click();
  const approval = sup.getByRole('dialog', { name: 'Manager approval' });
  await expect(approval).toContainText(`Delete order ${toVoid}`);
  await approval.getByLabel("Manager's user name").fill(MANAGER.username);
  await approval.getByLabel('PIN').fill(MANAGER.pin);
  await approval.getByRole('button', { name: 'Approve' }).click();
  await expect(approval).toHaveCount(0);
  await expect(row.getByTestId('order-status')).toHaveText('Deleted');
  await supContext.close();

  // The owner's audit log: the void with both names.
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto('/admin');
  await signIn(owner, 'admin');
  await owner.getByRole('link', { name: 'Audit log' }).click();
  await owner.getByLabel('What (action)').fill('sale.voided');
  await owner.getByRole('button', { name: 'Filter' }).click();
  const entry = owner.getByTestId('audit-row').filter({ hasText: SUPERVISOR.displayName }).first();
  await expect(entry).toContainText('sale.voided');
  await expect(entry).toContainText(MANAGER.displayName);
  await ownerContext.close();
});
