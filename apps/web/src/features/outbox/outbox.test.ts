import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { receiptFigures } from '@/features/receipt/receipt-figures';
import type { SaleBody } from '@/lib/sale-body';
import { HttpError, NetworkError } from '@/lib/api-client';
import { OutboxDb } from './outbox-db';
import { Outbox } from './outbox';
import { dayStamp, type SaleBodyLike, type SendSale } from './outbox-rules';
import { unsentCreditCents } from './outbox-app';
import { provisionalOrder } from './provisional-order';

let dbSeq = 0;
const newDb = () => new OutboxDb(`outbox-test-${++dbSeq}`);

/**
 * The sales engine's idempotency, in memory: a uuid is stored once and a repeat answers the first
 * result; `loseAnswer` stores the sale and then drops the answer (the mid-flight failure).
 */
function fakeServer() {
  const orders = new Map<string, { id: number; orderId: number }>();
  const calls: string[] = [];
  let down = false;
  let loseNext = 0;
  const rejectIf = new Map<string, HttpError>();
  let delayMs = 0;
  const send: SendSale = async (body: SaleBodyLike) => {
    calls.push(body.uuid);
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (down) throw new NetworkError(new TypeError('Failed to fetch'));
    const refusal = rejectIf.get(body.uuid);
    if (refusal) throw refusal;
    let order = orders.get(body.uuid);
    if (!order) {
      order = { id: 100 + orders.size, orderId: orders.size + 1 };
      orders.set(body.uuid, order);
    }
    if (loseNext > 0) {
      loseNext -= 1;
      throw new NetworkError(new TypeError('Failed to fetch'));
    }
    return { order };
  };
  return {
    send,
    orders,
    calls,
    setDown: (v: boolean) => (down = v),
    loseAnswers: (n: number) => (loseNext = n),
    reject: (uuid: string, e: HttpError) => rejectIf.set(uuid, e),
    allow: (uuid: string) => rejectIf.delete(uuid),
    setDelay: (ms: number) => (delayMs = ms),
  };
}

/** navigator.locks with ifAvailable, shared by the "tabs" of one test. */
function fakeLocks() {
  const held = new Set<string>();
  return {
    async request(name: string, _opts: unknown, cb: (lock: unknown) => Promise<unknown>) {
      if (held.has(name)) return cb(null);
      held.add(name);
      try {
        return await cb({ name, mode: 'exclusive' });
      } finally {
        held.delete(name);
      }
    },
  } as unknown as Pick<LockManager, 'request'>;
}

const body = (uuid: string, extra: Partial<SaleBodyLike> & Record<string, unknown> = {}): SaleBodyLike => ({ uuid, terminal: 1, total: 10, items: [], ...extra });

