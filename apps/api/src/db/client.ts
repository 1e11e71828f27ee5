import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';
import type { AppConfig } from '../config.ts';
import { startEmbeddedPostgres, type EmbeddedPg } from './embedded.ts';
import { migratePgliteFolder } from './import-pglite.ts';
import { applyStatementTimeouts } from './statement-timeout.ts';

export const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** The Drizzle handle over PostgreSQL (node-postgres pool). */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  /** 'embedded': the shop's own PostgreSQL in the data folder; 'postgres': DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** The connection string of the database (for tools that open their own connection: backups). */
  url: string;
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  /** Ends the pool, then (embedded) a fast shutdown of the shop's PostgreSQL. */
  close(): Promise<void>;
}

/** The session settings of every pooled PostgreSQL connection (reasons at the pool below). */
export const pgSessionOptions = () => ['-c jit=off -c random_page_cost=1.1', process.env.PGOPTIONS].filter(Boolean).join(' ');

export interface OpenOptions {
  /** Told what the embedded manager did (initdb, reuse, old folder moved). */
  log?: (msg: string) => void;
  /** The embedded PostgreSQL died under the server. */
  onDatabaseExit?: (pid: number) => void;
}

/**
 * PostgreSQL at DATABASE_URL, else the shop's own PostgreSQL run from the data folder
 * (db/embedded.ts; a folder of the previous release's PGlite is moved over first, db/import-pglite.ts).
 */
export async function openDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir'>, opts: OpenOptions = {}): Promise<Database> {
  let url = config.databaseUrl;
  let embedded: EmbeddedPg | undefined;
  if (!url) {
    const log = opts.log ?? ((m: string) => console.log(m));
    await migratePgliteFolder(config.dataDir, migrationsFolder, log);
    embedded = await startEmbeddedPostgres(config.dataDir, { log, onUnexpectedExit: opts.onDatabaseExit });
    url = embedded.url();
  }
  try {
    return await openPool(url, embedded);
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}

async function openPool(url: string, embedded: EmbeddedPg | undefined): Promise<Database> {
  // numeric stays a string (exact); int8 counts come back as numbers.
  pg.types.setTypeParser(20, (v: string) => Number(v));
  // jit=off: the product list's count over 100,000 rows crosses PostgreSQL's JIT cost threshold and
  // was compiled on every request (122 ms of a 222 ms plan, bench/out/plans-products.txt); short
  // OLTP statements never win it back. random_page_cost=1.1: a shop's working set is in memory or
  // on SSD; at the default 4 the planner counted the product list with a heap scan instead of the
  // narrow covering index (measured 28-40 ms vs 17-24 ms on the 100k bench catalogue).
  // PGOPTIONS from the environment still applies on top.
  const options = pgSessionOptions();
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.PG_POOL_MAX ?? 10), options });
  // An idle connection dropped by the server (restart, failover) must not crash the process:
  // the pool discards it and the next query opens a new one.
  pool.on('error', (err) => { console.warn(`PostgreSQL idle connection error: ${err.message}`); });
  // Each request's statements get its admission class's time limit (db/statement-timeout.ts).
  applyStatementTimeouts(pool);
  const db = drizzle(pool, { schema }) as unknown as Db;
  txFactories.set(db, (client) => drizzle(client as any, { schema }) as unknown as Db);
  return {
    db,
    kind: embedded ? 'embedded' : 'postgres',
    url,
    migrate: () => migrate(db as any, { migrationsFolder }),
    ping: async () => { await pool.query('select 1'); return true; },
    close: async () => {
      try { await pool.end(); } finally { await embedded?.stop(); }
    },
  };
}

/**
 * A hot statement with a FIXED text as a named prepared statement: parsed and planned once per
 * connection, then only bound and executed (no Drizzle query building, no re-planning). Runs on
 * whatever `q` is (the pool, or the connection of a transaction). `name` must always come with
 * the same `text` (node-postgres checks it). Parameters are sent as text and typed by the casts
 * in `text` ($1::int[], $2::numeric ...). Rows come back as node-postgres parses them: numeric as
 * text, timestamptz as Date, json as objects.
 */
