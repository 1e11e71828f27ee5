#!/usr/bin/env node
// After `vite build` (`node scripts/precompress.mjs [dist folder]`): writes a brotli (.br) and gzip (.gz) copy next to each text asset of dist/,
// which the API serves as is (@fastify/static preCompressed) instead of compressing per request.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

// The folder: apps/web/dist, or the one given (the bench builds into a private folder).
const dist = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../dist'));
const TEXT = /\.(js|mjs|css|html|svg|json|webmanifest|txt|ico)$/;
let files = 0;
let raw = 0;
let br = 0;
function walk(dir) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) { walk(p); continue; }
    if (!TEXT.test(e.name)) continue;
    const data = fs.readFileSync(p);
    if (data.length < 1024) continue;
    const b = zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } });
    fs.writeFileSync(`${p}.br`, b);
    fs.writeFileSync(`${p}.gz`, zlib.gzipSync(data, { level: 9 }));
    files++; raw += data.length; br += b.length;
  }
}
walk(dist);
console.log(`precompressed ${files} files: ${(raw / 1024).toFixed(0)} KB -> ${(br / 1024).toFixed(0)} KB brotli`);
