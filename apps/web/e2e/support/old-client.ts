import type { Page } from '@playwright/test';

/**
 * Makes our till talk like the reference client: every /api call carries
 * `content-type: application/json`, bodiless POSTs and DELETEs included (its `jsonRequest`). A
 * journey run under this proves the server reads an empty JSON body as no body (old-client issue).
 */
export async function sendJsonContentTypeAlways(page: Page): Promise<void> {
  await page.route('**/api/**', async (route) => {
    const headers = { ...route.request().headers(), 'content-type': 'application/json' };
    await route.continue({ headers });
  });
}
