/**
 * Fails an API test that sends a query to a node-postgres client that is still running one: several
 * statements at once on one connection, typically `Promise.all` over a transaction's `tx`
 * (db/concurrent.ts's `allOn` is the way to run reads together). node-postgres 8 queues such a
 * query and deprecates it ("Calling client.query() when the client is already executing a query
 * is deprecated and will be removed in pg@9.0"); pg@9 makes it an error.
 *
 * Two detectors, both on for every API test file (test/setup.ts):
 * - `Client.prototype.query` is wrapped: a query sent while the client has one running or queued is
 *   recorded with its stack, every time. (pg's own warning is weaker: it only fires when one is
 *   already QUEUED, i.e. from the third query at once, and node emits it once per process.)
 * - a `process.on('warning')` listener for pg's DeprecationWarning, in case the wrapper stops
 *   seeing pg's internals (`_activeQuery`, `_queryQueue`) in a later pg 8.x.
 * test/pg-concurrency-guard.test.ts shows both bite, in a child process of its own.
 */
import pg from 'pg';

export const PG_CONCURRENT_QUERY_WARNING = 'already executing a query';

interface Guard { reports: string[]; wrapped: boolean; watched: boolean; seenByWrapper: number }
const KEY = Symbol.for('pos.test.pgConcurrencyGuard');
type ClientInternals = { _activeQuery?: unknown; _queryQueue?: unknown[]; pipeline?: boolean };
const short = (s: unknown) => String(s ?? '').replace(/\s+/g, ' ').slice(0, 160);
const textOf = (q: unknown) => (typeof q === 'string' ? q : (q as { text?: unknown } | null)?.text);

/** Installs the guard once per process (idempotent). `wrapQueries: false` leaves only the warning listener. */
export function installPgConcurrencyGuard(opts: { wrapQueries?: boolean } = {}): Guard {
  const g = ((globalThis as Record<symbol, Guard | undefined>)[KEY] ??= { reports: [], wrapped: false, watched: false, seenByWrapper: 0 });
  if (!g.watched) {
    g.watched = true;
    process.on('warning', (w) => {
      if (w.name !== 'DeprecationWarning' || !w.message.includes(PG_CONCURRENT_QUERY_WARNING)) return;
      // The wrapper already reported it, with a better stack (node emits this one once per process).
      if (g.seenByWrapper > 0) return;
      g.reports.push(`node-postgres warned: ${w.message}\n${w.stack ?? ''}`);
    });
  }
  if (opts.wrapQueries !== false && !g.wrapped) {
    g.wrapped = true;
    const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
    const original = proto.query;
    proto.query = function query(this: ClientInternals, ...args: unknown[]) {
      const busy = !this.pipeline && (this._activeQuery != null || (this._queryQueue?.length ?? 0) > 0);
      if (busy) {
        g.seenByWrapper++;
        const running = (this._activeQuery as { text?: unknown } | null)?.text ?? (this._queryQueue?.[0] as { text?: unknown } | undefined)?.text;
        // Deep enough to get past Drizzle's frames to the app's.
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 40;
        const stack = new Error('sent from').stack ?? '';
        Error.stackTraceLimit = limit;
        g.reports.push(`client.query() while the client is already executing a query (an error in pg@9):\n`
          + `  sent:    ${short(textOf(args[0]))}\n  running: ${short(running)}\n${stack}`);
      }
      return original.apply(this, args);
    };
  }
  return g;
}

/** Throws (and clears) what the guard recorded since the last check. */
export function checkPgConcurrency(): void {
  const g = (globalThis as Record<symbol, Guard | undefined>)[KEY];
  if (!g?.reports.length) return;
  const found = g.reports.splice(0);
  const more = found.length > 3 ? `\n\n... and ${found.length - 3} more` : '';
  throw new Error(`${found.length} quer${found.length === 1 ? 'y was' : 'ies were'} sent to a node-postgres client already running one `
    + `(run them one after the other on a transaction: db/concurrent.ts allOn):\n\n${found.slice(0, 3).join('\n\n')}${more}`);
}
