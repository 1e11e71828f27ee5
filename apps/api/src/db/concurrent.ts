import pg from 'pg';
import type { Db, Tx } from './client.ts';

/**
 * True when `q` sends each statement to the pool (a free connection each): the app's `db`. False
 * on one connection: a transaction's `tx`, a saleTransaction handle, a Drizzle over a single client.
 */
export function isPooled(q: Db | Tx): boolean {
  return (q as unknown as { session?: { client?: unknown } }).session?.client instanceof pg.Pool;
}

/**
 * Runs independent reads and answers their results in order, like `Promise.all([a(), b(), ...])`:
 * at once on the pool (each on its own connection), one after the other on a single connection.
 * node-postgres queues a second query sent while one is running on the same client (it would run
 * after it anyway) and deprecates it: an error in pg@9 (test/pg-concurrency-guard.ts fails a test
 * that does it). Each step is a function, so nothing starts before its turn.
 */
export async function allOn<T extends readonly unknown[]>(q: Db | Tx, steps: readonly [...{ [K in keyof T]: () => PromiseLike<T[K]> }]): Promise<T> {
  if (isPooled(q)) return Promise.all(steps.map((s) => s())) as unknown as Promise<T>;
  const out: unknown[] = [];
  for (const step of steps) out.push(await step());
  return out as unknown as T;
}
