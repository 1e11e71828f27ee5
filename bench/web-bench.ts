/**
 * The web half of `npm run bench`: the till in Debian's Chromium (Playwright, never a downloaded
 * browser) against the real server with a big catalogue, all on this machine.
 *
 *   node --import tsx bench/web-bench.ts [--quick] [--keep]
 *
 * Measures: the JavaScript shipped for login + till (bytes as transferred, brotli), cold start with an empty browser to
 * ready-to-sell with every product searchable, warm start from IndexedDB, scan-to-line, fuzzy
 * search per keystroke, long tasks while searching, and how fast a product changed on the server
 * reaches the till's cache. What the harness relies on in the page (docs/performance.md, "Till
 * hooks"): [data-testid=scan-input], [data-testid=cart-row], [data-testid=catalogue-progress]
 * while loading (or [data-testid=catalogue-ready] once ready), Ctrl+F opening the item search
 * dialog (role=combobox input, role=listbox results, data-query on the listbox when available),
 * and the product cache in IndexedDB 'pos application' (any layout: the check looks for the text).
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, ROOT, cleanupOnExit, createThrowawayDb, dropAll, log, median, metric, percentile, pgReachable, request, round,
  startServer, stopAllServers, waitQuiet, writeResults, type Metric, type Server,
} from './lib.ts';

const KEEP = process.argv.includes('--keep');
/** --bundle-only: measure only the JavaScript line (small catalogue); the other web lines keep their last results. */
const BUNDLE_ONLY = process.argv.includes('--bundle-only');
/** --profile: record main-thread CPU profiles (CDP) of the last warm start, the scan and search phases into bench/out/web-*.cpuprofile. */
const PROFILE = process.argv.includes('--profile');

