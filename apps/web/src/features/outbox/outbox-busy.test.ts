import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '@/features/list-table/testing/fake-api';
import { OutboxDb } from './outbox-db';
import { Outbox } from './outbox';
import { postSale } from './outbox-app';

afterEach(() => { vi.unstubAllGlobals(); });

const busy = (retryAfter: string) => new Response(JSON.stringify({ code: 'BUSY', message: 'The server is busy' }), {
  status: 503, headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
});

/** The till's outbox against the real sender (apiFetch) and a server shedding load (issue 30, point 2). */
describe('outbox and a busy server', () => {
  it('keeps the sale on a 503 BUSY, waits at least the Retry-After (spread by jitter), then sends it once', async () => {
    let answer: () => Response | object = () => busy('20');
    const api = fakeApi({ 'POST /admin/order/create': () => answer() });
    let clock = 5_000_000;
    let dice = 0;
    const box = new Outbox({ db: new OutboxDb('outbox-busy-1'), send: postSale, locks: null, now: () => clock, random: () => dice });
    await box.enqueue({ uuid: 'rush-1', terminal: 1, total: 10, items: [] }, { terminalCode: 'T1' });

    const r = await box.uploadPending();
    expect(r.sent).toEqual([]);
    expect(box).toMatchObject({ busy: true, reachable: true });
    const row = await box.db.sale('rush-1');
    expect(row).toMatchObject({ status: 'pending', lastStatus: 503 });
    // The server said 20 s: not before (the 2 s backoff alone would have been 1-2 s)...
    expect(row!.nextAttemptAt - clock).toBe(20_000);
    clock += 19_000;
    expect((await box.uploadPending()).ran).toBe(false);
    expect(api.find('POST', '/admin/order/create')).toHaveLength(1);

    // ...and another till with another dice waits up to half as long again, so they do not return together.
    dice = 0.99;
    clock += 1_000;
    await box.uploadPending();
    const later = await box.db.sale('rush-1');
    expect(later!.nextAttemptAt - clock).toBeGreaterThan(29_000);
    expect(later!.nextAttemptAt - clock).toBeLessThanOrEqual(30_000);

    answer = () => ({ order: { id: 41, orderId: 9 } });
    clock += 30_000;
    expect((await box.uploadPending()).sent).toEqual(['rush-1']);
    expect(box).toMatchObject({ busy: false, reachable: true });
    expect(await box.db.sale('rush-1')).toMatchObject({ status: 'sent', orderId: 9 });
    // The same Idempotency-Key every time: the server stores the sale once however often it was refused.
    expect(new Set(api.fetchMock.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']))).toEqual(new Set(['rush-1']));
  });
});
