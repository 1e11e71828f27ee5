/** Every API test file (vitest.config.ts setupFiles). */
import { afterAll, afterEach } from 'vitest';
import { checkPgConcurrency, installPgConcurrencyGuard } from './pg-concurrency-guard.ts';

// A query sent to a connection that is still running one fails the test it happened in (or, from
// a file's beforeAll/afterAll, the file): test/pg-concurrency-guard.ts.
installPgConcurrencyGuard();
afterEach(() => { checkPgConcurrency(); });
afterAll(() => { checkPgConcurrency(); });
