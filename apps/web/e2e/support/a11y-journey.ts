import { expect, type Page } from '@playwright/test';

/**
 * The accessibility journeys' shared steps (a11y.spec.ts, issue 29): language, sign-in without
 * English names, the day's opening through the API, scanning, and the focus checks.
 */
export const MILK = '5000000000001'; // Fresh Milk 1L: 10.75
export const BREAD = '5000000000002'; // Fresh Bread Loaf: 21.00

export const SIZES = {
  desktop: { width: 1366, height: 768 },
  tablet: { width: 1024, height: 768 },
  portrait: { width: 768, height: 1024 },
  phone: { width: 390, height: 844 },
} as const;

export type Lang = 'en' | 'ar';

/**
 * The UI language the app starts in, as if picked on the login page: the login's switch stores it in
 * localStorage 'locale' and, signed out, as the door choice (sessionStorage) that wins over the
 * language the user chose last time (kept per user on the server) at the next sign-in.
 */
export async function startInLanguage(page: Page, lang: Lang): Promise<void> {
  await page.addInitScript((l) => {
    localStorage.setItem('locale', l);
    sessionStorage.setItem('locale-chosen-signed-out', l);
  }, lang);
}

import { signInAnyLanguage } from './sign-in.ts';

export { signInAnyLanguage };

export { startDays } from './days.ts';

export const scanBox = (page: Page) => page.getByTestId('scan-input');
export const cartRows = (page: Page) => page.getByTestId('cart-row');

/** The cashier's till (one store, one terminal: no chooser), catalogue loaded, scan box focused. */
export async function openCashierTill(page: Page, lang: Lang): Promise<void> {
  await startInLanguage(page, lang);
  await page.goto('/');
  await signInAnyLanguage(page, 'cashier');
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.locator('.pos-toolbar')).toBeVisible({ timeout: 15_000 });
  // The catalogue is loaded: its facet groups (brands, categories, departments) are built from it.
  await expect(page.locator('.facet-group')).toHaveCount(3, { timeout: 15_000 });
  await expect(scanBox(page)).toBeEnabled();
}

export async function scan(page: Page, code: string): Promise<void> {
  await scanBox(page).fill(code);
  await scanBox(page).press('Enter');
}

export interface FocusProblem { step: string; problem: string; element: string }

/**
 * Where focus is now and what is wrong with it (issue 29.1/29.2): on <body>, on an element that is
 * not rendered or hidden, or covered at its centre by another element (a sticky bar, a dialog's
 * overlay): `elementFromPoint` there must be the element or inside it.
 */
export async function focusProblem(page: Page, step: string): Promise<FocusProblem | null> {
  const found = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const describe = (e: Element | null) => (e ? `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${e.getAttribute('aria-label') ? `[aria-label="${e.getAttribute('aria-label')}"]` : ''}${e.className && typeof e.className === 'string' ? `.${e.className.trim().split(/\s+/).join('.')}` : ''} "${(e.textContent ?? '').trim().slice(0, 30)}"` : 'nothing');
    if (!el || el === document.body || el === document.documentElement) return { problem: 'focus on <body>', element: describe(el) };
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true }) || el.closest('[aria-hidden="true"],[inert]')) return { problem: 'focus on a hidden element', element: describe(el) };
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return { problem: 'focused element outside the viewport', element: describe(el) };
    const top = document.elementFromPoint(x, y);
    if (top && top !== el && !el.contains(top) && !(top instanceof HTMLLabelElement && top.control === el)) {
      return { problem: `covered by ${describe(top)}`, element: describe(el) };
    }
    return null;
  });
  return found ? { step, ...found } : null;
}

/** 1.4.10 Reflow: how far the page scrolls sideways, and the widest elements that stick out. */
export async function sidewaysOverflow(page: Page): Promise<{ px: number; culprits: string[] }> {
  return page.evaluate(() => {
    const root = document.documentElement;
    const px = root.scrollWidth - root.clientWidth;
    const rtl = getComputedStyle(root).direction === 'rtl';
    const culprits = px <= 0 ? [] : [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && (rtl ? r.left < -1 : r.right > root.clientWidth + 1); })
      .filter((el) => !el.parentElement || (() => { const r = el.parentElement.getBoundingClientRect(); return rtl ? r.left >= -1 : r.right <= root.clientWidth + 1; })())
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(el.getBoundingClientRect().width)} px)`);
    return { px, culprits };
  });
}

/** Every visible control in `scope` smaller than 24×24 CSS px (2.5.8), named. */
export async function smallTargets(page: Page, scope = 'body'): Promise<string[]> {
  return page.evaluate((sel) => [...document.querySelectorAll<HTMLElement>(`${sel} :is(button, a[href], input:not([type=hidden]), select, textarea, [role=button], [role=radio], [role=switch])`)]
    .filter((el) => el.checkVisibility() && !el.closest('.visually-hidden'))
    .map((el) => ({ el, r: el.getBoundingClientRect() }))
    .filter(({ r }) => r.width > 0 && (r.width < 24 || r.height < 24))
    .map(({ el, r }) => `${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 20)}" ${Math.round(r.width)}×${Math.round(r.height)}`), scope);
}
