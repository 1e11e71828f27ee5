import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import type { MailMessage, Mailer } from '../src/lib/mailer.ts';
import type { AppConfig } from '../src/config.ts';

/** Which engine the API tests run on: TEST_DB=postgres uses a throwaway PostgreSQL database. */
export const engine = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const PG_ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function createThrowawayPg(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pos_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A mailer that keeps messages in memory: SMTP is outside the product. */
export function captureMailer(): Mailer & { sent: MailMessage[] } {
  const sent: MailMessage[] = [];
  return { configured: true, sent, async send(m) { sent.push(m); } };
}

export interface TestApp {
  app: FastifyInstance;
  mail: ReturnType<typeof captureMailer>;
  database: Database;
  close(): Promise<void>;
  /** Logs in a demo user and returns an Authorization header. */
  login(username: string, password?: string): Promise<Record<string, string>>;
}

/** The real app on a fresh database (in-memory PGlite, or a throwaway PostgreSQL database), demo shop seeded. */
export async function createTestApp(opts: {
  seed?: boolean;
  config?: Partial<AppConfig>;
  admission?: BuildOptions['admission'];
  /** Runs after buildApp and before ready (a test may add its own routes). */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
} = {}): Promise<TestApp> {
  let drop = async () => {};
  let database: Database;
  if (engine === 'postgres') {
    const pgdb = await createThrowawayPg();
    drop = pgdb.drop;
    database = await openDatabase({ databaseUrl: pgdb.url, dataDir: '', inMemory: false });
  } else {
    database = await openDatabase({ dataDir: '', inMemory: true });
  }
  const mail = captureMailer();
  const app = await buildApp({
    env: {},
    database,
    mailer: mail,
    logger: false,
    config: { seedDemo: opts.seed ?? true, bcryptRounds: 4, jwtSecret: 'test-secret', ...opts.config },
    admission: opts.admission,
  });
  await opts.beforeReady?.(app);
  await app.ready();
  const tokens = new Map<string, Record<string, string>>();
  return {
    app,
    mail,
    database,
    async close() {
      await app.close();
      await database.close();
      await drop();
    },
    async login(username, password = username) {
      const key = `${username}:${password}`;
      const cached = tokens.get(key);
      if (cached) return cached;
      const res = await app.inject({ method: 'POST', url: '/api/auth/login_check', payload: { username, password } });
      if (res.statusCode !== 200) throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      const h = { authorization: `Bearer ${res.json().token}` };
      tokens.set(key, h);
      return h;
    },
  };
}

export function json<T = any>(res: LightMyRequestResponse): T {
  return res.json() as T;
}
