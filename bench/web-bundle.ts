/**
 * The web bench's bundle line (bench/web-bench.ts): builds the web app into a private folder as
 * `npm run build` does (with the precompressed copies the server sends), then counts the
 * JavaScript a browser fetches for the login page and the till, in bytes as transferred.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import type { Browser } from '@playwright/test';
import { ROOT, metric, round, type Metric, type Server } from './lib.ts';
import { INIT, type Session } from './web-page.ts';

/** Builds the web app into a private folder (never touches apps/web/dist, which others use). */
export function buildWeb(): { dir: string; seconds: number } | { error: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-bench-web-'));
  const t0 = performance.now();
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', '--outDir', path.join(dir, 'dist'), '--emptyOutDir'], {
    cwd: path.join(ROOT, 'apps/web'), encoding: 'utf8', timeout: 10 * 60 * 1000,
  });
  if (r.status !== 0) return { error: `vite build failed: ${(r.stderr || r.stdout || '').split('\n').filter(Boolean).slice(-3).join(' / ').slice(0, 300)}` };
  // As `npm run build` does: the .br/.gz copies the server sends (the bytes a browser receives).
  const pc = spawnSync(process.execPath, [path.join(ROOT, 'apps/web/scripts/precompress.mjs'), path.join(dir, 'dist')], { encoding: 'utf8' });
  if (pc.status !== 0) return { error: `precompress failed: ${(pc.stderr || pc.stdout || '').slice(0, 300)}` };
  return { dir: path.join(dir, 'dist'), seconds: round((performance.now() - t0) / 1000, 1) };
}

/** JS fetched for the login page, then for the till, as transferred: the metric and its details. */
export async function measureBundle(browser: Browser, server: Server, session: Session, section: string): Promise<{ metric: Metric; extra: Record<string, unknown> }> {
  const extra: Record<string, unknown> = {};
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
  const result = metric({
    id: 'web.bundle', section, metric: `JavaScript for login + till as transferred (${files.length} files, ${round(raw, 0)} KB raw)`, unit: 'KB', budget: '<= 150 KB brotli',
    limit: { op: '<=', value: 150 }, on: 'median', median: round(wire, 1), p95: round(wire, 1), runs: 1,
    note: `login ${byPhase('login')} KB + till ${byPhase('till')} KB + workers ${byPhase('worker')} KB; content-encoding: ${encodings}; service worker precaches another ${round(precacheWire / 1024, 1)} KB (other chunks, in the background); largest: ${[...files].sort((a, b) => b.wire - a.wire).slice(0, 6).map((f) => `${path.basename(f.file).replace(/-[\w-]{8}\.js$/, '')} ${f.wireKb}`).join(', ')}`,
  });
  await context.close();
  return { metric: result, extra };
}
