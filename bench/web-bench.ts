/**
 * The web half of `npm run bench`: the till in Debian's Chromium (Playwright, never a downloaded
 * browser) against the real server with a big catalogue, all on this machine.
 *
 *   node --import tsx bench/web-bench.ts [--quick] [--keep] [--products N [--db <url of a generated shop of N products>]]
 *
 * Measures: the JavaScript shipped for login + till (bytes as transferred, brotli), cold start with an empty browser to
 * ready-to-sell with every product searchable, warm start from IndexedDB, scan-to-line, fuzzy
 * search per keystroke, long tasks while searching, the key presses of a keyboard-only sale, and how fast a product changed on the server
 * reaches the till's cache. What the harness relies on in the page (docs/performance.md, "Till
 * hooks"): [data-testid=scan-input], [data-testid=cart-row], [data-testid=catalogue-ready] once
 * the products are loaded ([data-testid=catalogue-progress] while loading), Ctrl+F opening the item search
 * dialog (role=combobox input, role=listbox results, data-query on the listbox when available),
 * and the product cache in IndexedDB 'pos application' (any layout: the check looks for the text).
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { generateCatalogue } from './generate-catalogue.ts';
import {
  QUICK, ROOT, cleanupOnExit, createThrowawayDb, dropAll, log, median, metric, percentile, pgReachable, request, round,
  startServer, stopAllServers, waitQuiet, writeResults, type Metric,
} from './lib.ts';
import { buildWeb, measureBundle } from './web-bundle.ts';
import {
  FRAME_MS, SCANNER_KEY_MS, cacheHolds, keyboardSale, longTasks, newContext, paintWork, profiled, scan, signInThroughForm, tillFinds, typeSearch, waitReady, type Session,
} from './web-page.ts';

const KEEP = process.argv.includes('--keep');
const argOf = (name: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
/** --products N: another catalogue size (results in bench/out/web-<N>.json, beside the 100k run's web.json). */
const PRODUCTS = argOf('--products') ? Number(argOf('--products')) : undefined;
/** --db URL: a database already generated with bench/generate-catalogue.ts (--products must say its size); kept. */
const GIVEN_DB = argOf('--db');
/** --bundle-only: measure only the JavaScript line (small catalogue); the other web lines keep their last results. */
const BUNDLE_ONLY = process.argv.includes('--bundle-only');
const CFG = QUICK
  ? { products: 20_000, coldRuns: 3, warmRuns: 3, scans: 20, scanRuns: 3, searchRuns: 3, readyTimeoutS: 120 }
  : { products: 100_000, coldRuns: 3, warmRuns: 3, scans: 40, scanRuns: 3, searchRuns: 3, readyTimeoutS: 600 };
if (PRODUCTS) Object.assign(CFG, { products: PRODUCTS, readyTimeoutS: Math.max(CFG.readyTimeoutS, Math.ceil(PRODUCTS / 1000)) });
const OUT_FILE = PRODUCTS && PRODUCTS !== 100_000 ? `web-${PRODUCTS}.json` : 'web.json';
/**
 * Issue 24's lines (a till faster than a frame): cold start 2 s at 100k and 15 s at 1M products,
 * warm start 0.5 s, search 50 ms at 100k and 100 ms at 1M; the scan's line in the first frame after
 * the Enter (its latency to the screen is then at most two refreshes: the one the key waited for
 * and the one that shows it, 33 ms at 60 Hz; docs/performance.md "Scan to line").
 */
const BIG = CFG.products >= 1_000_000;
const BUDGET = { coldS: BIG ? 15 : 2, warmS: 0.5, scanMs: 33, searchMs: BIG ? 100 : 50 };
/** Median over runs of each run's p50 and of each run's p95 (as the API half reports its runs). */
function overRuns(runs: number[][]): { median: number; p95: number; runs: number } {
  const done = runs.filter((r) => r.length);
  return { median: round(median(done.map((r) => percentile(r, 50))), 1), p95: round(median(done.map((r) => percentile(r, 95))), 1), runs: done.length };
}
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SEARCHES = ['fresh milk', 'royal chees', 'cobalt sneakers', 'organic honey 1kg', 'zephyr'];

