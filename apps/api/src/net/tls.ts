/**
 * HTTPS on the shop network (issue 20). `resolveTls` decides from the config whether to serve TLS and
 * with which certificate: the shop's own (TLS_CERT/TLS_KEY, refused when they do not match), or one
 * issued by the local CA kept in `<dataDir>/tls` (certs.ts). `tlsServerFactory` gives Fastify one port
 * that speaks both: a TLS handshake goes to HTTPS, a plain-http request is redirected to https://
 * (except the CA page, which staff open before they trust the CA).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import type https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyServerFactory } from 'fastify';
import type { AppConfig } from '../config.ts';
import { isLoopbackHost } from '../secret.ts';
import { onePortServer } from './one-port.ts';

export interface TlsMaterial {
  key: string;
  /** Leaf certificate followed by its chain. */
  cert: string;
  /** The local CA's certificate (PEM) when the certificate is generated; absent for the shop's own. */
  caCert?: string;
  source: 'generated' | 'provided';
  names: string[];
}

/** HTTPS when asked (HTTPS=on), or by default when the server listens beyond loopback without a TLS-terminating proxy. */
export function httpsWanted(config: Pick<AppConfig, 'https' | 'host' | 'trustProxy'>): boolean {
  if (config.https === 'on') return true;
  if (config.https === 'off') return false;
  return !isLoopbackHost(config.host) && !config.trustProxy;
}

/** The names the generated certificate covers: host name(s), TLS_HOSTS, HOST, loopback and every LAN address. */
export function certificateNames(config: Pick<AppConfig, 'host' | 'tlsHosts'>): string[] {
  const names = new Set<string>();
  const host = os.hostname().toLowerCase();
  for (const n of [...config.tlsHosts, host, host.includes('.') ? '' : `${host}.local`, 'localhost']) if (n) names.add(n.toLowerCase());
  if (config.host && !['0.0.0.0', '::'].includes(config.host)) names.add(config.host.toLowerCase());
  names.add('127.0.0.1');
  names.add('::1');
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (!a.internal && !a.address.startsWith('fe80')) names.add(a.address);
  }
  return [...names];
}

/** Refuses a certificate whose public key is not the private key's (a clear message, before listening). */
export function checkKeyPair(certPem: string, keyPem: string, what = 'TLS_CERT'): void {
  let cert: crypto.X509Certificate;
  let key: crypto.KeyObject;
  try { cert = new crypto.X509Certificate(certPem); } catch { throw new Error(`${what} is not a PEM certificate`); }
  try { key = crypto.createPrivateKey(keyPem); } catch { throw new Error('TLS_KEY is not a PEM private key'); }
  if (!cert.checkPrivateKey(key)) throw new Error(`${what} does not match TLS_KEY (the certificate was made for another key); refusing to start`);
}

/**
 * Where the HTTPS server's certificate goes. server.ts makes it empty (`tlsSlot`) for buildApp, and
 * fills it (`loadTls`) once the database is open: the embedded database must create its folder first.
 */
export function tlsSlot(config: Pick<AppConfig, 'https' | 'host' | 'trustProxy'>): TlsMaterial | null {
  return httpsWanted(config) ? { key: '', cert: '', source: 'generated', names: [] } : null;
}

/** Where a certificate goes: the listening server, or a function that passes it on (the front thread, net/front.ts). */
export type TlsTarget = https.Server | ((tls: TlsMaterial) => void);

/** Fills the slot and installs the certificate on the listening server (startup, and renewals). */
export async function loadTls(slot: TlsMaterial, config: AppConfig, target: TlsTarget, log?: FastifyBaseLogger): Promise<TlsMaterial> {
  const tls = await readTls(config, log);
  Object.assign(slot, tls);
  if (typeof target === 'function') target(slot);
  else target.setSecureContext({ key: tls.key, cert: tls.cert, minVersion: 'TLSv1.2' });
  return slot;
}

/** The key and certificate chain to serve: the shop's own, or the local CA's (issued or renewed now). */
export async function readTls(config: AppConfig, log?: FastifyBaseLogger): Promise<TlsMaterial> {
  if (config.tlsCert || config.tlsKey) {
    if (!config.tlsCert || !config.tlsKey) throw new Error('TLS_CERT and TLS_KEY must be given together');
    const read = (file: string, name: string) => {
      try { return fs.readFileSync(file, 'utf8'); } catch (err) { throw new Error(`${name} cannot be read (${file}): ${(err as Error).message}`); }
    };
    const cert = read(config.tlsCert, 'TLS_CERT');
    const key = read(config.tlsKey, 'TLS_KEY');
    checkKeyPair(cert, key);
    return { key, cert, source: 'provided', names: [] };
  }
  const names = certificateNames(config);
  // Loaded only when a certificate is needed: @peculiar/x509 costs start-up time on loopback.
  const { ensureLocalCerts } = await import('./certs.ts');
  const { ca, server, renewed } = await ensureLocalCerts(path.join(config.dataDir, 'tls'), names);
  if (renewed) log?.info({ names }, 'issued a server certificate from the local CA');
  return { key: server.key, cert: server.chain, caCert: ca.cert, source: 'generated', names };
}

/**
 * One listening port for both protocols (net/one-port.ts): a TLS handshake goes to HTTPS, the app;
 * plain http gets a redirect to https:// or the CA page.
 */
export function tlsServerFactory(tls: TlsMaterial): FastifyServerFactory {
  return (handler) => onePortServer(tls, handler) as unknown as http.Server;
}

/** Re-checks the generated certificate daily and swaps in a renewed one without a restart. */
export function scheduleRenewal(slot: TlsMaterial, target: TlsTarget, config: AppConfig, log: FastifyBaseLogger): NodeJS.Timeout {
  const timer = setInterval(async () => {
    try {
      await loadTls(slot, config, target, log);
    } catch (err) {
      log.error({ err }, 'renewing the server certificate failed');
    }
  }, 24 * 3600 * 1000);
  timer.unref();
  return timer;
}

