#!/usr/bin/env node
// `npm run build -w @pos/api`: the API (and the @pos/domain code it uses) compiled once to
// JavaScript for plain `node`: dist/server.js and the command line tools dist/{create-user,print-agent,backup,restore,db-move}.js (ES modules, source maps),
// dist/migrations (Drizzle's folder, found next to the compiled code). npm packages stay outside
// the bundle and load from node_modules as installed; only our own TypeScript is compiled.
// Why esbuild, not tsc emit: ARCHITECTURE.md "Production build".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const api = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const domain = path.resolve(api, '../../packages/domain/src');
const out = path.join(api, 'dist');
const started = Date.now();

// Build into a fresh folder, then swap it in: a running server never sees half a build.
const tmp = `${out}.tmp`;
fs.rmSync(tmp, { recursive: true, force: true });
await build({
  absWorkingDir: api,
  entryPoints: {
    server: 'src/server.ts',
    'create-user': 'src/cli/create-user.ts',
    'print-agent': 'src/cli/print-agent.ts',
    backup: 'src/cli/backup.ts',
    restore: 'src/cli/restore.ts',
    'db-move': 'src/cli/db-move.ts',
    // The front thread's file (net/front.ts starts it from dist/front-worker.js).
    'front-worker': 'src/net/front-worker.ts',
  },
  outdir: tmp,
  bundle: true,
  // Shared code and lazily imported modules (net/certs.ts: @peculiar/x509 only when HTTPS needs a
  // certificate) go to chunks in dist/ itself: code that finds files from import.meta.url
  // (config.ts, db/client.ts) must sit there.
  splitting: true,
  chunkNames: '[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  // Every npm package is loaded from node_modules at run time; our workspace package is compiled in.
  packages: 'external',
  plugins: [{
    name: 'pos-domain',
    setup(b) {
      b.onResolve({ filter: /^@pos\/domain\// }, (args) => ({ path: path.join(domain, `${args.path.slice('@pos/domain/'.length)}.ts`) }));
    },
  }],
  logLevel: 'warning',
});
fs.cpSync(path.join(api, 'src/db/migrations'), path.join(tmp, 'migrations'), { recursive: true });
fs.writeFileSync(path.join(tmp, 'package.json'), '{ "type": "module" }\n');
fs.rmSync(out, { recursive: true, force: true });
fs.renameSync(tmp, out);
console.log(`API built into ${path.relative(process.cwd(), out) || out} in ${Date.now() - started} ms`);
