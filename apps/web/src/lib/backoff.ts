import { HttpError } from './api-client';

/**
 * How long a till waits before asking the server again after a failure (the outbox's uploads and
 * the catalogue sync): the delay doubles from `baseMs` up to `maxMs`, and is "equal jitter" (half
 * of it fixed, a random part of the other half) so tills that lost the server together do not all
 * come back in the same second. A busy server's Retry-After (seconds) is a floor: never sooner,
 * and spread over up to half as long again.
 */
export function backoffMs(attempt: number, opts: { baseMs: number; maxMs: number; random?: () => number; retryAfterS?: number | null }): number {
  const random = opts.random ?? Math.random;
  const full = Math.min(opts.baseMs * 2 ** Math.max(0, attempt - 1), opts.maxMs);
  const jittered = Math.round(full / 2 + random() * (full / 2));
  const floor = opts.retryAfterS && opts.retryAfterS > 0 ? opts.retryAfterS * 1000 : 0;
  return floor > jittered ? Math.round(floor + random() * (floor / 2)) : jittered;
}

/** A 503 BUSY: the server is there but shedding load (sales first); the till keeps its sales and waits. */
export const isServerBusy = (error: unknown): error is HttpError => error instanceof HttpError && error.status === 503 && error.code === 'BUSY';
