import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QUERY_CANCELED, withStatementTimeout } from '../db/statement-timeout.ts';
import { sqlState } from './errors.ts';
import { LoopGauge, loopRefuses } from './admission-loop.ts';

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
  /** Longest wait in the queue a request may be expected to have: one that would wait longer is shed on arrival. */
  maxWaitMs: number;
  /** Longest a single SQL statement of the class may run (lock waits included); 0: no limit. */
  statementTimeoutMs: number;
  /**
   * While sales overflow their slots, the class is refused when the event loop has been busier
   * than this share (0-1) lately; 1: never (admission-loop.ts).
   */
  maxLoopBusy: number;
}

export type AdmissionLimits = Record<AdmissionClass, ClassLimit>;
/** Limits to change (tests, the bench): any field of any class. */
export type AdmissionOverrides = { [K in AdmissionClass]?: Partial<ClassLimit> };

/** Retry-After (seconds) of a shed request, by class: a till's sale comes back soonest. */
export const RETRY_AFTER_S: Record<AdmissionClass, number> = { sale: 1, sync: 5, read: 2, write: 2 };

/**
 * The defaults, derived from the PostgreSQL pool of the process (PG_POOL_MAX, 10 by default).
 * Sales may run twice as many requests as there are connections (part of a sale is Node work
 * between its statements) and wait at most 50 ms in a queue of two pools' worth, so an accepted
 * sale is answered within its p99 budget even at twice the rate the server sustains (100 ms let
 * the queue's wait and the 20 sales' own time add up past 200 ms at the p99; fewer sales at once
 * completed fewer sales: measured in docs/performance.md); the other
 * classes together hold at most half the pool, so at least half of it is always free for sales.
 * Measured in docs/performance.md ("Overload: sales first").
 */
export function defaultAdmission(poolMax = Number(process.env.PG_POOL_MAX ?? 10)): AdmissionLimits {
  const pool = Number.isInteger(poolMax) && poolMax > 0 ? poolMax : 10;
  const share = (f: number) => Math.max(1, Math.floor(pool * f));
  return {
    sale: { concurrency: 2 * pool, queue: 2 * pool, maxWaitMs: 50, statementTimeoutMs: 3_000, maxLoopBusy: 0.85 },
    sync: { concurrency: share(0.1), queue: pool, maxWaitMs: 2_000, statementTimeoutMs: 15_000, maxLoopBusy: 0.7 },
    read: { concurrency: share(0.2), queue: 2 * pool, maxWaitMs: 1_000, statementTimeoutMs: 5_000, maxLoopBusy: 0.7 },
    write: { concurrency: share(0.2), queue: pool, maxWaitMs: 2_000, statementTimeoutMs: 5_000, maxLoopBusy: 0.7 },
  };
}

/** The defaults for the default pool of 10 connections. */
export const DEFAULT_ADMISSION: AdmissionLimits = defaultAdmission(10);

/** The till's money path: a sale, its edit/refund, payments, the day closing and expenses. */
const SALE_ROUTES = new Set([
  'POST /api/admin/order/create', 'PUT /api/admin/order/edit/:id', 'POST /api/admin/order/refund/:id',
  'POST /api/admin/order/restore/:id', 'POST /api/admin/order/dispatch/:id', 'DELETE /api/admin/order/:id',
  'POST /api/customer_payments', 'GET /api/admin/closing/opened', 'POST /api/admin/closing/:id',
  'POST /api/admin/expense/create', 'GET /api/admin/product/quantities',
]);
/**
 * Never shed: readiness, the OpenAPI document, and signing in/out and token refresh (a till must
 * be able to sign in to keep selling from its outbox; the login has its own throttle).
 */
const EXEMPT = new Set(['/api/health', '/api/docs', '/api/docs.json', '/api/token/refresh']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's admission class when its URL and method do not say it (admissionClass). */
    admission?: AdmissionClass;
    /**
     * Its statements may run this many times the class's statement limit: a report over months
     * (reports.routes.ts) sums millions of rows where every other read takes milliseconds. It still
     * holds one of the class's slots, so long reports never crowd out sales.
     */
    statementLimitFactor?: number;
  }
}

/** The class of a matched route, or null when it is not admission-controlled; a route's `config.admission` wins. */
export function admissionClass(method: string, routeUrl: string | undefined, declared?: AdmissionClass): AdmissionClass | null {
  if (!routeUrl || !routeUrl.startsWith('/api/') || EXEMPT.has(routeUrl) || routeUrl.startsWith('/api/auth/') || method === 'OPTIONS') return null;
  if (declared) return declared;
  if (SALE_ROUTES.has(`${method} ${routeUrl}`)) return 'sale';
  if (routeUrl.startsWith('/api/catalogue/sync')) return 'sync';
  return method === 'GET' || method === 'HEAD' ? 'read' : 'write';
}