async function profiled<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    fs.mkdirSync(path.join(ROOT, 'bench', 'out'), { recursive: true });
    fs.writeFileSync(path.join(ROOT, 'bench', 'out', `web-${name}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  }
}
const CFG = QUICK
  ? { products: 20_000, coldRuns: 3, warmRuns: 3, scans: 20, scanRuns: 3, searchRuns: 3, readyTimeoutS: 120 }
  : { products: 100_000, coldRuns: 3, warmRuns: 3, scans: 40, scanRuns: 3, searchRuns: 3, readyTimeoutS: 600 };
/** A barcode scanner types as a keyboard: one key every few ms (USB HID scanners: about 100 characters a second), then Enter. */
const SCANNER_KEY_MS = 10;
/** Median over runs of each run's p50 and of each run's p95 (as the API half reports its runs). */
function overRuns(runs: number[][]): { median: number; p95: number; runs: number } {
  const done = runs.filter((r) => r.length);
  return { median: round(median(done.map((r) => percentile(r, 50))), 1), p95: round(median(done.map((r) => percentile(r, 95))), 1), runs: done.length };
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SEARCHES = ['fresh milk', 'royal chees', 'cobalt sneakers', 'organic honey 1kg', 'zephyr'];

const metrics: Metric[] = [];
const extra: Record<string, unknown> = { config: CFG };
const section = 'Web';

function skip(id: string, label: string, budget: string, why: string) {
  metrics.push(metric({ id, section, metric: label, unit: '', budget, skipped: why }));
}

// ------------------------------------------------------------------------------------------------
// Build the web app into a private folder (never touches apps/web/dist, which others use)
// ------------------------------------------------------------------------------------------------
function buildWeb(): { dir: string } | { error: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-bench-web-'));
  const t0 = performance.now();
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', path.join(dir, 'dist'), '--emptyOutDir'], {
    cwd: path.join(ROOT, 'apps/web'), encoding: 'utf8', timeout: 10 * 60 * 1000,
  });
  if (r.status !== 0) return { error: `vite build failed: ${(r.stderr || r.stdout || '').split('\n').filter(Boolean).slice(-3).join(' / ').slice(0, 300)}` };
  // As `npm run build` does: the .br/.gz copies the server sends (the bytes a browser receives).
  const pc = spawnSync(process.execPath, [path.join(ROOT, 'apps/web/scripts/precompress.mjs'), path.join(dir, 'dist')], { encoding: 'utf8' });
  if (pc.status !== 0) return { error: `precompress failed: ${(pc.stderr || pc.stdout || '').slice(0, 300)}` };
  extra.webBuildSeconds = round((performance.now() - t0) / 1000, 1);
  return { dir: path.join(dir, 'dist') };
}

// ------------------------------------------------------------------------------------------------
// Page helpers
// ------------------------------------------------------------------------------------------------

/** Installed in every page before its scripts: long-task log, key timestamps. */
const INIT = () => {
  const w = window as any;
  w.__name = (f: unknown) => f; // tsx keeps function names with a helper that the page lacks
  w.__bench = { longTasks: [] as { start: number; duration: number }[], keys: [] as { key: string; at: number }[] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* not supported */ }
  window.addEventListener('keydown', (e) => { w.__bench.keys.push({ key: e.key, at: performance.now() }); }, true);
};

interface Session { token: string; refresh?: string; store: any; terminal: any }

async function newContext(browser: Browser, server: Server, s: Session | null): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1366, height: 900 } });
  if (!s) { await context.addInitScript(INIT); return context; } // a browser that has never been here: the cashier signs in
  const u = new URL(server.url);
  const cookie = (name: string, value: string) => ({ name, value: encodeURIComponent(value), domain: u.hostname, path: '/', sameSite: 'Strict' as const });
  await context.addCookies([
    cookie('JWT', s.token), ...(s.refresh ? [cookie('refresh_token', s.refresh)] : []),
    cookie('store', JSON.stringify(s.store)), cookie('terminal', JSON.stringify(s.terminal)),
  ]);
  await context.addInitScript(INIT);
  return context;
}

/**
 * The cashier signs in through the login form (till01 / till), then picks the store and terminal
 * when the chooser asks (a user of one store and terminal is not asked).
 */
async function signInThroughForm(page: Page, s: Session): Promise<void> {
  await page.getByLabel('Username').fill('till01');
  await page.getByLabel('Password').fill('till');
  await page.getByRole('button', { name: 'Login' }).click();
  const stores = page.getByRole('dialog', { name: 'Choose a store' });
  const terminals = page.getByRole('dialog', { name: 'Choose a Terminal' });
  const scanBox = page.locator('[data-testid="scan-input"]');
  const next = async () => Promise.race([
    stores.waitFor({ timeout: 60_000 }).then(() => 'store' as const),
    terminals.waitFor({ timeout: 60_000 }).then(() => 'terminal' as const),
    scanBox.waitFor({ state: 'attached', timeout: 60_000 }).then(() => 'till' as const),
  ]);
  let step = await next();
  if (step === 'store') { await stores.getByRole('button', { name: String(s.store.name) }).click(); step = await next(); }
  if (step === 'terminal') await terminals.getByRole('button', { name: String(s.terminal.code) }).click();
}

/**
 * Ready to sell: the catalogue hook says ready ([data-testid=catalogue-ready]), or the scan input
 * is enabled and no catalogue progress is shown any more. Returns ms since `t0` (Date.now()).
 */
async function waitReady(page: Page, t0: number, timeoutS: number): Promise<number> {
  await page.waitForFunction(() => {
    const ready = document.querySelector('[data-testid="catalogue-ready"]');
    if (ready) return true;
    const input = document.querySelector<HTMLInputElement>('[data-testid="scan-input"]');
    const progress = document.querySelector('[data-testid="catalogue-progress"]');
    const visible = (el: Element | null) => !!el && (el as HTMLElement).offsetParent !== null;
    return !!input && !input.disabled && !visible(progress);
  }, undefined, { timeout: timeoutS * 1000, polling: 50 });
  return Date.now() - t0;
}

/**
 * Scans a code (typed into the scan box key by key at a scanner's pace, SCANNER_KEY_MS, then Enter)
 * and returns the in-page latency from the Enter keydown to the frame after a new cart row appears;
 * null if no row appears within `timeoutMs`.
 */
async function scan(page: Page, code: string, timeoutMs = 5000): Promise<number | null> {
  const input = page.locator('[data-testid="scan-input"]');
  await input.focus();
  // As a scanner sends it: key by key (each key's input handling is in the figure's way), then Enter.
  await page.evaluate(() => {
    const w = window as any;
    const count = () => document.querySelectorAll('[data-testid="cart-row"]').length;
    const before = count();
    w.__bench.scanDone = new Promise<number>((resolve) => {
      const obs = new MutationObserver(() => {
        if (count() > before) {
          obs.disconnect();
          const at = performance.now();
          requestAnimationFrame(() => resolve(at));
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
  });
  await input.pressSequentially(code, { delay: SCANNER_KEY_MS });
  await input.press('Enter');
  const res = await page.evaluate(async (ms) => {
    const w = window as any;
    const shown = await Promise.race([w.__bench.scanDone, new Promise((r) => setTimeout(() => r(null), ms))]) as number | null;
    if (shown == null) return null;
    const enter = [...w.__bench.keys].reverse().find((k: any) => k.key === 'Enter');
    // The frame after the row was inserted: wait for its paint timestamp.
    const painted = await new Promise<number>((r) => requestAnimationFrame((t) => r(t)));
    return enter ? Math.max(shown, painted) - enter.at : null;
  }, timeoutMs);
  return res;
}

/**
 * Types `text` one key at a time in the item-search box. Per key: keydown -> the frame after the
 * results for that text are on screen. With the listbox's data-query hook that is exact; without
 * it, the first change of the dialog (result rows or the count in its title) after the key counts,
 * and a key whose results look the same as before is reported as "unchanged". The typist waits for
 * each answer (up to 1.5 s) before the next key, so every key gets its own answer.
 */
async function typeSearch(page: Page, text: string): Promise<{ latencies: number[]; unchanged: number }> {
  const box = page.getByRole('dialog').getByRole('combobox');
  await box.fill('');
  await page.waitForTimeout(400);
  const latencies: number[] = [];
  let unchanged = 0;
  for (const ch of text) {
    await page.evaluate(() => {
      const w = window as any;
      const list = document.querySelector('[role="listbox"]') as HTMLElement | null;
      const dialog = (list?.closest('[role="dialog"]') ?? list) as HTMLElement | null;
      w.__bench.searchDone = new Promise<number | null>((resolve) => {
        if (!list || !dialog) return resolve(null);
        const target = () => (dialog.querySelector('[role="combobox"]') as HTMLInputElement | null)?.value ?? '';
        if (list.dataset.query !== undefined) {
          const end = performance.now() + 1500;
          // The results must answer the text after this key (the previous answer already matches the text before it).
          const typedBefore = target();
          const tick = () => {
            if (target() !== typedBefore && list.dataset.query === target() && target() !== '') requestAnimationFrame((t) => resolve(t));
            else if (performance.now() > end) resolve(null);
            else requestAnimationFrame(tick);
          };
          setTimeout(tick, 0);
          return;
        }
        const typed = target();
        const obs = new MutationObserver((records) => {
          // Ignore the input's own echo of the key.
          if (records.every((r) => r.target === dialog.querySelector('[role="combobox"]'))) return;
          if (target() === typed) return; // the key has not landed yet
          obs.disconnect();
          requestAnimationFrame((t) => resolve(t));
        });
        obs.observe(dialog, { childList: true, subtree: true, characterData: true });
        setTimeout(() => { obs.disconnect(); resolve(null); }, 1500);
      });
    });
    await page.keyboard.type(ch);
    const r = await page.evaluate(async () => {
      const w = window as any;
      const done = await w.__bench.searchDone;
      const key = [...w.__bench.keys].reverse().find((k: any) => k.key.length === 1);
      return done == null || !key ? null : done - key.at;
    });
    if (r == null) unchanged++; else latencies.push(r);
    if (process.env.BENCH_DEBUG) log(`search "${await box.inputValue()}": ${r == null ? 'unchanged' : `${r.toFixed(1)} ms`}`);
    await page.waitForTimeout(100);
  }
  return { latencies, unchanged };
}

async function longTasks(page: Page, since = 0): Promise<{ start: number; duration: number }[]> {
  return page.evaluate((s) => (window as any).__bench.longTasks.filter((t: any) => t.start >= s), since);
}

/**
 * Whether the running till finds a product by this exact name, as a cashier would: the item search
 * (Ctrl+F, opened once and left open) lists an option with that name for that query. The till's
 * cache, the search index and the list on screen all have to carry the name for this to be true.
 */
async function tillFinds(page: Page, name: string, timeoutMs: number): Promise<boolean> {
  const box = page.getByRole('dialog').getByRole('combobox');
  if (!(await box.isVisible().catch(() => false))) {
    await page.locator('[data-testid="scan-input"]').focus();
    await page.keyboard.press('Control+f');
    await box.waitFor({ timeout: 5000 });
  }
  if ((await box.inputValue()) !== name) await box.fill(name);
  return page.waitForFunction((n) => {
    const list = document.querySelector<HTMLElement>('[role="listbox"]');
    if (!list || (list.dataset.query !== undefined && list.dataset.query !== n)) return false;
    return Array.from(list.querySelectorAll('[role="option"]')).some((o) => o.textContent?.includes(n));
  }, name, { timeout: timeoutMs, polling: 100 }).then(() => true, () => false);
}

/** Whether any record of the till's IndexedDB databases holds this text (whatever the cache layout). */
async function cacheHolds(page: Page, text: string): Promise<boolean> {
  return page.evaluate(async (t) => {
    const dbs = (await (indexedDB as any).databases?.()) ?? [{ name: 'pos application' }];
    for (const info of dbs) {
      if (!info.name) continue;
      const db: IDBDatabase = await new Promise((res, rej) => { const r = indexedDB.open(info.name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
      try {
        for (const name of Array.from(db.objectStoreNames)) {
          const all: unknown[] = await new Promise((res) => { const r = db.transaction(name, 'readonly').objectStore(name).getAll(); r.onsuccess = () => res(r.result); r.onerror = () => res([]); });
          if (all.some((v) => JSON.stringify(v).includes(t))) return true;
        }
      } finally { db.close(); }
    }
    return false;
  }, text);
}

// ------------------------------------------------------------------------------------------------

async function main() {
  cleanupOnExit();
  if (!fs.existsSync(CHROMIUM)) { skip('web', 'Web bench', '', `no Chromium at ${CHROMIUM}`); return finish(); }
  if (!(await pgReachable())) { skip('web', 'Web bench', '', 'PostgreSQL not reachable'); return finish(); }

  log('building the web app (private output folder)...');
  const built = buildWeb();
  if ('error' in built) {
    for (const [id, label, budget] of ALL) skip(id, label, budget, built.error);
    return finish();
  }
  const db = await createThrowawayDb('web');
  let browser: Browser | undefined;
  try {
    log(`generating ${CFG.products} products...`);
    await generateCatalogue(db.url, { products: BUNDLE_ONLY ? 1000 : CFG.products });
    const server = await startServer(db.url, { WEB_DIST: built.dir });
    const loginRes = await request('POST', `${server.url}/api/auth/login_check`, { username: 'till01', password: 'till' });
    const tokens = JSON.parse(loginRes.body);
    const info = JSON.parse((await request('GET', `${server.url}/api/auth/info`, undefined, { authorization: `Bearer ${tokens.token}` })).body);
    const user = info.user ?? info;
    const store = (user.stores ?? [])[0];
    const terminal = (store?.terminals ?? []).find((t: any) => t.code === 'T01') ?? store?.terminals?.[0];
    if (!store || !terminal) throw new Error(`auth/info without store/terminal: ${JSON.stringify(info).slice(0, 300)}`);
    const session: Session = { token: tokens.token, refresh: tokens.refresh_token, store: { ...store, terminals: [] }, terminal: (({ store: _s, ...t }) => t)(terminal) };
    const adminTok = JSON.parse((await request('POST', `${server.url}/api/auth/login_check`, { username: 'admin', password: 'admin' })).body).token;
    const admin = { authorization: `Bearer ${adminTok}` };
    // The day is opened for this terminal (otherwise the till asks for it first: a human step).
    const tillAuth = { authorization: `Bearer ${tokens.token}` };
    const opened = JSON.parse((await request('GET', `${server.url}/api/admin/closing/opened?store=${store.id}&terminal=${terminal.id}`, undefined, tillAuth)).body);
    if (opened?.closing?.id && opened.closing.openingBalance == null) {
      const r = await request('POST', `${server.url}/api/admin/closing/${opened.closing.id}`, { id: opened.closing.id, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, updateOnly: true, terminal: terminal.id }, tillAuth);
      if (r.status !== 200) log(`could not open the day: ${r.status} ${r.body.slice(0, 200)}`);
    }

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-dev-shm-usage'],
    });

    // ---- bundle: JS fetched for the login page, then for the till
    {
      await waitQuiet('bundle');
      const context = await browser.newContext({ baseURL: server.url });
      await context.addInitScript(INIT);
      // JS the page itself asks for (its module graph, lazy chunks, workers), by phase. Requests made
      // by a service worker (precaching every chunk in the background) are counted apart.
      const js = new Map<string, { phase: string }>();
      const precache = new Set<string>();
      let phase = 'login';
      const isJs = (url: string, type = '') => /javascript/.test(type) || /\.m?js(\?|$)/.test(url);
      context.on('request', (r) => {
        if (!isJs(r.url()) || !r.url().startsWith(server.url)) return;
        if (r.serviceWorker()) { precache.add(r.url()); return; }
        if (!js.has(r.url())) js.set(r.url(), { phase });
      });
      const page = await context.newPage();
      page.on('worker', (w) => { if (w.url().startsWith(server.url) && !js.has(w.url())) js.set(w.url(), { phase: 'worker' }); });
      await page.goto('/', { waitUntil: 'networkidle' });
      phase = 'till';
      const u = new URL(server.url);
      await context.addCookies([
        { name: 'JWT', value: encodeURIComponent(session.token), domain: u.hostname, path: '/' },
        { name: 'store', value: encodeURIComponent(JSON.stringify(session.store)), domain: u.hostname, path: '/' },
        { name: 'terminal', value: encodeURIComponent(JSON.stringify(session.terminal)), domain: u.hostname, path: '/' },
      ]);
      await page.goto('/pos', { waitUntil: 'networkidle' }).catch(() => {});
      await page.waitForTimeout(3000);
      // Open the item search once: its worker (if any) is part of the till's JavaScript.
      await page.locator('[data-testid="scan-input"]').focus().catch(() => {});
      await page.keyboard.press('Control+f').catch(() => {});
      await page.waitForTimeout(1500);
      // Sizes as transferred: each file fetched again with Chromium's own Accept-Encoding, counting
      // the bytes on the wire (the server sends its precompressed .br copies); bodies a service
      // worker served are not readable in the page, hence the second fetch.
      const sizeOf = (url: string) => new Promise<{ raw: number; wire: number; encoding: string }>((resolve, reject) => {
        http.get(url, { headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const wire = Buffer.concat(chunks);
            const encoding = String(res.headers['content-encoding'] ?? 'identity');
            const raw = encoding === 'br' ? zlib.brotliDecompressSync(wire).length : encoding === 'gzip' ? zlib.gunzipSync(wire).length : wire.length;
            resolve({ raw, wire: wire.length, encoding });
          });
          res.on('error', reject);
        }).on('error', reject);
      });
      const sized = new Map<string, { raw: number; wire: number; encoding: string; phase: string }>();
      for (const [url, v] of js) sized.set(url, { ...(await sizeOf(url)), phase: v.phase });
      let precacheWire = 0;
      for (const url of precache) if (!js.has(url)) precacheWire += (await sizeOf(url)).wire;
      extra.precacheOnlyKb = round(precacheWire / 1024, 1);
      const files = [...sized.entries()].map(([url, v]) => ({ file: new URL(url).pathname, ...v, wireKb: round(v.wire / 1024, 1) }));
      const wire = files.reduce((s, f) => s + f.wire, 0) / 1024;
      const raw = files.reduce((s, f) => s + f.raw, 0) / 1024;
      const encodings = [...new Set(files.map((f) => f.encoding))].join(', ') || 'none';
      const byPhase = (p: string) => round(files.filter((f) => f.phase === p).reduce((s, f) => s + f.wire, 0) / 1024, 1);
      extra.bundle = { files, rawKb: round(raw, 1), wireKb: round(wire, 1) };
      metrics.push(metric({
        id: 'web.bundle', section, metric: `JavaScript for login + till as transferred (${files.length} files, ${round(raw, 0)} KB raw)`, unit: 'KB', budget: '<= 150 KB brotli',
        limit: { op: '<=', value: 150 }, on: 'median', median: round(wire, 1), p95: round(wire, 1), runs: 1,
        note: `login ${byPhase('login')} KB + till ${byPhase('till')} KB + workers ${byPhase('worker')} KB; content-encoding: ${encodings}; service worker precaches another ${round(precacheWire / 1024, 1)} KB (other chunks, in the background); largest: ${[...files].sort((a, b) => b.wire - a.wire).slice(0, 6).map((f) => `${path.basename(f.file).replace(/-[\w-]{8}\.js$/, '')} ${f.wireKb}`).join(', ')}`,
      }));
      await context.close();
    }

    // --bundle-only: the bundle line alone (the finally below cleans up and writes the results)
    if (BUNDLE_ONLY) return;

    // ---- cold start (fresh context = empty HTTP cache and IndexedDB), then warm starts
    const coldTimes: number[] = [];
    const coldLong: number[] = [];
    let warmContext: BrowserContext | undefined;
    let coldError: string | undefined;
    let coldTimedOut: { ms: number; progress: string } | undefined;
    for (let r = 0; r < CFG.coldRuns; r++) {
      // A start far over budget will not change verdict with more runs: one is enough.
      if (coldTimes.length && coldTimes[0] > 3 * 10_000) break;
      await waitQuiet(`cold start ${r + 1}`);
      // A browser that has never opened the till: empty cache, no session; the cashier signs in.
      const context = await newContext(browser, server, null);
      const page = await context.newPage();
      const t0 = Date.now();
      try {
        await page.goto('/');
        await signInThroughForm(page, session);
        const ms = await waitReady(page, t0, CFG.readyTimeoutS);
        // Searchable: the last product of the catalogue (the last one without variants: those
        // open a variant chooser) scans into a line.
        const lastCode = String(2000000000000 + (CFG.products % 5 === 0 ? CFG.products - 1 : CFG.products));
        const scanMs = await scan(page, lastCode, 10_000);
        if (scanMs == null) throw new Error(`ready after ${ms} ms but the last product (${lastCode}) did not scan into a line`);
        coldTimes.push(ms);
        coldLong.push(Math.max(0, ...(await longTasks(page)).map((t) => t.duration)));
        log(`cold start ${r + 1}: ${ms} ms`);
      } catch (e) {
        coldError = String((e as Error).message).split('\n')[0].slice(0, 200);
        if (/Timeout/i.test(coldError)) {
          const progress = await page.locator('[data-testid="catalogue-progress"]').textContent({ timeout: 1000 }).catch(() => null);
          coldTimedOut = { ms: Date.now() - t0, progress: (progress ?? '').replace(/\s+/g, ' ').trim().slice(0, 80) };
        }
        log(`cold start ${r + 1} failed: ${coldError}`);
        await page.screenshot({ path: path.join(ROOT, 'bench', 'out', 'cold-start-failure.png') }).catch(() => {});
        await context.close();
        break;
      }
      await page.close();
      if (warmContext) await warmContext.close();
      warmContext = context;
    }
    if (coldTimes.length) {
      metrics.push(metric({ id: 'web.cold', section, metric: `Till cold start, empty browser, cashier signs in -> ready to sell, ${CFG.products.toLocaleString('en')} products searchable`, unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: round(median(coldTimes) / 1000, 2), p95: round(Math.max(...coldTimes) / 1000, 2), runs: coldTimes.length, note: `p95 column = slowest run; from opening / through the login form (typed by the bench: the human's typing time is not in it) to ready; longest main-thread task ${round(Math.max(...coldLong), 0)} ms` }));
    } else if (coldTimedOut) {
      metrics.push(metric({ id: 'web.cold', section, metric: `Till cold start, empty browser cache -> ready to sell, ${CFG.products.toLocaleString('en')} products searchable`, unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: Infinity, p95: Infinity, runs: 1, note: `not ready after ${round(coldTimedOut.ms / 1000, 0)} s (cap); progress then: "${coldTimedOut.progress}"` }));
    } else {
      skip('web.cold', 'Till cold start -> ready to sell', '<= 10 s', `till not ready: ${coldError ?? 'no run'}`);
    }

    let page: Page | undefined;
    if (warmContext) {
      const warm: number[] = [];
      for (let r = 0; r < CFG.warmRuns; r++) {
        await waitQuiet(`warm start ${r + 1}`);
        if (page) await page.close();
        page = await warmContext.newPage();
        const warmPage = page;
        const t0 = Date.now();
        try {
          // The last warm start is profiled with --profile (bench/out/web-warm.cpuprofile).
          const run = async () => { await warmPage.goto('/pos'); return waitReady(warmPage, t0, 60); };
          warm.push(r === CFG.warmRuns - 1 ? await profiled(warmPage, 'warm', run) : await run());
        } catch (e) { log(`warm start failed: ${(e as Error).message.split('\n')[0]}`); break; }
      }
      if (warm.length) metrics.push(metric({ id: 'web.warm', section, metric: 'Till warm start from IndexedDB -> ready to sell', unit: 's', budget: '<= 2 s', limit: { op: '<=', value: 2 }, on: 'median', median: round(median(warm) / 1000, 2), p95: round(Math.max(...warm) / 1000, 2), runs: warm.length, note: 'p95 column = slowest run' }));
      else skip('web.warm', 'Till warm start from IndexedDB', '<= 2 s', 'warm start did not reach ready');
    } else {
      skip('web.warm', 'Till warm start from IndexedDB', '<= 2 s', 'needs a cold start first');
    }

    // ---- scan to line
    if (page) {
      await waitQuiet('scan');
      const runs: number[][] = [];
      let missed = 0;
      const since = await page.evaluate(() => performance.now());
      for (let run = 0; run < CFG.scanRuns; run++) await profiled(page, 'scan', async () => { const lat: number[] = []; runs.push(lat); for (let i = run * CFG.scans; i < (run + 1) * CFG.scans; i++) {
        // Spread over the catalogue; every 4th a variant barcode (product barcode + variant number).
        let n = 1 + Math.floor(((i * 7919) % CFG.products));
        if (n % 5 === 0) n -= 1; // every 5th product has variants: its own barcode opens a chooser
        const variantProduct = Math.max(5, Math.floor(n / 5) * 5);
        const code = i % 4 === 3 ? `${2000000000000 + variantProduct}1` : String(2000000000000 + n);
        const ms = await scan(page, code);
        if (ms == null) missed++; else lat.push(ms);
      } });
      const lt = await longTasks(page, since);
      const scans = runs.flat().length;
      if (scans) {
        metrics.push(metric({ id: 'web.scan', section, metric: `Scan to line: barcode typed at a scanner's pace, Enter -> row painted (${CFG.products.toLocaleString('en')} products)`, unit: 'ms', budget: 'p95 <= 50 ms', limit: { op: '<=', value: 50 }, ...overRuns(runs), note: `${runs.length} runs of ${CFG.scans} scans (${scans} timed${missed ? `, ${missed} gave no new row` : ''}), each code typed key by key every ${SCANNER_KEY_MS} ms then Enter; the cart keeps every line; longest task ${round(Math.max(0, ...lt.map((t) => t.duration)), 0)} ms` }));
      } else skip('web.scan', 'Scan to line', 'p95 <= 50 ms', `no scan produced a cart row ([data-testid=cart-row])`);
    } else skip('web.scan', 'Scan to line', 'p95 <= 50 ms', 'till not ready');

    // ---- fuzzy search per keystroke + long tasks
    if (page) {
      await waitQuiet('search');
      await page.locator('[data-testid="scan-input"]').focus();
      await page.keyboard.press('Control+f');
      const dialog = page.getByRole('dialog');
      const opened = await dialog.getByRole('combobox').waitFor({ timeout: 5000 }).then(() => true).catch(() => false);
      if (opened) {
        const since = await page.evaluate(() => performance.now());
        const runs: number[][] = [];
        let unchanged = 0;
        for (let run = 0; run < CFG.searchRuns; run++) {
          await profiled(page, 'search', async () => {
            const lat: number[] = [];
            runs.push(lat);
            for (const q of SEARCHES) {
              const r = await typeSearch(page, q);
              lat.push(...r.latencies);
              unchanged += r.unchanged;
            }
          });
        }
        const lat = runs.flat();
        const lt = await longTasks(page, since);
        const maxTask = Math.max(0, ...lt.map((t) => t.duration));
        const hasQueryHook = await page.evaluate(() => (document.querySelector('[role="listbox"]') as HTMLElement | null)?.dataset.query !== undefined);
        metrics.push(metric({ id: 'web.search', section, metric: `Item search dialog: keystroke -> results painted (${CFG.products.toLocaleString('en')} products)`, unit: 'ms', budget: 'p95 <= 100 ms', limit: { op: '<=', value: 100 }, ...overRuns(runs), note: `${runs.length} runs, ${lat.length} keystrokes in all${unchanged ? `, ${unchanged} with results looking unchanged within 1.5 s (not counted)` : ''}; ${hasQueryHook ? 'listbox data-query hook' : 'first change of the dialog after the key (no data-query hook)'}; the typist waits for each answer` }));
        metrics.push(metric({ id: 'web.longtask', section, metric: 'Longest main-thread task while searching', unit: 'ms', budget: '<= 100 ms', limit: { op: '<=', value: 100 }, on: 'median', median: round(maxTask, 0), p95: round(maxTask, 0), runs: runs.length, note: `over ${runs.length} search runs: ${lt.length} long tasks (> 50 ms), ${lt.filter((t) => t.duration > 100).length} over 100 ms` }));
        await page.keyboard.press('Escape');
      } else {
        skip('web.search', 'Item search: keystroke -> results', 'p95 <= 100 ms', 'Ctrl+F did not open a dialog with a combobox');
        skip('web.longtask', 'Longest main-thread task while searching', '<= 100 ms', 'no search dialog');
      }
    } else {
      skip('web.search', 'Item search: keystroke -> results', 'p95 <= 100 ms', 'till not ready');
      skip('web.longtask', 'Longest main-thread task while searching', '<= 100 ms', 'till not ready');
    }

    // ---- a product changed on the server reaches the till's cache
    if (page) {
      await waitQuiet('propagation');
      const id = Math.floor(CFG.products / 2);
      const current = JSON.parse((await request('GET', `${server.url}/api/products/${id}`, undefined, admin)).body).name as string;
      const before = await tillFinds(page, current, 15_000);
      if (!before) {
        skip('web.propagation', 'Product change on the server -> in the till cache', '<= 10 s', `product ${id} ("${current}") not found by the till's item search`);
      } else {
        const name = `Bench renamed ${Date.now()}`;
        const t0 = Date.now();
        const put = await request('PUT', `${server.url}/api/products/${id}`, { name }, admin);
        if (put.status !== 200) throw new Error(`PUT product: ${put.status} ${put.body.slice(0, 200)}`);
        // Seen = the running till's search lists it AND its offline cache holds it (a reload would keep it).
        let seen = (await tillFinds(page, name, 30_000)) ? Date.now() - t0 : null;
        if (seen != null) {
          while (!(await cacheHolds(page, name)) && Date.now() - t0 < 30_000) await page.waitForTimeout(250);
          seen = (await cacheHolds(page, name)) ? Date.now() - t0 : null;
        }
        if (seen != null) metrics.push(metric({ id: 'web.propagation', section, metric: 'Product changed on the server -> in the till cache (no reload)', unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: round(seen / 1000, 1), p95: round(seen / 1000, 1), runs: 1, note: 'PUT /api/products/{id} rename -> the running till\'s item search lists the new name and its IndexedDB cache holds it' }));
        else metrics.push(metric({ id: 'web.propagation', section, metric: 'Product changed on the server -> in the till cache (no reload)', unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: Infinity, p95: Infinity, runs: 1, note: 'not seen within 30 s' }));
      }
    } else skip('web.propagation', 'Product change -> till cache', '<= 10 s', 'till not ready');
  } finally {
    await browser?.close().catch(() => {});
    await stopAllServers();
    if (KEEP) log(`kept database: ${db.url}`); else await dropAll();
    fs.rmSync(path.dirname(built.dir), { recursive: true, force: true });
    if (BUNDLE_ONLY) finish();
  }
  finish();
}

