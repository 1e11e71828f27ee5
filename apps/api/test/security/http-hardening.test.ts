/**
 * Issue 11: HTTP hardening. Security headers (and a CSP on the web app), CORS for configured origins
 * only, request size limits, no stack traces and the production secret guard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { Database } from '../../src/db/client.ts';
import { createTestApp, openTestDatabase, type TestApp } from '../helpers.ts';
import { leaksInternals, report } from './support.ts';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const HELMET = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
};

describe('security headers', () => {
  it('every API answer carries them, errors included, and no x-powered-by', async () => {
    const h = await t.login('admin');
    const answers = [
      await t.app.inject({ method: 'GET', url: '/api/health' }),
      await t.app.inject({ method: 'GET', url: '/api/auth/info', headers: h }),
      await t.app.inject({ method: 'GET', url: '/api/auth/info' }),
      await t.app.inject({ method: 'GET', url: '/api/nope' }),
      await t.app.inject({ method: 'POST', url: '/api/taxes', headers: h, payload: {} }),
    ];
    for (const res of answers) {
      for (const [k, v] of Object.entries(HELMET)) expect(res.headers[k], `${k} on ${res.statusCode}`).toBe(v);
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
      expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
    }
  });
});

describe('the web app (CSP, static files, traversal)', () => {
  let web: FastifyInstance;
  let db: Database;
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-web-'));
    const dist = path.join(dir, 'dist');
    fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>');
    fs.writeFileSync(path.join(dist, 'assets', 'app.js'), 'console.log("app")');
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'TOP-SECRET-OUTSIDE-DIST');
    db = await openTestDatabase();
    web = await buildApp({ env: {}, database: db, logger: false, config: { seedDemo: false, jwtSecret: 'test-secret', webDist: dist } });
    await web.ready();
  });
  afterAll(async () => { await web?.close(); await db?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

  it('serves the app with a strict CSP (no inline script, no plugins, no framing by others)', async () => {
    for (const url of ['/', '/pos', '/reset-password/abc']) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toMatch(/default-src 'self'/);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/script-src[^;]*unsafe-(inline|eval)/);
      expect(csp).toMatch(/object-src 'none'/);
      expect(csp).toMatch(/frame-ancestors 'self'/);
      expect(csp).toMatch(/base-uri 'self'/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
    const asset = await web.inject({ method: 'GET', url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['x-content-type-options']).toBe('nosniff');
  });

  it('never serves a file outside the build folder', async () => {
    const attempts = ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/../../secret.txt', '/assets/%2e%2e%2f%2e%2e%2fsecret.txt', '/..%2fsecret.txt',
      '/%2e%2e%2f%2e%2e%2f%2e%2e%2fetc/passwd', '/....//secret.txt', '/assets/..\\..\\secret.txt', '/%252e%252e/secret.txt'];
    for (const url of attempts) {
      const res = await web.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.body, url).not.toContain('TOP-SECRET-OUTSIDE-DIST');
      expect(res.body, url).not.toContain('root:x:');
    }
  });

  it('unknown /api paths stay JSON 404s, not the app', async () => {
    const res = await web.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});

describe('CORS', () => {
  it('echoes a configured origin with credentials, and nothing for others', async () => {
    const allowed = 'http://localhost:5173';
    const ok = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: allowed } });
    expect(ok.headers['access-control-allow-origin']).toBe(allowed);
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    expect(String(ok.headers.vary)).toMatch(/Origin/i);
    for (const origin of ['https://evil.example', 'null', 'http://localhost:5173.evil.example', 'http://evil.localhost:5173', 'HTTP://LOCALHOST:5173x']) {
      const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin } });
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const pre = await t.app.inject({ method: 'OPTIONS', url: '/api/taxes', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
      expect(pre.headers['access-control-allow-origin'], `preflight ${origin}`).toBeUndefined();
    }
    const pre = await t.app.inject({ method: 'OPTIONS', url: '/api/taxes', headers: { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' } });
    expect(pre.statusCode).toBeLessThan(300);
    expect(pre.headers['access-control-allow-origin']).toBe(allowed);
    expect(String(pre.headers['access-control-allow-methods'])).toMatch(/POST/);
  });

  it('follows CORS_ORIGINS exactly', async () => {
    const db = await openTestDatabase();
    const app = await buildApp({ env: { CORS_ORIGINS: 'https://shop.example' }, database: db, logger: false, config: { seedDemo: false, jwtSecret: 'test-secret' } });
    await app.ready();
    try {
      const yes = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'https://shop.example' } });
      expect(yes.headers['access-control-allow-origin']).toBe('https://shop.example');
      const no = await app.inject({ method: 'GET', url: '/api/health', headers: { origin: 'http://localhost:5173' } });
      expect(no.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe('request size limits', () => {
  it('a body over config.bodyLimit is a 413 in the error shape, before any handler runs', async () => {
    const limit = t.app.config.bodyLimit;
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'x'.repeat(limit + 10), password: 'x' }) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) });
    const h = await t.login('admin');
    const big = await t.app.inject({ method: 'POST', url: '/api/taxes', headers: { ...h, 'content-type': 'application/json' }, payload: `{"name":"${'x'.repeat(limit)}"}` });
    expect(big.statusCode).toBe(413);
    report(`body limit: ${limit} bytes -> 413`);
  });

  it('limits hold for a lying content-length and for chunked bodies', async () => {
    const limit = t.app.config.bodyLimit;
    const lying = await t.app.inject({ method: 'POST', url: '/api/auth/login_check', headers: { 'content-type': 'application/json', 'content-length': '10' }, payload: JSON.stringify({ username: 'x'.repeat(limit), password: 'x' }) });
    expect(lying.statusCode).toBeGreaterThanOrEqual(400);
    expect(lying.statusCode).toBeLessThan(500);
  });

  it('JSON nested deeper than 64 levels is a 400 before any handler; prototype poisoning is a 400', async () => {
    const h = await t.login('admin');
    const routes = ['/api/auth/login_check', '/api/taxes', ...(t.app.routeTable.some((r) => r.url === '/api/admin/order/create') ? ['/api/admin/order/create'] : [])];
    for (const url of routes) {
      for (const deep of ['['.repeat(100_000) + ']'.repeat(100_000), `{"x":${'{"a":'.repeat(65)}1${'}'.repeat(65)}}`, `{"s":"${'['.repeat(100)}","x":${'['.repeat(70)}${']'.repeat(70)}}`]) {
        const res = await t.app.inject({ method: 'POST', url, headers: { ...h, 'content-type': 'application/json' }, payload: deep });
        expect(res.statusCode, url).toBe(400);
        expect(res.json()).toEqual({ code: 'BAD_REQUEST', message: expect.stringMatching(/nested/) });
      }
      // Brackets inside strings do not count; 60 levels are fine for the parser (the route then validates).
      const fine = await t.app.inject({ method: 'POST', url, headers: { ...h, 'content-type': 'application/json' }, payload: `{"note":"${'['.repeat(1000)}\\"[[","x":${'['.repeat(60)}${']'.repeat(60)}}` });
      expect(fine.statusCode, `${url}: ${fine.body}`).not.toBe(400);
      expect(fine.statusCode).toBeLessThan(500);
      for (const poison of ['{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"isAdmin":true}}}']) {
        const res = await t.app.inject({ method: 'POST', url, headers: { ...h, 'content-type': 'application/json' }, payload: poison });
        expect(res.statusCode, poison).toBe(400);
      }
    }
  });

  it('long URLs and many query parameters are refused or ignored, never a crash', async () => {
    const h = await t.login('admin');
    const long = await t.app.inject({ method: 'GET', url: `/api/taxes?name=${'x'.repeat(100_000)}`, headers: h });
    expect(long.statusCode).toBeLessThan(500);
    const many = await t.app.inject({ method: 'GET', url: `/api/stores?${Array.from({ length: 5000 }, (_, i) => `f${i}=${i}`).join('&')}`, headers: h });
    expect(many.statusCode).toBeLessThan(500);
  });
});

describe('no internals in answers', () => {
  it('a thrown internal error is a bare 500 {code: INTERNAL}', async () => {
    const db = await openTestDatabase();
    const app = await buildApp({ env: {}, database: db, logger: false, config: { seedDemo: false, jwtSecret: 'test-secret' } });
    app.get('/api/__boom', { config: { auth: 'public' } }, async () => { throw new Error('password=hunter2 at /work/main/apps/api/src/x.ts:12'); });
    app.get('/api/__type', { config: { auth: 'public' } }, async () => { const o: any = undefined; return o.field; });
    app.get('/api/__string', { config: { auth: 'public' } }, async () => { throw 'raw string thrown'; });
    app.get('/api/__sql', { config: { auth: 'public' } }, async () => { await db.db.execute('select * from no_such_table_hunter2' as any); return {}; });
    app.get('/api/__status', { config: { auth: 'public' } }, async () => { throw Object.assign(new Error('upstream said hunter2'), { statusCode: 502 }); });
    await app.ready();
    try {
      for (const url of ['/api/__boom', '/api/__type', '/api/__string', '/api/__sql', '/api/__status']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(500);
        expect(res.json(), url).toEqual({ code: 'INTERNAL', message: 'Internal Server Error' });
        expect(res.body).not.toContain('hunter2');
        expect(leaksInternals(res.body)).toBe(false);
      }
    } finally {
      await app.close();
      await db.close();
    }
  });
});

// The JWT secret and first-run guards live in first-run.test.ts.

