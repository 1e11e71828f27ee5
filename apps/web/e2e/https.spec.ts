import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, expect, test, type Browser, type Page } from '@playwright/test';
import { signIn } from './support/sign-in.ts';

/**
 * Issue 20: the till on the shop network over HTTPS with the server's own CA. The server (its own
 * process, port E2E_HTTPS_PORT) issues its certificate on first start; the test fetches the CA the
 * way staff do (plain-http /trust/ca.crt) and has Chromium trust exactly that CA's key
 * (--ignore-certificate-errors-spki-list with the CA's SPKI hash; the server sends leaf + CA), not
 * every certificate. `pos.shop.test` is a non-loopback name Chromium maps to 127.0.0.1. Sign in, the
 * service worker registers, the network is cut, reload, 3 sales offline, back online: 3 orders.
 */

const PORT = Number(process.env.E2E_HTTPS_PORT ?? Number(process.env.E2E_PORT ?? 8123) + 2);
const HOST_NAME = 'pos.shop.test';
const ORIGIN = `https://${HOST_NAME}:${PORT}`;
const repoRoot = path.resolve(import.meta.dirname, '../../..');
const STOCKED = ['5000000000002', '5000000000004', '5000000000006'];

test.describe.configure({ mode: 'serial' });

let dataDir = '';
let server: ChildProcess | null = null;
let browser: Browser | null = null;
let caPem = '';

/** A JSON call to the server over HTTPS, verifying its certificate against the CA (Node side). */
function call<T>(method: string, url: string, token?: string, body?: unknown): Promise<{ status: number; json: T }> {
  return new Promise((resolve, reject) => {
    const req = https.request({
      host: '127.0.0.1', port: PORT, servername: HOST_NAME, path: url, method, ca: caPem,
      headers: { 'content-type': 'application/json', host: `${HOST_NAME}:${PORT}`, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    }, (res) => {
      let text = '';
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: /json/.test(String(res.headers['content-type'])) ? JSON.parse(text) : text as T }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = mkdtempSync(path.join(tmpdir(), 'pos-e2e-https-'));
  server = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', HTTPS: 'on', TLS_HOSTS: HOST_NAME, DATA_DIR: dataDir, SEED_DEMO: 'true', BCRYPT_ROUNDS: '4', LOG_LEVEL: 'warn', JWT_SECRET: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 150_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`API server exited with ${server.exitCode}`);
    // Plain http: the CA page is served before anyone trusts the CA.
    const res = await fetch(`http://127.0.0.1:${PORT}/trust/ca.crt`).catch(() => null);
    if (res?.ok) { caPem = await res.text(); break; }
    if (Date.now() > deadline) throw new Error('API server did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const spki = new crypto.X509Certificate(caPem).publicKey.export({ type: 'spki', format: 'der' });
  const spkiHash = crypto.createHash('sha256').update(spki).digest('base64');
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-sync', `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`, `--ignore-certificate-errors-spki-list=${spkiHash}`],
  });
});

test.afterAll(async () => {
  await browser?.close();
  if (server && server.exitCode === null) {
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('plain http on the server redirects to https, and the CA key is never served', async () => {
  const res = await fetch(`http://127.0.0.1:${PORT}/pos`, { redirect: 'manual' });
  expect(res.status).toBe(308);
  expect(res.headers.get('location')).toBe(`https://127.0.0.1:${PORT}/pos`);
  for (const p of ['/trust/ca.key', '/tls/ca.key', '/ca.key', '/../tls/ca.key']) {
    const r = await call<unknown>('GET', p);
    expect(JSON.stringify(r.json ?? '')).not.toContain('PRIVATE KEY');
    const plain = await fetch(`http://127.0.0.1:${PORT}${p}`, { redirect: 'manual' });
    expect(await plain.text()).not.toContain('PRIVATE KEY');
  }
  // Without the CA's key in the list the same page is refused: the trust comes from the chain.
  const untrusting = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1`] });
  try {
    const p = await untrusting.newPage();
    await expect(p.goto(`${ORIGIN}/`)).rejects.toThrow(/ERR_CERT_AUTHORITY_INVALID/);
  } finally {
    await untrusting.close();
  }
  const page = await call<string>('GET', '/trust');
  expect(page.status).toBe(200);
  expect(page.json).toContain(new crypto.X509Certificate(caPem).fingerprint256);
});

async function sell(page: Page, code: string): Promise<string> {
  const box = page.getByTestId('scan-input');
  await box.fill(code);
  await box.press('Enter');
  await expect(page.getByTestId('cart-row')).toHaveCount(1);
  await page.getByRole('button', { name: 'Done' }).click();
  const r = page.getByRole('dialog', { name: /^Receipt/ });
  await expect(r).toBeVisible();
  const text = await r.getByTestId('receipt').innerText();
  await r.getByRole('button', { name: 'Close' }).click();
  await expect(r).toHaveCount(0);
  return text;
}

test('the till over HTTPS at pos.shop.test: service worker, offline reload, 3 offline sales, exactly 3 orders on the server', async () => {
  test.setTimeout(300_000);
  const context = await browser!.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  try {
    // The admin's view: start the day on T1 and count the orders before.
    const { json: login } = await call<{ token: string }>('POST', '/api/auth/login_check', undefined, { username: 'admin', password: 'admin' });
    const { json: info } = await call<{ user: { stores: Array<{ id: number; name: string; terminals: Array<{ id: number; code: string }> }> } }>('GET', '/api/auth/info', login.token);
    const store = info.user.stores.find((s) => s.name === 'Main Street')!;
    const terminal = store.terminals.find((t) => t.code === 'T1')!;
    const { json: opened } = await call<{ closing: { id: number; openingBalance: unknown } }>('GET', `/api/admin/closing/opened?store=${store.id}&terminal=${terminal.id}`, login.token);
    if (opened.closing && opened.closing.openingBalance === null) {
      await call('POST', `/api/admin/closing/${opened.closing.id}`, login.token, { id: opened.closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id });
    }
    const orders = async () => (await call<{ 'hydra:totalItems': number }>('GET', `/api/orders?store=${store.id}&itemsPerPage=1`, login.token)).json['hydra:totalItems'];
    const before = await orders();

    await page.goto('/');
    expect(await page.evaluate(() => ({ secure: window.isSecureContext, protocol: location.protocol, host: location.hostname }))).toEqual({ secure: true, protocol: 'https:', host: HOST_NAME });
    await signIn(page, 'cashier');
    await expect(page).toHaveURL(/\/pos$/);
    await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 30_000 });
    await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 30_000 });

    await context.setOffline(true);
    await page.reload();
    await expect(page).toHaveURL(/\/pos$/);
    await expect(page.getByRole('group', { name: 'Departments' })).toBeVisible({ timeout: 30_000 });
    for (const code of STOCKED) expect(await sell(page, code)).toMatch(/Not yet sent — ref T1-\d{8}-\d{3}/);
    await expect(page.getByTestId('outbox-count')).toHaveText('3');
    expect(await orders()).toBe(before);

    await context.setOffline(false);
    await expect(page.getByTestId('outbox-count')).toHaveText('0', { timeout: 60_000 });
    expect(await orders()).toBe(before + 3);
  } finally {
    await context.close();
  }
});
