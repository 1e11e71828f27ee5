import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DEFAULT_JWT_SECRET = 'dev-only-insecure-secret-change-me';
export const MIN_PRODUCTION_SECRET = 32;

export interface AppConfig {
  port: number;
  host: string;
  /** postgres://... to use that PostgreSQL; undefined to run the shop's own PostgreSQL in dataDir (db/embedded.ts). */
  databaseUrl?: string;
  dataDir: string;
  seedDemo: boolean;
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
  const config: AppConfig = {
    port,
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR ?? path.resolve(here, '../../../data'),
    seedDemo: (env.SEED_DEMO ?? 'true') !== 'false',
    jwtSecret: env.JWT_SECRET || DEFAULT_JWT_SECRET, // an empty JWT_SECRET counts as unset
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
  if (config.production && (!config.jwtSecret || config.jwtSecret === DEFAULT_JWT_SECRET)) {
    throw new Error('JWT_SECRET must be set in production (refusing to start with the default secret)');
  }
  if (config.production && config.jwtSecret.length < MIN_PRODUCTION_SECRET) {
    // HS256 with a short secret can be brute-forced offline from any token.
    throw new Error(`JWT_SECRET must be at least ${MIN_PRODUCTION_SECRET} characters in production`);
  }
  return config;
}
