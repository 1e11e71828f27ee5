/**
 * Issue 24 (API memory under sale load): `npm start` runs the server with the memory flags of
 * scripts/server-flags.mjs — started without them, the launcher starts itself again with them and
 * passes signals on. Shown on a stand-in for the server (the launcher's own function, a script
 * that churns short-lived objects like a sale load and reports its young generation), so that a
 * launcher that forgets the flags or swallows SIGTERM fails here, not in a shop.
 */
import { afterAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const flagsModule = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../scripts/server-flags.mjs');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-launcher-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const standIn = `
import v8 from 'node:v8';
import { runWithServerFlags } from ${JSON.stringify(pathToFileURL(flagsModule).href)};
await runWithServerFlags(import.meta.url, async () => {
  const keep = [];
  for (let i = 0; i < 400000; i++) { keep.push({ a: 'x'.repeat(20) + i, b: [i, { c: i }] }); if (keep.length > 20000) keep.splice(0, 10000); }
  const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
  process.on('SIGTERM', () => { console.log('stopping'); setTimeout(() => process.exit(0), 50); });
  console.log(JSON.stringify({ pid: process.pid, execArgv: process.execArgv, youngMb: young / 1048576 }));
  setInterval(() => {}, 1000);
});
`;

describe('the launcher of npm start', () => {
  it('runs the server in a process with the memory flags (young generation 8 MB, not 32-64), and stops it on SIGTERM', { timeout: 60_000 }, async () => {
    const script = path.join(dir, 'stand-in.mjs');
    fs.writeFileSync(script, standIn);
    const parent = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let out = '';
    parent.stdout.on('data', (d) => { out += d; });
    parent.stderr.on('data', (d) => { out += d; });
    const exited = new Promise<number | null>((r) => parent.once('exit', (code) => r(code)));
    for (const deadline = Date.now() + 30_000; !out.includes('}') && Date.now() < deadline;) await new Promise((r) => setTimeout(r, 20));
    const seen = JSON.parse(out.slice(0, out.indexOf('}') + 1)) as { pid: number; execArgv: string[]; youngMb: number };
    expect(seen.pid, 'the work runs in a child started with the flags').not.toBe(parent.pid);
    expect(seen.execArgv).toEqual(expect.arrayContaining(['--max-semi-space-size=4', '--heap-growing-percent=30']));
    // 2 x 4 MB; Node 24's V8 at times reports pages over it (8.5 and 9.25 MB seen in CI runs of an
    // unchanged tree). Without the flags it is 32 (node 20/22) or 64 MB (node 24): a bound of 12
    // still tells the two apart with room, where 9 failed on V8's page rounding.
    expect(seen.youngMb).toBeLessThanOrEqual(12);

    parent.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out).toContain('stopping');
    expect(() => process.kill(seen.pid, 0), 'the child is gone with its launcher').toThrow();
  });
});
