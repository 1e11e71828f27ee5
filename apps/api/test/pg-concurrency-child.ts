/**
 * Run by pg-concurrency-guard.test.ts in a process of its own (node --import tsx): each case runs
 * some queries, then asks the guard; prints one JSON object {case: error message | null}.
 * argv[2] 'warning': only pg's DeprecationWarning is watched (the query wrapper off).
 */
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { allOn } from '../src/db/concurrent.ts';
import type { Db } from '../src/db/client.ts';
import { checkPgConcurrency, installPgConcurrencyGuard } from './pg-concurrency-guard.ts';

const warningOnly = process.argv[2] === 'warning';
installPgConcurrencyGuard({ wrapQueries: !warningOnly });
const pool = new pg.Pool({ connectionString: process.env.PG_URL, max: 4 });
const db = drizzle(pool) as unknown as Db;
const q = (n: number) => sql.raw(`select pg_sleep(0.02), ${n} as n`);
const out: Record<string, string | null> = {};
const check = async (name: string, run: () => Promise<unknown>) => {
  await run();
  await new Promise((r) => setTimeout(r, 20)); // pg's warning comes on the next tick
  try { checkPgConcurrency(); out[name] = null; } catch (e) { out[name] = (e as Error).message; }
};

await check('poolParallel', () => Promise.all([1, 2, 3].map((n) => db.execute(q(n)))));
await check('txSequential', () => db.transaction(async (tx) => { for (const n of [1, 2, 3]) await tx.execute(q(n)); }));
await check('txAllOn', () => db.transaction((tx) => allOn(tx, [() => tx.execute(q(1)), () => tx.execute(q(2)), () => tx.execute(q(3))])));
if (!warningOnly) await check('txTwoAtOnce', () => db.transaction((tx) => Promise.all([tx.execute(q(1)), tx.execute(q(2))])));
await check('txThreeAtOnce', () => db.transaction((tx) => Promise.all([tx.execute(q(1)), tx.execute(q(2)), tx.execute(q(3))])));
// node emits a deprecation once per process: only the wrapper still sees a second offence.
await check('txThreeAtOnceAgain', () => db.transaction((tx) => Promise.all([tx.execute(q(1)), tx.execute(q(2)), tx.execute(q(3))])));
await pool.end();
console.log(JSON.stringify(out));
