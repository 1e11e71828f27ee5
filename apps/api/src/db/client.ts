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

/** A transaction held open past one callback: a streamed answer reads it batch by batch (catalogue-sync.service.ts). */
export interface OpenTransaction {
  /**
   * Runs `fn` on the transaction, one call at a time in call order; once `end` was asked for, it
   * throws instead (never a statement on a connection given back to the pool).
   */
  use<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** ROLLBACK (a read-only transaction has nothing to commit) and the connection back to the pool, after the running `use`; once, never rejects. */
  end(): Promise<void>;
}

/**
 * BEGIN `<mode>` on a connection of its own, ended by `end()` whenever the caller is done: the
 * connection carries the statement timeout of the request that opened it (statement-timeout.ts),
 * per statement. A connection whose ROLLBACK failed is discarded, not returned to the pool.
 */
export async function openTransaction(db: Db, mode: string): Promise<OpenTransaction> {
  const factory = txFactories.get(db);
  const pool = (db as unknown as { session?: { client?: any } }).session?.client;
  if (!factory || !pool || typeof pool.connect !== 'function') throw new Error('openTransaction: no connection pool');
  const client = await pool.connect() as pg.PoolClient;
  // The connection may be lost while the transaction waits between two uses (a slow client, a
  // database restart): a checked-out connection has no listener of the pool's, and an 'error'
  // without one would end the process. Remembered here; the next use throws it, `end` discards the connection.
  let lost: Error | undefined;
  const onError = (e: Error) => { lost = e; };
  client.on('error', onError);
  try {
    await client.query(`begin ${mode}`);
  } catch (e) {
    client.off('error', onError);
    client.release(e as Error);
    throw e;
  }
  const tx = factory(client) as unknown as Tx;
  let ended = false;
  let queue: Promise<unknown> = Promise.resolve();
  let ending: Promise<void> | undefined;
  return {
    use(fn) {
      const run = queue.then(() => {
        if (ended) throw new Error('openTransaction: the transaction has ended');
        if (lost) throw lost;
        return fn(tx);
      });
      queue = run.catch(() => {});
      return run;
    },
    end() {
      ending ??= queue.then(async () => {
        ended = true;
        if (!lost) await client.query('rollback').catch((e: Error) => { lost = e; });
        client.off('error', onError);
        client.release(lost);
      });
      queue = ending;
      return ending;
    },
  };
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
  return lockedSaleTransaction(db, null, undefined, (tx) => fn(tx));
}

/**
 * A saleTransaction that first takes a transaction-scoped advisory lock on `key` (null: none) and
 * runs `lookup` (a statement with its values inlined, pg.escapeLiteral), all in the BEGIN's round
 * trip: `begin; set local ...; select pg_advisory_xact_lock(k); <lookup>`. The look-up takes its
 * snapshot after the lock is granted, so it sees what the holder before committed; the lock ends
 * with the COMMIT, after this transaction's own writes are visible. Every process on the database
 * that runs under the same key waits for the one before it: a sale's client id (sales.service.ts).
 */
export async function lockedSaleTransaction<T, R = Record<string, unknown>>(db: Db, key: string | null, lookup: string | undefined,
  fn: (tx: Tx, found: R[]) => Promise<T>): Promise<T> {
  const prefix = `${key == null ? '' : `select pg_advisory_xact_lock(${advisoryKey(key)});`}${lookup ?? ''}`;
  const held = heldClients.get(db);
  if (held) {
    // Already in a transaction on this connection: the lock and look-up join it (no second BEGIN).
    const res = prefix ? await held.query(prefix) : null;
    return fn(db as unknown as Tx, lookup ? rowsOfLast<R>(res) : []);
  }
  const factory = txFactories.get(db);
  const pool = (db as unknown as { session?: { client?: any } }).session?.client;
  if (!factory || !pool || typeof pool.connect !== 'function') {
    return db.transaction(async (tx) => fn(tx, lookup ? (await tx.execute(sql.raw(lookup)) as unknown as { rows: R[] }).rows : []));
  }
  const client = await pool.connect();
  let broken: unknown;
  try {
    return await transactionOn(client, handleOf(factory, client), prefix, Boolean(lookup), fn, (err) => { broken = err; });
  } finally {
    client.release(broken as Error | undefined);
  }
}

/** The rows of the last statement of a simple query (one result, or one per statement). */
const rowsOfLast = <R>(res: unknown): R[] => (Array.isArray(res) ? (res.at(-1) as { rows?: R[] } | undefined)?.rows : (res as { rows?: R[] } | null)?.rows) ?? [];

type PgClient = { query: (text: string) => Promise<unknown>; release: (err?: Error) => void };

async function transactionOn<T, R>(client: PgClient, handle: Db, prefix: string, withLookup: boolean, fn: (tx: Tx, found: R[]) => Promise<T>, broke: (err: unknown) => void): Promise<T> {
  const res = await client.query(`begin; set local plan_cache_mode = force_generic_plan;${prefix}`).catch((err: unknown) => { broke(err); throw err; });
  try {
    // A simple query of several statements answers one result per statement: the look-up is the last.
    const found = withLookup ? rowsOfLast<R>(res) : [];
    const result = await fn(handle as unknown as Tx, found);
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

/** The connection under a transaction's handle: a saleTransaction asked for on it joins that transaction. */
const heldClients = new WeakMap<Db, PgClient>();

/** A signed 64-bit advisory lock key for a text (sha256, first 8 bytes): inlined, never a bind value. */
export const advisoryKey = (text: string) => BigInt.asIntN(64, BigInt(`0x${crypto.createHash('sha256').update(text).digest('hex').slice(0, 16)}`)).toString();

