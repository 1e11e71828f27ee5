import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BLANK, email as emailField } from '@pos/domain/wire-fields';
import { isCurrencyCode, isTimeZone } from '@pos/domain/currency';
import { parseBody } from '../resources/engine.ts';
import { runSetup, setupNeeded } from './setup.service.ts';

const setupBody = z.object({
  shopName: z.string({ error: BLANK }).trim().min(1, BLANK).max(100, 'This value is too long. It should have 100 characters or less.'),
  currency: z.string({ error: BLANK }).refine(isCurrencyCode, 'This value is not a valid currency.'),
  timeZone: z.string({ error: BLANK }).refine(isTimeZone, 'This value is not a valid timezone.'),
  username: z.string({ error: BLANK }).trim().min(1, BLANK).max(180),
  password: z.string({ error: BLANK }).min(8, 'This value is too short. It should have 8 characters or more.').max(128, 'This value is too long. It should have 128 characters or less.'),
  displayName: z.string().trim().max(255).optional(),
  email: z.union([emailField(), z.literal(''), z.null()]).optional().transform((v) => (v === '' ? null : v)),
});

/**
 * First-run setup of an install with no user (production, or a server on the network, never gets
 * the demo logins). Public only while no user exists; afterwards POST answers 409 and GET needed=false.
 */
export default async function setupRoutes(app: FastifyInstance) {
  const { db, config } = app;
  const publicRoute = { config: { auth: 'public' as const } };

  app.get('/api/setup', { ...publicRoute, schema: { tags: ['Setup'], summary: 'Whether the first-run setup is open: {needed}' } }, async () => ({ needed: await setupNeeded(db) }));

  app.post('/api/setup', {
    ...publicRoute,
    schema: { tags: ['Setup'], summary: 'First-run setup: shop name, currency, time zone and the owner account (only while no user exists)' },
  }, async (request, reply) => {
    const input = parseBody(setupBody, request.body);
    const created = await runSetup(db, input, config.bcryptRounds);
    request.log.info({ store: created.store.id, user: created.user.username }, 'first-run setup done');
    return reply.status(201).send(created);
  });
}