/**
 * ADMISSION_<CLASS>=concurrency/queue/maxWaitMs[/statementTimeoutMs[/maxLoopBusyPercent]], e.g.
 * ADMISSION_READ=4/40/1000/5000/70; a missing statement timeout or loop share keeps the class's default
 * (100: the loop never refuses the class).
 */
export function admissionLimits(env: NodeJS.ProcessEnv, overrides: AdmissionOverrides = {}): AdmissionLimits {
  const out = defaultAdmission(Number(env.PG_POOL_MAX ?? 10));
  for (const cls of Object.keys(out) as AdmissionClass[]) {
    const raw = env[`ADMISSION_${cls.toUpperCase()}`];
    if (!raw) continue;
    const parts = raw.split('/').map((x) => (x.trim() === '' ? NaN : Number(x)));
    const [c, q, w, st = out[cls].statementTimeoutMs, lp = Math.round(out[cls].maxLoopBusy * 100)] = parts;
    if (parts.length < 3 || parts.length > 5 || ![c, q, w, st, lp].every((n) => Number.isInteger(n) && n >= 0) || c < 1 || lp > 100) {
      throw new Error(`ADMISSION_${cls.toUpperCase()} must be concurrency/queue/maxWaitMs[/statementTimeoutMs[/maxLoopBusyPercent]] in whole numbers (concurrency ≥ 1, loop share ≤ 100), got "${raw}"`);
    }
    out[cls] = { concurrency: c, queue: q, maxWaitMs: w, statementTimeoutMs: st, maxLoopBusy: lp / 100 };
  }
  for (const cls of Object.keys(overrides) as AdmissionClass[]) out[cls] = { ...out[cls], ...overrides[cls] };
  return out;
}

/** A request's statement limit: its class's, times its route's `statementLimitFactor`. */
const statementLimit = (request: FastifyRequest, gate: Gate) => gate.limit.statementTimeoutMs * (request.routeOptions.config?.statementLimitFactor ?? 1);

interface Waiter { admit: () => void; cancel: () => void }

/** Weight of the newest hold time in the moving averages (a tenth: about the last 20 requests count). */
const ALPHA = 0.1;

/** One class's slots and queue (exported for its unit test). */
export class Gate {
  active = 0;
  readonly waiting: Waiter[] = [];
  admitted = 0;
  shed = 0;
  timedOut = 0;
  /** Moving average of how long a request of the class holds its slot (ms); 0 until one finished. */
  serviceMs = 0;
  /** Moving average of how far a hold time strays from that average (ms). */
  serviceDevMs = 0;
  /** When a request of the class last found no free slot: queued or shed (performance.now()). */
  overflowAt = -Infinity;
  /** When a request of the class last finished (performance.now()), 0: never. */
  lastDoneAt = 0;
  constructor(readonly cls: AdmissionClass, readonly limit: ClassLimit) {}
  /** Frees a slot (or passes it to the next in line); `heldMs`: how long it was held, when it served a request. */
  release(heldMs?: number) {
    if (heldMs !== undefined) {
      this.lastDoneAt = performance.now();
      if (!this.serviceMs) this.serviceMs = heldMs;
      else {
        this.serviceDevMs += ALPHA * (Math.abs(heldMs - this.serviceMs) - this.serviceDevMs);
        this.serviceMs += ALPHA * (heldMs - this.serviceMs);
      }
    }
    const next = this.waiting.shift();
    if (next) next.admit(); // the slot passes straight to the next in line
    else this.active--;
  }
  /**
   * Whether one more request would wait longer than the class allows, judged on arrival — the only
   * moment a request is ever refused, so a refusal is answered within milliseconds: the queue ahead
   * of it drains at `concurrency` requests per service time, taken pessimistically (the average
   * plus twice its spread, so a queue that looked short enough is almost never slower than allowed).
   */
  wouldWaitTooLong(): boolean {
    const service = this.serviceMs + 2 * this.serviceDevMs;
    return this.waiting.length >= this.limit.queue
      || ((this.waiting.length + 1) * service) / this.limit.concurrency > this.limit.maxWaitMs;
  }
}

/**
 * Sales first, by what sales feel: while many sales run at once (half their slots or more) and the
 * ones finishing now take longer than `slowMs` on average (the machine is short of CPU or
 * connections), other classes are refused on arrival even with free slots of their own — a
 * back-office search costs the CPU of two or three sales — and come back after Retry-After. A
 * single slow sale (a quiet shop on a slow machine) never triggers it, and only recent sales count:
 * without a sale for a second the rule lets go.
 */
export function salesStruggling(sale: Gate, slowMs: number, now = performance.now()): boolean {
  return sale.active >= Math.max(2, sale.limit.concurrency / 2) && sale.serviceMs > slowMs && now - sale.lastDoneAt < 1_000;
}

