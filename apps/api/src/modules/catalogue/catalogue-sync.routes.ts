import { Readable, pipeline } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { validationError } from '@pos/domain/errors';
import { parseCursor, type SyncPayload } from '@pos/domain/catalogue-sync';
import { can, caller } from '../../plugins/auth.ts';
import { CatalogueKeeper } from './catalogue-snapshot.ts';
import { openFullSync, readCatalogueDelta, SYNC_BATCH } from './catalogue-sync.service.ts';

/** The head of an answer as JSON text, up to the opening of its products array. */
const headJson = (head: Omit<SyncPayload, 'products' | 'userId'> & { userId?: number }) => `${JSON.stringify(head).slice(0, -1)},"products":[`;

/**
 * The products array holds one product per line (`[` newline, the rows joined by `,` newline, a
 * newline, `]`): still one JSON text, and a till reads a long answer line by line as it arrives
 * (a raw newline is never inside a JSON string: PostgreSQL and JSON.stringify escape it).
 */
const ROWS = ',\n';
const productLines = (rows: string[]) => (rows.length ? `\n${rows.join(ROWS)}\n` : '\n');

/** A whole answer as one text. */
const wholeJson = (head: Omit<SyncPayload, 'products'>, rows: string[]) => `${headJson(head)}${productLines(rows)}]}`;

/** Below this many products an answer goes as one uncompressed text (gzip would not pay). */
const SMALL = 50;

/** Products per JSON piece of a delta: the event loop gets a turn between pieces. */
const PIECE = 2000;

function* deltaPieces(head: Omit<SyncPayload, 'products'>, productJson: string[]): Generator<string> {
  yield `${headJson(head)}\n`;
  for (let i = 0; i < productJson.length; i += PIECE) yield `${i ? ROWS : ''}${productJson.slice(i, i + PIECE).join(ROWS)}`;
  yield '\n]}';
}

const acceptsGzip = (header: string | string[] | undefined) => /\bgzip\b/.test(Array.isArray(header) ? header.join(',') : header ?? '');

/** A full sync's longest wait for a till that stopped reading (nothing written meanwhile). */
export const SYNC_STALL_MS = 60_000;

/** What a full catalogue's content depends on: the caller's stores and whether they see costs. */
const keptKey = (storeIds: number[], costs: boolean) => `${[...storeIds].sort((a, b) => a - b).join(',')}|${costs ? 'costs' : ''}`;

declare module 'fastify' {
  interface FastifyInstance {
    /** Products per batch of a full catalogue sync (SYNC_BATCH; tests set a small one). */
    syncBatchSize?: number;
    /** How long a full sync waits for a till that stopped reading (SYNC_STALL_MS; tests set a short one). */
    syncStallMs?: number;
    /** Full catalogues kept for the next till with the same stores (catalogue-snapshot.ts; tests set their own). */
    catalogueKeeper?: CatalogueKeeper;
  }
}

/**
 * GET /api/catalogue/sync[?since=<cursor>]: the till's own catalogue load (issue 10), beside the
 * reference paging of /api/products, which keeps working unchanged. A delta is read at once; the
 * full catalogue is streamed (gzip when accepted) batch by batch as the client takes it, so the
 * API holds about one batch of products (issue 24, catalogue-sync.service.ts).
 */
