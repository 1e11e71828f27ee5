import type { APIRequestContext, Page } from '@playwright/test';

/**
 * The one sign-in of the e2e journeys: through the login form as a user would (demo users
 * admin/admin, cashier/cashier), or through the API for a journey's set-up calls.
 */
export async function signIn(page: Page, username: string, password = username, labels: SignInLabels = ENGLISH): Promise<void> {
  await page.getByLabel(labels.username).fill(username);
  await page.getByLabel(labels.password).fill(password);
  await page.getByRole('button', { name: labels.submit }).click();
}

/** The login form's labels, for a journey that signs in in another language. */
export interface SignInLabels { username: string; password: string; submit: string }
const ENGLISH: SignInLabels = { username: 'Username', password: 'Password', submit: 'Login' };

/** Authorization headers of a user signed in through the API (POST /api/auth/login_check). */
export async function apiHeaders(request: APIRequestContext, username = 'admin', password = username): Promise<{ authorization: string }> {
  const login = await request.post('/api/auth/login_check', { data: { username, password } });
  if (!login.ok()) throw new Error(`sign-in of ${username} refused: ${login.status()} ${await login.text()}`);
  const { token } = await login.json() as { token: string };
  return { authorization: `Bearer ${token}` };
}

/**
 * Chooses a language from the user menu (issue 23: the till's toolbar and the back office's header).
 * Signed in, the choice is the user's own (POST /api/locale) and comes back at their next sign-in:
 * a journey that switches an e2e user to Arabic switches back before it ends (one database per run).
 */
export async function chooseLanguage(page: Page, language: 'English' | 'العربية'): Promise<void> {
  const panel = page.locator('.user-menu-panel');
  if (!(await panel.isVisible())) await page.locator('.user-menu > button').click();
  await panel.getByRole('button', { name: language }).click();
}

/**
 * Picks the language as the login page's switch does before a reload: localStorage 'locale' and the
 * signed-out choice (sessionStorage) that wins over the user's own language (kept per user on the
 * server, which an earlier journey may have set) when the page starts again.
 */
export async function pickLanguageForReload(page: Page, lang: 'en' | 'ar'): Promise<void> {
  await page.evaluate((l) => {
    localStorage.setItem('locale', l);
    sessionStorage.setItem('locale-chosen-signed-out', l);
  }, lang);
}

/**
 * The e2e users' own language back to English on the server (POST /api/locale): a journey that
 * signs someone in in Arabic makes Arabic theirs, and the journeys after it sign in in English.
 */
export async function backToEnglish(request: APIRequestContext, usernames: string[] = ['admin', 'cashier']): Promise<void> {
  for (const username of usernames) {
    const res = await request.post('/api/locale', { headers: await apiHeaders(request, username), data: { locale: 'en' } });
    if (!res.ok()) throw new Error(`language of ${username} not reset: ${res.status()}`);
  }
}

/** Signs in through the form without relying on English labels (the Arabic journeys). */
export async function signInAnyLanguage(page: Page, username: string, password = username): Promise<void> {
  await page.locator('input:not([type=password])').first().fill(username);
  await page.locator('input[type=password]').fill(password);
  await page.locator('button[type=submit]').click();
}
