/**
 * Production serving (issue 20): no token in the logs, JSON answers compressed, the web app's
 * files served from their precompressed copies with immutable caching for hashed assets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { openTestDatabase } from '../helpers.ts';
import type { Database } from '../../src/db/client.ts';
import { redactUrl } from '../../src/net/log-redaction.ts';

let database: Database;
let app: FastifyInstance;
let dir: string;
const lines: string[] = [];

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-prod-web-'));
  const dist = path.join(dir, 'dist');
  fs.mkdirSync(path.join(dist, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  const js = `console.log(${JSON.stringify('x'.repeat(5000))});`;
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), js);
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), zlib.brotliCompressSync(js));
  fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), zlib.gzipSync(js));
  database = await openTestDatabase('empty');
  const stream = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
  app = await buildApp({ env: {}, database, logger: { level: 'info', stream } as never, config: { seedDemo: true, bcryptRounds: 4, jwtSecret: crypto.randomBytes(32).toString('hex'), webDist: dist } });
  await app.ready();
});
afterAll(async () => { await app?.close(); await database?.close(); fs.rmSync(dir, { recursive: true, force: true }); });

describe('logs', () => {
  it('never contain a token: the ?bearer= query is redacted, the Authorization header not logged', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
    const { token, refresh_token: refresh } = login.json();
    await app.inject({ method: 'GET', url: `/api/auth/info?bearer=${token}`, headers: { authorization: `Bearer ${token}` } });
    await app.inject({ method: 'GET', url: `/api/products/export?bearer=${token}&x=1` });
    await app.inject({ method: 'POST', url: `/api/token/refresh?refresh_token=${refresh}` });
    const log = lines.join('');
    expect(log).toContain('[redacted]');
    expect(log).toContain('x=1');
    expect(log).not.toContain(token);
    expect(log).not.toContain(refresh);
    expect(redactUrl('/a?bearer=abc.def&b=2&token=zz')).toBe('/a?bearer=[redacted]&b=2&token=[redacted]');
  });
});

describe('compression and caching', () => {
  it('compresses JSON answers (brotli, else gzip)', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username: 'admin', password: 'admin' } });
    const headers = { authorization: `Bearer ${login.json().token}` };
    const plain = await app.inject({ method: 'GET', url: '/api/products?itemsPerPage=50', headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await app.inject({ method: 'GET', url: '/api/products?itemsPerPage=50', headers: { ...headers, 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    const gz = await app.inject({ method: 'GET', url: '/api/products?itemsPerPage=50', headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(plain.json());
  });

  it('serves hashed assets from their precompressed copies, cached as immutable', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.rawPayload.equals(fs.readFileSync(path.join(dir, 'dist/assets/app-abc123.js.br')))).toBe(true);
    const gz = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const html = await app.inject({ method: 'GET', url: '/pos' });
    expect(html.headers['cache-control']).toBe('no-cache');
  });
});
