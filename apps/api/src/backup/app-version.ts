import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let version: string | undefined;

/** This release's version: the API package's, found above this file (source or a compiled build). */
export function appVersion(): string {
  if (version) return version;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@pos/api' && pkg.version) return (version = pkg.version);
    } catch { /* no package.json here */ }
    if (dir === path.dirname(dir)) return (version = 'unknown');
  }
}
