/**
 * What admission knows without a running server (plugins/admission.ts): the request classes, their
 * limits, the routes of each class and the answer of a shed request. Kept free of Fastify and the
 * database so the front thread (net/front-worker.ts) loads it too, and sheds by the same rules.
 */
/*
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

/**
 * Whether a request finding `waiting` others queued before it would wait longer than its class
 * allows: the queue is full, or it drains at `concurrency` requests per `serviceMs` too slowly for
 * `maxWaitMs` (the API's gates, Gate.wouldWaitTooLong, and the front thread's, admission-front.ts).
 */
export function queueTooLong(waiting: number, limit: ClassLimit, serviceMs: number): boolean {
  return waiting >= limit.queue || ((waiting + 1) * serviceMs) / limit.concurrency > limit.maxWaitMs;
}

/** The body of a shed request (503 + Retry-After). */
export const BUSY = { code: 'BUSY', message: 'The server is busy: try again in a moment (sales are kept)' };
