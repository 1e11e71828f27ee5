import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { decimal, ref, text } from '@pos/domain/wire-fields';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId } from '../../resources/engine.ts';
import { createExpense, deleteExpense, getExpense, listExpenses } from './expenses.service.ts';
import { objectBody } from './cash.http.ts';

const expenseBody = z.object({
  description: text(65_535),
  amount: decimal({ positive: true }),
  store: ref(),
  // the client sends "now"; the server's time is used (see createExpense)
  dateTime: z.unknown().optional(),
});

/**
 * Expenses (reference-client 2.10). Any signed-in user of the store may list and record expenses
 * (petty cash paid from the till); deleting one (soft) is ROLE_ADMIN.
 */
export default async function expensesRoutes(app: FastifyInstance) {
  const { db } = app;
  const user = { auth: 'user' as const };
  const tags = ['Expenses'];
  app.get('/api/admin/expense/list', { config: user, schema: { tags, summary: 'Expenses of a store and time range: {list, total, count}' } }, async (request) =>
    listExpenses(db, request.query as Record<string, unknown>, caller(request)));

  app.post('/api/admin/expense/create', { config: user, schema: { tags, summary: 'Record a petty-cash expense: {expense}' } }, async (request, reply) => {
    const input = parseBody(expenseBody, objectBody(request.body));
    const expense = await createExpense(db, input, caller(request));
    reply.status(201);
    return { expense };
  });

  app.get('/api/admin/expense/:id', { config: user, schema: { tags, summary: 'One expense: {expense}' } }, async (request) =>
    ({ expense: await getExpense(db, parseId((request.params as { id: string }).id), caller(request)) }));

  app.delete('/api/admin/expense/:id', { config: { auth: 'expenses' }, schema: { tags, summary: 'Soft-delete an expense' } }, async (request) => {
    const id = parseId((request.params as { id: string }).id);
    await deleteExpense(db, id, caller(request));
    return { '@id': `/api/admin/expense/${id}`, deleted: true };
  });
}
