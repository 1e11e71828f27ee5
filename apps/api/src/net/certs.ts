/**
 * The shop's own certificate authority and server certificate, made with @peculiar/x509 (the X.509
 * and ASN.1 encoding) on Node's WebCrypto (the keys): ECDSA P-256, SHA-256.
 * Files in `<dataDir>/tls/`: ca.crt, ca.key (0600, never served), server.crt (leaf + CA), server.key (0600).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import 'reflect-metadata'; // @peculiar/x509's dependency injection (tsyringe) needs it loaded first
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(crypto.webcrypto as never);

const ALG = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY = 24 * 3600 * 1000;
export const CA_DAYS = 3650;
/** Browsers cap publicly trusted leaves at 398 days; a local CA is not capped, but a year keeps renewals routine. */
export const SERVER_DAYS = 365;
/** Renew the server certificate when it has less than this left (checked at start and daily). */
export const RENEW_BEFORE_DAYS = 30;

export interface CaFiles { cert: string; key: string }
export interface ServerFiles { cert: string; key: string; chain: string }

const subtle = crypto.webcrypto.subtle;
type Key = crypto.webcrypto.CryptoKey;
const newKeys = () => subtle.generateKey(ALG, true, ['sign', 'verify']) as Promise<crypto.webcrypto.CryptoKeyPair>;
const keyPem = async (key: Key) => x509.PemConverter.encode(await subtle.exportKey('pkcs8', key), 'PRIVATE KEY');
const importKey = (pem: string) => subtle.importKey('pkcs8', x509.PemConverter.decode(pem)[0], ALG, false, ['sign']);
const serial = () => crypto.randomBytes(16).toString('hex').replace(/^[89a-f]/, '1');

function writePrivate(file: string, pem: string) {
  fs.writeFileSync(file, pem, { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

/** Reads the CA from `dir`, creating it on first start. */
export async function loadOrCreateCa(dir: string, label: string): Promise<CaFiles> {
  const certFile = path.join(dir, 'ca.crt');
  const keyFile = path.join(dir, 'ca.key');
  if (fs.existsSync(certFile) && fs.existsSync(keyFile)) return { cert: fs.readFileSync(certFile, 'utf8'), key: fs.readFileSync(keyFile, 'utf8') };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const keys = await newKeys();
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${label} local CA ${crypto.randomBytes(3).toString('hex')}, O=${label}`,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + CA_DAYS * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const files = { cert: cert.toString('pem') + '\n', key: await keyPem(keys.privateKey) };
  writePrivate(keyFile, files.key);
  fs.writeFileSync(certFile, files.cert, { mode: 0o644 });
  return files;
}

/** Lower-case name; an IPv6 address in its short form (0:0:0:0:0:0:0:1 -> ::1). */
function canonicalName(name: string): string {
  if (!name.includes(':')) return name.toLowerCase();
  try { return new URL(`http://[${name}]/`).hostname.slice(1, -1); } catch { return name.toLowerCase(); }
}

const isIp = (name: string) => /^[\d.]+$/.test(name) || name.includes(':');

/** Issues a server certificate for these DNS names and IP addresses, signed by the CA. */
export async function issueServerCert(ca: CaFiles, names: string[], now = Date.now()): Promise<ServerFiles> {
  const caCert = new x509.X509Certificate(ca.cert);
  const keys = await newKeys();
  const dns = names.filter((n) => !isIp(n));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${dns[0] ?? names[0]}`,
    issuer: caCert.subject,
    notBefore: new Date(now - DAY),
    notAfter: new Date(now + SERVER_DAYS * DAY),
    publicKey: keys.publicKey,
    signingKey: await importKey(ca.key),
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names.map((n) => ({ type: isIp(n) ? 'ip' : 'dns', value: n }))),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caCert),
    ],
  });
  const pem = cert.toString('pem') + '\n';
  return { cert: pem, key: await keyPem(keys.privateKey), chain: pem + ca.cert };
}

/** Whether a server certificate must be (re)issued: missing, expiring soon, names changed or another CA. */
export function needsRenewal(certPem: string | null, ca: CaFiles, names: string[], now = Date.now()): boolean {
  if (!certPem) return true;
  try {
    const cert = new crypto.X509Certificate(certPem);
    if (!cert.verify(new crypto.X509Certificate(ca.cert).publicKey)) return true;
    if (new Date(cert.validTo).getTime() - now < RENEW_BEFORE_DAYS * DAY) return true;
    const san = (cert.subjectAltName ?? '').split(', ').map((e) => canonicalName(e.replace(/^(DNS|IP Address):/, '')));
    return names.some((n) => !san.includes(canonicalName(n)));
  } catch {
    return true;
  }
}

/** The CA and a current server certificate in `dir`, issuing or renewing the latter when needed. */
export async function ensureLocalCerts(dir: string, names: string[], label = 'POS', now = Date.now()): Promise<{ ca: CaFiles; server: ServerFiles; renewed: boolean }> {
  const ca = await loadOrCreateCa(dir, label);
  const certFile = path.join(dir, 'server.crt');
  const keyFile = path.join(dir, 'server.key');
  const current = fs.existsSync(certFile) && fs.existsSync(keyFile) ? fs.readFileSync(certFile, 'utf8') : null;
  if (!needsRenewal(current, ca, names, now)) {
    return { ca, server: { cert: current!, key: fs.readFileSync(keyFile, 'utf8'), chain: current! }, renewed: false };
  }
  const server = await issueServerCert(ca, names, now);
  writePrivate(keyFile, server.key);
  fs.writeFileSync(certFile, server.chain, { mode: 0o644 });
  return { ca, server, renewed: true };
}

/** base64 SHA-256 of a certificate's SubjectPublicKeyInfo (what Chromium's SPKI lists take). */
export function spkiHash(certPem: string): string {
  const spki = new crypto.X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return crypto.createHash('sha256').update(spki).digest('base64');
}
