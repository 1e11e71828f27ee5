import { expect, test, type Page } from '@playwright/test';
import { FakePrinter, freePort } from '../../../api/test/fake-printer.ts';
import { apiHeaders } from './sign-in.ts';
import { startDays } from './days.ts';

/** A receipt printer on the shop's network for a journey: a fake one (a TCP server on 127.0.0.1). */
export interface TillPrinter {
  /** The device's name, unique to this run. */
  name: string;
  port: number;
  /** The fake printer; a journey that switches it off starts a new one on the same port. */
  printer: FakePrinter;
}

/**
 * The set-up of the printing journeys (issue 26), written once: before the journey every till's
 * open day gets its opening balance (so the till opens on the sale screen), a fake network printer
 * starts and is added as a device named `${label} <time>`; after it, the printer stops.
 */
export function addTillPrinter(label: string): TillPrinter {
  const till: TillPrinter = { name: `${label} ${Date.now()}`, port: 0, printer: undefined as unknown as FakePrinter };
  test.beforeAll(async ({ request }) => {
    const headers = await apiHeaders(request);
    await startDays(request);
    till.port = await freePort();
    till.printer = await new FakePrinter(till.port).start();
    const res = await request.post('/api/devices', { headers, data: { name: till.name, ipAddress: '127.0.0.1', port: till.port } });
    expect(res.status(), await res.text()).toBe(201);
  });
  test.afterAll(async () => { await till.printer?.stop(); });
  return till;
}

/** Settings > General: the journey's printer becomes this till's receipt printer. */
export async function chooseTillPrinter(page: Page, till: TillPrinter): Promise<void> {
  await page.getByRole('navigation', { name: 'Till toolbar' }).getByRole('button', { name: 'Settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Settings' });
  await settings.getByRole('tab', { name: 'General' }).click();
  await settings.getByLabel('Receipt printer (this till)').selectOption({ label: `${till.name} (127.0.0.1:${till.port})` });
  await settings.getByRole('button', { name: 'Close' }).click();
}
