import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The secret older versions fell back to when JWT_SECRET was unset: public, so never accepted. */
export const OLD_DEFAULT_JWT_SECRET = 'dev-only-insecure-secret-change-me';
/** HS256 keys shorter than this can be brute-forced offline from any token. */
export const MIN_SECRET_BYTES = 32;
/** Secrets printed in this repository (docs, tests, old defaults): anyone can read them. */
export const PUBLIC_SECRETS = new Set([
  OLD_DEFAULT_JWT_SECRET, 'test-secret', 'crash-test-secret', 'a-real-secret-of-at-least-32-characters', 'change-me', 'changeme', 'secret',
  'bench-secret-bench-secret-bench-secret',
]);
export const SECRET_FILE = 'jwt-secret';

/** Why a JWT secret is unsafe, or null when it is acceptable. */
export function weakSecretReason(secret: string): string | null {
  if (PUBLIC_SECRETS.has(secret) || PUBLIC_SECRETS.has(secret.trim())) return 'it is printed in the public source code';
  if (secret.trim() === '') return 'it is only whitespace';
  if (new Set(secret).size === 1) return 'it repeats one character';
  if (Buffer.byteLength(secret, 'utf8') < MIN_SECRET_BYTES) return `it is shorter than ${MIN_SECRET_BYTES} bytes`;
  if (new Set(secret).size < 6) return 'it uses fewer than 6 different characters';
  return null;
}

/** Refuses a weak JWT_SECRET with a message telling the operator what to do. */
export function assertStrongSecret(secret: string): string {
  const reason = weakSecretReason(secret);
  if (reason) {
    throw new Error(`JWT_SECRET is refused: ${reason}. Unset JWT_SECRET to let the server generate a random one in its data folder, `
      + `or set at least ${MIN_SECRET_BYTES} random bytes (for example: openssl rand -base64 48).`);
  }
  return secret;
}

/**
 * The signing secret when JWT_SECRET is unset: read from `<dataDir>/jwt-secret` (mode 0600), created
 * with 48 random bytes on first start. With no data folder ('': in-memory database) it lives in memory only.
 */
export function loadOrCreateSecret(dataDir: string): string {
  if (!dataDir) return crypto.randomBytes(48).toString('base64url');
  const file = path.join(dataDir, SECRET_FILE);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    return assertStrongSecret(fs.readFileSync(file, 'utf8').trim());
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  try {
    // 'wx': two processes starting at once cannot overwrite each other's secret.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return assertStrongSecret(fs.readFileSync(file, 'utf8').trim());
    throw err;
  }
  return secret;
}

/** Loopback addresses: the only ones where the demo shop may be seeded and plain http is fine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}
