/**
 * Issue 20.3: the production build. `npm run build -w @pos/api` (apps/api/scripts/build.mjs)
 * compiles the API to JavaScript once; the compiled server runs with plain `node` (no tsx, no
 * loader flags) on the shop's own PostgreSQL, migrates a new data folder from the migrations
 * folder it finds next to itself, answers /api/health, stops cleanly on SIGTERM, and restarts
 * (the figures are reported; the < 2 s budget is the bench's "Production server start" line).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { report } from '../security/support.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dist = path.join(repoRoot, 'apps/api/dist');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-prod-'));
const postmasterPid = () => { try { return Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || 0; } catch { return 0; } };
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, clock ticks of 10 ms). */
const cpuMsOf = (pid: number) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
  });
}

/** GET over HTTPS, the server's certificate checked against the shop's own CA. */
function httpsGet(url: string, ca: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https.get(url, { ca, signal: AbortSignal.timeout(2000) }, (res) => {
      let body = '';
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

/**
 * `node apps/api/dist/server.js`, nothing else on the command line; resolves when /api/health
 * answers (over HTTPS with `extra.HTTPS=on`, checked against the CA the server made).
 */
async function startCompiled(extra: Record<string, string> = {}) {
  const port = await freePort();
  const secure = extra.HTTPS === 'on';
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(dist, 'server.js')], {
    cwd: os.tmpdir(), // not the repository: nothing may be found relative to the working folder
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME, NODE_OPTIONS: '', NODE_ENV: 'production', DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1',
      JWT_SECRET: crypto.randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    if (child.exitCode !== null) throw new Error(`the compiled server exited with ${child.exitCode}:\n${out}`);
    try {
      if (secure) {
        const res = await httpsGet(`https://127.0.0.1:${port}/api/health`, fs.readFileSync(path.join(dir, 'tls', 'ca.crt'), 'utf8'));
        if (res.status === 200) return { child, port, ms: performance.now() - started, cpuMs: cpuMsOf(child.pid!), health: JSON.parse(res.body), exited, output: () => out };
      } else {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (res.ok) return { child, port, ms: performance.now() - started, cpuMs: cpuMsOf(child.pid!), health: await res.json(), exited, output: () => out };
      }
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 20));
  }
  child.kill('SIGKILL');
  throw new Error(`the compiled server did not answer in 120 s:\n${out}`);
}

describe('the production build', () => {
  beforeAll(() => {
    const r = spawnSync(process.execPath, ['apps/api/scripts/build.mjs'], { cwd: repoRoot, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);
  afterAll(() => {
    const pid = postmasterPid();
    if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs with plain node on the shop\'s own PostgreSQL, migrated from its own folder, and restarts', { timeout: 300_000 }, async () => {
    expect(fs.existsSync(path.join(dist, 'server.js'))).toBe(true);
    expect(fs.readdirSync(path.join(dist, 'migrations')).filter((f) => f.endsWith('.sql')).length).toBeGreaterThan(0);

    const first = await startCompiled();
    expect(first.health).toMatchObject({ status: 'ok', database: 'embedded' });
    // Plain node: no tsx loaded into the server process.
    const maps = fs.readFileSync(`/proc/${first.child.pid}/maps`, 'utf8') + fs.readFileSync(`/proc/${first.child.pid}/cmdline`, 'utf8');
    expect(maps).not.toMatch(/tsx/);
    expect(fs.readFileSync(`/proc/${first.child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean)).toEqual([process.execPath, path.join(dist, 'server.js')]);
    // Migrated: the empty shop asks for its first-run setup (the tables exist, no user yet).
    const setup = await fetch(`http://127.0.0.1:${first.port}/api/setup`);
    expect(setup.status).toBe(200);
    expect(await setup.json()).toEqual({ needed: true });

    const pg = postmasterPid();
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(alive(pg), 'PostgreSQL stopped with the server').toBe(false);

    const restarts: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const s = await startCompiled();
      restarts.push({ ms: Math.round(s.ms), cpuMs: s.cpuMs });
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
    }
    const load = os.loadavg()[0];
    report(`production build: first start (initdb + migrations) ready in ${Math.round(first.ms)} ms; restarts ${restarts.map((r) => `${r.ms} ms (server CPU ${r.cpuMs} ms)`).join(', ')}; load average ${load.toFixed(1)} on ${os.cpus().length} cores`);
    // Function only: each restart became ready and stopped cleanly. How fast is the bench's line
    // ("Production server start", npm run bench -- --only engines), never a timed test.
    expect(restarts.every((r) => r.ms > 0 && r.cpuMs > 0)).toBe(true);
  });

  it('with FRONT=on: the front thread serves the port, HTTPS and the plain-http redirect included; the API answers through it; SIGTERM stops both', { timeout: 120_000 }, async () => {
    const s = await startCompiled({ FRONT: 'on', HTTPS: 'on' });
    expect(s.health).toMatchObject({ status: 'ok' });
    const ca = fs.readFileSync(path.join(dir, 'tls', 'ca.crt'), 'utf8');
    const setup = await httpsGet(`https://127.0.0.1:${s.port}/api/setup`, ca);
    expect(setup.status).toBe(200);
    expect(JSON.parse(setup.body)).toEqual({ needed: true });
    // The API itself listens only on its private socket, in a folder only this user may enter.
    const [folder] = fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith(`pos-api-${s.child.pid}-`));
    expect(folder).toBeTruthy();
    expect(fs.statSync(path.join(os.tmpdir(), folder)).mode & 0o777).toBe(0o700);
    // Plain http on the same port: a redirect to https://, and the CA page before the CA is trusted.
    const plain = await fetch(`http://127.0.0.1:${s.port}/api/health`, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
    expect(plain.status).toBe(308);
    expect(plain.headers.get('location')).toBe(`https://127.0.0.1:${s.port}/api/health`);
    const trust = await fetch(`http://127.0.0.1:${s.port}/trust`, { signal: AbortSignal.timeout(2000) });
    expect(trust.status).toBe(200);

    const pg = postmasterPid();
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    expect(alive(pg), 'PostgreSQL stopped with the server').toBe(false);
    expect(fs.existsSync(path.join(os.tmpdir(), folder)), 'the private socket removed').toBe(false);
  });
});
