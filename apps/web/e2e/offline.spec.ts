import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { signIn, apiHeaders } from './support/sign-in.ts';

/**
 * Issue 9, offline selling: the till keeps selling with the browser offline AND the server stopped,
 * survives a reload while offline (service worker + cached session), and once the server is back
 * every queued sale is stored exactly once. Runs its own API server (port 8124, own data dir), so it
 * can stop and start it; the shared e2e server of playwright.config.ts is not touched.
 */

const PORT = Number(process.env.E2E_OFFLINE_PORT ?? 8124);
const BASE = `http://127.0.0.1:${PORT}`;
const repoRoot = path.resolve(import.meta.dirname, '../../..');
// Created in beforeAll (not at import: the runner also loads this file to list the tests).
let dataDir = '';

// Main Street products that track stock (demo seed: even n of barcode 5000000000000 + n).
const STOCKED = ['5000000000002', '5000000000004', '5000000000006', '5000000000008'];
const SALES = 40;

test.use({ baseURL: BASE });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | null = null;

async function startServer() {
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'true', BCRYPT_ROUNDS: '4', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`API server exited with ${server.exitCode}`);
    const ok = await fetch(`${BASE}/api/health`).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error('API server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopServer() {
  if (!server || server.exitCode !== null) return;
  const exited = once(server, 'exit');
  server.kill('SIGTERM');
  await exited;
  server = null;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'pos-e2e-offline-'));
  await startServer();
});

test.afterAll(async () => {
  await stopServer();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Api {
  get: <T>(url: string) => Promise<T>;
  storeId: number;
  productIds: Map<string, number>;
}

/** The admin's view of the server: counts orders and reads stock. Also starts the day of T1. */
async function api(request: APIRequestContext): Promise<Api> {
  const headers = await apiHeaders(request);
  const get = async <T,>(url: string): Promise<T> => {
    const res = await request.get(url, { headers });
    expect(res.ok(), `${url} -> ${res.status()}`).toBe(true);
    return (await res.json()) as T;
  };
  const { user } = await get<{ user: { stores: Array<{ id: number; name: string; terminals: Array<{ id: number; code: string }> }> } }>('/api/auth/info');
  const store = user.stores.find((s) => s.name === 'Main Street')!;
  const terminal = store.terminals.find((t) => t.code === 'T1')!;
  const { closing } = await get<{ closing: { id: number; openingBalance: unknown } }>(`/api/admin/closing/opened?store=${store.id}&terminal=${terminal.id}`);
  if (closing && closing.openingBalance === null) {
    await request.post(`/api/admin/closing/${closing.id}`, { headers, data: { id: closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id } });
  }
  const productIds = new Map<string, number>();
  for (const code of STOCKED) {
    const page = await get<{ 'hydra:member': Array<{ id: number; barcode: string }> }>(`/api/products?barcode=${code}`);
    const p = page['hydra:member'].find((x) => x.barcode === code);
    expect(p, code).toBeTruthy();
    productIds.set(code, p!.id);
  }
  return { get, storeId: store.id, productIds };
}

async function orderIds(a: Api): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const list = await a.get<{ 'hydra:member': Array<{ id: number }> }>(`/api/orders?store=${a.storeId}&itemsPerPage=100&page=${page}`);
    ids.push(...list['hydra:member'].map((o) => o.id));
    if (list['hydra:member'].length < 100) return ids;
  }
}

async function stock(a: Api): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const [code, id] of a.productIds) {
    const { quantity } = await a.get<{ quantity: number }>(`/api/admin/product/quantities?itemId=${id}&store=${a.storeId}`);
    out.set(code, quantity);
  }
  return out;
}

async function openTillAsCashier(page: Page) {
  await page.goto('/');
  await signIn(page, 'cashier');
  await expect(page).toHaveURL(/\/pos$/);
  await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 30_000 });
}

const receipt = (page: Page) => page.getByRole('dialog', { name: /^Receipt/ });
const counter = (page: Page) => page.getByTestId('outbox-count');

/** Scan one item, pay the exact amount in cash, close the receipt; returns the receipt's first lines. */
async function sell(page: Page, code: string): Promise<string> {
  const box = page.getByTestId('scan-input');
  await box.fill(code);
  await box.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Done' }).click();
  const r = receipt(page);
  await expect(r).toBeVisible();
  const text = await r.getByTestId('receipt').innerText();
  await r.getByRole('button', { name: 'Close' }).click();
  await expect(r).toHaveCount(0);
  await expect(page.getByTestId('cart-row')).toHaveCount(0);
  return text;
}

