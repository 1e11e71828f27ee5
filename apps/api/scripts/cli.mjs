#!/usr/bin/env node
// `node apps/api/scripts/cli.mjs <name> ...`: runs the command line tool src/cli/<name>.ts: in
// development (tsx installed) its TypeScript source; on a shop's machine installed with
// `npm ci --omit=dev` the compiled dist/<name>.js (made by npm run build). Used by the npm scripts
// user:create, backup, restore, db:move and print-agent. stdin, stdout and the exit code are the tool's own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const api = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [name, ...args] = process.argv.slice(2);
if (!name || !/^[a-z-]+$/.test(name) || !fs.existsSync(path.join(api, 'src/cli', `${name}.ts`))) {
  console.error(`cli: unknown tool ${name ?? '(none)'}`);
  process.exit(2);
}
let hasTsx = true;
try { createRequire(import.meta.url).resolve('tsx'); } catch { hasTsx = false; }
const compiled = path.join(api, 'dist', `${name}.js`);
if (!hasTsx && !fs.existsSync(compiled)) {
  console.error(`${name}: no build (apps/api/dist/${name}.js) and no tsx: run npm run build first.`);
  process.exit(1);
}
const argv = hasTsx ? ['--import', 'tsx', path.join(api, 'src/cli', `${name}.ts`), ...args] : [compiled, ...args];
const r = spawnSync(process.execPath, argv, { stdio: 'inherit' });
process.exit(r.status ?? 1);