const metrics: Metric[] = [];
const extra: Record<string, unknown> = { config: CFG };
const section = OUT_FILE === 'web.json' ? 'Web' : `Web at ${CFG.products.toLocaleString('en')} products`;

/** The origin's storage use once it stops growing (2 s the same), or after 60 s. */
async function settledUsage(page: Page): Promise<number> {
  const usage = () => page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
  let last = await usage();
  for (const t0 = Date.now(); Date.now() - t0 < 60_000;) {
    await page.waitForTimeout(2000);
    const now = await usage();
    if (now === last) return now;
    last = now;
  }
  return last;
}

function skip(id: string, label: string, budget: string, why: string) {
  metrics.push(metric({ id, section, metric: label, unit: '', budget, skipped: why }));
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
  extra.webBuildSeconds = built.seconds;
  const db = GIVEN_DB ? { url: GIVEN_DB } : await createThrowawayDb('web');
  let browser: Browser | undefined;
  try {
    log(GIVEN_DB ? `a shop of ${CFG.products} products given (--db)` : `generating ${CFG.products} products...`);
    if (!GIVEN_DB) await generateCatalogue(db.url, { products: BUNDLE_ONLY ? 1000 : CFG.products });
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

    // ---- cold start (fresh context = empty HTTP cache and IndexedDB), then warm starts
    const coldTimes: number[] = [];
    const idbMb: number[] = [];
    const coldLong: number[] = [];
    let warmContext: BrowserContext | undefined;
    let coldError: string | undefined;
    let coldTimedOut: { ms: number; progress: string } | undefined;
    for (let r = 0; r < (BUNDLE_ONLY ? 0 : CFG.coldRuns); r++) {
      // A start far over budget will not change verdict with more runs: two are enough (the first
      // reads the catalogue from the database, the second gets the answer the server kept from it,
      // as every later till does: web.cold is their median at every size).
      if (coldTimes.length >= 2 && coldTimes[1] > 3 * 10_000) break;
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
        const scanMs = (await scan(page, lastCode, 10_000))?.ms;
        if (scanMs == null) throw new Error(`ready after ${ms} ms but the last product (${lastCode}) did not scan into a line`);
        coldTimes.push(ms);
        coldLong.push(Math.max(0, ...(await longTasks(page)).map((t) => t.duration)));
        // What the till keeps on the device for this catalogue (the origin's storage: IndexedDB),
        // once its cache write is done (seconds after ready at 1,000,000 products): the usage
        // read until it holds still for two seconds, at most 60 s.
        idbMb.push((await settledUsage(page)) / 1024 / 1024);
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
      metrics.push(metric({ id: 'web.cold', section, metric: `Till cold start, empty browser, cashier signs in -> ready to sell, ${CFG.products.toLocaleString('en')} products searchable`, unit: 's', budget: `<= ${BUDGET.coldS} s`, limit: { op: '<=', value: BUDGET.coldS }, on: 'median', median: round(median(coldTimes) / 1000, 2), p95: round(Math.max(...coldTimes) / 1000, 2), runs: coldTimes.length, note: `p95 column = slowest run; from opening / through the login form (typed by the bench: the human's typing time is not in it) to ready; longest main-thread task ${round(Math.max(...coldLong), 0)} ms` }));
      // The first start after the server started reads the catalogue from the database; the next
      // ones are sent the answer the server kept (CATALOGUE_KEEP_S) and bring it up to date.
      metrics.push(metric({ id: 'web.cold.first', section, metric: `Till cold start, the first after the server started (the catalogue read from the database, not a kept answer), ${CFG.products.toLocaleString('en')} products`, unit: 's', budget: `<= ${BUDGET.coldS} s`, limit: { op: '<=', value: BUDGET.coldS }, on: 'median', median: round(coldTimes[0] / 1000, 2), p95: round(coldTimes[0] / 1000, 2), runs: 1, note: `the other ${coldTimes.length - 1} cold starts (in web.cold) got the answer the server kept from this one` }));
      if (idbMb.length) metrics.push(metric({ id: 'web.idb', section, metric: `Till storage on the device (IndexedDB) for ${CFG.products.toLocaleString('en')} products`, unit: 'MB', budget: '<= 400 MB', limit: { op: '<=', value: 400 }, on: 'median', median: round(median(idbMb), 0), p95: round(Math.max(...idbMb), 0), runs: idbMb.length, note: 'navigator.storage.estimate() usage after a cold start; p95 column = largest' }));
    } else if (coldTimedOut) {
      metrics.push(metric({ id: 'web.cold', section, metric: `Till cold start, empty browser cache -> ready to sell, ${CFG.products.toLocaleString('en')} products searchable`, unit: 's', budget: `<= ${BUDGET.coldS} s`, limit: { op: '<=', value: BUDGET.coldS }, on: 'median', median: Infinity, p95: Infinity, runs: 1, note: `not ready after ${round(coldTimedOut.ms / 1000, 0)} s (cap); progress then: "${coldTimedOut.progress}"` }));
    } else {
      skip('web.cold', 'Till cold start -> ready to sell', `<= ${BUDGET.coldS} s`, `till not ready: ${coldError ?? 'no run'}`);
    }

    // ---- bundle: JS fetched for the login page, then for the till. After the cold starts: its till
    // loads the catalogue, and the first cold start must be the first full sync of this server (web.cold.first).
    {
      await waitQuiet('bundle');
      const bundled = await measureBundle(browser, server, session, section);
      metrics.push(bundled.metric);
      Object.assign(extra, bundled.extra);
    }

    // --bundle-only: the bundle line alone (the finally below cleans up and writes the results)
    if (BUNDLE_ONLY) return;

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
      if (warm.length) metrics.push(metric({ id: 'web.warm', section, metric: 'Till warm start from IndexedDB -> ready to sell', unit: 's', budget: `<= ${BUDGET.warmS} s`, limit: { op: '<=', value: BUDGET.warmS }, on: 'median', median: round(median(warm) / 1000, 2), p95: round(Math.max(...warm) / 1000, 2), runs: warm.length, note: 'p95 column = slowest run' }));
      else skip('web.warm', 'Till warm start from IndexedDB', `<= ${BUDGET.warmS} s`, 'warm start did not reach ready');
    } else {
      skip('web.warm', 'Till warm start from IndexedDB', `<= ${BUDGET.warmS} s`, 'needs a cold start first');
    }

    // ---- scan to line
    const eventNote = (events: Array<number | null>) => {
      const over = events.filter((e): e is number => e != null);
      return `${events.length - over.length} of ${events.length} under 16 ms${over.length ? `, the rest p50 ${round(percentile(over, 50), 0)} / max ${round(Math.max(...over), 0)} ms` : ''}`;
    };
    if (page) {
      await waitQuiet('scan');
      const runs: number[][] = [];
      const frames: number[] = [];
      // Event Timing (the browser's own key down -> next paint): null when under its 16 ms floor.
      const events: Array<number | null> = [];
      let missed = 0;
      const since = await page.evaluate(() => performance.now());
      for (let run = 0; run < CFG.scanRuns; run++) await profiled(page, 'scan', async () => { const lat: number[] = []; runs.push(lat); for (let i = run * CFG.scans; i < (run + 1) * CFG.scans; i++) {
        // Spread over the catalogue; every 4th a variant barcode (product barcode + variant number).
        let n = 1 + Math.floor(((i * 7919) % CFG.products));
        if (n % 5 === 0) n -= 1; // every 5th product has variants: its own barcode opens a chooser
        const variantProduct = Math.max(5, Math.floor(n / 5) * 5);
        const code = i % 4 === 3 ? `${2000000000000 + variantProduct}1` : String(2000000000000 + n);
        const r = await scan(page, code);
        if (r == null) missed++; else { lat.push(r.ms); frames.push(r.frames); events.push(r.eventMs); }
        if (process.env.BENCH_DEBUG) log(`scan ${code}: ${r == null ? 'no row' : `${r.ms.toFixed(1)} ms, frame ${r.frames}, Event Timing ${r.eventMs ?? '< 16'} ms`}`);
      } });
      const lt = await longTasks(page, since);
      const scans = runs.flat().length;
      if (scans) {
        metrics.push(metric({ id: 'web.scan', section, metric: `Scan to line: barcode typed at a scanner's pace, Enter -> row painted (${CFG.products.toLocaleString('en')} products)`, unit: 'ms', budget: `p95 <= ${BUDGET.scanMs} ms`, limit: { op: '<=', value: BUDGET.scanMs }, ...overRuns(runs), note: `${runs.length} runs of ${CFG.scans} scans (${scans} timed${missed ? `, ${missed} gave no new row` : ''}), each code typed key by key every ${SCANNER_KEY_MS} ms then Enter; the cart keeps every line; Enter (its event time stamp) -> the rendering of the frame that shows the row done, both in the page; the browser's Event Timing for the same Enters: ${eventNote(events)}; longest task ${round(Math.max(0, ...lt.map((t) => t.duration)), 0)} ms` }));
        const next = frames.filter((f) => f === 1).length;
        metrics.push(metric({ id: 'web.scan.frame', section, metric: 'Scan to line: the frame after the Enter that paints the row (1 = the very next one)', unit: 'frames', budget: 'p95 <= 1', limit: { op: '<=', value: 1 }, on: 'p95', median: percentile(frames, 50), p95: percentile(frames, 95), runs: runs.length, note: `${next} of ${frames.length} scans in the next frame (${round((100 * next) / frames.length, 0)}%), ${frames.filter((f) => f === 2).length} in the second, ${frames.filter((f) => f > 2).length} later; 60 Hz refresh (${round(FRAME_MS, 1)} ms)` }));
      } else skip('web.scan', 'Scan to line', `p95 <= ${BUDGET.scanMs} ms`, `no scan produced a cart row ([data-testid=cart-row])`);
    } else skip('web.scan', 'Scan to line', `p95 <= ${BUDGET.scanMs} ms`, 'till not ready');

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
        const commitRuns: number[][] = [];
        let unchanged = 0;
        for (let run = 0; run < CFG.searchRuns; run++) {
          await profiled(page, 'search', async () => {
            const lat: number[] = [];
            const com: number[] = [];
            runs.push(lat);
            commitRuns.push(com);
            for (const q of SEARCHES) {
              const r = await typeSearch(page, q);
              lat.push(...r.latencies);
              com.push(...r.commits);
              unchanged += r.unchanged;
            }
          });
        }
        const lat = runs.flat();
        const lt = await longTasks(page, since);
        const maxTask = Math.max(0, ...lt.map((t) => t.duration));
        const hasQueryHook = await page.evaluate(() => (document.querySelector('[role="dialog"] [role="listbox"]') as HTMLElement | null)?.dataset.query !== undefined);
        metrics.push(metric({ id: 'web.search', section, metric: `Item search dialog: keystroke -> results painted (${CFG.products.toLocaleString('en')} products)`, unit: 'ms', budget: `p95 <= ${BUDGET.searchMs} ms`, limit: { op: '<=', value: BUDGET.searchMs }, ...overRuns(runs), note: `${runs.length} runs, ${lat.length} keystrokes in all${unchanged ? `, ${unchanged} with results looking unchanged within 1.5 s (not counted)` : ''}; ${hasQueryHook ? 'listbox data-query hook' : 'first change of the dialog after the key (no data-query hook)'}; the typist waits for each answer` }));
        metrics.push(metric({ id: 'web.search.commit', section, metric: 'Item search: keystroke -> its answer on the page (before the frames that paint it)', unit: 'ms', budget: '', ...overRuns(commitRuns), note: 'the listbox\'s data-query set to the typed text (a MutationObserver); web.search adds the frame that paints it and the next one' }));
        metrics.push(metric({ id: 'web.longtask', section, metric: 'Longest main-thread task while searching', unit: 'ms', budget: '<= 100 ms', limit: { op: '<=', value: 100 }, on: 'median', median: round(maxTask, 0), p95: round(maxTask, 0), runs: runs.length, note: `over ${runs.length} search runs: ${lt.length} long tasks (> 50 ms), ${lt.filter((t) => t.duration > 100).length} over 100 ms` }));
        // What painting a keystroke's answer costs with the scans' cart behind the dialog (session 39:
        // an uncontained scroller re-recorded the whole cart at every frame, 5x the paint).
        const cartLines = await page.locator('[data-testid="cart-row"]').count();
        const work = await paintWork(page, async () => {
          let keys = 0;
          for (const q of SEARCHES) keys += (await typeSearch(page, q)).latencies.length;
          return keys;
        });
        const perKey = work.keys ? round(work.ms / work.keys, 2) : Infinity;
        metrics.push(metric({ id: 'web.search.paint', section, metric: 'Painting per search keystroke, the cart of the scans behind the dialog (renderer main thread)', unit: 'ms', budget: '<= 2 ms', limit: { op: '<=', value: 2 }, on: 'median', median: perKey, p95: perKey, runs: 1, note: `${work.paints} Paint events, ${round(work.ms, 0)} ms over ${work.keys} keystrokes; ${cartLines} cart lines; Chrome trace (devtools.timeline)` }));
        await page.keyboard.press('Escape');
      } else {
        skip('web.search', 'Item search: keystroke -> results', `p95 <= ${BUDGET.searchMs} ms`, 'Ctrl+F did not open a dialog with a combobox');
        skip('web.longtask', 'Longest main-thread task while searching', '<= 100 ms', 'no search dialog');
        skip('web.search.paint', 'Painting per search keystroke', '<= 2 ms', 'no search dialog');
      }
    } else {
      skip('web.search', 'Item search: keystroke -> results', `p95 <= ${BUDGET.searchMs} ms`, 'till not ready');
      skip('web.longtask', 'Longest main-thread task while searching', '<= 100 ms', 'till not ready');
      skip('web.search.paint', 'Painting per search keystroke', '<= 2 ms', 'till not ready');
    }

    // ---- the keyboard-only exact-cash sale of 2 items (issue 29.3): key presses, not time
    if (page) {
      const sale = await keyboardSale(page, [String(2000000000000 + 1), String(2000000000000 + 2)]);
      if ('keys' in sale) metrics.push(metric({ id: 'web.keys', section, metric: 'Keyboard-only sale of 2 items paid with exact cash: the cashier\'s key presses from the scan box to ready for the next customer', unit: 'keys', budget: '<= 12', limit: { op: '<=', value: 12 }, on: 'median', median: sale.keys, p95: sale.keys, runs: 1, note: 'scanner codes not counted (their Enter is); ctrl+shift+s pays and completes; Escape closes the receipt with the scan box focused' }));
      else skip('web.keys', 'Keyboard-only 2-item exact-cash sale: key presses', '<= 12', sale.failed);
    } else skip('web.keys', 'Keyboard-only 2-item exact-cash sale: key presses', '<= 12', 'till not ready');

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
        const since = await page.evaluate(() => performance.now());
        const t0 = Date.now();
        const put = await request('PUT', `${server.url}/api/products/${id}`, { name }, admin);
        if (put.status !== 200) throw new Error(`PUT product: ${put.status} ${put.body.slice(0, 200)}`);
        // Seen = the running till's search lists it AND its offline cache holds it (a reload would keep it).
        let seen = (await tillFinds(page, name, 30_000)) ? Date.now() - t0 : null;
        // The check's own time is in the figure (at most one check late): its last duration goes in the note.
        let check = 0;
        const listed = seen;
        if (seen != null) {
          seen = null;
          while (Date.now() - t0 < 30_000) {
            const c0 = Date.now();
            const held = await cacheHolds(page, name);
            check = Date.now() - c0;
            if (held) { seen = Date.now() - t0; break; }
            await page.waitForTimeout(250);
          }
        }
        // The change applied on the till's main thread (the cache checks' own tasks are the bench's and are in it too).
        const longest = Math.max(0, ...(await longTasks(page, since)).map((t) => t.duration));
        if (seen != null) metrics.push(metric({ id: 'web.propagation', section, metric: 'Product changed on the server -> in the till cache (no reload)', unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: round(seen / 1000, 1), p95: round(seen / 1000, 1), runs: 1, note: `PUT /api/products/{id} rename -> the running till's item search lists the new name and its IndexedDB cache holds it; listed by the search after ${round((listed ?? 0) / 1000, 1)} s; the last cache check took ${round(check / 1000, 2)} s; longest main-thread task meanwhile ${round(longest, 0)} ms (the checks' included)` }));
        else metrics.push(metric({ id: 'web.propagation', section, metric: 'Product changed on the server -> in the till cache (no reload)', unit: 's', budget: '<= 10 s', limit: { op: '<=', value: 10 }, on: 'median', median: Infinity, p95: Infinity, runs: 1, note: 'not seen within 30 s' }));
      }
    } else skip('web.propagation', 'Product change -> till cache', '<= 10 s', 'till not ready');
  } finally {
    await browser?.close().catch(() => {});
    await stopAllServers();
    if (KEEP || GIVEN_DB) log(`kept database: ${db.url}`); else await dropAll();
    fs.rmSync(path.dirname(built.dir), { recursive: true, force: true });
    if (BUNDLE_ONLY) finish();
  }
  finish();
}