describe('outbox', () => {
  it('queues with a local reference per terminal and day, once per uuid, and uploads in queue order', async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    const a = await box.enqueue(body('a'), { terminalCode: 'T1' });
    await box.enqueue(body('b'), { terminalCode: 'T1' });
    await box.enqueue(body('c'), { terminalCode: 'T1' });
    const again = await box.enqueue(body('a'), { terminalCode: 'T1' });
    expect(again.localRef).toBe(a.localRef);
    expect(a.localRef).toBe(`T1-${dayStamp(Date.now())}-001`);
    expect((await box.unsent()).map((r) => r.localRef.slice(-3))).toEqual(['001', '002', '003']);

    const r = await box.uploadPending();
    expect(r.sent).toEqual(['a', 'b', 'c']);
    expect(server.calls).toEqual(['a', 'b', 'c']);
    const rows = await box.db.sales();
    expect(rows.map((x) => [x.status, x.orderId])).toEqual([['sent', 1], ['sent', 2], ['sent', 3]]);
    expect(await box.unsent()).toEqual([]);
  });

  it('an answer lost mid-flight: the retry with the same key gives one order', async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    await box.enqueue(body('x'), { terminalCode: 'T1' });
    await box.enqueue(body('y'), { terminalCode: 'T1' });
    server.loseAnswers(1);
    const first = await box.uploadPending();
    // No answer: the server counts as unreachable, the pass stops before 'y' (order kept).
    expect(first.unreachable).toBe(true);
    expect(server.calls).toEqual(['x']);
    const x = await box.db.sale('x');
    expect(x?.status).toBe('pending');
    expect(x?.attempts).toBe(1);
    // Backoff: a plain trigger waits, a forced one (Retry, back online) goes now.
    expect((await box.uploadPending()).ran).toBe(false);
    const second = await box.uploadPending({ force: true });
    expect(second.sent).toEqual(['x', 'y']);
    expect(server.calls).toEqual(['x', 'x', 'y']);
    expect(server.orders.size).toBe(2);
    expect((await box.db.sale('x'))?.orderId).toBe(1);
  });

  it('server down: everything stays pending, nothing is lost; back up: all sent once', async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    for (const id of ['1', '2', '3']) await box.enqueue(body(id), { terminalCode: 'T1' });
    server.setDown(true);
    await box.uploadPending({ force: true });
    await box.uploadPending({ force: true });
    expect((await box.unsent()).map((r) => r.status)).toEqual(['pending', 'pending', 'pending']);
    expect(box.reachable).toBe(false);
    server.setDown(false);
    await box.uploadPending({ force: true });
    expect(server.orders.size).toBe(3);
    expect(await box.unsent()).toEqual([]);
    expect(box.reachable).toBe(true);
  });

  it("a rejected sale stays with the server's reason, the next ones go on; retry and discard are explicit", async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    await box.enqueue(body('ok1'), { terminalCode: 'T1' });
    await box.enqueue(body('bad'), { terminalCode: 'T1' });
    await box.enqueue(body('ok2'), { terminalCode: 'T1' });
    server.reject('bad', new HttpError({ status: 422, message: 'Validation failed', violations: [{ propertyPath: 'payments', message: 'Credit limit of 100.00 exceeded' }] }));
    const r = await box.uploadPending();
    expect(r.sent).toEqual(['ok1', 'ok2']);
    expect(r.rejected).toEqual(['bad']);
    const bad = await box.db.sale('bad');
    expect(bad?.status).toBe('rejected');
    expect(bad?.lastError).toBe('payments: Credit limit of 100.00 exceeded');
    expect(bad?.lastStatus).toBe(422);
    // Still counted as unsent, never retried on its own.
    expect((await box.unsent()).map((x) => x.uuid)).toEqual(['bad']);
    await box.uploadPending({ force: true });
    expect(server.calls.filter((c) => c === 'bad')).toHaveLength(1);

    // The manager fixed the cause: retry sends it.
    server.allow('bad');
    await box.retry('bad');
    const rr = await box.uploadPending({ force: true });
    expect(rr.sent).toEqual(['bad']);
    expect(server.orders.size).toBe(3);
  });

  it('only a rejected sale can be discarded; a 409 (key reused for another body) is rejected with its message', async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    await box.enqueue(body('p'), { terminalCode: 'T1' });
    expect(await box.discard('p')).toBe(false);
    server.reject('p', new HttpError({ status: 409, message: 'This Idempotency-Key was already used for a different sale' }));
    await box.uploadPending();
    const p = await box.db.sale('p');
    expect(p?.status).toBe('rejected');
    expect(p?.lastError).toBe('This Idempotency-Key was already used for a different sale');
    expect(await box.discard('p')).toBe(true);
    expect(await box.db.sale('p')).toBeUndefined();
  });

  it('a 500 keeps that sale pending (own backoff) and goes on with the next; 503 stops the pass', async () => {
    const server = fakeServer();
    const box = new Outbox({ db: newDb(), send: server.send, locks: null });
    await box.enqueue(body('boom'), { terminalCode: 'T1' });
    await box.enqueue(body('fine'), { terminalCode: 'T1' });
    server.reject('boom', new HttpError({ status: 500, message: 'Internal error' }));
    const r = await box.uploadPending();
    expect(r.failed).toEqual(['boom']);
    expect(r.sent).toEqual(['fine']);
    expect((await box.db.sale('boom'))?.status).toBe('pending');

    await box.enqueue(body('later'), { terminalCode: 'T1' });
    server.reject('boom', new HttpError({ status: 503, message: 'Service Unavailable' }));
    const r2 = await box.uploadPending({ force: true });
    expect(r2.unreachable).toBe(true);
    expect(server.calls.includes('later')).toBe(false);
  });

  it('a server shedding load (503 BUSY) keeps the sales, is "busy" not "offline", and is retried after a jittered pause', async () => {
    const server = fakeServer();
    let clock = 1_000_000;
    let dice = 0;
    const box = new Outbox({ db: newDb(), send: server.send, locks: null, now: () => clock, random: () => dice });
    await box.enqueue(body('rush'), { terminalCode: 'T1' });
    server.reject('rush', new HttpError({ status: 503, code: 'BUSY', message: 'The server is busy' }));
    const r = await box.uploadPending();
    expect(r.unreachable).toBe(true);
    expect(box.busy).toBe(true);
    expect(box.reachable).toBe(true);
    const row = await box.db.sale('rush');
    expect(row?.status).toBe('pending');
    // First pause: 2 s doubled 0 times, half fixed + dice x half: 1 s with dice 0...
    expect(row!.nextAttemptAt - clock).toBe(1_000);
    clock += 500;
    expect((await box.uploadPending()).ran).toBe(false);
    // ...and 2 s with dice near 1 for the next failure (4 s full): never more than the full delay.
    dice = 0.999;
    clock += 10_000;
    await box.uploadPending();
    const again = await box.db.sale('rush');
    expect(again!.nextAttemptAt - clock).toBeGreaterThan(3_900);
    expect(again!.nextAttemptAt - clock).toBeLessThanOrEqual(4_000);
    // A plain 503 from a proxy is "offline"; the server back: sent, neither busy nor offline.
    server.reject('rush', new HttpError({ status: 503, message: 'Service Unavailable' }));
    await box.uploadPending({ force: true });
    expect(box).toMatchObject({ busy: false, reachable: false });
    server.allow('rush');
    expect((await box.uploadPending({ force: true })).sent).toEqual(['rush']);
    expect(box).toMatchObject({ busy: false, reachable: true });
  });

  it('two tabs (Web Locks) never upload the same sale', async () => {
    const server = fakeServer();
    server.setDelay(5);
    const db1 = newDb();
    const db2 = new OutboxDb(db1.name);
    const locks = fakeLocks();
    const tab1 = new Outbox({ db: db1, send: server.send, locks, tabId: 'tab1' });
    const tab2 = new Outbox({ db: db2, send: server.send, locks, tabId: 'tab2' });
    for (let i = 0; i < 10; i++) await (i % 2 ? tab1 : tab2).enqueue(body(`s${i}`), { terminalCode: 'T1' });
    const results = await Promise.all([tab1.uploadPending(), tab2.uploadPending(), tab1.uploadPending({ force: true }), tab2.uploadPending({ force: true })]);
    // Let any follow-up pass finish.
    await tab1.uploadPending({ force: true });
    await tab2.uploadPending({ force: true });
    expect(results.filter((r) => r.ran).length).toBeGreaterThanOrEqual(1);
    expect(server.calls).toHaveLength(10);
    expect(new Set(server.calls).size).toBe(10);
    expect(server.calls).toEqual(Array.from({ length: 10 }, (_, i) => `s${i}`));
  });

  it('two tabs without Web Locks: the IndexedDB lease lets one upload; a dead tab\'s claim is taken over', async () => {
    const server = fakeServer();
    server.setDelay(5);
    const db1 = newDb();
    const db2 = new OutboxDb(db1.name);
    let now = Date.now();
    const tab1 = new Outbox({ db: db1, send: server.send, locks: null, tabId: 'tab1', now: () => now });
    const tab2 = new Outbox({ db: db2, send: server.send, locks: null, tabId: 'tab2', now: () => now });
    for (let i = 0; i < 6; i++) await tab1.enqueue(body(`l${i}`), { terminalCode: 'T1' });
    const [r1, r2] = await Promise.all([tab1.uploadPending(), tab2.uploadPending()]);
    expect([r1.ran, r2.ran].filter(Boolean)).toHaveLength(1);
    expect(server.calls).toEqual(['l0', 'l1', 'l2', 'l3', 'l4', 'l5']);

    // A tab died while uploading: its claim and lease expire, the other tab takes the sale over once.
    await tab1.enqueue(body('orphan'), { terminalCode: 'T1' });
    await db1.update('orphan', { status: 'uploading', claimedBy: 'dead', claimedAt: now });
    await (await db1.open()).put('meta', { key: 'pos-outbox-upload', value: 1, owner: 'dead', expiresAt: now + 60_000 });
    expect((await tab2.uploadPending({ force: true })).ran).toBe(false);
    now += 61_000;
    const r3 = await tab2.uploadPending({ force: true });
    expect(r3.sent).toEqual(['orphan']);
    expect(server.calls.filter((c) => c === 'orphan')).toHaveLength(1);
  });

  it('counts the unsent credit of a customer (offline credit check)', async () => {
    const box = new Outbox({ db: newDb(), send: fakeServer().send, locks: null });
    const credit = (uuid: string, customerId: number, total: number) =>
      body(uuid, { customerId, payments: [{ total, received: total, due: 0, type: { id: 3, name: 'Credit', type: 'credit' } }] } as Record<string, unknown>);
    await box.enqueue(credit('c1', 7, 12.5), { terminalCode: 'T1' });
    await box.enqueue(credit('c2', 7, 7.25), { terminalCode: 'T1' });
    await box.enqueue(credit('c3', 8, 100), { terminalCode: 'T1' });
    expect(await unsentCreditCents(7, box)).toBe(1975);
  });
});

