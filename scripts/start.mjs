#!/usr/bin/env node
// `npm start`: the production server, compiled JavaScript run by plain node (no tsx, no Vite).
// On a fresh clone (no build yet) or after the sources changed (a git pull), it runs
// `npm run build` first; then it loads apps/api/dist/server.js. The server runs with its memory
// flags (scripts/server-flags.mjs): without them on the command line, this script starts itself
// again with them and passes signals (SIGTERM from a service manager, Ctrl-C) on.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runWithServerFlags } from './server-flags.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const api = path.join(root, 'apps/api/dist/server.js');
const web = path.join(root, 'apps/web/dist/index.html');

const mtime = (file) => { try { return fs.statSync(file).mtimeMs; } catch { return 0; } };
/** The newest modification time under these folders/files (what a build is made from). */
function newest(paths) {
  let max = 0;
  const walk = (p) => {
    let st;
    try { st = fs.statSync(p); } catch { return; }
    if (st.isDirectory()) { for (const e of fs.readdirSync(p)) if (e !== 'node_modules' && e !== 'dist') walk(path.join(p, e)); } else max = Math.max(max, st.mtimeMs);
  };
  for (const p of paths) walk(path.join(root, p));
  return max;
}

await runWithServerFlags(import.meta.url, async () => {
  const domain = ['packages/domain/src'];
  const missing = [!mtime(api) && 'the API', !mtime(web) && 'the web app'].filter(Boolean);
  const stale = [
    mtime(api) && newest(['apps/api/src', ...domain]) > mtime(api) && 'the API',
    mtime(web) && newest(['apps/web/src', 'apps/web/index.html', 'apps/web/public', 'apps/web/sw', ...domain]) > mtime(web) && 'the web app',
  ].filter(Boolean);

  if (missing.length || stale.length) {
    console.log(`Building ${[...missing, ...stale].join(' and ')} (${missing.length ? 'no build yet' : 'sources changed since the last build'}): npm run build`);
    const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) {
      if (missing.length) {
        console.error(`POS cannot start: the build failed and there is no earlier build of ${missing.join(' and ')}. Run npm install (with the dev dependencies) and npm run build.`);
        process.exit(1);
      }
      console.warn('The build failed: starting the previous build.');
    }
  }

  await import(pathToFileURL(api).href);
});
