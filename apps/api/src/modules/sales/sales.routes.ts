import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validationError } from '@pos/domain/errors';
import { saleSchema } from '@pos/domain/schemas/sale';
import { caller, requireCaller, tokenUser } from '../../plugins/auth.ts';
import { parseBody, parseId, registerResource, stripReadOnly } from '../../resources/engine.ts';
import { presentOrderById } from './order.presenter.ts';
import { listOrders, orderProductsResource, ordersResource } from './orders.query.ts';
import {
  assertOrderVisible, createSale, deleteOrder, dispatchOrder, refundSale, requestHash, restoreOrder, updateSale,
} from './sales.service.ts';

const tags = ['Sales'];

function idempotencyKey(request: FastifyRequest): string | null {
  const raw = request.headers['idempotency-key'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return null;
  if (value.length > 100) throw validationError([{ propertyPath: 'Idempotency-Key', message: 'This value is too long.' }]);
  return value;
}

function body(request: FastifyRequest): Record<string, unknown> {
  const raw = request.body;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return stripReadOnly(raw);
  return raw as Record<string, unknown>;
}

/**
 * A manager's approval token sent with a void, restore or refund (`{approval}` in the body; issue
 * 21.2): null when none; a 422 naming `approval` when it is not a short text.
 */
function approvalOf(request: FastifyRequest): string | null {
  const raw = request.body;
  if (raw == null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const v = (raw as Record<string, unknown>).approval;
  if (v == null || v === '') return null;
  if (typeof v !== 'string' || v.length > 200) throw validationError([{ propertyPath: 'approval', message: 'This value should be an approval token.' }]);
  return v;
}

/** `{unsuspend: true}` in a DELETE's body: the held order goes back into the till's cart (audited as resumed, not deleted). */
function resumedOf(request: FastifyRequest): boolean {
  const raw = request.body;
  if (raw == null || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const v = (raw as Record<string, unknown>).unsuspend;
  if (v == null) return false;
  if (typeof v !== 'boolean') throw validationError([{ propertyPath: 'unsuspend', message: 'This value should be of type bool.' }]);
  return v;
}

/** Sales: create / edit / list / actions (reference client 2.5), plus /api/orders and /api/order_products. */
export default async function salesRoutes(app: FastifyInstance) {
  const { db } = app;
  const user = { auth: 'user' as const };

  registerResource(app, ordersResource);
  registerResource(app, orderProductsResource);

  // The caller's user row is read by the sale's own first statement (callerInQuery): one round trip less.
  app.post('/api/admin/order/create', { config: { ...user, callerInQuery: true }, schema: { tags, summary: 'Record a sale or a (partial) return (priced by the server in the store currency and tax mode; Idempotency-Key safe): {order}' } }, async (request, reply) => {
    const userId = tokenUser(request);
    let parsed;
    try {
      const raw = body(request);
      parsed = { input: parseBody(saleSchema, raw), clientId: idempotencyKey(request), requestHash: requestHash(raw) };
      // The body (every line's whole product, as the old client sends it) is read: let it go now
      // rather than hold it while the sale waits on the database, where it would survive the
      // young generation's collections and fill the old one (API memory under sale load).
      request.body = undefined;
    } catch (e) {
      await requireCaller(db, userId); // an invalid caller is a 401 before anything about the body
      throw e;
    }
    const result = await createSale(db, parsed.input, { tokenUserId: userId }, { clientId: parsed.clientId, requestHash: parsed.requestHash });
    // The caller was read by the sale itself: the answer is judged on them (costs: plugins/auth).
    request.auth = result.actor ?? await requireCaller(db, userId);
    reply.status(result.replayed ? 200 : 201);
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return { order: result.order ?? await presentOrderById(db, result.id) };
  });

  app.put('/api/admin/order/edit/:id', { config: user, schema: { tags, summary: 'Edit or complete a pending / held order: {order}' } }, async (request, reply) => {
    const auth = caller(request);
    const id = parseId((request.params as any).id);
    await assertOrderVisible(db, id, auth);
    const raw = body(request);
    const input = parseBody(saleSchema, raw);
    const result = await updateSale(db, id, input, auth, { requestHash: requestHash({ edit: id, body: raw }) });
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return { order: await presentOrderById(db, id) };
  });

  app.get('/api/admin/order/list', { config: user, schema: { tags, summary: 'Sale history: {list, total, count, payments}' } }, async (request) => {
    return listOrders(db, request.query as Record<string, unknown>, caller(request));
  });

  app.get('/api/admin/order/:id', { config: user, schema: { tags, summary: 'One order: {order}' } }, async (request) => {
    const id = parseId((request.params as any).id);
    await assertOrderVisible(db, id, caller(request));
    return { order: await presentOrderById(db, id) };
  });

  app.delete('/api/admin/order/:id', { config: user, schema: { tags, summary: "Delete (or unsuspend a held order: {unsuspend: true}); a completed one needs 'sale.void' or a manager's approval ({approval} in the body); held orders and voids are audited: {order, removed}" } }, async (request) => {
    const auth = caller(request);
    const id = parseId((request.params as any).id);
    const approval = approvalOf(request);
    await assertOrderVisible(db, id, auth);
    const before = await presentOrderById(db, id);
    const { removed } = await deleteOrder(db, id, auth, approval, resumedOf(request));
    return { order: removed ? before : await presentOrderById(db, id), removed };
  });

  // 'user' + the check in refundSale: without 'sale.refund' a manager's approval ({approval}) may stand in (issue 21.2).
  app.post('/api/admin/order/refund/:id', { config: user, schema: { tags, summary: "Refund what is left of an order: creates the return (money back to the original tenders), gives the stock back; needs 'sale.refund' or a manager's approval ({approval} in the body): {order: the return}" } }, async (request, reply) => {
    const auth = caller(request);
    const id = parseId((request.params as any).id);
    const result = await refundSale(db, id, auth, approvalOf(request));
    reply.status(201);
    return { order: await presentOrderById(db, result.id) };
  });

  app.post('/api/admin/order/restore/:id', { config: user, schema: { tags, summary: "Restore a deleted order; needs 'sale.void' or a manager's approval ({approval} in the body): {order}" } }, async (request) => {
    const auth = caller(request);
    const id = parseId((request.params as any).id);
    await restoreOrder(db, id, auth, approvalOf(request));
    return { order: await presentOrderById(db, id) };
  });

  app.post('/api/admin/order/dispatch/:id', { config: user, schema: { tags, summary: 'Mark a completed sale dispatched: {order}' } }, async (request) => {
    const auth = caller(request);
    const id = parseId((request.params as any).id);
    await dispatchOrder(db, id, auth);
    return { order: await presentOrderById(db, id) };
  });
}