export interface AdmissionStats {
  active: number;
  waiting: number;
  /** Since the process started: requests let in, refused with 503, and statements cancelled by the class's timeout. */
  admitted: number;
  shed: number;
  timedOut: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    admissionStats(): Record<AdmissionClass, AdmissionStats>;
  }
}

const BUSY = { code: 'BUSY', message: 'The server is busy: try again in a moment (sales are kept)' };

function shedReply(reply: FastifyReply, gate: Gate): void {
  gate.shed++;
  gate.overflowAt = performance.now();
  reply.code(503).header('retry-after', String(RETRY_AFTER_S[gate.cls])).header('cache-control', 'no-store');
  // The body of a shed request is never parsed: node reads it past (discards it) once the answer is
  // sent, and the connection stays open for the till's next request. Closing it instead made every
  // shed sale cost a new connection, and under overload those handshakes were what kept sheds slow.
  reply.send(BUSY);
}

export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): void {
  const loop = new LoopGauge();
  app.addHook('onReady', async () => { loop.start(); });
  app.addHook('onClose', async () => { loop.stop(); });
  const gates = Object.fromEntries(
    (Object.keys(limits) as AdmissionClass[]).map((cls) => [cls, new Gate(cls, limits[cls])]),
  ) as Record<AdmissionClass, Gate>;
  const held = new WeakMap<FastifyRequest, { gate: Gate; since: number }>();

  const release = (request: FastifyRequest) => {
    const slot = held.get(request);
    if (!slot) return;
    held.delete(request);
    slot.gate.release(performance.now() - slot.since);
  };

  app.decorate('admissionStats', () => Object.fromEntries(
    (Object.keys(gates) as AdmissionClass[]).map((cls) => {
      const g = gates[cls];
      return [cls, { active: g.active, waiting: g.waiting.length, admitted: g.admitted, shed: g.shed, timedOut: g.timedOut }];
    }),
  ) as Record<AdmissionClass, AdmissionStats>);

  app.addHook('onRequest', (request, reply, done) => {
    const cls = admissionClass(request.method, request.routeOptions.url, request.routeOptions.config?.admission);
    if (!cls) { done(); return; }
    const gate = gates[cls];
    if (loopRefuses(cls === 'sale', gate.limit.maxLoopBusy, loop.read(), gates.sale)) {
      shedReply(reply, gate);
      return;
    }
    if (cls !== 'sale' && salesStruggling(gates.sale, limits.sale.maxWaitMs / 2)) {
      shedReply(reply, gate);
      return;
    }
    // Everything the request runs from here (its handler, its queries) carries its class's
    // statement timeout (db/statement-timeout.ts).
    const enter = () => {
      gate.admitted++;
      held.set(request, { gate, since: performance.now() });
      // 'close' fires once the answer is sent or the client is gone, whatever happened in between.
      reply.raw.once('close', () => release(request));
      withStatementTimeout(statementLimit(request, gate), done);
    };
    if (gate.active < gate.limit.concurrency) {
      gate.active++;
      enter();
      return;
    }
    // Sales first: while sales are waiting for a slot, no other class queues (it is shed at once,
    // and its clients come back after Retry-After).
    if (gate.wouldWaitTooLong() || (cls !== 'sale' && gates.sale.waiting.length > 0)) {
      shedReply(reply, gate);
      return;
    }
    // Queued: it is served when a slot frees, however long that takes (the queue was judged short
    // enough on arrival); it is never refused later, after it has waited.
    let settled = false;
    const waiter: Waiter = {
      admit: () => {
        if (settled) { gate.release(); return; }
        settled = true;
        reply.raw.off('close', onGone);
        enter();
      },
      cancel: () => {
        if (settled) return;
        settled = true;
        const i = gate.waiting.indexOf(waiter);
        if (i >= 0) gate.waiting.splice(i, 1);
      },
    };
    // A client that gives up while queued leaves the queue (the response's 'close' before any answer;
    // the request's own 'close' only means its body was read).
    const onGone = () => { if (!reply.raw.writableEnded) waiter.cancel(); };
    reply.raw.once('close', onGone);
    gate.overflowAt = performance.now();
    gate.waiting.push(waiter);
  });
  // The body is read from the socket's own events, outside the request's context: enter it again
  // before validation, so the handler's queries still carry the class's statement timeout.
  app.addHook('preValidation', (request, _reply, done) => {
    const slot = held.get(request);
    if (slot) withStatementTimeout(statementLimit(request, slot.gate), done);
    else done();
  });
  // A statement cancelled by the timeout: counted here, answered 503 BUSY by the error handler.
  app.addHook('onError', async (request, _reply, error) => {
    if (sqlState(error) === QUERY_CANCELED) {
      const slot = held.get(request);
      if (slot) slot.gate.timedOut++;
    }
  });
  // light-my-request (inject) and early errors: release on the response too (idempotent).
  app.addHook('onResponse', async (request) => { release(request); });
}
