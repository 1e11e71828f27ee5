/**
 * The till page as the web bench drives it (bench/web-bench.ts): the hooks installed in every page,
 * signing in, waiting for ready-to-sell, scanning at a scanner's pace, typing in the item search
 * and reading the till's cache; --profile records CPU profiles of the phases it wraps.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { ROOT, log, type Server } from './lib.ts';

/** --profile: record main-thread CPU profiles (CDP) of the last warm start, the scan and search phases into bench/out/web-*.cpuprofile. */
const PROFILE = process.argv.includes('--profile');
/**
 * --trace: record a Chrome trace (devtools.timeline: style, layout, paint, scripting per task) of the
 * same phases into bench/out/web-*.trace.json; `node bench/trace-summary.mjs <file>` sums it per event,
 * so two trees can be compared by the work they did, not only by the time it took on a busy machine.
 */
const TRACE = process.argv.includes('--trace');

export async function profiled<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  if (TRACE) {
    const browser = page.context().browser()!;
    // What the page holds when the phase starts (two trees' traces differ by what they paint).
    log(`${name}: DOM ${JSON.stringify(await page.evaluate(() => {
      const all = [...document.querySelectorAll('*')];
      const tags = new Map<string, number>();
      for (const el of all) tags.set(el.tagName.toLowerCase(), (tags.get(el.tagName.toLowerCase()) ?? 0) + 1);
      return { elements: all.length, ...Object.fromEntries([...tags].sort((a, b) => b[1] - a[1]).slice(0, 12)) };
    }))}`);
    fs.mkdirSync(path.join(ROOT, 'bench', 'out'), { recursive: true });
    await browser.startTracing(page, { path: path.join(ROOT, 'bench', 'out', `web-${name}.trace.json`), categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute', ...(process.env.BENCH_TRACE_INVALIDATIONS ? ['disabled-by-default-devtools.timeline.invalidationTracking'] : [])] });
    try { return await fn(); } finally { await browser.stopTracing(); }
  }
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

/** A barcode scanner types as a keyboard: one key every few ms (USB HID scanners: about 100 characters a second), then Enter. */
export const SCANNER_KEY_MS = 10;

/** Installed in every page before its scripts: long-task log, key timestamps. */
export const INIT = () => {
  const w = window as any;
  w.__name = (f: unknown) => f; // tsx keeps function names with a helper that the page lacks
  w.__bench = { longTasks: [] as { start: number; duration: number }[], keys: [] as { key: string; at: number }[] };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch { /* not supported */ }
  // `at`: the key event's own time stamp (when the browser took the key, before a busy page got to
  // it), as the browser's Event Timing counts it: a wait for the main thread is the user's wait too.
  window.addEventListener('keydown', (e) => { w.__bench.keys.push({ key: e.key, at: e.timeStamp }); }, true);
  // The browser's own measure of each Enter: Event Timing, key down -> the next paint (8 ms steps).
  w.__bench.enterPaints = [] as { start: number; duration: number }[];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as PerformanceEventTiming[]) {
        if ((e.name === 'keydown' || e.name === 'keypress') && (e as any).target?.dataset?.testid === 'scan-input') w.__bench.enterPaints.push({ start: e.startTime, duration: e.duration });
      }
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
  } catch { /* not supported */ }
};

export interface Session { token: string; refresh?: string; store: any; terminal: any }

