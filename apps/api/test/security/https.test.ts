/**
 * HTTPS built in (issue 20): when it is on, where the certificate comes from, the refusal of a
 * certificate that is not its key's, one port answering plain http with a redirect, and the CSP.
 */
import { afterAll, describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openTestDatabase } from '../helpers.ts';
import { ensureLocalCerts, needsRenewal, RENEW_BEFORE_DAYS, SERVER_DAYS } from '../../src/net/certs.ts';
import { checkKeyPair, httpsWanted, loadTls, readTls, tlsSlot } from '../../src/net/tls.ts';

const dirs: string[] = [];
const tmp = () => { const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pos-https-')); dirs.push(d); return d; };
afterAll(() => { for (const d of dirs) fs.rmSync(d, { recursive: true, force: true }); });
const DAY = 24 * 3600 * 1000;

describe('when HTTPS is served', () => {
  it('beyond loopback by default, not on loopback, not behind a TLS-terminating proxy', () => {
    expect(httpsWanted(loadConfig({ HOST: '127.0.0.1' }))).toBe(false);
    expect(httpsWanted(loadConfig({ HOST: '0.0.0.0' }))).toBe(true);
    expect(httpsWanted(loadConfig({ HOST: '192.168.1.20' }))).toBe(true);
    expect(httpsWanted(loadConfig({ HOST: '0.0.0.0', TRUST_PROXY: 'true' }))).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
    expect(httpsWanted(loadConfig({ HOST: '127.0.0.1', HTTPS: 'on' }))).toBe(true);
    expect(httpsWanted(loadConfig({ HOST: '0.0.0.0', HTTPS: 'off' }))).toBe(false);
    expect(() => loadConfig({ HTTPS: 'yes' })).toThrow(/HTTPS must be on, off or auto/);
  });
});

describe('the local CA', () => {
  it('issues a server certificate for the names, chained to the CA; keys 0600; renewed before expiry or when names change', async () => {
    const dir = tmp();
    const names = ['pos.shop.test', 'localhost', '127.0.0.1', '::1', '192.168.1.20'];
    const first = await ensureLocalCerts(dir, names);
    expect(first.renewed).toBe(true);
    for (const f of ['ca.key', 'server.key']) expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
    const ca = new crypto.X509Certificate(first.ca.cert);
    const leaf = new crypto.X509Certificate(first.server.cert);
    expect(ca.ca).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.checkIssued(ca)).toBe(true);
    expect(leaf.checkHost('pos.shop.test')).toBe('pos.shop.test');
    expect(leaf.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(leaf.checkHost('evil.example')).toBeUndefined();
    expect(first.server.chain).toContain(first.ca.cert.trim());

    const again = await ensureLocalCerts(dir, names);
    expect(again.renewed).toBe(false);
    expect(again.server.cert).toBe(first.server.chain);
    // Same CA, new leaf: 10 days before the end of its life, or a new LAN address.
    const nearEnd = Date.now() + (SERVER_DAYS - RENEW_BEFORE_DAYS + 10) * DAY;
    expect(needsRenewal(first.server.cert, first.ca, names, nearEnd)).toBe(true);
    const renewed = await ensureLocalCerts(dir, [...names, '10.0.0.7']);
    expect(renewed.renewed).toBe(true);
    expect(renewed.ca.cert).toBe(first.ca.cert);
    expect(new crypto.X509Certificate(renewed.server.cert).checkIP('10.0.0.7')).toBe('10.0.0.7');
  });

  it('refuses a certificate that does not match its key, with a clear message', async () => {
    const a = await ensureLocalCerts(tmp(), ['a.test']);
    const b = await ensureLocalCerts(tmp(), ['b.test']);
    expect(() => checkKeyPair(a.server.cert, b.server.key)).toThrow(/TLS_CERT does not match TLS_KEY/);
    expect(() => checkKeyPair('not a cert', b.server.key)).toThrow(/TLS_CERT is not a PEM certificate/);
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'c.pem'), a.server.chain);
    fs.writeFileSync(path.join(dir, 'k.pem'), b.server.key);
    const config = loadConfig({ HOST: '0.0.0.0', TLS_CERT: path.join(dir, 'c.pem'), TLS_KEY: path.join(dir, 'k.pem'), DATA_DIR: dir });
    await expect(readTls(config)).rejects.toThrow(/does not match/);
    fs.writeFileSync(path.join(dir, 'k.pem'), a.server.key);
    const own = await readTls(config);
    expect(own.source).toBe('provided');
    expect(own.caCert).toBeUndefined();
    expect(fs.existsSync(path.join(dir, 'tls'))).toBe(false); // no CA made when the shop brings its own
  });
});

describe('one port, HTTPS and a plain-http redirect', () => {
  it('serves the app over TLS, redirects plain http, serves the CA (not its key) and never asks to upgrade on http', { timeout: 60_000 }, async () => {
    const dataDir = tmp();
    const database = await openTestDatabase('empty');
    const env = { HOST: '127.0.0.1', HTTPS: 'on', TLS_HOSTS: 'pos.shop.test', DATA_DIR: dataDir, PORT: '0' };
    const slot = tlsSlot(loadConfig(env))!;
    const app = await buildApp({ env, database, logger: false, tls: slot, config: { seedDemo: false } });
    try {
      await loadTls(slot, app.config, app.server as unknown as https.Server);
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const get = (p: string, opts: https.RequestOptions = {}) => new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        https.get({ host: '127.0.0.1', port, path: p, servername: 'pos.shop.test', ca: slot.caCert, ...opts }, (res) => {
          let body = '';
          res.on('data', (d) => { body += d; });
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        }).on('error', reject);
      });
      const health = await get('/api/health');
      expect(health.status).toBe(200);
      expect(String(health.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
      // Verified against the CA: another CA's trust store fails the handshake.
      const other = await ensureLocalCerts(tmp(), ['x.test']);
      await expect(get('/api/health', { ca: other.ca.cert })).rejects.toThrow(/self.signed|unable to verify|certificate/i);

      const plain = await fetch(`http://127.0.0.1:${port}/pos?x=1`, { redirect: 'manual' });
      expect(plain.status).toBe(308);
      expect(plain.headers.get('location')).toBe(`https://127.0.0.1:${port}/pos?x=1`);
      const caOverHttp = await fetch(`http://127.0.0.1:${port}/trust/ca.crt`);
      expect(await caOverHttp.text()).toBe(slot.caCert);
      const page = await fetch(`http://127.0.0.1:${port}/trust?lang=ar`);
      const html = await page.text();
      expect(html).toContain('dir="rtl"');
      for (const os of ['Windows', 'macOS', 'Android', 'iOS', 'ChromeOS']) expect(html).toContain(os);
      expect(html).toContain(new crypto.X509Certificate(slot.caCert!).fingerprint256);
      for (const p of ['/trust/ca.key', '/trust/../tls/ca.key', '/tls/ca.key']) {
        expect((await get(p)).body).not.toContain('PRIVATE KEY');
        expect(await (await fetch(`http://127.0.0.1:${port}${p}`, { redirect: 'manual' })).text()).not.toContain('PRIVATE KEY');
      }
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('on plain http (loopback) the CSP has no upgrade-insecure-requests', async () => {
    const database = await openTestDatabase('empty');
    const app = await buildApp({ env: {}, database, logger: false, config: { seedDemo: false, jwtSecret: crypto.randomBytes(32).toString('hex') } });
    try {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(String(res.headers['content-security-policy'])).not.toContain('upgrade-insecure-requests');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
