import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';

/**
 * Every statement has a time limit for its request's class (issue 30.2, plugins/admission.ts).
 *
 * The admission hook runs each admitted request inside `withStatementTimeout(ms, ...)`; whenever
 * that request's code takes a connection from the pool (a plain query, `db.transaction`,
 * `saleTransaction`, `lockedSaleTransaction`: all go through `pool.connect`), the connection's
 * `statement_timeout` is set to the class's limit first, unless the connection already has it
 * (it is a session setting, remembered per connection, so a run of requests of one class pays
 * the `SET` once per connection, not per statement). Work outside any request (migrations,
 * start-up, jobs) runs with no limit (0). The timeout counts lock waits too.
 *
 * A statement cancelled by it fails with SQLSTATE 57014 (query_canceled); the error handler
 * answers 503 BUSY + Retry-After (plugins/errors.ts), and the transaction it ran in is rolled back
 * (nothing half-written). Per process, per request: nothing here is shared between requests.
 */
const current = new AsyncLocalStorage<number>();

/** Runs `fn` (and everything it starts) with statements limited to `ms` milliseconds (0: none). */
export function withStatementTimeout<T>(ms: number, fn: () => T): T {
  return current.run(ms, fn);
}

/** The limit of the running request's class, 0 outside any request. */
export const statementTimeoutNow = (): number => current.getStore() ?? 0;

/** SQLSTATE 57014: the statement was cancelled (by statement_timeout, or an administrator). */
export const QUERY_CANCELED = '57014';

type Client = pg.PoolClient & { [applied]?: number };
const applied = Symbol('statementTimeout');
type Done = (release?: unknown) => void;
type Callback = (err: Error | undefined, client: pg.PoolClient | undefined, done: Done) => void;

async function ensure(client: Client, ms: number): Promise<void> {
  // A fresh connection starts at the server's default (0 unless PGOPTIONS says otherwise).
  if ((client[applied] ?? 0) === ms) return;
  await client.query(`set statement_timeout = ${Math.trunc(ms)}`);
  client[applied] = ms;
}

/** Makes every connection taken from `pool` carry the running request's statement timeout. */
export function applyStatementTimeouts(pool: pg.Pool): void {
  const connect = pool.connect.bind(pool) as (cb?: Callback) => Promise<pg.PoolClient> | void;
  const wrapped = (cb?: Callback): Promise<pg.PoolClient> | void => {
    const ms = statementTimeoutNow();
    if (cb) {
      // pool.query takes its connection this way.
      connect((err, client, done) => {
        if (err || !client) { cb(err, client, done); return; }
        ensure(client, ms).then(() => cb(undefined, client, done), (e: Error) => { done(e); cb(e, undefined, () => {}); });
      });
      return;
    }
    return (connect() as Promise<pg.PoolClient>).then(async (client) => {
      try {
        await ensure(client, ms);
      } catch (e) {
        client.release(e as Error);
        throw e;
      }
      return client;
    });
  };
  pool.connect = wrapped as typeof pool.connect;
}
