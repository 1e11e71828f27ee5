import type { APIRequestContext, Page } from '@playwright/test';

/**
 * The one sign-in of the e2e journeys: through the login form as a user would (demo users
 * admin/admin, cashier/cashier), or through the API for a journey's set-up calls.
 */
export async function signIn(page: Page, username: string, password = username): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login' }).click();
}

/** Authorization headers of a user signed in through the API (POST /api/auth/login_check). */
export async function apiHeaders(request: APIRequestContext, username = 'admin', password = username): Promise<{ authorization: string }> {
  const login = await request.post('/api/auth/login_check', { data: { username, password } });
  if (!login.ok()) throw new Error(`sign-in of ${username} refused: ${login.status()} ${await login.text()}`);
  const { token } = await login.json() as { token: string };
  return { authorization: `Bearer ${token}` };
}