const ALL: [string, string, string][] = [
  ['web.bundle', 'JavaScript for login + till as transferred', '<= 150 KB brotli'],
  ['web.cold', 'Till cold start -> ready to sell', `<= ${BUDGET.coldS} s`],
  ['web.cold.first', 'Till cold start, the first after the server started', `<= ${BUDGET.coldS} s`],
  ['web.idb', 'Till storage on the device (IndexedDB)', '<= 400 MB'],
  ['web.warm', 'Till warm start from IndexedDB', `<= ${BUDGET.warmS} s`],
  ['web.scan', 'Scan to line', `p95 <= ${BUDGET.scanMs} ms`],
  ['web.scan.frame', 'Scan to line: frames after the Enter', 'p95 <= 1'],
  ['web.search', 'Item search: keystroke -> results', `p95 <= ${BUDGET.searchMs} ms`],
  ['web.longtask', 'Longest main-thread task while searching', '<= 100 ms'],
  ['web.search.paint', 'Painting per search keystroke', '<= 2 ms'],
  ['web.keys', 'Keyboard-only 2-item exact-cash sale: key presses', '<= 12'],
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
  writeResults(OUT_FILE, metrics, extra);
  for (const m of metrics) log(`${m.id}: median ${m.median} p95 ${m.p95} ${m.unit}${m.skipped ? ` (not measured: ${m.skipped})` : ''}`);
}

main().catch(async (e) => {
  console.error(e);
  await stopAllServers();
  if (!KEEP) await dropAll();
  writeResults(OUT_FILE, [...metrics, metric({ id: 'web.error', section, metric: 'Web bench', unit: '', budget: '', skipped: `crashed: ${String((e as Error).message).slice(0, 200)}` })], extra);
  process.exit(1);
});
