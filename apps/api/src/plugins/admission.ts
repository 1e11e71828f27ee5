import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Sales first, bounded queues (issue 30): every /api request is admitted by class, each class with
 * its own concurrency limit and a short queue with a longest wait. What does not fit is answered at
 * once with 503 + Retry-After, so a busy server says "busy" instead of letting requests pile up
 * until they time out, and back-office reads are shed before a single sale is.
 *
 * The limits are per API process (several processes behind one PostgreSQL each bound their own
 * work; nothing here is shared state that must agree across processes).
 */
export type AdmissionClass = 'sale' | 'sync' | 'read' | 'write';

export interface ClassLimit {
  /** Requests of the class running at once. */
  concurrency: number;
  /** Requests of the class waiting for a slot; one more is shed at once. */
  queue: number;
  /** Longest wait in the queue before the request is shed. */
  maxWaitMs: number;
}

export type AdmissionLimits = Record<AdmissionClass, ClassLimit>;

/** Defaults for a 2-core shop server with a 10-connection pool: sales get most of it. */
export const DEFAULT_ADMISSION: AdmissionLimits = {
  sale: { concurrency: 24, queue: 400, maxWaitMs: 5_000 },
  sync: { concurrency: 2, queue: 20, maxWaitMs: 2_000 },
  read: { concurrency: 4, queue: 40, maxWaitMs: 1_000 },
  write: { concurrency: 4, queue: 40, maxWaitMs: 2_000 },
};

/** The till's money path: a sale, its edit/refund, payments, the day closing and expenses. */
const SALE_ROUTES = new Set([
  'POST /api/admin/order/create', 'PUT /api/admin/order/edit/:id', 'POST /api/admin/order/refund/:id',
  'POST /api/admin/order/restore/:id', 'POST /api/admin/order/dispatch/:id', 'DELETE /api/admin/order/:id',
  'POST /api/customer_payments', 'GET /api/admin/closing/opened', 'POST /api/admin/closing/:id',
  'POST /api/admin/expense/create', 'GET /api/admin/product/quantities',
]);
/** Never shed: readiness, and the OpenAPI document. */
const EXEMPT = new Set(['/api/health', '/api/docs', '/api/docs.json']);

/** The class of a matched route, or null when it is not admission-controlled. */
export function admissionClass(method: string, routeUrl: string | undefined): AdmissionClass | null {
  if (!routeUrl || !routeUrl.startsWith('/api/') || EXEMPT.has(routeUrl) || method === 'OPTIONS') return null;
  if (SALE_ROUTES.has(`${method} ${routeUrl}`)) return 'sale';
  if (routeUrl.startsWith('/api/catalogue/sync')) return 'sync';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/** ADMISSION_<CLASS>=concurrency/queue/maxWaitMs, e.g. ADMISSION_READ=4/40/1000. */
export function admissionLimits(env: NodeJS.ProcessEnv, overrides: Partial<AdmissionLimits> = {}): AdmissionLimits {
  const out = { ...DEFAULT_ADMISSION };
  for (const cls of Object.keys(out) as AdmissionClass[]) {
    const raw = env[`ADMISSION_${cls.toUpperCase()}`];
    if (!raw) continue;
    const [c, q, w] = raw.split('/').map((x) => Number(x));
    if (![c, q, w].every((n) => Number.isInteger(n) && n >= 0) || c < 1) {
      throw new Error(`ADMISSION_${cls.toUpperCase()} must be concurrency/queue/maxWaitMs in whole numbers (concurrency ≥ 1), got "${raw}"`);
    }
    out[cls] = { concurrency: c, queue: q, maxWaitMs: w };
  }
  return { ...out, ...overrides };
}

interface Waiter { admit: () => void; cancel: () => void }

class Gate {
  active = 0;
  readonly waiting: Waiter[] = [];
  shed = 0;
  constructor(readonly limit: ClassLimit) {}
  release() {
    const next = this.waiting.shift();
    if (next) next.admit(); // the slot passes straight to the next in line
    else this.active--;
  }
}

export interface AdmissionStats { active: number; waiting: number; shed: number }

declare module 'fastify' {
  interface FastifyInstance {
    admissionStats(): Record<AdmissionClass, AdmissionStats>;
  }
}

const BUSY = { code: 'BUSY', message: 'The server is busy: try again in a moment (sales are kept)' };

function shedReply(request: FastifyRequest, reply: FastifyReply, gate: Gate): void {
  gate.shed++;
  reply.code(503).header('retry-after', '1').header('cache-control', 'no-store');
  // The body of a shed request is never read: the connection cannot carry another request.
  const h = request.headers;
  if ((h['content-length'] && h['content-length'] !== '0') || h['transfer-encoding']) reply.header('connection', 'close');
  reply.send(BUSY);
}

export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): void {
  const gates = Object.fromEntries(
    (Object.keys(limits) as AdmissionClass[]).map((cls) => [cls, new Gate(limits[cls])]),
  ) as Record<AdmissionClass, Gate>;
  const held = new WeakMap<FastifyRequest, Gate>();

  const release = (request: FastifyRequest) => {
    const gate = held.get(request);
    if (!gate) return;
    held.delete(request);
    gate.release();
  };

  app.decorate('admissionStats', () => Object.fromEntries(
    (Object.keys(gates) as AdmissionClass[]).map((cls) => [cls, { active: gates[cls].active, waiting: gates[cls].waiting.length, shed: gates[cls].shed }]),
  ) as Record<AdmissionClass, AdmissionStats>);

  app.addHook('onRequest', (request, reply, done) => {
    const cls = admissionClass(request.method, request.routeOptions.url);
    if (!cls) { done(); return; }
    const gate = gates[cls];
    const hold = () => {
      held.set(request, gate);
      // 'close' fires once the answer is sent or the client is gone, whatever happened in between.
      reply.raw.once('close', () => release(request));
    };
    if (gate.active < gate.limit.concurrency) {
      gate.active++;
      hold();
      done();
      return;
    }
    if (gate.waiting.length >= gate.limit.queue) { shedReply(request, reply, gate); return; }
    let settled = false;
    const waiter: Waiter = {
      admit: () => {
        if (settled) { gate.release(); return; }
        settled = true;
        clearTimeout(timer);
        reply.raw.off('close', onGone);
        hold();
        done();
      },
      cancel: () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const i = gate.waiting.indexOf(waiter);
        if (i >= 0) gate.waiting.splice(i, 1);
      },
    };
    const timer = setTimeout(() => { waiter.cancel(); shedReply(request, reply, gate); }, gate.limit.maxWaitMs);
    // A client that gives up while queued leaves the queue (the response's 'close' before any answer;
    // the request's own 'close' only means its body was read).
    const onGone = () => { if (!reply.raw.writableEnded) waiter.cancel(); };
    reply.raw.once('close', onGone);
    gate.waiting.push(waiter);
  });
  // light-my-request (inject) and early errors: release on the response too (idempotent).
  app.addHook('onResponse', async (request) => { release(request); });
}
