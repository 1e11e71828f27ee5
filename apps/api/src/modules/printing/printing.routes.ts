import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { notFound, validationError } from '@pos/domain/errors';
import { caller } from '../../plugins/auth.ts';
import { parseBody, parseId } from '../../resources/engine.ts';
import { deliver, requeue, sweep } from './print-queue.ts';
import { openDrawer, printClosingReport, printPackingList, printReceipt, visibleJob } from './printing.service.ts';
import { labelsBody, labelsPdf } from './labels.ts';

/** A device as an id or its IRI (/api/devices/3). */
const deviceRef = z.union([z.number().int().positive().max(2147483647), z.string().regex(/^(\/api\/devices\/)?\d{1,9}$/)])
  .transform((v) => Number(String(v).split('/').pop()));
const receiptBody = z.object({ device: deviceRef, copy: z.boolean().optional() }).strict();
const reportBody = z.object({ device: deviceRef }).strict();
const drawerBody = z.object({ device: deviceRef, store: z.number().int().positive().max(2147483647) }).strict();

const idOf = (request: FastifyRequest) => parseId((request.params as { id: string }).id);
const tags = ['Printing'];

/** How often each API process delivers due print jobs (PRINT_SWEEP_MS; 0 turns the sweep off). */
const SWEEP_MS = Number(process.env.PRINT_SWEEP_MS ?? 3000);

/**
 * ESC/POS printing on network printers (docs/api.md "Printing"): POST a receipt or a drawer
 * opening, read a job's status, retry it. The answer carries the first delivery attempt's result.
 */
export default async function printingRoutes(app: FastifyInstance) {
  const db = app.db;
  app.post('/api/print/order/:id', {
    config: { auth: 'user' },
    schema: { tags, summary: "Print an order's receipt (copy: a reprint) on a network printer; cash opens the drawer: the job" },
  }, async (request, reply) => {
    const job = await printReceipt(db, caller(request), idOf(request), parseBody(receiptBody, request.body ?? {}));
    reply.status(job.status === 'printed' ? 201 : 202);
    return job;
  });
  app.post('/api/print/closing/:id', {
    // Who may see a day closing (any user of its store, as the day closing itself) may print its report.
    config: { auth: 'user' },
    schema: { tags, summary: 'Print the X report (day open) or Z report (day closed) of a day closing on a network printer: the job' },
  }, async (request, reply) => {
    const job = await printClosingReport(db, caller(request), idOf(request), parseBody(reportBody, request.body ?? {}));
    reply.status(job.status === 'printed' ? 201 : 202);
    return job;
  });
  app.post('/api/print/transfer/:id', {
    // A stock document: who may handle stock (as the transfer's own steps); a transfer of another store is a 404.
    config: { auth: 'purchasing' },
    schema: { tags, summary: "Print a stock transfer's packing list (stores, lines with quantities, its number as a barcode) on a network printer: the job" },
  }, async (request, reply) => {
    const job = await printPackingList(db, caller(request), idOf(request), parseBody(reportBody, request.body ?? {}));
    reply.status(job.status === 'printed' ? 201 : 202);
    return job;
  });
  app.post('/api/print/drawer', {
    config: { auth: 'drawer.open' },
    schema: { tags, summary: 'Open the cash drawer without a sale ("no sale"), recorded with who and when: the job' },
  }, async (request, reply) => {
    const job = await openDrawer(db, caller(request), parseBody(drawerBody, request.body ?? {}));
    reply.status(job.status === 'printed' ? 201 : 202);
    return job;
  });
  app.get('/api/print/job/:id', { config: { auth: 'user' }, schema: { tags, summary: 'A print job: status (queued, sending, printed, failed), attempts, last error' } },
    async (request) => visibleJob(db, caller(request), idOf(request)));
  app.post('/api/print/job/:id/retry', { config: { auth: 'user' }, schema: { tags, summary: 'Send a waiting or failed job again now: the job' } }, async (request) => {
    const id = idOf(request);
    const job = await visibleJob(db, caller(request), id);
    if (job.status === 'printed' || job.status === 'sending') throw validationError([{ propertyPath: 'status', message: `This job is ${job.status}.` }]);
    if (!(await requeue(db, id))) throw notFound('Print job not found');
    await deliver(db, id);
    return visibleJob(db, caller(request), id);
  });

  app.post('/api/labels', {
    config: { auth: 'products.manage' },
    schema: { tags, summary: 'Shelf/product labels as a PDF sheet: {store, layout (preset or mm), items[{product, variant?, copies?}] and/or purchase}' },
  }, async (request, reply) => {
    const { pdf, count } = await labelsPdf(db, caller(request), parseBody(labelsBody, request.body ?? {}));
    reply.header('content-type', 'application/pdf').header('content-disposition', 'attachment; filename="labels.pdf"').header('x-label-count', String(count));
    return reply.send(pdf);
  });

  if (SWEEP_MS > 0) {
    let running: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (running) return;
      running = sweep(db).then(() => {}, (e) => app.log.warn({ err: e }, 'print sweep failed')).finally(() => { running = null; });
    }, SWEEP_MS);
    timer.unref();
    // Before anything closes (the database pool among them): no new sweep, and the one running ends
    // first (it failed with "Cannot use a pool after calling end" when a stop came mid-sweep).
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await running;
    });
  }
}