test(`${SALES} sales with no network and no server, a reload while offline; back online: exactly ${SALES} orders, stock moved once each`, async ({ page, context, request }) => {
  test.setTimeout(600_000);
  const admin = await api(request);
  await openTillAsCashier(page);
  // The service worker controls the page (the shell is cached).
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });
  await expect(counter(page)).toHaveText('0');

  const ordersBefore = await orderIds(admin);
  const stockBefore = await stock(admin);

  await stopServer();
  await context.setOffline(true);

  const refs: string[] = [];
  for (let i = 0; i < SALES; i++) {
    if (i === SALES / 2) {
      // Reload with no network and no server: the shell comes from the service worker, the session
      // from the saved user, the catalogue from IndexedDB, the outbox is still there.
      await page.reload();
      await expect(page).toHaveURL(/\/pos$/);
      await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 30_000 });
      await expect(counter(page)).toHaveText(String(SALES / 2));
      await expect(page.getByTestId('outbox-offline')).toBeVisible();
    }
    const text = await sell(page, STOCKED[i % STOCKED.length]);
    const ref = /Not yet sent — ref (T1-\d{8}-\d{3})/.exec(text)?.[1];
    expect(ref, text).toBeTruthy();
    expect(text).not.toMatch(/Order# \d+/);
    refs.push(ref!);
    await expect(counter(page)).toHaveText(String(i + 1));
  }
  expect(new Set(refs).size).toBe(SALES);

  // The list shows them all, waiting.
  await counter(page).click();
  const list = page.getByRole('dialog', { name: 'Unsent sales' });
  await expect(list.getByTestId('outbox-row')).toHaveCount(SALES);
  await list.getByRole('button', { name: 'Close' }).click();

  // Server back, network back: the online event uploads the queue.
  await startServer();
  await context.setOffline(false);
  await expect(counter(page)).toHaveText('0', { timeout: 120_000 });
  await expect(page.getByTestId('outbox-offline')).toHaveCount(0);

  const ordersAfter = await orderIds(admin);
  const fresh = ordersAfter.filter((id) => !ordersBefore.includes(id));
  expect(fresh).toHaveLength(SALES);
  expect(new Set(ordersAfter).size).toBe(ordersAfter.length);

  // Every queued sale got its own order, in queue order, numbered on upload.
  const sent = await page.evaluate(async () => {
    const open = indexedDB.open('pos-outbox');
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const rows = await new Promise<any[]>((resolve, reject) => {
      const req = db.transaction('sales').objectStore('sales').getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    db.close();
    return rows.sort((a, b) => a.seq - b.seq).map((r) => ({ uuid: r.uuid, status: r.status, serverId: r.serverId, orderId: r.orderId, localRef: r.localRef }));
  });
  expect(sent).toHaveLength(SALES);
  expect(sent.every((r) => r.status === 'sent')).toBe(true);
  expect(new Set(sent.map((r) => r.uuid)).size).toBe(SALES);
  expect(sent.map((r) => r.serverId).sort((a, b) => a - b)).toEqual([...fresh].sort((a, b) => a - b));
  const numbers = sent.map((r) => r.orderId as number);
  expect([...numbers].sort((a, b) => a - b)).toEqual(numbers);
  expect(sent.map((r) => r.localRef)).toEqual(refs);

  const stockAfter = await stock(admin);
  for (const code of STOCKED) expect(stockBefore.get(code)! - stockAfter.get(code)!, code).toBe(SALES / STOCKED.length);

  // The list keeps the sent ones with their numbers.
  await counter(page).click();
  await expect(page.getByRole('dialog', { name: 'Unsent sales' })).toContainText(`${refs[SALES - 1]} → Order# ${numbers[SALES - 1]}`);
});

test('the answer to a sale is lost mid-flight, and again for the upload: the retry still gives one order', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const admin = await api(request);
  // page.route does not see requests of a page controlled by a service worker: block it here.
  const context = await browser.newContext({ baseURL: BASE, serviceWorkers: 'block' });
  const page = await context.newPage();
  try {
    await openTillAsCashier(page);
    const ordersBefore = await orderIds(admin);
    const stockBefore = await stock(admin);

    // The first two POSTs reach the server (which stores the sale, then answers the replay) but the
    // answers never come back; the third goes through.
    const statuses: number[] = [];
    const keys: string[] = [];
    await page.route('**/api/admin/order/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (statuses.length < 2) {
        const response = await route.fetch();
        statuses.push(response.status());
        await route.abort('connectionreset');
        return;
      }
      await route.continue();
    });

    const text = await sell(page, STOCKED[0]);
    expect(text).toMatch(/Not yet sent — ref T1-\d{8}-\d{3}/);
    // The outbox's first upload lost its answer too: still unsent, then Retry.
    await expect.poll(() => statuses.length).toBe(2);
    expect(statuses).toEqual([201, 200]);
    // Retry at once (the 10 s timer would also get there).
    if ((await counter(page).innerText()) !== '0') await page.getByRole('button', { name: 'Retry' }).click({ timeout: 2_000 }).catch(() => undefined);
    await expect(counter(page)).toHaveText('0', { timeout: 30_000 });

    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    const fresh = (await orderIds(admin)).filter((id) => !ordersBefore.includes(id));
    expect(fresh).toHaveLength(1);
    const stockAfter = await stock(admin);
    expect(stockBefore.get(STOCKED[0])! - stockAfter.get(STOCKED[0])!).toBe(1);
  } finally {
    await context.close();
  }
});
