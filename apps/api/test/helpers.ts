import crypto from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { expect, inject } from 'vitest';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { openDatabase, type Database } from '../src/db/client.ts';
import type { MailMessage, Mailer } from '../src/lib/mailer.ts';
import type { AppConfig } from '../src/config.ts';

/**
 * Which PostgreSQL the API tests run on (test/global-setup.ts starts or finds it once per run):
 * 'embedded', the shop's own engine in a temporary folder (default), or 'postgres', the machine's
 * (TEST_DB=postgres). Both are PostgreSQL 18/15 servers: no test depends on which.
 */
export const engine = inject('pgEngine');
export const PG_ADMIN_URL = inject('pgAdminUrl');
const templates = inject('pgTemplates');
/** The bcrypt cost of the seeded template's demo users. */
export const TEMPLATE_BCRYPT_ROUNDS = 4;
const withDb = (name: string) => PG_ADMIN_URL.replace(/\/[^/?]*(\?|$)/, `/${name}$1`);

async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: PG_ADMIN_URL });
  await c.connect();
  try { await c.query(text); } finally { await c.end(); }
}

/** A throwaway database cloned from a template of this run (migrated; `seeded`: demo shop too). */
export async function createThrowawayPg(template: 'empty' | 'seeded' = 'empty'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pos_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  for (let attempt = 0; ; attempt++) {
    try {
      await adminQuery(`create database ${name} template ${templates[template]}`);
      break;
    } catch (e) {
      // Another file cloning the same template at this instant: PostgreSQL refuses, try again.
      if (attempt > 50 || !/being accessed by other users/.test((e as Error).message)) throw e;
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
    }
  }
  return { url: withDb(name), drop: () => adminQuery(`drop database if exists ${name} with (force)`) };
}

/** A migrated database of its own (dropped by its close()), for tests that build their own app. */
export async function openTestDatabase(template: 'empty' | 'seeded' = 'empty'): Promise<Database> {
  const t = await createThrowawayPg(template);
  const database = await openDatabase({ databaseUrl: t.url, dataDir: '' });
  return { ...database, close: async () => { await database.close(); await t.drop(); } };
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

/**
 * Admission limits for tests that are not about load: every class may queue a thousand requests
 * for a minute, so a test firing 50 sales at once on a busy machine is never shed (production
 * sheds by the measured service time and, while sales overflow, by the event loop's load:
 * plugins/admission.ts, admission-loop.ts; their own tests pass their limits). A statement may run
 * 30 s, not a sale's 3: ten credit sales of one customer queue on its row lock, and on a CI machine
 * running the suite's files in parallel on two cores the last of them waited past 3 s (a 503 where
 * the test wants them all; admission-timeouts.test.ts passes its own limits).
 */
export const UNHURRIED_ADMISSION: NonNullable<BuildOptions['admission']> = Object.fromEntries(
  (['sale', 'sync', 'read', 'write'] as const).map((cls) => [cls, { concurrency: 20, queue: 1000, maxWaitMs: 60_000, statementTimeoutMs: 30_000, maxLoopBusy: 1 }]),
);

/** The real app on a database of its own cloned from this run's template, demo shop seeded (unless seed: false). */
export async function createTestApp(opts: {
  seed?: boolean;
  config?: Partial<AppConfig>;
  admission?: BuildOptions['admission'];
  /** Behind a front thread (net/front.ts): the board its admission writes to. */
  front?: BuildOptions['front'];
  /** Runs after buildApp and before ready (a test may add its own routes). */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
} = {}): Promise<TestApp> {
  // The seeded template's users were hashed at cost 4 (global-setup.ts): an app configured with
  // another cost seeds its own demo shop (login timing tests compare costs).
  const seed = opts.seed ?? true;
  const ownCost = opts.config?.bcryptRounds !== undefined && opts.config.bcryptRounds !== TEMPLATE_BCRYPT_ROUNDS;
  const database = await openTestDatabase(seed && !ownCost ? 'seeded' : 'empty');
  const mail = captureMailer();
  const app = await buildApp({
    env: {},
    database,
    mailer: mail,
    logger: false,
    config: { seedDemo: opts.seed ?? true, bcryptRounds: 4, jwtSecret: 'test-secret', ...opts.config },
    admission: opts.admission ?? UNHURRIED_ADMISSION,
    front: opts.front,
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

export interface StaffSpec {
  username: string;
  /** Defaults to `<username>-Secret-4821` (long enough for the password policy). */
  password?: string;
  /** A role key or id (issue 21), or legacy role names. */
  role?: string | number;
  roles?: string[];
  stores: Array<number | string>;
  pin?: string;
  displayName?: string;
}

/**
 * The one staff set-up of the API tests: the owner creates the user through POST
 * /api/admin/user/create, as the back office does (a refusal fails the test with the server's answer).
 */
export async function createStaff(t: TestApp, spec: StaffSpec): Promise<{ id: number; user: any; password: string }> {
  const password = spec.password ?? `${spec.username}-Secret-4821`;
  const owner = await t.login('admin');
  const { stores, ...rest } = spec;
  const payload = { displayName: spec.username, email: `${spec.username}@example.com`, ...rest, password, stores: stores.map(String) };
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/user/create', headers: owner, payload });
  if (res.statusCode !== 200) throw new Error(`create ${spec.username}: ${res.statusCode} ${res.body}`);
  const user = res.json().user;
  return { id: user.id as number, user, password };
}

/** Waits for a condition the server reaches on its own (the machine may be busy: up to 30 s), then asserts it. */
export async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
}
