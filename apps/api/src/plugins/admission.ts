import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QUERY_CANCELED, withStatementTimeout } from '../db/statement-timeout.ts';
import { sqlState } from './errors.ts';
import type { FrontBoard, RouteClass } from './admission-front.ts';
import { LoopGauge, loopRefuses } from './admission-loop.ts';
import { BUSY, RETRY_AFTER_S, admissionClass, queueTooLong, type AdmissionClass, type AdmissionLimits, type ClassLimit } from './admission-classes.ts';

/**
 * The admission hook of every request (issue 30): the classes, limits and routes are in
 * admission-classes.ts; here are the gates (slots and queues) and the rules that refuse.
 */
export * from './admission-classes.ts';

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
  /** The service time a queue is judged by: the average plus twice its spread. */
  pessimisticServiceMs(): number {
    return this.serviceMs + 2 * this.serviceDevMs;
  }
  /**
   * Whether one more request would wait longer than the class allows, judged on arrival — the only
   * moment a request is ever refused, so a refusal is answered within milliseconds: the queue ahead
   * of it drains at `concurrency` requests per service time, taken pessimistically (the average
   * plus twice its spread, so a queue that looked short enough is almost never slower than allowed).
   */
  wouldWaitTooLong(): boolean {
    return queueTooLong(this.waiting.length, this.limit, this.pessimisticServiceMs());
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
    /** The limits in force and every admission-controlled route with its class: what the front thread needs (net/front.ts). */
    admission: { limits: AdmissionLimits; routes: RouteClass[] };
  }
}

function shedReply(reply: FastifyReply, gate: Gate): void {
  gate.shed++;
  gate.overflowAt = performance.now();
  reply.code(503).header('retry-after', String(RETRY_AFTER_S[gate.cls])).header('cache-control', 'no-store');
  // The body of a shed request is never parsed: node reads it past (discards it) once the answer is
  // sent, and the connection stays open for the till's next request. Closing it instead made every
  // shed sale cost a new connection, and under overload those handshakes were what kept sheds slow.
  reply.send(BUSY);
}

/**
 * `board`: with a front thread (net/front.ts), where this thread tells it the loop's load and the
 * sales' state, on each request and every 25 ms.
 */
export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits, board?: FrontBoard): void {
  const loop = new LoopGauge();
  const gates = Object.fromEntries(
    (Object.keys(limits) as AdmissionClass[]).map((cls) => [cls, new Gate(cls, limits[cls])]),
  ) as Record<AdmissionClass, Gate>;
  const held = new WeakMap<FastifyRequest, { gate: Gate; since: number }>();
  const publish = board
    ? () => board.publish(
      loop.read(), performance.timeOrigin + gates.sale.overflowAt, gates.sale.waiting.length, salesStruggling(gates.sale, limits.sale.maxWaitMs / 2),
      { sale: gates.sale.pessimisticServiceMs(), sync: gates.sync.pessimisticServiceMs(), read: gates.read.pessimisticServiceMs(), write: gates.write.pessimisticServiceMs() },
    )
    : () => {};
  let publisher: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    loop.start();
    if (board) publisher = setInterval(publish, 25).unref();
  });
  app.addHook('onClose', async () => { loop.stop(); clearInterval(publisher); });

  const routes: RouteClass[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const cls = admissionClass(method, route.url, route.config?.admission);
      if (cls) routes.push({ method, url: route.url, cls });
    }
  });
  app.decorate('admission', { limits, routes });

  const release = (request: FastifyRequest) => {
    const slot = held.get(request);
    if (!slot) return;
    held.delete(request);
    slot.gate.release(performance.now() - slot.since);
    publish();
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
    // Behind a front thread these two rules are the front's alone (it reads this loop's load and the
    // sales' state from the board): judged twice, a few milliseconds apart, a sale the front let in
    // near the threshold was refused here, late. The slots and queues below stay this thread's.
    if (!board && loopRefuses(cls === 'sale', gate.limit.maxLoopBusy, loop.read(), gates.sale)) {
      shedReply(reply, gate);
      publish();
      return;
    }
    if (!board && cls !== 'sale' && salesStruggling(gates.sale, limits.sale.maxWaitMs / 2)) {
      shedReply(reply, gate);
      publish();
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
      publish();
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
    publish();
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
