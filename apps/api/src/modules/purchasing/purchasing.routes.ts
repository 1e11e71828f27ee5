import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import type { ZodType } from 'zod';
import { notFound, validationError } from '@pos/domain/errors';
import { toDecimal } from '@pos/domain/money';
import { supplier, supplierStore } from '../../db/schema/index.ts';
import { caller } from '../../plugins/auth.ts';
import { getResource, hydraCollection, iriOf, listResource, parseBody, parseId, parseListQuery, type ResourceCtx, type ResourceDef } from '../../resources/engine.ts';
import { linkedToStores } from '../../resources/filters.ts';
import { purchasesResource } from './purchases.resource.ts';
import { purchaseOrdersResource } from './purchase-orders.resource.ts';
import { supplierPaymentsResource } from './supplier-payments.resource.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import type { Db } from '../../db/client.ts';
import { purchaseBody, purchaseOrderBody, purchaseOrderUpdateBody, purchaseUpdateBody, supplierPaymentBody } from './purchasing.schemas.ts';
import { createPurchase, deletePurchase, updatePurchase } from './purchases.service.ts';
import { createPurchaseOrder, deletePurchaseOrder, updatePurchaseOrder } from './purchase-orders.service.ts';
import { createSupplierPayment, supplierFigures } from './supplier-payments.service.ts';

function objectBody(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError([{ propertyPath: '', message: 'The request body should be a JSON object.' }]);
  }
  return body as Record<string, unknown>;
}

interface Writes<C, U> {
  create: { schema: ZodType<C>; run: (db: Db, input: C, actor: AuthInfo) => Promise<number> };
  update?: { schema: ZodType<U>; run: (db: Db, id: number, input: U, actor: AuthInfo) => Promise<void> };
  remove?: (db: Db, id: number, actor: AuthInfo) => Promise<void>;
}

/**
 * POST, PUT/PATCH (merge) and DELETE of a purchasing resource, ROLE_ADMIN. Like the engine's, but
 * the body keeps `createdAt` (the purchase and PO date the user typed). Each write is one service
 * call, one transaction; the answer is the record as GET shows it.
 */
function registerWrites<C, U>(app: FastifyInstance, def: ResourceDef, w: Writes<C, U>) {
  const base = `/api/${def.path}`;
  const tags = [def.type];
  const ctxOf = (request: FastifyRequest): ResourceCtx => ({ db: app.db, auth: caller(request) });
  app.post(base, { config: { auth: 'purchasing' }, schema: { tags, summary: `Create ${def.type}` } }, async (request, reply) => {
    const ctx = ctxOf(request);
    const id = await w.create.run(app.db, parseBody(w.create.schema, objectBody(request.body)), ctx.auth);
    reply.status(201);
    return getResource(def, id, ctx);
  });
  if (w.update) {
    const update = w.update;
    const handler = async (request: FastifyRequest) => {
      const ctx = ctxOf(request);
      const id = parseId((request.params as { id: string }).id);
      await getResource(def, id, ctx); // 404 when missing or in another store
      await update.run(app.db, id, parseBody(update.schema, objectBody(request.body)), ctx.auth);
      return getResource(def, id, ctx);
    };
    app.put(`${base}/:id`, { config: { auth: 'purchasing' }, schema: { tags, summary: `Update ${def.type} (merge)` } }, handler);
    app.patch(`${base}/:id`, { config: { auth: 'purchasing' }, schema: { tags, summary: `Update ${def.type} (merge)` } }, handler);
  }
  if (w.remove) {
    const remove = w.remove;
    app.delete(`${base}/:id`, { config: { auth: 'purchasing' }, schema: { tags, summary: `Delete ${def.type}` } }, async (request) => {
      const ctx = ctxOf(request);
      const id = parseId((request.params as { id: string }).id);
      await getResource(def, id, ctx);
      await remove(app.db, id, ctx.auth);
      return { '@id': iriOf(def, id), deleted: true };
    });
  }
}

/**
 * Supplier sub-collections (reference-client 2.7): /api/suppliers/{id}/payments, /purchases and
 * /purchase_orders, newest first, honouring `limit` (the client sends limit=9999999&itemsPerPage=10
 * and expects everything), plus /api/suppliers/{id}/ledger with the server's figures.
 * Lists and items of purchases, POs and supplier payments are served by the resource engine
 * (purchasing/*.resource.ts); their writes are registered here.
 */
export default async function purchasingRoutes(app: FastifyInstance) {
  const tags = ['Purchasing'];

  registerWrites(app, purchasesResource, {
    create: { schema: purchaseBody, run: createPurchase },
    update: { schema: purchaseUpdateBody, run: updatePurchase },
    remove: deletePurchase,
  });
  registerWrites(app, purchaseOrdersResource, {
    create: { schema: purchaseOrderBody, run: createPurchaseOrder },
    update: { schema: purchaseOrderUpdateBody, run: updatePurchaseOrder },
    remove: deletePurchaseOrder,
  });
  registerWrites(app, supplierPaymentsResource, { create: { schema: supplierPaymentBody, run: createSupplierPayment } });

  async function visibleSupplier(request: FastifyRequest): Promise<{ id: number; ctx: ResourceCtx }> {
    const auth = caller(request);
    const id = parseId((request.params as { id: string }).id);
    const [row] = await app.db.select({ id: supplier.id }).from(supplier)
      .where(and(eq(supplier.id, id), linkedToStores(supplierStore, supplier.id, auth.storeIds)));
    if (!row) throw notFound('Supplier not found');
    return { id, ctx: { db: app.db, auth } };
  }

  const sub = (segment: string, def: ResourceDef) => async (request: FastifyRequest) => {
    const { id, ctx } = await visibleSupplier(request);
    const q = parseListQuery(request.query as Record<string, unknown>);
    q.filters.set('supplier', String(id));
    if (!q.order.length) q.order.push({ key: 'createdAt', dir: 'desc' }, { key: 'id', dir: 'desc' });
    const { members, total } = await listResource(def, q, ctx);
    return hydraCollection({ path: `suppliers/${id}/${segment}`, type: def.type }, members, total, q);
  };

  app.get('/api/suppliers/:id/payments', { config: { auth: 'purchasing' }, schema: { tags, summary: "A supplier's payments, newest first" } }, sub('payments', supplierPaymentsResource));
  app.get('/api/suppliers/:id/purchases', { config: { auth: 'purchasing' }, schema: { tags, summary: "A supplier's purchases in the caller's stores, newest first" } }, sub('purchases', purchasesResource));
  app.get('/api/suppliers/:id/purchase_orders', { config: { auth: 'purchasing' }, schema: { tags, summary: "A supplier's purchase orders in the caller's stores, newest first" } }, sub('purchase_orders', purchaseOrdersResource));

  app.get('/api/suppliers/:id/ledger', { config: { auth: 'purchasing' }, schema: { tags, summary: 'Supplier figures: credit purchases, paid, opening balance, outstanding' } }, async (request) => {
    const { id, ctx } = await visibleSupplier(request);
    const f = (await supplierFigures(app.db, [id], ctx.auth.storeIds)).get(id)!;
    return {
      supplier: `/api/suppliers/${id}`,
      purchaseTotal: toDecimal(f.purchaseTotal), paid: toDecimal(f.paid), openingBalance: toDecimal(f.openingBalance), outstanding: toDecimal(f.outstanding),
    };
  });
}