export async function preparedQuery<T>(q: Db | Tx, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (q as unknown as { session?: { client?: { query: (c: object) => Promise<{ rows: unknown[] }> } } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('preparedQuery: no driver client');
  const res = await client.query({ name, text, values });
  return res.rows as T[];
}

/** A Drizzle handle over one checked-out connection (saleTransaction). */
const txFactories = new WeakMap<Db, (client: unknown) => Db>();
const txHandles = new WeakMap<object, Db>();

/**
 * A transaction for the sale path: like `db.transaction`, but on PostgreSQL its BEGIN also sets
 * `plan_cache_mode = force_generic_plan` for this transaction only, in the same round trip
 * (`begin; set local ...` as one simple query). Every statement of a sale is a small index-driven
 * one, so its prepared statements are planned once per connection instead of at every execution.
 * COMMIT / ROLLBACK end it (the setting ends with it); a connection whose ROLLBACK failed is
 * discarded, not returned to the pool. (A database without a pool, none today: `db.transaction`.)
 */
export async function saleTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const held = heldClients.get(db);
  if (held) return transactionOn(held, db, fn, () => {});
  const factory = txFactories.get(db);
  const pool = (db as unknown as { session?: { client?: any } }).session?.client;
  if (!factory || !pool || typeof pool.connect !== 'function') return db.transaction(fn);
  const client = await pool.connect();
  let broken: unknown;
  try {
    return await transactionOn(client, handleOf(factory, client), fn, (err) => { broken = err; });
  } finally {
    client.release(broken as Error | undefined);
  }
}

type PgClient = { query: (text: string) => Promise<unknown>; release: (err?: Error) => void };

async function transactionOn<T>(client: PgClient, handle: Db, fn: (tx: Tx) => Promise<T>, broke: (err: unknown) => void): Promise<T> {
  await client.query('begin; set local plan_cache_mode = force_generic_plan').catch((err: unknown) => { broke(err); throw err; });
  try {
    const result = await fn(handle as unknown as Tx);
    await client.query('commit');
    return result;
  } catch (e) {
    await client.query('rollback').catch((err: unknown) => { broke(err); });
    throw e;
  }
}

function handleOf(factory: (client: unknown) => Db, client: object): Db {
  let handle = txHandles.get(client);
  if (!handle) { handle = factory(client); txHandles.set(client, handle); heldClients.set(handle, client as PgClient); }
  return handle;
}

/** The connection under a handle given out by withKeyLock (saleTransaction runs on it). */
const heldClients = new WeakMap<Db, PgClient>();

/** A signed 64-bit advisory lock key for a text (sha256, first 8 bytes): inlined, never a bind value. */
export const advisoryKey = (text: string) => BigInt.asIntN(64, BigInt(`0x${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}`)).toString();

/**
 * Runs `fn` on ONE pooled connection that holds a session advisory lock on `key` for its whole
 * duration (released after `fn`, committed or not): every process that writes under the same key
 * waits for the one before it, and a statement it runs after the lock sees what that one committed
 * (a fresh snapshot). Statements on the handle run each in its own transaction unless wrapped in
 * saleTransaction (which then runs on this same connection). `lookup`, a statement with its values
 * inlined (pg.escapeLiteral), runs right after the lock in the same round trip; `fn` gets its rows.
 * A connection whose unlock failed is discarded (the lock ends with it). With no pool (none today)
 * `fn` runs on `db` unlocked.
 */
export async function withKeyLock<T, R = Record<string, unknown>>(db: Db, key: string, fn: (conn: Db, found: R[]) => Promise<T>, lookup?: string): Promise<T> {
  const factory = txFactories.get(db);
  const pool = (db as unknown as { session?: { client?: any } }).session?.client;
  if (!factory || !pool || typeof pool.connect !== 'function') {
    return fn(db, lookup ? (await db.execute(sql.raw(lookup)) as unknown as { rows: R[] }).rows : []);
  }
  const k = advisoryKey(key);
  const client = await pool.connect();
  let broken: unknown;
  try {
    // The lock and the look-up in one round trip (a simple query of two statements: the second
    // takes its snapshot after the lock is granted).
    const res = await client.query(`select pg_advisory_lock(${k});${lookup ?? ''}`).catch((err: unknown) => { broken = err; throw err; });
    const found = lookup ? (res as { rows: R[] }[])[1].rows : [];
    try {
      return await fn(handleOf(factory, client), found);
    } finally {
      await client.query(`select pg_advisory_unlock(${k})`).catch((err: unknown) => { broken = err; });
    }
  } finally {
    client.release(broken as Error | undefined);
  }
}
