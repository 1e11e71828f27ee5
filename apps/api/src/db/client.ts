import path from 'node:path';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.ts';
import type { AppConfig } from '../config.ts';

const migrationsFolder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** One Drizzle type for both engines: code never knows whether it runs on PGlite or PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction handle has the same query API. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** The session settings of every pooled PostgreSQL connection (reasons at the pool below). */
export const pgSessionOptions = () => ['-c jit=off -c random_page_cost=1.1', process.env.PGOPTIONS].filter(Boolean).join(' ');

/** PostgreSQL when a URL is given, else PGlite in dataDir (or in memory for tests). Same migrations. */
export async function openDatabase(config: Pick<AppConfig, 'databaseUrl' | 'dataDir' | 'inMemory'>): Promise<Database> {
  if (config.databaseUrl) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // numeric stays a string (exact); int8 counts come back as numbers.
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    // jit=off: the product list's count over 100,000 rows crosses PostgreSQL's JIT cost threshold and
    // was compiled on every request (122 ms of a 222 ms plan, bench/out/plans-products.txt); short
    // OLTP statements never win it back. random_page_cost=1.1: a shop's working set is in memory or
    // on SSD; at the default 4 the planner counted the product list with a heap scan instead of the
    // narrow covering index (measured 28-40 ms vs 17-24 ms on the 100k bench catalogue).
    // PGOPTIONS from the environment still applies on top.
    const options = pgSessionOptions();
    const pool = new pg.default.Pool({ connectionString: config.databaseUrl, max: Number(process.env.PG_POOL_MAX ?? 10), options });
    // An idle connection dropped by the server (restart, failover) must not crash the process:
    // the pool discards it and the next query opens a new one.
    pool.on('error', (err) => { console.warn(`PostgreSQL idle connection error: ${err.message}`); });
    const db = drizzle(pool, { schema }) as unknown as Db;
    txFactories.set(db, (client) => drizzle(client as any, { schema }) as unknown as Db);
    return {
      db,
      kind: 'postgres',
      migrate: () => migrate(db as any, { migrationsFolder }),
      ping: async () => { await pool.query('select 1'); return true; },
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client;
  if (config.inMemory) {
    client = new PGlite();
  } else {
    fs.mkdirSync(config.dataDir, { recursive: true });
    client = new PGlite(config.dataDir);
  }
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: () => migrate(db as any, { migrationsFolder }),
    ping: async () => { await db.execute(sql`select 1`); return true; },
    close: () => client.close(),
  };
}

/**
 * A hot statement with a FIXED text: on PostgreSQL a named prepared statement (parsed and planned
 * once per connection, then only bound and executed: no Drizzle query building, no re-planning);
 * on PGlite a plain parameterised query. Runs on whatever `q` is (the pool, or the connection of a
 * transaction). `name` must always come with the same `text` (node-postgres checks it).
 * Parameters are sent as text and typed by the casts in `text` ($1::int[], $2::numeric ...).
 * Rows come back as the driver parses them: numeric as text, timestamptz as Date (PostgreSQL) or
 * Date/string (PGlite: use asDate), json as objects.
 */
export async function preparedQuery<T>(q: Db | Tx, name: string, text: string, values: unknown[]): Promise<T[]> {
  const client = (q as unknown as { session?: { client?: any } }).session?.client;
  if (!client || typeof client.query !== 'function') throw new Error('preparedQuery: no driver client');
  // node-postgres Pool / PoolClient: named statement. PGlite (instance or transaction): plain query.
  const isPg = typeof client.release === 'function' || typeof client.totalCount === 'number';
  const res = isPg ? await client.query({ name, text, values }) : await client.query(text, values);
  return res.rows as T[];
}

/** A timestamp from either driver. */
export const asDate = (v: Date | string): Date => (v instanceof Date ? v : new Date(v));

/** For PostgreSQL databases: a Drizzle handle over one checked-out connection (saleTransaction). */
const txFactories = new WeakMap<Db, (client: unknown) => Db>();
const txHandles = new WeakMap<object, Db>();

/**
 * A transaction for the sale path: like `db.transaction`, but on PostgreSQL its BEGIN also sets
 * `plan_cache_mode = force_generic_plan` for this transaction only, in the same round trip
 * (`begin; set local ...` as one simple query). Every statement of a sale is a small index-driven
 * one, so its prepared statements are planned once per connection instead of at every execution.
 * COMMIT / ROLLBACK end it (the setting ends with it); a connection whose ROLLBACK failed is
 * discarded, not returned to the pool. On PGlite: `db.transaction`.
 */
export async function saleTransaction<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const factory = txFactories.get(db);
  const pool = (db as unknown as { session?: { client?: any } }).session?.client;
  if (!factory || !pool || typeof pool.connect !== 'function') return db.transaction(fn);
  const client = await pool.connect();
  let broken: unknown;
  try {
    await client.query('begin; set local plan_cache_mode = force_generic_plan').catch((err: unknown) => { broken = err; throw err; });
    let handle = txHandles.get(client);
    if (!handle) { handle = factory(client); txHandles.set(client, handle); }
    try {
      const result = await fn(handle as unknown as Tx);
      await client.query('commit');
      return result;
    } catch (e) {
      await client.query('rollback').catch((err: unknown) => { broken = err; });
      throw e;
    }
  } finally {
    client.release(broken as Error | undefined);
  }
}
