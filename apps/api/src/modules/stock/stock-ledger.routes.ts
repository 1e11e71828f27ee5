import type { FastifyInstance, FastifyRequest } from 'fastify';
import { caller, can } from '../../plugins/auth.ts';
import { sendCsv } from '../../lib/csv.ts';
import { parseBody } from '../../resources/engine.ts';
import { lowStockQuery, movementsQuery, reorderLevelsBody, reorderPoBody, storeQuery, valuationQuery } from './stock-ledger.schemas.ts';
import { lowStock, reorderPurchaseOrders, setReorderLevels, toOrderList } from './reorder.service.ts';
import { valuation } from './valuation.service.ts';
import { valuationCsv } from './valuation.csv.ts';
import { movements, movementsCsv } from './movements.service.ts';

/**
 * Readings of the stock ledger and re-ordering (issue 25.4-25.6; docs/api.md "Stock: re-order,
 * valuation, movements"). Re-ordering, the low-stock tile and movement history need 'purchasing';
 * valuation 'cost.view'. A store not the caller's (or unknown) is a 422 naming `store`, as the
 * stock documents answer. Movements as CSV (`format=csv`) as the reports answer theirs: a header
 * row, amounts in major units, the unit cost only for 'cost.view'.
 */
const tags = ['Stock'];
const purchasing = { auth: 'purchasing' as const };
const body = (request: FastifyRequest) => (request.body === undefined || request.body === null ? {} : request.body);

export default async function stockLedgerRoutes(app: FastifyInstance) {
  const db = app.db;
  app.get('/api/stock/reorder', { config: purchasing, schema: { tags, summary: 'The store\'s "to order" list: products at or below their re-order level, suggested quantity, grouped by supplier: {store, suppliers, count}' } },
    async (request) => toOrderList(db, parseBody(storeQuery, request.query).store, caller(request)));
  app.post('/api/stock/reorder/purchase-orders', { config: purchasing, schema: { tags, summary: 'Draft (Open) purchase orders from the "to order" list, one per supplier, in one transaction: {purchaseOrders}' } }, async (request, reply) => {
    const ids = await reorderPurchaseOrders(db, parseBody(reorderPoBody, body(request)), caller(request));
    reply.status(201);
    return { purchaseOrders: ids.map((id) => ({ '@id': `/api/purchase_orders/${id}`, id })) };
  });
  app.put('/api/stock/reorder/levels', { config: purchasing, schema: { tags, summary: 'Set re-order levels and quantities of products stocked in a store: {updated}' } }, async (request) => {
    const input = parseBody(reorderLevelsBody, body(request));
    await setReorderLevels(db, input, caller(request));
    return { updated: input.lines.length };
  });
  app.get('/api/stock/low', { config: purchasing, schema: { tags, summary: 'Low-stock tile: how many products are at or below their re-order level in the store, and the first few: {store, count, products}' } },
    async (request) => { const q = parseBody(lowStockQuery, request.query); return lowStock(db, q.store, q.limit, caller(request)); });
  app.get('/api/stock/valuation', { config: { auth: 'cost.view' as const }, schema: { tags, summary: 'Stock value at a date and time from the ledger (weighted-average cost), by store, category or supplier: {at, group, rows, totals}; format=csv for the same rows and a total per currency as CSV' } },
    async (request, reply) => {
      const q = parseBody(valuationQuery, request.query);
      const report = await valuation(db, q, caller(request));
      if (q.format === 'json') return report;
      const csv = valuationCsv(report);
      return sendCsv(reply, csv.name, csv.header, csv.rows);
    });
  app.get('/api/stock/movements', { config: purchasing, schema: { tags, summary: 'One product\'s stock movements with reason, document (order, purchase, transfer, count, adjustment), who, when and the running balance, newest first: {product, list, total}; format=csv for every row of the range as CSV' } },
    async (request, reply) => {
      const q = parseBody(movementsQuery, request.query);
      const who = caller(request);
      if (q.format === 'json') return movements(db, q, who);
      const csv = await movementsCsv(db, q, who, can(who, 'cost.view'));
      return sendCsv(reply, csv.name, csv.header, csv.rows);
    });
}