const ALL: [string, string, string][] = [
  ['web.bundle', 'JavaScript for login + till as transferred', '<= 150 KB brotli'],
  ['web.cold', 'Till cold start -> ready to sell', '<= 10 s'],
  ['web.warm', 'Till warm start from IndexedDB', '<= 2 s'],
  ['web.scan', 'Scan to line', 'p95 <= 50 ms'],
  ['web.search', 'Item search: keystroke -> results', 'p95 <= 100 ms'],
  ['web.longtask', 'Longest main-thread task while searching', '<= 100 ms'],
  ['web.propagation', 'Product change -> till cache', '<= 10 s'],
];

function finish() {
  if (BUNDLE_ONLY) {
    // Keep the other web lines of the last full run; replace only what was measured now.
    let last: { metrics?: Metric[] } & Record<string, unknown> = {};
    try { last = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench', 'out', 'web.json'), 'utf8')); } catch { /* none yet */ }
    const ids = new Set(metrics.map((m) => m.id));
    const kept = (last.metrics ?? []).filter((m) => !ids.has(m.id));
    const { part: _p, at: _a, quick: _q, command: _c, machine: _m, metrics: _ms, ...lastExtra } = last;
    writeResults('web.json', [...metrics.filter((m) => m.id === 'web.bundle'), ...kept], { ...lastExtra, ...extra });
    for (const m of metrics) log(`${m.id}: median ${m.median} ${m.unit}${m.note ? ` (${m.note})` : ''}`);
    return;
  }
  writeResults('web.json', metrics, extra);
  for (const m of metrics) log(`${m.id}: median ${m.median} p95 ${m.p95} ${m.unit}${m.skipped ? ` (not measured: ${m.skipped})` : ''}`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!KEEP) await dropAll();
  writeResults('web.json', [...metrics, metric({ id: 'web.error', section, metric: 'Web bench', unit: '', budget: '', skipped: `crashed: ${String((e as Error).message).slice(0, 200)}` })], extra);
  process.exit(1);
});
