import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { validationError } from '@pos/domain/errors';
import { parseCursor } from '@pos/domain/catalogue-sync';
import { caller } from '../../plugins/auth.ts';
import { readCatalogueSync, type SyncAnswer } from './catalogue-sync.service.ts';

/** Products per JSON piece: the event loop gets a turn between pieces (sales keep flowing during a 100k sync). */
const PIECE = 2000;

/** The payload as JSON text in pieces, products (already JSON, from the database) last, piece by piece. */
function* jsonPieces(answer: SyncAnswer): Generator<string> {
  const { productJson, ...head } = answer;
  yield `${JSON.stringify(head).slice(0, -1)},"products":[`;
  for (let i = 0; i < productJson.length; i += PIECE) yield `${i ? ',' : ''}${productJson.slice(i, i + PIECE).join(',')}`;
  yield ']}';
}

const acceptsGzip = (header: string | string[] | undefined) => /\bgzip\b/.test(Array.isArray(header) ? header.join(',') : header ?? '');

/**
 * GET /api/catalogue/sync[?since=<cursor>]: the till's own catalogue load (issue 10), beside the
 * reference paging of /api/products, which keeps working unchanged. Streamed, gzip when accepted.
 */
export default async function catalogueSyncRoutes(app: FastifyInstance) {
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
    const payload = await readCatalogueSync(app.db, { db: app.db, auth: caller(request) }, { since });
    reply.header('cache-control', 'private, no-store').header('vary', 'Accept-Encoding').type('application/json; charset=utf-8');
    // A small delta goes as is; the full catalogue is streamed through gzip.
    if (payload.productJson.length < 50 || !acceptsGzip(request.headers['accept-encoding'])) {
      return reply.send([...jsonPieces(payload)].join(''));
    }
    reply.header('content-encoding', 'gzip');
    return reply.send(Readable.from(jsonPieces(payload)).pipe(zlib.createGzip({ level: 4 })));
  });
}
