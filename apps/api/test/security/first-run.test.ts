/**
 * No guessable secret, no default password (issue 20): weak JWT secrets refused at start, a secret
 * generated in the data folder when none is given, the demo shop only on loopback in development,
 * and the first-run setup as the only way in on an empty database served to the network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openTestDatabase } from '../helpers.ts';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { userAccount } from '../../src/db/schema/index.ts';
import { createTokenService } from '../../src/plugins/auth.ts';
import { OLD_DEFAULT_JWT_SECRET, SECRET_FILE, weakSecretReason } from '../../src/secret.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const tmpDirs: string[] = [];
const tmpDir = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-first-run-')); tmpDirs.push(d); return d; };
afterAll(() => { for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true }); });

/** Every literal given as a JWT secret anywhere in the repository's source, tests and docs. */
function secretsInSource(): string[] {
  const found = new Set<string>([OLD_DEFAULT_JWT_SECRET]);
  const patterns = [/JWT_SECRET\s*[:=]\s*['"]([^'"\s$]+)['"]/g, /jwtSecret:\s*['"]([^'"]+)['"]/g, /\bSECRET\s*=\s*['"]([^'"]+)['"]/g, /createTokenService\(\s*['"]([^'"]+)['"]/g, /makePrincipals\([^,]+,\s*['"]([^'"]+)['"]/g];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (['node_modules', 'dist', '.git', 'data', 'test-results'].includes(e.name)) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mjs|js|sh|md|yml|yaml|env)$/.test(e.name)) {
        const text = fs.readFileSync(p, 'utf8');
        for (const re of patterns) for (const m of text.matchAll(re)) found.add(m[1]);
      }
    }
  };
  for (const d of ['apps', 'packages', 'scripts', 'docs', 'bench', '.ci']) if (fs.existsSync(path.join(repoRoot, d))) walk(path.join(repoRoot, d));
  for (const f of ['README.md', 'ARCHITECTURE.md']) {
    const p = path.join(repoRoot, f);
    if (fs.existsSync(p)) for (const m of fs.readFileSync(p, 'utf8').matchAll(/JWT_SECRET=(\S+)/g)) found.add(m[1].replace(/['"`]/g, ''));
  }
  return [...found];
}

describe('JWT secret', () => {
  it('refuses short, one-character, whitespace and public secrets, with a message saying what to do', () => {
    for (const weak of ['short', 'x'.repeat(40), ' '.repeat(40), '\t'.repeat(33), OLD_DEFAULT_JWT_SECRET, 'abababababababababababababababababab']) {
      expect(weakSecretReason(weak), JSON.stringify(weak)).not.toBeNull();
      expect(() => loadConfig({ JWT_SECRET: weak })).toThrow(/JWT_SECRET is refused: .*openssl rand/);
      expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: weak })).toThrow(/JWT_SECRET/);
    }
    const good = 'vG2q8Rz0mX4kLp7sT1wYb9nC3dF6hJ5a';
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: good }).jwtSecret).toBe(good);
  });

  it('refuses every secret printed in the source', () => {
    const secrets = secretsInSource();
    expect(secrets).toEqual(expect.arrayContaining([OLD_DEFAULT_JWT_SECRET, 'test-secret']));
    expect(weakSecretReason('bench-secret-bench-secret-bench-secret')).not.toBeNull(); // printed by an older bench
    expect(weakSecretReason('crash-test-secret')).not.toBeNull(); // printed by an older crash test
    for (const s of secrets) expect(weakSecretReason(s), s).not.toBeNull();
  });

  it('the real server exits non-zero with a clear message on a whitespace secret', { timeout: 120_000 }, async () => {
    const dataDir = tmpDir();
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
      cwd: repoRoot, env: { ...process.env, NODE_ENV: 'production', JWT_SECRET: ' '.repeat(40), PORT: '0', DATA_DIR: dataDir, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).not.toBe(0);
    expect(out).toMatch(/JWT_SECRET is refused: it is only whitespace/);
  });
});

