#!/usr/bin/env node
// `npm run user:create -- ...`: in development (tsx installed) the CLI's TypeScript source; on a
// shop's machine installed with `npm ci --omit=dev` the compiled one (dist/create-user.js, made by
// npm run build). stdin, stdout and the exit code are the CLI's own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const api = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
let hasTsx = true;
try { createRequire(import.meta.url).resolve('tsx'); } catch { hasTsx = false; }
const compiled = path.join(api, 'dist/create-user.js');
if (!hasTsx && !fs.existsSync(compiled)) {
  console.error('user:create: no build (apps/api/dist/create-user.js) and no tsx: run npm run build first.');
  process.exit(1);
}
const argv = hasTsx ? ['--import', 'tsx', path.join(api, 'src/cli/create-user.ts'), ...args] : [compiled, ...args];
const r = spawnSync(process.execPath, argv, { stdio: 'inherit' });
process.exit(r.status ?? 1);