export default async function catalogueSyncRoutes(app: FastifyInstance) {
  // How long a full catalogue read for one till is sent again to the next with the same stores
  // (CATALOGUE_KEEP_S, config.ts; 0 keeps none). Five minutes by default: the tills of a shop
  // opening in the morning start within them, and what changed since is the small delta each asks.
  const own = new CatalogueKeeper(app.config.catalogueKeepMs);
  const keeper = () => app.catalogueKeeper ?? own;
  app.addHook('onClose', async () => own.close());
  app.get('/api/catalogue/sync', {
    config: { auth: 'user' },
    schema: { tags: ['Product'], summary: 'Till catalogue sync: compact full catalogue, or ?since=<cursor> for the changes (docs/api.md)' },
  }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    let since: number | undefined;
    if (q.since !== undefined && q.since !== '') {
      const parsed = parseCursor(Array.isArray(q.since) ? q.since[0] : q.since);
      if (parsed === null || parsed > Date.now() + 86_400_000) throw validationError([{ propertyPath: 'since', message: 'This value is not a valid cursor.' }]);
      since = parsed;
    }
    const ctx = { db: app.db, auth: caller(request) };
    const gzip = acceptsGzip(request.headers['accept-encoding']);
    reply.header('cache-control', 'private, no-store').header('vary', 'Accept-Encoding').type('application/json; charset=utf-8');
    if (since !== undefined) {
      // A delta goes as it always did: a small one as is, a big one (a CSV import) through gzip.
      const { productJson, ...head } = await readCatalogueDelta(app.db, ctx, since);
      if (productJson.length < SMALL || !gzip) return reply.send(wholeJson(head, productJson));
      reply.header('content-encoding', 'gzip');
      return reply.send(pipeline(Readable.from(deltaPieces(head, productJson)), zlib.createGzip({ level: 4 }), () => {}));
    }

    // A full catalogue read for another till with the same stores a moment ago: its bytes, with
    // this caller's id at the end (the loader then asks what changed since its cursor).
    const key = keptKey(ctx.auth.storeIds, can(ctx.auth, 'cost.view'));
    const end = `,"userId":${ctx.auth.userId}}`;
    const kept = gzip ? keeper().get(key) : null;
    // A till that stops reading (hung, asleep, its network gone without a reset) would hold the
    // sync slot, and for an answer read now the snapshot's connection, for ever: with nothing
    // written for this long the socket is closed (its 'close' ends the snapshot). Reset once the
    // answer is out (a kept-alive connection carries other requests).
    const socket = reply.raw.socket;
    reply.raw.setTimeout(app.syncStallMs ?? SYNC_STALL_MS, () => reply.raw.destroy());
    reply.raw.once('finish', () => { if (typeof socket?.setTimeout === 'function') socket.setTimeout(0); });
    if (kept) {
      const { body, bytes } = keeper().answer(kept, end);
      reply.header('content-encoding', 'gzip').header('content-length', bytes);
      return reply.send(body);
    }

    const batchSize = app.syncBatchSize ?? SYNC_BATCH;
    const sync = await openFullSync(app.db, ctx, batchSize);
    // However the answer ends (sent, client gone, error), the snapshot ends and its connection goes
    // back to the pool; the batches' own `finally` does it too, this covers a stream never read.
    reply.raw.once('close', () => { void sync.close(); });
    const { batches, close: _close, ...head } = sync;
    const products = batches();
    // The first batch is read before anything is sent: an error there is still a proper answer, and
    // a small catalogue goes as one text, as a delta does.
    let first: IteratorResult<string[]>;
    try {
      first = await products.next();
    } catch (e) {
      await sync.close();
      throw e;
    }
    const firstRows = first.done ? [] : first.value;
    if (firstRows.length < Math.min(SMALL, batchSize)) {
      await products.return(undefined);
      return reply.send(wholeJson(head, firstRows));
    }
    // The caller's id goes last, after the products: what comes before it is the same for every
    // caller with these stores, and is kept for them (gzip only: every browser asks for it).
    const { userId: _userId, ...shared } = head;
    async function* pieces(): AsyncGenerator<string> {
      yield `${headJson(shared)}\n${firstRows.join(ROWS)}`;
      // Readable.from asks for the next piece only once the previous one was taken: a batch is
      // read from the database when the one before was written out (backpressure).
      for await (const rows of products) yield `${ROWS}${rows.join(ROWS)}`;
      yield '\n]';
    }
    if (!gzip) {
      async function* whole() { yield* pieces(); yield end; }
      return reply.send(Readable.from(whole(), { objectMode: false }));
    }
    reply.header('content-encoding', 'gzip');
    // When Fastify destroys the answer (client gone), the generator's end ends the snapshot.
    return reply.send(keeper().record(key, pieces(), end));
  });
}
