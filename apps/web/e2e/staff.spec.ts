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
