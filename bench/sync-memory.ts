/**
 * The full catalogue sync's cost to the API (issue 24): time to first byte, total time and bytes of
 * one `GET /api/catalogue/sync` with gzip, as a till starts, and the server's peak RSS meanwhile
 * (VmRSS every 50 ms), on a server started for each run, one sync at a time.
 *
 *   node --import tsx bench/sync-memory.ts <database url> [runs=3] [entry ...]
 *
 * <database url>: a generated catalogue (bench/generate-catalogue.ts --keep). Each `entry` is a
 * built server (apps/api/dist/server.js by default, built first); with several, the runs alternate
 * between them (before/after on the same machine). Signs in as till01 (password "till").
 * Also prints a hash of the decompressed answer without its cursor: the same catalogue gives the
 * same hash whatever the entry.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { log, login, rssOf, startServer } from './lib.ts';

const [url, runsArg = '3', ...entries] = process.argv.slice(2);
if (!url) throw new Error('usage: sync-memory.ts <database url> [runs] [entry ...]');
const runs = Number(runsArg);

interface Sample { status: number; ttfbMs: number; totalMs: number; bytes: number; jsonBytes: number; products: number; hash: string }

function syncOnce(base: string, headers: Record<string, string>): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfbMs = 0;
    const req = http.get(`${base}/api/catalogue/sync`, { headers: { ...headers, 'accept-encoding': 'gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => { if (!ttfbMs) ttfbMs = performance.now() - t0; chunks.push(c); });
      res.on('end', () => {
        const totalMs = performance.now() - t0;
        const body = Buffer.concat(chunks);
        const text = (res.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(body) : body).toString('utf8');
        // A refused sync (503: the sync class's statement limit) is a result too.
        const products = res.statusCode === 200 ? (JSON.parse(text) as { products: unknown[] }).products.length : 0;
        const hash = crypto.createHash('sha256').update(text.replace(/"cursor":"\d+"/, '"cursor":""')).digest('hex').slice(0, 12);
        resolve({ status: res.statusCode ?? 0, ttfbMs, totalMs, bytes: body.length, jsonBytes: Buffer.byteLength(text), products, hash });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

const list = entries.length ? entries : [''];
const results: Array<Sample & { entry: string; baseRssMb: number; peakRssMb: number }> = [];
for (let run = 0; run < runs; run++) {
  for (const entry of list) {
    if (entry) process.env.BENCH_API_ENTRY = entry; else delete process.env.BENCH_API_ENTRY;
    const server = await startServer(url);
    try {
      const headers = await login(server.url, 'till01', 'till');
      await new Promise((r) => setTimeout(r, 500));
      const baseRssMb = rssOf(server.pid);
      let peakRssMb = baseRssMb;
      const sampler = setInterval(() => { peakRssMb = Math.max(peakRssMb, rssOf(server.pid)); }, 50);
      const s = await syncOnce(server.url, headers).finally(() => clearInterval(sampler));
      peakRssMb = Math.max(peakRssMb, rssOf(server.pid));
      results.push({ entry: entry || 'apps/api/dist/server.js', ...s, baseRssMb, peakRssMb });
      log(`${entry || 'dist'} run ${run + 1}: ${s.status}, ttfb ${s.ttfbMs.toFixed(0)} ms, total ${s.totalMs.toFixed(0)} ms, ${(s.bytes / 1e6).toFixed(2)} MB gzip (${(s.jsonBytes / 1e6).toFixed(1)} MB JSON, ${s.products} products, ${s.hash}), RSS ${baseRssMb.toFixed(0)} -> peak ${peakRssMb.toFixed(0)} MB; load ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
    } finally {
      await server.stop();
    }
  }
}
console.log(JSON.stringify(results, null, 1));
