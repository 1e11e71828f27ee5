import { queueTooLong, type AdmissionClass, type AdmissionLimits } from './admission-classes.ts';
import { loopRefuses } from './admission-loop.ts';

/**
 * The front's share of admission (issue 30: a shed answered within 10 ms). The front thread
 * (net/front-worker.ts) owns the public port and hands every request on to the API's thread; under
 * overload that thread is busy, and a refusal it writes waits behind the sales it is running. So
 * the front refuses, by the API's own rules (admission.ts), what the API would refuse on
 * arrival: it knows what it has handed on and not yet seen answered, per class, and reads the rest
 * (the loop's load, sales queued, sales struggling) from a board the API's thread writes in shared
 * memory. What it lets through is still admitted by the API's gates, which stay the authority:
 * the front only answers sooner what would be refused anyway.
 */

/** A route of the app and its admission class (collected by plugins/admission.ts from Fastify's onRoute). */
export interface RouteClass { method: string; url: string; cls: AdmissionClass }

/** Milliseconds since the epoch, with performance.now()'s precision: one clock for both threads. */
export const epochNow = () => performance.timeOrigin + performance.now();

/**
 * The request's class from its method and raw URL (query string dropped, a trailing slash ignored
 * as the app's router does), by the app's route patterns: a static route first, then the pattern
 * with the most fixed segments. Null: not admission-controlled (static files, health, sign-in, an
 * unknown path: the API answers those itself).
 */
export function routeClassifier(routes: RouteClass[]): (method: string, rawUrl: string) => AdmissionClass | null {
  const exact = new Map<string, AdmissionClass>();
  const patterns = new Map<string, { re: RegExp; fixed: number; cls: AdmissionClass }[]>();
  for (const r of routes) {
    const url = trimSlash(r.url);
    if (!/[:*]/.test(url)) { exact.set(`${r.method} ${url}`, r.cls); continue; }
    const source = url.split('/').map((seg) => (seg === '*' ? '.*' : seg.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z0-9_]+(\\\([^/]*?\\\))?/g, '[^/]+'))).join('/');
    const list = patterns.get(r.method) ?? [];
    list.push({ re: new RegExp(`^${source}$`), fixed: url.split('/').filter((s) => s && !s.includes(':') && s !== '*').length, cls: r.cls });
    patterns.set(r.method, list);
  }
  for (const list of patterns.values()) list.sort((a, b) => b.fixed - a.fixed);
  return (method, rawUrl) => {
    const q = rawUrl.indexOf('?');
    const path = trimSlash(q < 0 ? rawUrl : rawUrl.slice(0, q));
    const hit = exact.get(`${method} ${path}`);
    if (hit) return hit;
    for (const p of patterns.get(method) ?? []) if (p.re.test(path)) return p.cls;
    return null;
  };
}

const trimSlash = (p: string) => (p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p);

/** Slots of the board (a Float64Array over a SharedArrayBuffer). */
const BUSY = 0;
const SALE_OVERFLOW_AT = 1;
const SALE_WAITING = 2;
const STRUGGLING = 3;
/** Then one per class, in CLASSES order: the class's pessimistic service time (Gate.pessimisticServiceMs). */
const SERVICE = 4;
const CLASSES: AdmissionClass[] = ['sale', 'sync', 'read', 'write'];
const SLOTS = SERVICE + CLASSES.length;

/**
 * What the API's thread tells the front, in shared memory: written by it (publish) on each request
 * and every 25 ms, read by the front on each request. Single numbers, each written whole: a reader
 * sees the old value or the new one, and a value a few milliseconds old only makes a refusal late
 * by as much (the API's gates still refuse it).
 */
export class FrontBoard {
  private readonly f: Float64Array;
  constructor(readonly buffer: SharedArrayBuffer = new SharedArrayBuffer(SLOTS * 8)) {
    // Unwritten, the last sale overflow reads 0: the epoch, long past like -Infinity.
    this.f = new Float64Array(buffer);
  }
  /**
   * The API's thread: its loop's recent busy share (0-1), when a sale last found no free slot (epoch
   * ms), sales queued, whether sales struggle, and each class's pessimistic service time (ms).
   */
  publish(busy: number, saleOverflowAt: number, saleWaiting: number, struggling: boolean, serviceMs: Record<AdmissionClass, number>): void {
    this.f[BUSY] = busy;
    this.f[SALE_OVERFLOW_AT] = saleOverflowAt;
    this.f[SALE_WAITING] = saleWaiting;
    this.f[STRUGGLING] = struggling ? 1 : 0;
    for (let i = 0; i < CLASSES.length; i++) this.f[SERVICE + i] = serviceMs[CLASSES[i]];
  }
  serviceMs(cls: AdmissionClass): number { return this.f[SERVICE + CLASSES.indexOf(cls)]; }
  get busy(): number { return this.f[BUSY]; }
  get saleOverflowAt(): number { return this.f[SALE_OVERFLOW_AT]; }
  get saleWaiting(): number { return this.f[SALE_WAITING]; }
  get struggling(): boolean { return this.f[STRUGGLING] === 1; }
}

/** The front's count of what it handed on, per class, and its rule: refuse what the API would refuse on arrival. */
export class FrontGates {
  /** Requests handed on to the API and not yet answered, per class. */
  readonly inflight: Record<AdmissionClass, number> = { sale: 0, sync: 0, read: 0, write: 0 };
  /** Refused here since start, per class. */
  readonly shed: Record<AdmissionClass, number> = { sale: 0, sync: 0, read: 0, write: 0 };
  /** When a sale last found no free slot as the front saw it (epoch ms). */
  private saleOverflowAt = -Infinity;
  constructor(private readonly limits: AdmissionLimits, private readonly board: FrontBoard) {}

  /**
   * Whether a request of the class is refused now, by the API's rules in the API's order: the loop
   * rule (admission-loop.ts) while sales overflow, other classes while sales struggle, and a class
   * whose slots and queue are all taken by what the front has handed on (the API would queue past
   * them or refuse), or whose queue would take longer than the class's longest wait at the API's
   * service time (Gate.wouldWaitTooLong). While sales wait for a slot, other classes do not queue.
   */
  refuses(cls: AdmissionClass, now = epochNow()): boolean {
    const limit = this.limits[cls];
    const overflowAt = Math.max(this.saleOverflowAt, this.board.saleOverflowAt);
    const waiting = this.inflight[cls] - limit.concurrency;
    const refused = loopRefuses(cls === 'sale', limit.maxLoopBusy, this.board.busy, { active: this.inflight.sale, overflowAt }, now)
      || (cls !== 'sale' && this.board.struggling)
      || (waiting >= 0 && (queueTooLong(waiting, limit, this.board.serviceMs(cls)) || (cls !== 'sale' && this.board.saleWaiting > 0)));
    if (refused) {
      this.shed[cls]++;
      if (cls === 'sale') this.saleOverflowAt = now;
    }
    return refused;
  }

  /** A request handed on; a sale beyond the sale slots will queue in the API: the sales overflow. */
  enter(cls: AdmissionClass, now = epochNow()): void {
    if (cls === 'sale' && this.inflight.sale >= this.limits.sale.concurrency) this.saleOverflowAt = now;
    this.inflight[cls]++;
  }

  /** Its answer is written (or the client is gone); a sale the API refused counts as an overflow. */
  leave(cls: AdmissionClass, status: number, now = epochNow()): void {
    this.inflight[cls]--;
    if (cls === 'sale' && status === 503) this.saleOverflowAt = now;
  }
}
