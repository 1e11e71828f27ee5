import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from '@pos/domain/errors';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId } from '../../resources/engine.ts';
import { adjustmentCreateBody, countCreateBody, countLinesBody, transferCreateBody, transferReceiveBody, transferSendBody } from './stock.schemas.ts';
import { cancelTransfer, createTransfer, getTransfer, listTransfers, receiveTransfer, sendTransfer } from './transfers.service.ts';
import { addCountLines, approveCount, cancelCount, createCount, getCount, listCounts } from './counts.service.ts';
import { createAdjustment, getAdjustment, listAdjustments } from './adjustments.service.ts';

/**
 * Stock operations (docs/api.md "Stock operations"): transfers, counts, adjustments. Reads are for
 * any user of the store(s), writes need the 'purchasing' permission (adjustments and a count's
 * approval 'stock.adjust'); a record of another store is a 404, a store field
 * naming another store a 422. Each write is one service call, one transaction.
 */
const user = { auth: 'user' as const };
const admin = { auth: 'purchasing' as const };
/** Booking stock differences (an adjustment, a count's variances) is its own permission (issue 25.3). */
const adjust = { auth: 'stock.adjust' as const };
const tags = ['Stock'];

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw validationError([{ propertyPath: '', message: 'The request body should be a JSON object.' }]);
  return body as Record<string, unknown>;
}
const idOf = (request: FastifyRequest) => parseId((request.params as { id: string }).id);
const query = (request: FastifyRequest) => request.query as Record<string, unknown>;

export default async function stockRoutes(app: FastifyInstance) {
  const db = app.db;
  const T = '/api/admin/stock/transfer';
  app.get(`${T}/list`, { config: user, schema: { tags, summary: 'Transfers from or to the caller\'s stores, newest first: {list, total, count}' } },
    async (request) => listTransfers(db, query(request), caller(request)));
  app.post(`${T}/create`, { config: admin, schema: { tags, summary: 'Request a transfer between two of the caller\'s stores: {transfer}' } }, async (request, reply) => {
    const auth = caller(request);
    const id = await createTransfer(db, parseBody(transferCreateBody, objectBody(request.body)), auth);
    reply.status(201);
    return { transfer: await getTransfer(db, id, auth) };
  });
  app.get(`${T}/:id`, { config: user, schema: { tags, summary: 'One transfer as a packing list: {transfer}' } },
    async (request) => ({ transfer: await getTransfer(db, idOf(request), caller(request)) }));
  app.post(`${T}/:id/send`, { config: admin, schema: { tags, summary: 'Send a requested transfer (stock leaves the sending store): {transfer}' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    await sendTransfer(db, id, parseBody(transferSendBody, objectBody(request.body)), auth);
    return { transfer: await getTransfer(db, id, auth) };
  });
  app.post(`${T}/:id/receive`, { config: admin, schema: { tags, summary: 'Receive a sent transfer once (stock enters the receiving store): {transfer}' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    await receiveTransfer(db, id, parseBody(transferReceiveBody, objectBody(request.body)), auth);
    return { transfer: await getTransfer(db, id, auth) };
  });
  app.post(`${T}/:id/cancel`, { config: admin, schema: { tags, summary: 'Cancel a requested transfer: {transfer}' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    await cancelTransfer(db, id, auth);
    return { transfer: await getTransfer(db, id, auth) };
  });

  const C = '/api/admin/stock/count';
  app.get(`${C}/list`, { config: user, schema: { tags, summary: 'Stock counts of the caller\'s stores, newest first: {list, total, count}' } },
    async (request) => listCounts(db, query(request), caller(request)));
  app.post(`${C}/create`, { config: admin, schema: { tags, summary: 'Open a stock count (full, or by category, brand, supplier or shelf location): {count}' } }, async (request, reply) => {
    const auth = caller(request);
    const id = await createCount(db, parseBody(countCreateBody, objectBody(request.body)), auth);
    reply.status(201);
    return { count: await getCount(db, id, auth) };
  });
  app.get(`${C}/:id`, { config: user, schema: { tags, summary: 'One count with its lines and variances (value at cost): {count}' } },
    async (request) => ({ count: await getCount(db, idOf(request), caller(request)) }));
  app.post(`${C}/:id/lines`, { config: admin, schema: { tags, summary: 'Add scanned quantities (barcode or product); they add up per product: {count} with the touched lines' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    const products = await addCountLines(db, id, parseBody(countLinesBody, objectBody(request.body)), auth);
    return { count: await getCount(db, id, auth, products) };
  });
  app.post(`${C}/:id/approve`, { config: adjust, schema: { tags, summary: 'Approve an open count once: writes the count adjustments: {count}' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    await approveCount(db, id, auth);
    return { count: await getCount(db, id, auth) };
  });
  app.post(`${C}/:id/cancel`, { config: admin, schema: { tags, summary: 'Cancel an open count (nothing is booked): {count}' } }, async (request) => {
    const auth = caller(request); const id = idOf(request);
    await cancelCount(db, id, auth);
    return { count: await getCount(db, id, auth) };
  });

  const A = '/api/admin/stock/adjustment';
  app.get(`${A}/list`, { config: user, schema: { tags, summary: 'Stock adjustments of the caller\'s stores, newest first: {list, total, count}' } },
    async (request) => listAdjustments(db, query(request), caller(request)));
  app.post(`${A}/create`, { config: adjust, schema: { tags, summary: 'Book stock adjustments with reasons: {adjustment}' } }, async (request, reply) => {
    const auth = caller(request);
    const id = await createAdjustment(db, parseBody(adjustmentCreateBody, objectBody(request.body)), auth);
    reply.status(201);
    return { adjustment: await getAdjustment(db, id, auth) };
  });
  app.get(`${A}/:id`, { config: user, schema: { tags, summary: 'One stock adjustment: {adjustment}' } },
    async (request) => ({ adjustment: await getAdjustment(db, idOf(request), caller(request)) }));
}
