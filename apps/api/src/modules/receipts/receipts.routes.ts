import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { notFound } from '@pos/domain/errors';
import { caller } from '../../plugins/auth.ts';
import { parseBody } from '../../resources/engine.ts';
import { emailReceipt } from './receipts.service.ts';

const emailBody = z.object({ to: z.union([z.string().max(2000), z.null()]).optional() }).optional();

/** POST /api/admin/order/{id}/email: the till's "e-mail receipt" button (SMTP through app.mailer). */
export default async function receiptsRoutes(app: FastifyInstance) {
  app.post('/api/admin/order/:id/email', {
    config: { auth: 'user' },
    schema: { tags: ['Orders'], summary: "E-mail an order's receipt to {to} (comma separated) or to its customer" },
  }, async (request) => {
    const id = Number((request.params as { id: string }).id);
    if (!Number.isInteger(id) || id <= 0 || id > 2147483647) throw notFound('Order not found');
    const input = parseBody(emailBody, request.body ?? {});
    return emailReceipt(app.db, app.mailer, caller(request), id, input?.to);
  });
}