export async function newContext(browser: Browser, server: Server, s: Session | null): Promise<BrowserContext> {
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
export async function signInThroughForm(page: Page, s: Session): Promise<void> {
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
 * Ready to sell: the catalogue hook says ready ([data-testid=catalogue-ready], rendered once the
 * products are loaded). Returns ms since `t0` (Date.now()).
 *
 * Only the marker counts. Until 2026-12-07 an enabled scan input with no progress message also
 * counted, and the till's first render, before its loading effect has run, is exactly that: a warm
 * start was timed at its first paint (0.4-0.5 s at 1,000,000 products, where the cached index alone
 * takes seconds to read) unless the poll happened to miss that frame (the "slow starts at random"
 * of session 50), and a scan sent then found no catalogue.
 */
export async function waitReady(page: Page, t0: number, timeoutS: number): Promise<number> {
  await page.waitForSelector('[data-testid="catalogue-ready"]', { state: 'attached', timeout: timeoutS * 1000 });
  return Date.now() - t0;
}

/** One refresh of a 60 Hz display. */
export const FRAME_MS = 1000 / 60;

/**
 * Scans a code (typed into the scan box key by key at a scanner's pace, SCANNER_KEY_MS, then Enter).
 * `ms`: the in-page latency from the Enter keydown (its event time stamp) to the end of the rendering
 * of the first frame that shows the new cart row (the row painted), null if no row appears within
 * `timeoutMs`. `eventMs`: the browser's own Event Timing for that Enter (key down -> the next paint
 * presented, in 8 ms steps), null when under its 16 ms floor. `frames`: which frame after the Enter
 * painted the row (1 = the very next one: the till's work fitted in the frame the key arrived in;
 * each frame more is a refresh the cashier waited).
 */
export async function scan(page: Page, code: string, timeoutMs = 5000): Promise<{ ms: number; frames: number; eventMs: number | null } | null> {
  const input = page.locator('[data-testid="scan-input"]');
  await input.focus();
  // As a scanner sends it: key by key (each key's input handling is in the figure's way), then Enter.
  await page.evaluate(() => {
    const w = window as any;
    const count = () => document.querySelectorAll('[data-testid="cart-row"]').length;
    const before = count();
    w.__bench.scanDone = new Promise<{ frame: number; painted: number }>((resolve) => {
      const obs = new MutationObserver(() => {
        if (count() > before) {
          obs.disconnect();
          // The first frame whose callbacks run after the row is in the document paints it; a message
          // posted from its callbacks is taken once that frame's rendering (style, layout, paint) is
          // done: the row painted, read on the page's clock. (Not the frame's own time stamp: that is
          // its vsync, which can precede the key's handling. Not a frame asked for from the bench:
          // after the Enter's round trip it fell a frame or more after the paint; session 46.)
          requestAnimationFrame((frame) => {
            const after = new MessageChannel();
            after.port1.onmessage = () => resolve({ frame, painted: performance.now() });
            after.port2.postMessage(null);
          });
        }
      });
      obs.observe(document.body, { childList: true, subtree: true });
    });
  });
  await input.pressSequentially(code, { delay: SCANNER_KEY_MS });
  await input.press('Enter');
  return page.evaluate(async ({ ms, frameMs }) => {
    const w = window as any;
    const shown = await Promise.race([w.__bench.scanDone, new Promise((r) => setTimeout(() => r(null), ms))]) as { frame: number; painted: number } | null;
    if (shown == null) return null;
    const enter = [...w.__bench.keys].reverse().find((k: any) => k.key === 'Enter');
    if (!enter) return null;
    // The browser's Event Timing entries of this Enter, if it took 16 ms or more (they come after the
    // paint): its keydown and keypress (the form's submit, which adds the row, runs in the keypress),
    // the later paint of the two.
    await new Promise((r) => setTimeout(r, 50));
    const ends = (w.__bench.enterPaints as { start: number; duration: number }[]).filter((e) => e.start >= enter.at - 1 && e.start < enter.at + 100).map((e) => e.start + e.duration - enter.at);
    return { ms: shown.painted - enter.at, frames: Math.max(1, Math.floor((shown.frame - enter.at) / frameMs) + 1), eventMs: ends.length ? Math.max(...ends) : null };
  }, { ms: timeoutMs, frameMs: FRAME_MS });
}

/**
 * Types `text` one key at a time in the item-search box. Per key: keydown -> the frame after the
 * results for that text are on screen. With the listbox's data-query hook that is exact; without
 * it, the first change of the dialog (result rows or the count in its title) after the key counts,
 * and a key whose results look the same as before is reported as "unchanged". The typist waits for
 * each answer (up to 1.5 s) before the next key, so every key gets its own answer.
 */
export async function typeSearch(page: Page, text: string): Promise<{ latencies: number[]; commits: number[]; unchanged: number }> {
  const box = page.getByRole('dialog').getByRole('combobox');
  await box.fill('');
  await page.waitForTimeout(400);
  const latencies: number[] = [];
  const commits: number[] = [];
  let unchanged = 0;
  for (const ch of text) {
    await page.evaluate(() => {
      const w = window as any;
      const list = document.querySelector('[role="dialog"] [role="listbox"]') as HTMLElement | null;
      const dialog = (list?.closest('[role="dialog"]') ?? list) as HTMLElement | null;
      w.__bench.searchDone = new Promise<number | null>((resolve) => {
        if (!list || !dialog) return resolve(null);
        const target = () => (dialog.querySelector('[role="combobox"]') as HTMLInputElement | null)?.value ?? '';
        if (list.dataset.query !== undefined) {
          const end = performance.now() + 1500;
          // The results must answer the text after this key (the previous answer already matches the text before it).
          const typedBefore = target();
          const answered = () => target() !== typedBefore && list.dataset.query === target() && target() !== '';
          // When the answer reached the page (the listbox's data-query changed to the typed text):
          // the part of the latency before the frames that paint it.
          w.__bench.searchCommit = null;
          const seen = new MutationObserver(() => {
            if (answered()) { w.__bench.searchCommit = performance.now(); seen.disconnect(); }
          });
          seen.observe(list, { attributes: true, attributeFilter: ['data-query'] });
          setTimeout(() => seen.disconnect(), 1500);
          const tick = () => {
            if (answered()) requestAnimationFrame((t) => resolve(t));
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
      return done == null || !key ? null : { ms: done - key.at, commit: w.__bench.searchCommit == null ? null : w.__bench.searchCommit - key.at };
    });
    if (r == null) unchanged++; else { latencies.push(r.ms); if (r.commit != null) commits.push(r.commit); }
    if (process.env.BENCH_DEBUG) log(`search "${await box.inputValue()}": ${r == null ? 'unchanged' : `${r.ms.toFixed(1)} ms (on the page after ${r.commit?.toFixed(1)} ms)`}`);
    await page.waitForTimeout(100);
  }
  return { latencies, commits, unchanged };
}

/**
 * The renderer main thread's painting while `fn` runs (a Chrome trace, devtools.timeline): the Paint
 * events and their ms. `fn` returns how many answers it timed, so the cost is per keystroke. What
 * the page records behind a dialog shows here, not in the latency of a fast machine (session 39).
 */
export async function paintWork(page: Page, fn: () => Promise<number>): Promise<{ paints: number; ms: number; keys: number }> {
  const browser = page.context().browser()!;
  const file = path.join(os.tmpdir(), `pos-bench-paint-${process.pid}.json`);
  await browser.startTracing(page, { path: file, categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  let keys = 0;
  try { keys = await fn(); } finally { await browser.stopTracing(); }
  const raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  // BENCH_PAINT_TRACE=<file>: keep the trace (chrome://tracing, or bench/trace-summary.mjs).
  if (process.env.BENCH_PAINT_TRACE) fs.copyFileSync(file, process.env.BENCH_PAINT_TRACE);
  fs.rmSync(file, { force: true });
  const events: { name: string; ph: string; pid: number; tid: number; dur?: number; args?: { name?: string } }[] = Array.isArray(raw) ? raw : raw.traceEvents;
  const main = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const paints = events.filter((e) => e.name === 'Paint' && e.ph === 'X' && typeof e.dur === 'number' && main.has(`${e.pid}:${e.tid}`));
  return { paints: paints.length, ms: paints.reduce((sum, e) => sum + e.dur! / 1000, 0), keys };
}

export async function longTasks(page: Page, since = 0): Promise<{ start: number; duration: number }[]> {
  return page.evaluate((s) => (window as any).__bench.longTasks.filter((t: any) => t.start >= s), since);
}

/**
 * Whether the running till finds a product by this exact name, as a cashier would: the item search
 * (Ctrl+F, opened once and left open) lists an option with that name for that query. The till's
 * cache, the search index and the list on screen all have to carry the name for this to be true.
 */
export async function tillFinds(page: Page, name: string, timeoutMs: number): Promise<boolean> {
  const box = page.getByRole('dialog').getByRole('combobox');
  if (!(await box.isVisible().catch(() => false))) {
    await page.locator('[data-testid="scan-input"]').focus();
    await page.keyboard.press('Control+f');
    await box.waitFor({ timeout: 5000 });
  }
  if ((await box.inputValue()) !== name) await box.fill(name);
  return page.waitForFunction((n) => {
    const list = document.querySelector<HTMLElement>('[role="dialog"] [role="listbox"]');
    if (!list || (list.dataset.query !== undefined && list.dataset.query !== n)) return false;
    return Array.from(list.querySelectorAll('[role="option"]')).some((o) => o.textContent?.includes(n));
  }, name, { timeout: timeoutMs, polling: 100 }).then(() => true, () => false);
}

/**
 * Whether any record of the till's IndexedDB databases holds this text (whatever the cache layout):
 * each record's strings searched as the cursor reaches it, stopping at the first that holds it. (It read every record with getAll and turned each into JSON: at
 * 1,000,000 products 157 MB, seconds per check, counted in the propagation line twice.)
 */
export async function cacheHolds(page: Page, text: string): Promise<boolean> {
  return page.evaluate(async (t) => {
    const holds = (v: unknown): boolean => {
      if (typeof v === 'string') return v.includes(t);
      if (v && typeof v === 'object') return Object.values(v).some(holds);
      return false;
    };
    const dbs = (await (indexedDB as any).databases?.()) ?? [{ name: 'pos application' }];
    for (const info of dbs) {
      if (!info.name) continue;
      const db: IDBDatabase = await new Promise((res, rej) => { const r = indexedDB.open(info.name); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
      try {
        for (const name of Array.from(db.objectStoreNames)) {
          const found = await new Promise<boolean>((res) => {
            const r = db.transaction(name, 'readonly').objectStore(name).openCursor();
            r.onsuccess = () => {
              const cursor = r.result;
              if (!cursor) return res(false);
              if (holds(cursor.value)) return res(true);
              cursor.continue();
            };
            r.onerror = () => res(false);
          });
          if (found) return true;
        }
      } finally { db.close(); }
    }
    return false;
  }, text);
}

/**
 * The keyboard-only exact-cash sale of issue 29.3, key by key: the cart is emptied first (not
 * counted), then from the scan box each code arrives as a scanner types it (its characters are the
 * scanner's, its Enter is counted), ctrl+shift+s pays the exact amount in cash and completes, and
 * Escape closes the receipt with the scan box focused for the next customer. Returns the cashier's
 * key presses, or why the sale did not complete.
 */
export async function keyboardSale(page: Page, codes: string[]): Promise<{ keys: number } | { failed: string }> {
  const box = page.locator('[data-testid="scan-input"]');
  const rows = page.locator('[data-testid="cart-row"]');
  if (await rows.count()) {
    await box.focus();
    await page.keyboard.press('Control+x');
    await page.getByRole('dialog').waitFor({ timeout: 5000 });
    await page.keyboard.press('Enter');
    await rows.first().waitFor({ state: 'detached', timeout: 10_000 });
  }
  let keys = 0;
  const press = async (key: string) => { keys++; await page.keyboard.press(key); };
  await box.focus();
  for (const [i, code] of codes.entries()) {
    await page.keyboard.insertText(code);
    await press('Enter');
    try { await rows.nth(i).waitFor({ timeout: 5000 }); } catch { return { failed: `${code} gave no cart row` }; }
  }
  await press('Control+Shift+S');
  const receipt = page.getByRole('dialog');
  try { await receipt.waitFor({ timeout: 10_000 }); } catch { return { failed: 'ctrl+shift+s opened no receipt' }; }
  await press('Escape');
  try { await receipt.waitFor({ state: 'detached', timeout: 5000 }); } catch { return { failed: 'Escape left the receipt open' }; }
  const ready = await box.evaluate((el) => el === document.activeElement);
  return ready ? { keys } : { failed: 'the scan box did not get focus back after the receipt' };
}