describe('provisional order', () => {
  it("prints the figures the server will store, with the local reference and no number", () => {
    const sale: SaleBody = {
      uuid: 'u1',
      items: [
        { item: { id: 1, '@id': '/api/products/1', name: 'Soap' }, variant: null, quantity: 3, price: 10, discount: 1, taxIncluded: true, discountIncluded: false, taxes: [{ id: 1, '@id': '/api/taxes/1', name: 'VAT', rate: 16 }] },
        { item: { id: 2, '@id': '/api/products/2', name: 'Milk' }, variant: null, quantity: 1, price: 10.75, discount: 0, taxIncluded: false, discountIncluded: false, taxes: [] },
      ],
      discount: null, tax: null, taxAmount: 0, discountAmount: null, discountRateType: null,
      payments: [{ received: 50, total: 44.55, due: 5.45, type: { id: 1, name: 'Cash', type: 'cash' } }],
      customerId: null, customer: null, refundingFrom: null, notes: null, store: 1, terminal: 1,
      total: 44.55, adjustment: 0, isSuspended: false, status: 'Completed',
    };
    // A store on the legacy tax base (the old client's order of operations): tax on the price before the line discount.
    const legacy = { currency: 'USD', storeLocale: 'en-US', timeZone: 'UTC', cashRoundingStep: 0, pricesIncludeTax: false, legacyTaxBase: true };
    const order = provisionalOrder(sale, { localRef: 'T1-20250101-001', createdAt: '2025-01-01T10:00:00.000Z', settings: legacy });
    expect(order.orderId).toBeNull();
    expect(order.localRef).toBe('T1-20250101-001');
    expect(order.status).toBe('Completed');
    const f = receiptFigures(order);
    // 3 x 10 - 1 + 16 % of 30 = 33.80; + 10.75 = 44.55
    expect(f.grandTotalCents).toBe(4455);
    expect(f.changeCents).toBe(545);
    // A store taxing what is charged (the default): 16 % of 29.00 = 4.64; 33.64 + 10.75 = 44.39
    const charged = provisionalOrder({ ...sale, total: 44.39, payments: [{ received: 50, total: 44.39, due: 5.61, tendered: 50, change: 5.61, type: { id: 1, name: 'Cash', type: 'cash' } }] },
      { localRef: 'T1-20250101-002', createdAt: '2025-01-01T10:00:00.000Z' });
    expect(receiptFigures(charged).grandTotalCents).toBe(4439);
    expect(receiptFigures(charged).changeCents).toBe(561);
    // A store rounding cash to 0.05: the cash part 44.39 is paid as 44.40, the rounding its own line.
    const rounded = provisionalOrder({ ...sale, payments: [{ received: 50, total: 44.4, due: 5.6, tendered: 50, change: 5.6, type: { id: 1, name: 'Cash', type: 'cash' } }] },
      { localRef: 'T1-20250101-003', createdAt: '2025-01-01T10:00:00.000Z', settings: { ...legacy, legacyTaxBase: false, cashRoundingStep: 5 } });
    expect(receiptFigures(rounded).roundingCents).toBe(1);
    expect(receiptFigures(rounded).grandTotalCents).toBe(4439);
    expect(receiptFigures(charged).taxBreakdown).toEqual([{ label: 'VAT 16%', netCents: 2900, taxCents: 464, grossCents: 3364 }]);
  });
});
