import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp } from '../../test/helpers.ts';
import { LOOP_RULE_MIN_SALES, LoopGauge, loopRefuses, OVERFLOW_MEMORY_MS } from './admission-loop.ts';
import { DEFAULT_ADMISSION } from './admission.ts';

/** Keeps this thread busy for `ms` (the event loop cannot run meanwhile). */
const spin = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end) { /* busy */ } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the event loop in admission (issue 30: sheds answered at once, accepted sales on time)', () => {
  it('LoopGauge follows the loop: a busy stretch reads high, an idle one low, the first read counts nothing before it', async () => {
    const g = new LoopGauge();
    spin(60); // before the first read: start-up work is not held against the first requests
    expect(g.read()).toBe(0);
    spin(150);
    expect(g.read()).toBeGreaterThan(0.8);
    await sleep(250);
    expect(g.read()).toBeLessThan(0.3);
  });

  it('LoopGauge smooths: one short interval moves the average by its share of 100 ms', () => {
    let busyMs = 0;
    let fake = { idle: 0, active: 0, utilization: 0 };
    const source = (a?: typeof fake, b?: typeof fake) => {
      if (!a) return { ...fake };
      const active = a.active - (b?.active ?? 0);
      const idle = a.idle - (b?.idle ?? 0);
      return { idle, active, utilization: active / (active + idle) };
    };
    const g = new LoopGauge(source as never);
    const advance = (ms: number, busy: number) => { busyMs += ms * busy; fake = { idle: fake.idle + ms * (1 - busy), active: busyMs, utilization: 0 }; };
    g.read(0);
    advance(100, 1);
    expect(g.read(100)).toBeCloseTo(1); // a whole window: the average is the interval's
    advance(25, 0);
    expect(g.read(125)).toBeCloseTo(0.75); // a quarter window idle: a quarter of the way down
    advance(10, 0);
    expect(g.read(135)).toBeCloseTo(0.75); // under 20 ms since the last sample: not sampled yet
  });

  it('refuses only while sales overflow, past the class share, and never the first sales', () => {
    const now = 10_000;
    const overflowing = { active: 5, overflowAt: now - 100 };
    expect(loopRefuses(true, 0.85, 0.9, overflowing, now)).toBe(true);
    expect(loopRefuses(true, 0.85, 0.8, overflowing, now)).toBe(false); // the loop has room
    expect(loopRefuses(true, 0.85, 0.99, { active: 5, overflowAt: now - OVERFLOW_MEMORY_MS }, now)).toBe(false); // no overflow for a second
    expect(loopRefuses(true, 0.85, 0.99, { active: LOOP_RULE_MIN_SALES - 1, overflowAt: now }, now)).toBe(false); // a lone till sells
    expect(loopRefuses(false, 0.7, 0.75, { active: 0, overflowAt: now }, now)).toBe(true); // reads go first
    expect(loopRefuses(true, 1, 1, overflowing, now)).toBe(false); // 1: the rule is off
    // The defaults: back-office work is refused before sales.
    expect(DEFAULT_ADMISSION.read.maxLoopBusy).toBeLessThan(DEFAULT_ADMISSION.sale.maxLoopBusy);
    expect(DEFAULT_ADMISSION.sale.maxLoopBusy).toBeLessThan(1);
  });
});

describe('the loop rule over HTTP', () => {
  let t: TestApp;
  let base: string;
  let admin: Record<string, string>;
  const held: (() => void)[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      // Two sale slots; loop shares of a half (the defaults' 0.85 and 0.7 are checked above), so that
      // 150 ms of busy thread reads over the share even when a loaded machine leaves the loop idle
      // for up to 100 ms before it.
      admission: { sale: { concurrency: 2, queue: 50, maxWaitMs: 60_000, maxLoopBusy: 0.5 }, read: { maxLoopBusy: 0.5 } },
      beforeReady: (app) => {
        app.post('/api/test-loop/sale', { config: { auth: 'public', admission: 'sale' } }, async () => {
          await new Promise<void>((resolve) => held.push(resolve));
          return { ok: true };
        });
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    admin = await t.login('admin');
  });
  afterAll(async () => {
    for (const release of held.splice(0)) release();
    await t?.close();
  });

  const read = () => fetch(`${base}/api/products?page=1&itemsPerPage=5`, { headers: admin });

  it('while sales overflow, a busy loop refuses reads and further sales at once; an idle one admits them', async () => {
    const sales = [0, 1, 2].map(() => fetch(`${base}/api/test-loop/sale`, { method: 'POST' }));
    await until(() => t.app.admissionStats().sale.waiting === 1); // two running, the third queued: overflow
    held.shift()!(); // the queued one takes the freed slot: two running, none waiting
    await until(() => held.length === 2 && t.app.admissionStats().sale.waiting === 0);

    // The loop was just busy (this thread ran 150 ms without a break): refused at once, 503 + Retry-After.
    spin(150);
    const refused = await read();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    spin(150);
    const sale = await fetch(`${base}/api/test-loop/sale`, { method: 'POST' });
    expect(sale.status).toBe(503); // the sale queue had room: the loop refused it
    expect(sale.headers.get('retry-after')).toBe('1');
    expect(t.app.admissionStats().sale).toMatchObject({ active: 2, waiting: 0 });

    // The same requests once the loop has had a quiet moment (the overflow is still recent).
    await sleep(250);
    expect((await read()).status).toBe(200);

    for (const release of held.splice(0)) release();
    for (const s of await Promise.all(sales)) expect(s.status).toBe(200);
  });

  it('without overflow, a busy loop refuses nothing (a closed set of tills is never turned away by it)', async () => {
    await sleep(OVERFLOW_MEMORY_MS + 100);
    const sales = [0, 1].map(() => fetch(`${base}/api/test-loop/sale`, { method: 'POST' }));
    await until(() => held.length === 2);
    spin(150);
    expect((await read()).status).toBe(200);
    for (const release of held.splice(0)) release();
    for (const s of await Promise.all(sales)) expect(s.status).toBe(200);
  });
});
