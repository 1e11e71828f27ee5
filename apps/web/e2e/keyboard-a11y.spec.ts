import { expect, test, type Page } from '@playwright/test';
import { BREAD, MILK, SIZES, cartRows, focusProblem, openCashierTill, scanBox, sidewaysOverflow, startDays, type FocusProblem, type Lang } from './support/a11y-journey.ts';
import { backToEnglish } from './support/sign-in.ts';

/**
 * Keyboard-first selling (issue 29.1-29.4): a focus walk through a whole sale at the tablet and
 * phone sizes, the 2-item exact-cash sale counted key by key, the live announcements and the
 * accessibility tree of the till, the payment and the receipt.
 */
test.describe.configure({ timeout: 90_000 });

// Arabic journeys make Arabic the signed-in users' own language (kept by the server): English again for the next journey.
test.afterEach(async ({ request }) => {
  await backToEnglish(request);
});

test.beforeAll(async ({ request }) => {
  await startDays(request);
});

/** What the live region says (the polite status, or the alert). */
const announced = (page: Page) => page.locator('[data-testid^="announcer-"]');

/** 1366×768 at 200 % zoom is 683×384 CSS px; 320 CSS px wide is WCAG 1.4.10's reflow width (a 1280 px window at 400 %). */
const ZOOM_200 = { width: 683, height: 384 };
const REFLOW_320 = { width: 320, height: 640 };
const WALKS: Array<[Lang, { width: number; height: number }]> = [
  ['en', SIZES.tablet], ['ar', SIZES.phone], ['en', SIZES.portrait], ['en', ZOOM_200], ['ar', ZOOM_200], ['en', REFLOW_320], ['ar', REFLOW_320],
];

