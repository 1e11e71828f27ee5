import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp } from '../../test/helpers.ts';
import { admissionClass, admissionLimits, DEFAULT_ADMISSION, Gate, salesStruggling } from './admission.ts';

/**
 * Sales first, bounded queues (issue 30, point 2), over real HTTP. Back-office reads get one slot
 * and one queue place here; a test route holds its slot until the test lets it go, so what the
 * server does when full is deterministic.
 */
let t: TestApp;
let base: string;
let admin: Record<string, string>;
let cashier: Record<string, string>;
const held: (() => void)[] = [];
let entered = 0;

beforeAll(async () => {
  t = await createTestApp({
    // Nothing is known of the service times at first, so only the queue length refuses; writes are
    // expected to wait 300 ms at most, to show that a queued request is served even after longer.
    admission: {
      read: { concurrency: 1, queue: 1, maxWaitMs: 600_000 },
      write: { concurrency: 1, queue: 1, maxWaitMs: 300 },
      sale: { concurrency: 2, queue: 50, maxWaitMs: 5_000 },
    },
    beforeReady: (app) => {
      const slow = async () => {
        entered++;
        await new Promise<void>((resolve) => held.push(resolve));
        return { ok: true };
      };
      app.get('/api/test-admission/slow', { config: { auth: 'public' } }, slow);
      app.post('/api/test-admission/slow', { config: { auth: 'public' } }, slow);
      app.post('/api/test-admission/slow-sale', { config: { auth: 'public', admission: 'sale' } }, slow);
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await t.login('admin');
  cashier = await t.login('cashier');
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  // The aborted client's connection (last test) would hold a graceful close open for a minute.
  t?.app.server.closeAllConnections();
  await t?.close();
});

describe('admission by class', () => {
  it('classifies the till money path as sales, the sync apart, the rest by method; health is never shed', () => {
    expect(admissionClass('POST', '/api/admin/order/create')).toBe('sale');
    expect(admissionClass('POST', '/api/admin/order/refund/:id')).toBe('sale');
    expect(admissionClass('POST', '/api/customer_payments')).toBe('sale');
    expect(admissionClass('GET', '/api/catalogue/sync')).toBe('sync');
    expect(admissionClass('GET', '/api/products')).toBe('read');
    expect(admissionClass('POST', '/api/products')).toBe('write');
    expect(admissionClass('GET', '/api/health')).toBeNull();
    expect(admissionClass('POST', '/api/auth/login_check')).toBeNull();
    expect(admissionClass('POST', '/api/token/refresh')).toBeNull();
    expect(admissionClass('GET', '/index.html')).toBeNull();
  });

  it('reads the limits from ADMISSION_<CLASS> and refuses nonsense with the variable named', () => {
    expect(admissionLimits({ ADMISSION_READ: '3/7/250' }).read).toEqual({ concurrency: 3, queue: 7, maxWaitMs: 250, statementTimeoutMs: DEFAULT_ADMISSION.read.statementTimeoutMs, maxLoopBusy: DEFAULT_ADMISSION.read.maxLoopBusy });
    expect(admissionLimits({ ADMISSION_WRITE: '2/3/400/900' }).write).toEqual({ concurrency: 2, queue: 3, maxWaitMs: 400, statementTimeoutMs: 900, maxLoopBusy: DEFAULT_ADMISSION.write.maxLoopBusy });
    expect(admissionLimits({ ADMISSION_SALE: '20/20/50/3000/100' }).sale.maxLoopBusy).toBe(1);
    expect(() => admissionLimits({ ADMISSION_SALE: '20/20/50/3000/101' })).toThrow(/ADMISSION_SALE/);
    expect(admissionLimits({}).sale).toEqual(DEFAULT_ADMISSION.sale);
    expect(() => admissionLimits({ ADMISSION_READ: '3/7' })).toThrow(/ADMISSION_READ/);
    expect(() => admissionLimits({ ADMISSION_SALE: '0/1/1' })).toThrow(/ADMISSION_SALE/);
    expect(() => admissionLimits({ ADMISSION_SYNC: 'lots' })).toThrow(/ADMISSION_SYNC/);
  });

  it('derives the defaults from the PostgreSQL pool: sales get twice the pool, the other classes half of it together', () => {
    for (const pool of [4, 10, 20]) {
      const limits = admissionLimits({ PG_POOL_MAX: String(pool) });
      expect(limits.sale.concurrency).toBe(2 * pool);
      expect(limits.sync.concurrency + limits.read.concurrency + limits.write.concurrency).toBeLessThanOrEqual(Math.max(3, pool / 2));
      // Every class has a bounded queue and a statement time limit.
      for (const l of Object.values(limits)) expect(l.queue * l.maxWaitMs * l.statementTimeoutMs).toBeGreaterThan(0);
    }
  });

  it('sheds on arrival a request that would wait longer than its class allows (the queue drains at concurrency per service time)', () => {
    const gate = new Gate('sale', { concurrency: 2, queue: 100, maxWaitMs: 150, statementTimeoutMs: 1000, maxLoopBusy: 1 });
    expect(gate.wouldWaitTooLong()).toBe(false); // nothing known yet: the queue length alone decides
    gate.release(20); // sales take 20 ms: 2 slots drain 100 a second
    const waiter = { admit: () => {}, cancel: () => {} };
    for (let i = 0; i < 14; i++) gate.waiting.push(waiter);
    expect(gate.wouldWaitTooLong()).toBe(false); // 15th in line: 150 ms
    gate.waiting.push(waiter);
    expect(gate.wouldWaitTooLong()).toBe(true); // 16th: 160 ms
    // Slower and uneven sales (the averages move a tenth of the way each time) shorten the queue that
    // fits: the wait is judged on the average plus twice its spread.
    gate.waiting.length = 0;
    for (let i = 0; i < 10; i++) gate.release(100);
    expect(gate.serviceMs).toBeGreaterThan(70);
    expect(gate.serviceDevMs).toBeGreaterThan(20);
    const judged = gate.serviceMs + 2 * gate.serviceDevMs;
    const fits = Math.floor((150 * 2) / judged); // places in line that still wait ≤ 150 ms
    for (let i = 0; i < fits - 1; i++) gate.waiting.push(waiter);
    expect(gate.wouldWaitTooLong()).toBe(false);
    gate.waiting.push(waiter);
    expect(gate.wouldWaitTooLong()).toBe(true);
    expect(fits).toBeLessThan(4); // on the average alone (≈ 72 ms) four would have fitted
  });

  it('sales first by what sales feel: many slow sales at once refuse the other classes; one slow sale or an old one does not', () => {
    const sale = new Gate('sale', { concurrency: 10, queue: 20, maxWaitMs: 100, statementTimeoutMs: 3000, maxLoopBusy: 1 });
    const now = 50_000;
    sale.release(80); // sales finishing in 80 ms: above half the 100 ms wait
    sale.lastDoneAt = now - 200;
    sale.active = 4;
    expect(salesStruggling(sale, 50, now)).toBe(false); // 4 of 10 slots: not busy
    sale.active = 5;
    expect(salesStruggling(sale, 50, now)).toBe(true); // half the slots busy and slow
    expect(salesStruggling(sale, 50, now + 1_500)).toBe(false); // no sale finished for a second: let go
    sale.serviceMs = 30;
    expect(salesStruggling(sale, 50, now)).toBe(false); // busy but quick
  });

  it('a full read class answers 503 + Retry-After at once, queues one, and still sells', async () => {
    const first = fetch(`${base}/api/test-admission/slow`);
    await until(() => entered === 1);
    const queued = fetch(`${base}/api/test-admission/slow`);
    await until(() => t.app.admissionStats().read.waiting === 1);

    // A third read finds slot and queue full: shed at once, before any
    // token check or query.
    const shed = await fetch(`${base}/api/products?page=1&itemsPerPage=5`, { headers: admin });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('2');
    expect(await shed.json()).toMatchObject({ code: 'BUSY' });
    expect(t.app.admissionStats().read.waiting).toBe(1);

    // Sales have their own slots: a sale goes through while reads are full.
    expect((await fetch(`${base}/api/products?page=1&itemsPerPage=100&isActive=true`, { headers: cashier })).status).toBe(503);
    const sale = await fetch(`${base}/api/admin/order/create`, {
      method: 'POST', headers: { ...cashier, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ item: { id: 1 }, quantity: 1, price: 10.75, discount: 0 }], payments: [{ received: 20, total: 10.75, due: 9.25, type: { id: 1 } }], store: 1, terminal: 1, total: 10.75, status: 'Completed' }),
    });
    expect(sale.status, await sale.clone().text()).toBe(201);

    // The queued read gets the slot when the first is done; nothing is lost or left hanging.
    held.shift()!();
    expect((await first).status).toBe(200);
    await until(() => entered === 2);
    held.shift()!();
    expect((await queued).status).toBe(200);
    expect(t.app.admissionStats().read).toMatchObject({ active: 0, waiting: 0 });
    expect(t.app.admissionStats().read.shed).toBeGreaterThanOrEqual(2);
  });

  it('a queued request is never refused after it waited: it is served when a slot frees; the one that does not fit is refused at once', async () => {
    const first = fetch(`${base}/api/test-admission/slow`, { method: 'POST' });
    await until(() => held.length === 1);
    const queued = fetch(`${base}/api/customers`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Late', phone: '1' }) });
    await until(() => t.app.admissionStats().write.waiting === 1);
    // Longer than the class's 300 ms in line: still waiting, not answered 503.
    await new Promise((r) => setTimeout(r, 450));
    expect(t.app.admissionStats().write).toMatchObject({ waiting: 1, active: 1 });
    // The queue (one place) is full: the next write is refused on arrival, nothing of it written.
    const refused = await fetch(`${base}/api/customers`, { method: 'POST', headers: { ...admin, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Refused', phone: '2' }) });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('2');
    held.shift()!();
    expect((await first).status).toBe(200);
    expect((await queued).status).toBe(201);
    expect(t.app.admissionStats().write).toMatchObject({ waiting: 0, active: 0 });
    const names = async (name: string) => ((await (await fetch(`${base}/api/customers?name=${name}`, { headers: admin })).json()) as Record<string, unknown>)['hydra:totalItems'];
    expect(await names('Late')).toBe(1);
    expect(await names('Refused')).toBe(0);
  });

  it('a client that gives up while queued leaves the queue', async () => {
    const first = fetch(`${base}/api/test-admission/slow`);
    await until(() => held.length === 1);
    const abort = new AbortController();
    const gone = fetch(`${base}/api/products?page=1&itemsPerPage=5`, { headers: admin, signal: abort.signal }).catch((e: Error) => e.name);
    await until(() => t.app.admissionStats().read.waiting === 1);
    abort.abort();
    expect(await gone).toBe('AbortError');
    await until(() => t.app.admissionStats().read.waiting === 0);
    held.shift()!();
    expect((await first).status).toBe(200);
    expect(t.app.admissionStats().read.active).toBe(0);
  });

  it('reads shed before sales: while a sale waits for a slot, a read finds no queue place', async () => {
    const start = entered;
    const read = fetch(`${base}/api/test-admission/slow`);
    const sales = [fetch(`${base}/api/test-admission/slow-sale`, { method: 'POST' }), fetch(`${base}/api/test-admission/slow-sale`, { method: 'POST' })];
    await until(() => entered === start + 3);
    sales.push(fetch(`${base}/api/test-admission/slow-sale`, { method: 'POST' }));
    await until(() => t.app.admissionStats().sale.waiting === 1);

    // The read class has a free queue place, but a sale is waiting: the read is refused at once.
    const shed = await fetch(`${base}/api/products?page=1&itemsPerPage=5`, { headers: admin });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('2');
    expect(t.app.admissionStats().read.waiting).toBe(0);

    for (const release of held.splice(0)) release();
    await until(() => entered === start + 4);
    for (const release of held.splice(0)) release();
    expect((await read).status).toBe(200);
    for (const s of await Promise.all(sales)) expect(s.status).toBe(200);
    expect(t.app.admissionStats().sale).toMatchObject({ active: 0, waiting: 0 });
  });
});
