import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PG_ADMIN_URL } from './helpers.ts';

// The guard (pg-concurrency-guard.ts, on for every API test) shown to bite, in a child process:
// in this one it would fail this test, and node's deprecation warning is emitted once per process.
const here = path.dirname(fileURLToPath(import.meta.url));
const runChild = async (mode: 'wrapper' | 'warning') => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', path.join(here, 'pg-concurrency-child.ts'), mode], {
    cwd: here, env: { ...process.env, PG_URL: PG_ADMIN_URL, NODE_OPTIONS: '' }, timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, string | null>;
};

describe('pg concurrency guard', () => {
  it('fails a query sent to a client already running one, every time; not sequential or pooled queries', async () => {
    const r = await runChild('wrapper');
    expect(r.poolParallel).toBeNull();
    expect(r.txSequential).toBeNull();
    expect(r.txAllOn).toBeNull();
    // Two at once: pg 8 does not warn yet (nothing queued), pg@9 refuses; the wrapper catches it.
    expect(r.txTwoAtOnce).toMatch(/^1 query was sent to a node-postgres client already running one/);
    expect(r.txTwoAtOnce).toContain('sent:    select pg_sleep(0.02), 2 as n');
    expect(r.txTwoAtOnce).toContain('running: select pg_sleep(0.02), 1 as n');
    expect(r.txThreeAtOnce).toMatch(/^2 queries were sent/);
    expect(r.txThreeAtOnceAgain).toMatch(/^2 queries were sent/);
  });

  it("falls back on node-postgres's own DeprecationWarning (once per process)", async () => {
    const r = await runChild('warning');
    expect(r.poolParallel).toBeNull();
    expect(r.txSequential).toBeNull();
    expect(r.txAllOn).toBeNull();
    expect(r.txThreeAtOnce).toMatch(/^1 query was sent[\s\S]*node-postgres warned: Calling client\.query\(\) when the client is already executing a query/);
    // node does not emit the same deprecation twice: why the query wrapper is the main detector.
    expect(r.txThreeAtOnceAgain).toBeNull();
  });
});