for (const [lang, size] of WALKS) {
  test(`focus walk through a sale at ${size.width}×${size.height} in ${lang}: never on <body>, hidden or covered; no sideways scroll`, async ({ page }) => {
    await page.setViewportSize(size);
    await openCashierTill(page, lang);
    const problems: FocusProblem[] = [];
    const check = async (step: string) => {
      const p = await focusProblem(page, step);
      if (p) problems.push(p);
    };
    await scanBox(page).focus();
    await check('start');
    for (const code of [MILK, BREAD]) {
      await page.keyboard.type(code);
      await page.keyboard.press('Enter');
      await check(`scan ${code}`);
    }
    await expect(cartRows(page)).toHaveCount(2);
    // Reflow (1.4.10): with two lines in the cart the page does not scroll sideways.
    const reflow = await sidewaysOverflow(page);
    expect(reflow.px, `sideways scroll at ${size.width}×${size.height} ${lang}: ${reflow.culprits.join(', ')}`).toBeLessThanOrEqual(0);
    // Tab from the scan box to Done, every stop checked.
    const done = page.locator('.payment-actions button').first();
    let tabs = 0;
    while (!(await done.evaluate((el) => el === document.activeElement)) && tabs < 80) {
      await page.keyboard.press('Tab');
      tabs++;
      await check(`Tab ${tabs}`);
    }
    expect(tabs, 'Tab reaches Done').toBeLessThan(80);
    await page.keyboard.press('Enter');
    const receipt = page.getByRole('dialog');
    await expect(receipt).toBeVisible({ timeout: 10_000 });
    await check('receipt open');
    expect(await receipt.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(receipt).toHaveCount(0);
    await check('receipt closed');
    await expect(scanBox(page)).toBeFocused();
    console.log(`focus walk ${lang} ${size.width}×${size.height}: ${tabs} Tab stops from the scan box to Done`);
    expect(problems, problems.map((p) => `${p.step}: ${p.problem} (${p.element})`).join('\n')).toEqual([]);
  });
}

test('a 2-item exact-cash sale from the scan box in at most 12 key presses; ctrl+shift+s works on an Arabic layout', async ({ page }) => {
  await openCashierTill(page, 'en');
  let keys = 0;
  const press = async (key: string) => {
    keys++;
    await page.keyboard.press(key);
  };
  // The scanner types the code (its digits are the scanner's, not the cashier's); Enter is counted.
  await scanBox(page).focus();
  await page.keyboard.insertText(MILK);
  await press('Enter');
  await page.keyboard.insertText(BREAD);
  await press('Enter');
  await expect(cartRows(page)).toHaveCount(2);
  await expect(announced(page).first()).toHaveText(/Fresh Bread Loaf added, quantity 1\. Total \$31\.75/);
  await press('Control+Shift+S'); // exact cash, done
  const receipt = page.getByRole('dialog', { name: /^Receipt/ });
  await expect(receipt).toBeVisible({ timeout: 10_000 });
  await expect(announced(page).first()).toHaveText(/Payment accepted: \$31\.75\. Change due \$0\.00/);
  await press('Escape');
  await expect(receipt).toHaveCount(0);
  await expect(scanBox(page)).toBeFocused(); // ready for the next customer
  console.log(`keyboard-only 2-item exact-cash sale: ${keys} key presses (plus the scanner's two codes)`);
  expect(keys).toBeLessThanOrEqual(12);

  // An Arabic keyboard: ctrl+shift+s sends key 'س' with code KeyS; the shortcut reads the code.
  await page.keyboard.insertText(MILK);
  await page.keyboard.press('Enter');
  await expect(cartRows(page)).toHaveCount(1);
  await page.evaluate(() => {
    const init = { key: 'س', code: 'KeyS', ctrlKey: true, shiftKey: true, bubbles: true, cancelable: true };
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', init));
  });
  await expect(receipt).toBeVisible({ timeout: 10_000 });
  await expect(receipt).toContainText('$10.75');
});

test('screen readers: the till, payment and receipt in the accessibility tree; the cart is a labelled table', async ({ page }) => {
  await openCashierTill(page, 'en');
  await scanBox(page).fill(MILK);
  await scanBox(page).press('Enter');
  await expect(announced(page).first()).toHaveText(/Fresh Milk 1L added, quantity 1\. Total \$10\.75/);
  await scanBox(page).fill(MILK);
  await scanBox(page).press('Enter');
  await expect(announced(page).first()).toHaveText(/Fresh Milk 1L: quantity 2\. Total \$21\.50/);

  const cart = await page.getByRole('table', { name: 'Cart' }).ariaSnapshot();
  expect(cart).toMatch(/columnheader "Item"/);
  expect(cart).toMatch(/columnheader "QTY"/);
  expect(cart).toMatch(/cell "Fresh Milk 1L"/);
  expect(cart).toMatch(/textbox "Quantity of Fresh Milk 1L"/);
  expect(cart).toMatch(/button "Remove Fresh Milk 1L"/);

  const payment = page.getByRole('region', { name: 'Payment' });
  const tree = await payment.ariaSnapshot();
  expect(tree).toMatch(/radiogroup "Payment types"/);
  expect(tree).toMatch(/radio "Cash" \[checked\]/);
  expect(tree).toMatch(/textbox "Received amount"/);
  expect(tree).toMatch(/status:[\s\S]*Change/);
  expect(tree).toMatch(/button "Done"/);

  await page.keyboard.press('Control+Shift+S');
  const receipt = page.getByRole('dialog', { name: /^Receipt/ });
  await expect(receipt).toBeVisible({ timeout: 10_000 });
  const slip = await receipt.ariaSnapshot();
  expect(slip).toMatch(/dialog "Receipt/);
  expect(slip).toMatch(/heading "Receipt/);
  expect(slip).toMatch(/Fresh Milk 1L/);
  expect(slip).toMatch(/\$21\.50/);
  expect(slip).toMatch(/button "Close"/);
  await expect(announced(page).first()).toHaveText(/Payment accepted: \$21\.50\. Change due \$0\.00/);

  // Offline and back online are said too.
  await page.context().setOffline(true);
  await expect(page.getByTestId('announcer-assertive')).toContainText('Offline');
  await page.context().setOffline(false);
  await expect(announced(page).first()).toHaveText(/Back online/);
});

test('reduced motion and forced colours are respected (issue 29.5)', async ({ page }) => {
  await openCashierTill(page, 'en');
  await page.locator('body').press('Shift+Slash'); // Help, with its switches
  const thumb = page.getByRole('dialog', { name: 'Help' }).locator('.switch-thumb').first();
  const seconds = () => thumb.evaluate((el) => parseFloat(getComputedStyle(el).transitionDuration));
  const toolbarSide = () => page.locator('.pos-toolbar').evaluate((el) => getComputedStyle(el).borderInlineStartWidth);
  expect(await seconds()).toBeGreaterThan(0.1); // the switch slides
  expect(await toolbarSide()).toBe('0px');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await seconds()).toBeLessThan(0.001); // an instant
  await page.emulateMedia({ forcedColors: 'active' });
  expect(await toolbarSide()).toBe('1px'); // every control keeps a border when backgrounds are dropped
});
