import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { assertStrongSecret, isLoopbackHost } from './secret.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface AppConfig {
  port: number;
  host: string;
  /** postgres://... to use that PostgreSQL; undefined to run the shop's own PostgreSQL in dataDir (db/embedded.ts). */
  databaseUrl?: string;
  dataDir: string;
  /** Seed the demo shop (known passwords) into an empty database: development on loopback only. */
  seedDemo: boolean;
  /** '' until buildApp reads or creates the secret kept in the data folder (see secret.ts). */
  jwtSecret: string;
  /** Access token lifetime in seconds. */
  jwtTtl: number;
  refreshTtl: number;
  corsOrigins: string[];
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  production: boolean;
  /** HTTPS=on|off|auto (auto: on when HOST is beyond loopback and no TLS-terminating proxy; net/tls.ts). */
  https: 'on' | 'off' | 'auto';
  /** The shop's own certificate chain and key (PEM files); unset = issued by the local CA in dataDir/tls. */
  tlsCert?: string;
  tlsKey?: string;
  /** Extra names for the generated certificate (TLS_HOSTS, comma-separated), e.g. pos.myshop.lan. */
  tlsHosts: string[];
  /** TRUST_PROXY: a reverse proxy terminates TLS and sets X-Forwarded-*: true, or its addresses/CIDRs. */
  trustProxy: boolean | string[];
  logLevel: string;
  /** Built web app to serve; absent folder = API only. */
  webDist: string;
  /** bcrypt cost factor. */
  bcryptRounds: number;
  bodyLimit: number;
  loginMaxFailures: number;
  /** DAILY_BACKUPS=off: no automatic daily backup into dataDir/backups (the one before a migration stays). */
  dailyBackups: boolean;
  /** When a started server first checks whether today's backup is due (then every 15 minutes). */
  dailyBackupFirstCheckMs: number;
  /** REPORT_ROLLUP_EVERY_MS: how often closed store-days are rolled up ahead of the reports (0: only when a report asks). */
  reportRollupEveryMs: number;
  /** CATALOGUE_KEEP_S: how long a till's full catalogue is sent again to the next till with the same stores (ms; 0: none). */
  catalogueKeepMs: number;
}

function parseHttps(value: string | undefined): AppConfig['https'] {
  const v = (value ?? 'auto').toLowerCase();
  if (v === 'on' || v === 'off' || v === 'auto') return v;
  throw new Error(`HTTPS must be on, off or auto (got ${JSON.stringify(value)})`);
}

/** CATALOGUE_KEEP_S: whole seconds ≥ 0; five minutes when unset (catalogue-sync.routes.ts says why). */
function parseKeepSeconds(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 5 * 60_000;
  const s = Number(value);
  if (!Number.isFinite(s) || s < 0) throw new Error(`CATALOGUE_KEEP_S must be a number of seconds ≥ 0 (got ${JSON.stringify(value)})`);
  return s * 1000;
}

function parseTrustProxy(value: string | undefined): AppConfig['trustProxy'] {
  if (!value || value === 'false') return false;
  if (value === 'true') return true;
  return value.split(',').map((s) => s.trim()).filter(Boolean);
}

/** Reads the environment once; buildApp takes overrides so tests never touch process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const production = env.NODE_ENV === 'production';
  const port = Number(env.PORT ?? 8000);
  const host = env.HOST ?? '127.0.0.1';
  const config: AppConfig = {
    port,
    host,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? path.resolve(here, '../../../data'),
    // Never the demo logins in production or where the network can reach the server: an empty
    // database there opens the first-run setup instead (setup/setup.routes.ts).
    seedDemo: (env.SEED_DEMO ?? 'true') !== 'false' && !production && isLoopbackHost(host),
    // A weak JWT_SECRET is refused at start; an empty one counts as unset (generated in the data folder).
    jwtSecret: env.JWT_SECRET ? assertStrongSecret(env.JWT_SECRET) : '',
    jwtTtl: Number(env.JWT_TTL ?? 8 * 3600),
    refreshTtl: Number(env.REFRESH_TTL ?? 30 * 24 * 3600),
    corsOrigins: (env.CORS_ORIGINS ?? `http://localhost:${port},http://127.0.0.1:${port},http://localhost:5173,http://127.0.0.1:5173`)
      .split(',').map((s) => s.trim()).filter(Boolean),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'no-reply@pos.local',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    production,
    https: parseHttps(env.HTTPS),
    tlsCert: env.TLS_CERT || undefined,
    tlsKey: env.TLS_KEY || undefined,
    tlsHosts: (env.TLS_HOSTS ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: env.WEB_DIST ?? path.resolve(here, '../../web/dist'),
    bcryptRounds: Number(env.BCRYPT_ROUNDS ?? 10),
    bodyLimit: Number(env.BODY_LIMIT ?? 2 * 1024 * 1024),
    loginMaxFailures: Number(env.LOGIN_MAX_FAILURES ?? 10),
    dailyBackups: (env.DAILY_BACKUPS ?? 'on') !== 'off',
    dailyBackupFirstCheckMs: Number(env.DAILY_BACKUP_FIRST_CHECK_MS ?? 60_000),
    reportRollupEveryMs: Number(env.REPORT_ROLLUP_EVERY_MS ?? 600_000),
    catalogueKeepMs: parseKeepSeconds(env.CATALOGUE_KEEP_S),
    ...overrides,
  };
  return config;
}
