import { expect, test, type Page } from '@playwright/test';
import { chooseLanguage, signIn } from './support/sign-in.ts';

/**
 * The admin shell under /admin (spec 1 and 2.1, admin variant): login with role ROLE_ADMIN (a
 * cashier is refused with the server's message), the dashboard, the profile form, the header
 * (the way to the till, profile link, user menu with the language switch, Sign Out) and the sidebar.
 */
const shot = (page: Page, name: string) => page.screenshot({ path: `${import.meta.dirname}/screenshots/${name}.png`, fullPage: true });

async function adminLogin(page: Page, username: string, password: string) {
  await page.goto('/admin');
  await expect(page.getByText('POS Administration')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
  await signIn(page, username, password);
}

test('a cashier is refused with the server message', async ({ page }) => {
  const answer = page.waitForResponse((r) => r.url().includes('/api/auth/login_check'));
  await adminLogin(page, 'cashier', 'cashier');
  const response = await answer;
  expect(response.url()).toMatch(/role=ROLE_ADMIN/);
  expect(response.request().postDataJSON()).toMatchObject({ role: 'ROLE_USER' });
  await expect(page.getByRole('alert')).toHaveText('Cannot login in this portal');
  await expect(page).toHaveURL(/\/admin$/);
});

test('an administrator logs in, sees the dashboard, updates the profile and signs out', async ({ page }) => {
  await adminLogin(page, 'admin', 'admin');
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0); // no store chooser in the admin shell
  const sidebar = page.getByRole('navigation', { name: 'Main menu' });
  await expect(sidebar.getByRole('link')).toHaveText(['Dashboard', 'Catalogue', 'Stock', 'To order', 'Purchasing', 'Customers', 'Staff', 'Reports', 'Settings', 'Audit log', 'Backups']); // the Owner holds every permission; Stock and Customers: every administrator
  await expect(page.getByRole('heading', { name: "Today's sales" })).toBeVisible();
  await expect(page.getByTestId('last-backup-tile')).toBeVisible();
  await shot(page, 'admin-dashboard');

  // Reload: still signed in (auth/info?role=ROLE_ADMIN).
  const info = page.waitForRequest((r) => r.url().includes('/api/auth/info'));
  await page.reload();
  expect((await info).url()).toMatch(/role=ROLE_ADMIN/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  await page.getByRole('link', { name: /Profile/ }).click();
  await expect(page).toHaveURL(/\/admin\/profile$/);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  const displayName = page.getByLabel(/Display name/);
  await expect(displayName).toHaveValue('Admin');

  // A server error lands under its field.
  const username = page.getByLabel(/Username/);
  await username.fill('cashier');
  await page.getByRole('button', { name: 'Update profile' }).click();
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This value is already used.')).toBeVisible();
  await shot(page, 'admin-profile-error');

  // A good update: saved, and the header shows the new name.
  await username.fill('admin');
  await displayName.fill('Head Office');
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/profile/update'));
  await page.getByRole('button', { name: 'Update profile' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByRole('status').filter({ hasText: 'Profile updated.' })).toBeVisible();
  await expect(page.getByRole('link', { name: /Profile/ })).toContainText('Head Office');
  await expect(username).not.toHaveAttribute('aria-invalid');
  await expect(page.getByText('This value is already used.')).toHaveCount(0);

  // Put the demo user back as the other journeys expect it.
  await displayName.fill('Admin');
  await page.getByRole('button', { name: 'Update profile' }).click();
  await expect(page.getByRole('link', { name: /Profile/ })).toContainText('Admin');

  // The old users addresses lead to Staff › Users (issue 23).
  await page.goto('/admin/users/edit/2');
  await expect(page).toHaveURL(/\/admin\/staff\/users$/);
  await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { name: 'Login to Your Account' })).toBeVisible();
  await page.goto('/admin/dashboard');
  await expect(page).toHaveURL(/\/admin$/);
});

test('the header language switch: Arabic, right-to-left with the sidebar on the right, sent to POST /api/locale', async ({ page }) => {
  await adminLogin(page, 'admin', 'admin');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/locale') && r.method() === 'POST');
  await chooseLanguage(page, 'العربية');
  expect((await sent).postDataJSON()).toEqual({ locale: 'ar' });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { name: 'لوحة المعلومات', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'تسجيل الخروج' })).toBeVisible();
  const sidebar = await page.locator('.admin-sidebar').boundingBox();
  const main = await page.locator('.admin-main').boundingBox();
  expect(sidebar!.x).toBeGreaterThan(main!.x);
  await shot(page, 'admin-dashboard-ar');
  // The admin's language is remembered by the server: back to English for the journeys after this one.
  await chooseLanguage(page, 'English');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
});

test('forgot password in the admin shell leads back to the admin login', async ({ page }) => {
  await page.goto('/admin');
  await page.getByRole('link', { name: 'Forgot Password?' }).click();
  await expect(page).toHaveURL(/\/admin\/forgot-password$/);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/admin$/);
});
