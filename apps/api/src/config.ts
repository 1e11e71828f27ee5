import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { assertStrongSecret, isLoopbackHost } from './setup/secret.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export interface AppConfig {
  port: number;
  host: string;
  /** postgres://... to use PostgreSQL; undefined to use the embedded PGlite in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  /** Use an in-memory PGlite (tests). */
  inMemory: boolean;
  /** Seed the demo shop (known passwords) into an empty database: development on loopback only. */
  seedDemo: boolean;
  /** '' until buildApp reads or creates the secret kept in the data folder (see setup/secret.ts). */
  jwtSecret: string;
  /** Access token lifetime in seconds. */
  jwtTtl: number;
  refreshTtl: number;
  corsOrigins: string[];
  smtpUrl?: string;
  mailFrom: string;
  publicUrl: string;
  production: boolean;
  logLevel: string;
  /** Built web app to serve; absent folder = API only. */
  webDist: string;
  /** bcrypt cost factor. */
  bcryptRounds: number;
  bodyLimit: number;
  loginMaxFailures: number;
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
    inMemory: false,
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
    logLevel: env.LOG_LEVEL ?? 'info',
    webDist: env.WEB_DIST ?? path.resolve(here, '../../web/dist'),
    bcryptRounds: Number(env.BCRYPT_ROUNDS ?? 10),
    bodyLimit: Number(env.BODY_LIMIT ?? 2 * 1024 * 1024),
    loginMaxFailures: Number(env.LOGIN_MAX_FAILURES ?? 10),
    ...overrides,
  };
  return config;
}
