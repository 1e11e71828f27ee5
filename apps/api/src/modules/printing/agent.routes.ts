import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { AppError, notFound, validationError } from '@pos/domain/errors';
import { device, printJob } from '../../db/schema/index.ts';
import { parseBody, parseId } from '../../resources/engine.ts';
import { claim, settle } from './print-queue.ts';

/**
 * Print agents (issue 26, docs/api.md "Printing"): where the server is not on the shop's network
 * (a chain's central server), a small agent on a till's machine (`npm run print-agent`) relays the
 * jobs of one printer: it claims them here with the printer's agent key and reports each outcome.
 * The key is shown once when it is made; only its SHA-256 is kept.
 */
const AGENT_HEADER = 'x-print-agent-key';
const hashKey = (key: string) => crypto.createHash('sha256').update(key).digest('hex');
const resultBody = z.object({ ok: z.boolean(), error: z.string().max(500).optional() }).strict();
const tags = ['Printing'];

export default async function printAgentRoutes(app: FastifyInstance) {
  const db = app.db;

  /** The active device whose agent key the request carries; 401 otherwise (nothing says why). */
  async function agentDevice(request: FastifyRequest): Promise<number> {
    const key = request.headers[AGENT_HEADER];
    if (typeof key !== 'string' || key.length < 20 || key.length > 100) throw new AppError(401, 'UNAUTHORIZED', 'Print agent key required');
    const [d] = await db.select({ id: device.id }).from(device)
      .where(and(eq(device.agentKeyHash, hashKey(key)), eq(device.deliveredBy, 'agent'), eq(device.isActive, true))).limit(1);
    if (!d) throw new AppError(401, 'UNAUTHORIZED', 'Print agent key required');
    return d.id;
  }

  app.post('/api/devices/:id/agent-key', {
    config: { auth: 'settings' },
    schema: { tags, summary: "Give a printer a print agent: a new key (shown once); the server stops sending to it itself: {key, device}" },
  }, async (request) => {
    const id = parseId((request.params as { id: string }).id);
    const key = crypto.randomBytes(24).toString('base64url');
    const rows = await db.update(device).set({ deliveredBy: 'agent', agentKeyHash: hashKey(key), updatedAt: new Date() }).where(eq(device.id, id)).returning({ id: device.id });
    if (!rows.length) throw notFound('Device not found');
    return { key, device: id };
  });
  app.delete('/api/devices/:id/agent-key', {
    config: { auth: 'settings' },
    schema: { tags, summary: 'Take the print agent away: its key stops working, the server sends to the printer itself' },
  }, async (request, reply) => {
    const id = parseId((request.params as { id: string }).id);
    const rows = await db.update(device).set({ deliveredBy: 'server', agentKeyHash: null, updatedAt: new Date() }).where(eq(device.id, id)).returning({ id: device.id });
    if (!rows.length) throw notFound('Device not found');
    return reply.status(204).send();
  });

  app.post('/api/print/agent/claim', {
    config: { auth: 'public' },
    schema: { tags, summary: "A print agent takes its printer's next due job (header X-Print-Agent-Key): {id, attempts, payload (base64), printer}; 204 when none" },
  }, async (request, reply) => {
    const deviceId = await agentDevice(request);
    const job = await claim(db, undefined, deviceId);
    if (!job) return reply.status(204).send();
    return { id: job.id, attempts: job.attempts, payload: Buffer.from(job.payload).toString('base64'), printer: { host: job.host, port: job.port } };
  });
  app.post('/api/print/agent/job/:id', {
    config: { auth: 'public' },
    schema: { tags, summary: 'A print agent reports a job it claimed: {ok, error?}; the job is printed, or queued again / failed' },
  }, async (request) => {
    const deviceId = await agentDevice(request);
    const id = parseId((request.params as { id: string }).id);
    const input = parseBody(resultBody, request.body ?? {});
    const [job] = await db.select({ id: printJob.id, attempts: printJob.attempts, status: printJob.status }).from(printJob)
      .where(and(eq(printJob.id, id), eq(printJob.deviceId, deviceId))).limit(1);
    if (!job) throw notFound('Print job not found');
    if (job.status !== 'sending') throw validationError([{ propertyPath: 'id', message: `This job is ${job.status}.` }]);
    await settle(db, job, input.ok ? null : new Error(input.error?.trim() || 'The print agent could not print it'));
    const [after] = await db.select({ status: printJob.status }).from(printJob).where(eq(printJob.id, id));
    return { id, status: after.status };
  });
}