describe('an install served to the network, empty database, no JWT_SECRET', () => {
  let database: Database;
  let app: FastifyInstance;
  let dataDir: string;
  const env = () => ({ HOST: '0.0.0.0', SEED_DEMO: 'true', BCRYPT_ROUNDS: '4', DATA_DIR: dataDir });
  const owner = { shopName: 'Corner Shop', currency: 'KWD', timeZone: 'Asia/Kuwait', username: 'owner', password: 'a long passphrase', displayName: 'Owner' };
  const loginAs = (username: string, password: string) => app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username, password } });

  beforeAll(async () => {
    dataDir = tmpDir();
    database = await openTestDatabase('empty');
    app = await buildApp({ env: env(), database, logger: false });
    await app.ready();
  });
  afterAll(async () => { await app?.close(); await database?.close(); });

  it('generates a random secret in the data folder (0600), kept across restarts', async () => {
    const file = path.join(dataDir, SECRET_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const secret = fs.readFileSync(file, 'utf8').trim();
    expect(weakSecretReason(secret)).toBeNull();
    expect(app.config.jwtSecret).toBe(secret);
    const again = await buildApp({ env: env(), database, logger: false });
    expect(again.config.jwtSecret).toBe(secret);
    await again.close();
  });

  it('seeds no demo shop: nobody can sign in before the setup, which is open', async () => {
    expect(app.config.seedDemo).toBe(false);
    for (const [u, p] of [['admin', 'admin'], ['cashier', 'cashier'], ['owner', owner.password]]) expect((await loginAs(u, p)).statusCode).toBe(401);
    expect(await database.db.$count(userAccount)).toBe(0);
    expect((await app.inject({ method: 'GET', url: '/api/setup' })).json()).toEqual({ needed: true });
  });

  it('refuses a bad setup with 422 naming each field and writes nothing', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/setup', payload: { ...owner, shopName: ' ', currency: 'XYZ', timeZone: 'Mars/Base', password: 'short' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations.map((v: any) => v.propertyPath).sort()).toEqual(['currency', 'password', 'shopName', 'timeZone']);
    expect((await app.inject({ method: 'GET', url: '/api/setup' })).json()).toEqual({ needed: true });
  });

  it('setup creates the shop and its owner; then it is closed and the owner signs in', async () => {
    const [a, b] = await Promise.all([
      app.inject({ method: 'POST', url: '/api/setup', payload: owner }),
      app.inject({ method: 'POST', url: '/api/setup', payload: { ...owner, username: 'intruder' } }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
    const res = await loginAs('owner', owner.password);
    expect(res.statusCode).toBe(200);
    const headers = { authorization: `Bearer ${res.json().token}` };
    const info = (await app.inject({ method: 'GET', url: '/api/auth/info', headers })).json();
    expect(info.user.roles).toContain('ROLE_ADMIN');
    expect(info.user.stores.map((s: any) => s.name)).toEqual(['Corner Shop']);
    expect((await loginAs('intruder', owner.password)).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/setup' })).json()).toEqual({ needed: false });
    expect((await app.inject({ method: 'POST', url: '/api/setup', payload: { ...owner, username: 'late' } })).statusCode).toBe(409);
  });

  it('refuses a token for the owner signed with the old default secret or any source secret', async () => {
    const me = (await loginAs('owner', owner.password)).json();
    const { id } = (await app.inject({ method: 'GET', url: '/api/auth/info', headers: { authorization: `Bearer ${me.token}` } })).json().user;
    for (const secret of secretsInSource()) {
      const forged = await createTokenService(secret, 3600).sign({ id, username: 'owner', roles: ['ROLE_ADMIN', 'ROLE_USER'] });
      const res = await app.inject({ method: 'GET', url: '/api/auth/info', headers: { authorization: `Bearer ${forged}` } });
      expect(res.statusCode, secret).toBe(401);
    }
  });
});

describe('the demo shop', () => {
  it('is seeded in development on loopback only', () => {
    expect(loadConfig({ HOST: '127.0.0.1' }).seedDemo).toBe(true);
    expect(loadConfig({ HOST: 'localhost' }).seedDemo).toBe(true);
    expect(loadConfig({ HOST: '127.0.0.1', SEED_DEMO: 'false' }).seedDemo).toBe(false);
    expect(loadConfig({ HOST: '127.0.0.1', NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(loadConfig({ HOST: '0.0.0.0', SEED_DEMO: 'true' }).seedDemo).toBe(false);
    expect(loadConfig({ HOST: '192.168.1.20' }).seedDemo).toBe(false);
  });
});

describe('user:create', () => {
  const run = (args: string[], dataDir: string, stdin?: string) => new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/cli/create-user.ts', ...args], {
      cwd: repoRoot, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', BCRYPT_ROUNDS: '4' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.stdin.end(stdin ?? '');
    child.on('exit', (code) => resolve({ code, out }));
  });

  it('refuses a password on the command line and reads it from stdin', { timeout: 120_000 }, async () => {
    const dataDir = tmpDir();
    const argv = await run(['--username', 'owner', '--password', 'a long passphrase'], dataDir);
    expect(argv.code).toBe(2);
    expect(argv.out).toMatch(/--password is not accepted/);
    expect(fs.readdirSync(dataDir)).toEqual([]); // nothing opened, nothing written
    const piped = await run(['--username', 'owner', '--store', 'My Shop'], dataDir, 'a long passphrase\n');
    expect(piped.out).toMatch(/created administrator owner in store "My Shop"/);
    expect(piped.code).toBe(0);
    const database = await openDatabase({ dataDir });
    const app = await buildApp({ env: { DATA_DIR: dataDir, HOST: '0.0.0.0' }, database, logger: false });
    try {
      const ok = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'owner', password: 'a long passphrase' } });
      expect(ok.statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
