import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { flag, optionalDecimal } from '@pos/domain/wire-fields';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId } from '../../resources/engine.ts';
import { getClosing, listClosings, openedClosing, updateClosing } from './closing.service.ts';
import { objectBody, queryIds } from './cash.http.ts';
import { openTills } from './open-tills.ts';

const money = optionalDecimal({ min: 0 });
/** Denomination counts: {"<note value>": count}; anything else is refused. */
const denominations = z.union([z.record(z.string().max(20), z.union([z.number().int().min(0).max(1_000_000), z.null()])), z.null()], {
  error: 'This value should be an object of counts.',
}).optional();
/** A page of past closings: 1-based page, at most 100 a page. */
const listPaging = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  itemsPerPage: z.coerce.number().int().min(1).max(100).default(20),
});
const closingBody = z.object({
  openingBalance: money,
  cashAdded: money,
  cashWithdrawn: money,
  closingBalance: optionalDecimal(),
  denominations,
  updateOnly: flag().optional(),
  // ignored for integrity: the server computes them or takes them from the session
  closedAt: z.unknown().optional(), closedBy: z.unknown().optional(), expenses: z.unknown().optional(), data: z.unknown().optional(),
});

/**
 * Day closing (reference-client 2.11): any signed-in user of the store opens, updates and closes
 * the day of a terminal of that store.
 */
export default async function closingRoutes(app: FastifyInstance) {
  const { db } = app;
  const user = { auth: 'user' as const };
  const tags = ['Closing'];

  app.get('/api/admin/closing/opened', { config: user, schema: { tags, summary: 'The open day of a store + terminal, created when none: {closing}' } }, async (request) => {
    const { store: storeId, terminal: terminalId } = queryIds((request.query ?? {}) as Record<string, unknown>, ['store', 'terminal']);
    return { closing: await openedClosing(db, { storeId, terminalId }, caller(request)) };
  });

  app.get('/api/admin/closing/open', { config: user, schema: { tags, summary: "The tills whose day is started and not closed, in the caller's stores, oldest first: {list: [{closing, store, terminal, openedAt, openedBy}], count}" } }, async (request) =>
    openTills(db, caller(request)));

  app.get('/api/admin/closing/list', { config: user, schema: { tags, summary: "Closed days of one of the caller's stores (terminal optional), newest first, with their figures: {list, total, count}" } }, async (request) => {
    const query = (request.query ?? {}) as Record<string, unknown>;
    const { store: storeId } = queryIds(query, ['store']);
    const { terminal: terminalId } = query.terminal === undefined || query.terminal === '' ? { terminal: undefined } : queryIds(query, ['terminal']);
    const paging = parseBody(listPaging, { page: query.page, itemsPerPage: query.itemsPerPage });
    return listClosings(db, { storeId, terminalId, ...paging }, caller(request));
  });

  app.get('/api/admin/closing/:id', { config: user, schema: { tags, summary: 'One day closing: {closing}' } }, async (request) =>
    ({ closing: await getClosing(db, parseId((request.params as { id: string }).id), caller(request)) }));

  app.post('/api/admin/closing/:id', { config: user, schema: { tags, summary: "Start, update or close the day (closedAt/closedBy are the server's): {closing}" } }, async (request) => {
    const id = parseId((request.params as { id: string }).id);
    const input = parseBody(closingBody, objectBody(request.body));
    return { closing: await updateClosing(db, id, input, caller(request)) };
  });
}
