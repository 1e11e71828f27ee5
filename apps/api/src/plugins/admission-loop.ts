import { performance } from 'node:perf_hooks';

/**
 * The event loop's share of admission (issue 30): an API process has one thread, and under
 * overload it is that thread, not PostgreSQL, that runs out first (a sale is ~5 ms of Node work
 * and ~4 ms of PostgreSQL on this machine). A request, admitted or shed, is read from its socket
 * only when the loop gets to it, so a loop kept full by admitted sales makes every answer late:
 * accepted sales wait behind each other's callbacks, and even a 503 waits to be read. While the
 * sales overflow their slots, new work is therefore also refused when the loop has been busier
 * than its class's `maxLoopBusy` over the last ~100 ms (docs/performance.md, "Overload: the event loop's share").
 */

type Utilization = ReturnType<typeof performance.eventLoopUtilization>;

/** How long after a sale last found no free slot (queued or shed) the sales count as overflowing. */
export const OVERFLOW_MEMORY_MS = 1_000;

/** Sales running that the loop rule never refuses: a shop's few tills are never turned away by it. */
export const LOOP_RULE_MIN_SALES = 2;

/**
 * How busy this process's event loop has been lately (0-1), smoothed over ~100 ms: between two
 * samples at least 20 ms apart, the loop's utilisation over that interval moves the average by the
 * interval's share of 100 ms. Sampled on each request and every 25 ms by an unref'd timer (start),
 * so the window stays short when requests are few. The first sample only starts the clock (the
 * start-up's module loading is never counted against the first requests).
 */
export class LoopGauge {
  private last?: Utilization;
  private lastAt = 0;
  private timer?: NodeJS.Timeout;
  busy = 0;
  constructor(private readonly utilization: (a?: Utilization, b?: Utilization) => Utilization = performance.eventLoopUtilization) {}
  read(now = performance.now()): number {
    if (!this.last) {
      this.last = this.utilization();
      this.lastAt = now;
      return this.busy;
    }
    const dt = now - this.lastAt;
    if (dt >= 20) {
      const current = this.utilization();
      const u = this.utilization(current, this.last).utilization;
      this.busy += Math.min(1, dt / 100) * (u - this.busy);
      this.last = current;
      this.lastAt = now;
    }
    return this.busy;
  }
  start(): void {
    this.timer ??= setInterval(() => this.read(), 25).unref();
  }
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

/** What the loop rule reads of the sale class (its Gate). */
export interface SaleLoad { active: number; overflowAt: number }

/**
 * Whether the loop refuses a request of a class: only while sales overflow (one was queued or shed
 * within OVERFLOW_MEMORY_MS) and the loop is busier than the class's `maxLoopBusy` (1: never). A
 * sale is then refused only when at least LOOP_RULE_MIN_SALES others are running. A closed set of
 * tills that never overflows the sale slots (every sale admitted at once) is never refused by it.
 */
export function loopRefuses(isSale: boolean, maxLoopBusy: number, busy: number, sale: SaleLoad, now = performance.now()): boolean {
  if (maxLoopBusy >= 1 || busy <= maxLoopBusy || now - sale.overflowAt >= OVERFLOW_MEMORY_MS) return false;
  return !isSale || sale.active >= LOOP_RULE_MIN_SALES;
}
