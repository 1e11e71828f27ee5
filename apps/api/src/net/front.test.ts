import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, until, type TestApp } from '../../test/helpers.ts';
import { DEFAULT_ADMISSION } from '../plugins/admission.ts';
import { FrontBoard, FrontGates, epochNow, routeClassifier } from '../plugins/admission-front.ts';
import { privateSocket, startFront, type Front } from './front.ts';

/**
 * The front thread (issue 30: a refusal answered within 10 ms under overload): the real app on its
 * private socket, the real front thread on a loopback port, real HTTP. Sales get one slot and one
 * queue place here, and a test route holds its slot until the test lets it go, so what is refused
 * where is deterministic.
 */
let t: TestApp;
let front: Front;
let socket: ReturnType<typeof privateSocket>;
let failure: Error | null = null;
const held: (() => void)[] = [];
let entered = 0;
const board = new FrontBoard();

beforeAll(async () => {
  t = await createTestApp({
    front: board,
    admission: {
      sale: { concurrency: 1, queue: 1, maxWaitMs: 600_000, maxLoopBusy: 1 },
      read: { concurrency: 4, queue: 4, maxWaitMs: 600_000, maxLoopBusy: 1 },
      write: { concurrency: 4, queue: 4, maxWaitMs: 600_000, maxLoopBusy: 1 },
    },
    beforeReady: (app) => {
      app.post('/api/test-front/slow-sale', { config: { auth: 'public', admission: 'sale' } }, async () => {
        entered++;
        await new Promise<void>((resolve) => held.push(resolve));
        return { ok: true };
      });
      app.get('/api/test-front/whoami', { config: { auth: 'public' } }, async (request) => ({ ip: request.ip, protocol: request.protocol, host: request.host }));
      app.post('/api/test-front/echo', { config: { auth: 'public' } }, async (request) => ({ length: JSON.stringify(request.body).length }));
    },
  });
  socket = privateSocket();
  await t.app.listen({ path: socket.path });
  front = await startFront({
    port: 0, host: '127.0.0.1', upstream: socket.path, tls: null, ...t.app.admission, board: board.buffer, nice: 0,
    onFailure: (err) => { failure = err; },
  });
});
afterAll(async () => {
  for (const release of held.splice(0)) release();
  await front?.close().catch(() => {});
  await t?.close();
  socket?.remove();
});

interface Answer { status: number; headers: http.IncomingHttpHeaders; text: string }
/** One request to the front's public port (a new connection each time: no pool between tests). */
function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: front.port, method, path, agent: false, headers: { ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('the front thread', () => {
  it('answers what the API answers: status, headers and bodies both ways, a signed-in call', async () => {
    const health = await call('GET', '/api/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.text).status).toBe('ok');
    expect(health.headers['x-content-type-options']).toBe('nosniff'); // the API's own headers come through
    const big = JSON.stringify({ lines: Array.from({ length: 4000 }, (_, i) => ({ i, name: `product ${i} — منتج` })) });
    const echo = await call('POST', '/api/test-front/echo', { body: big });
    expect(echo.status).toBe(200);
    expect(JSON.parse(echo.text).length).toBe(big.length);
    const login = await call('POST', '/api/auth/login_check', { body: JSON.stringify({ username: 'admin', password: 'admin' }) });
    expect(login.status).toBe(200);
    const products = await call('GET', '/api/products?itemsPerPage=2', { headers: { authorization: `Bearer ${JSON.parse(login.text).token}` } });
    expect(products.status).toBe(200);
    expect(JSON.parse(products.text)['hydra:member']).toHaveLength(2);
    expect((await call('GET', '/api/products?itemsPerPage=2')).status).toBe(401);
    expect(failure).toBeNull();
  });

  it("gives the API the client's own address and protocol, never what the client claims", async () => {
    const who = await call('GET', '/api/test-front/whoami', { headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' } });
    expect(JSON.parse(who.text)).toEqual({ ip: '127.0.0.1', protocol: 'http', host: `127.0.0.1:${front.port}` });
  });

  it("refuses at once a sale beyond the API's slot and queue, without the API seeing it; lets sales in again once they free", async () => {
    const before = t.app.admissionStats().sale;
    const first = call('POST', '/api/test-front/slow-sale', { body: '{}' });
    await until(() => entered === 1);
    const second = call('POST', '/api/test-front/slow-sale', { body: '{}' });
    await until(() => t.app.admissionStats().sale.waiting === 1);

    const refused = await call('POST', '/api/test-front/slow-sale', { body: '{}' });
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-shed-by']).toBe('front');
    expect(JSON.parse(refused.text).code).toBe('BUSY');
    const during = t.app.admissionStats().sale;
    expect(during.shed - before.shed).toBe(0); // the API's thread never saw it
    expect(during.admitted - before.admitted).toBe(1);

    for (const release of held.splice(0)) release();
    await until(() => held.length === 1); // the queued one got the slot
    held.splice(0)[0]();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    const again = call('POST', '/api/test-front/slow-sale', { body: '{}' });
    await until(() => held.length === 1);
    held.splice(0)[0]();
    expect((await again).status).toBe(200);
    expect(entered).toBe(3);
  });

  it('forgets a request whose client went away: its place is free again', async () => {
    const gone: http.ClientRequest[] = [];
    for (let i = 0; i < 2; i++) {
      const req = http.request({ host: '127.0.0.1', port: front.port, method: 'POST', path: '/api/test-front/slow-sale', agent: false, headers: { 'content-type': 'application/json' } });
      req.on('error', () => {});
      req.end('{}');
      gone.push(req);
    }
    await until(() => t.app.admissionStats().sale.waiting === 1 && held.length === 1);
    for (const req of gone) req.destroy();
    // The API lets the queued one go and frees the running one's slot once its handler ends.
    await until(() => t.app.admissionStats().sale.waiting === 0);
    held.splice(0)[0]();
    await until(() => t.app.admissionStats().sale.active === 0);
    // Two places again (one slot, one queue place), as if the two had never come.
    const a = call('POST', '/api/test-front/slow-sale', { body: '{}' });
    await until(() => held.length === 1);
    const b = call('POST', '/api/test-front/slow-sale', { body: '{}' });
    await until(() => t.app.admissionStats().sale.waiting === 1);
    held.splice(0)[0]();
    await until(() => held.length === 1);
    held.splice(0)[0]();
    expect([(await a).status, (await b).status]).toEqual([200, 200]);
  });

  it("classifies a raw URL by the app's routes as the API does", () => {
    const classify = routeClassifier(t.app.admission.routes);
    expect(classify('POST', '/api/admin/order/create')).toBe('sale');
    expect(classify('PUT', '/api/admin/order/edit/12?x=1')).toBe('sale');
    expect(classify('GET', '/api/admin/closing/opened')).toBe('sale');
    expect(classify('GET', '/api/catalogue/sync?since=abc')).toBe('sync');
    expect(classify('GET', '/api/products/')).toBe('read');
    expect(classify('POST', '/api/products')).toBe('write');
    expect(classify('GET', '/api/health')).toBeNull();
    expect(classify('POST', '/api/auth/login_check')).toBeNull();
    expect(classify('GET', '/pos')).toBeNull();
    expect(classify('GET', '/api/no-such-route')).toBeNull();
    // Every route, its parameters filled in, gets its own class.
    expect(t.app.admission.routes.length).toBeGreaterThan(100);
    const wrong = t.app.admission.routes
      .map((r) => ({ ...r, got: classify(r.method, r.url.replace(/:[A-Za-z0-9_]+/g, '7').replace('*', 'x')) }))
      .filter((r) => r.got !== r.cls);
    expect(wrong).toEqual([]);
  });
});

describe("the front's route patterns", () => {
  it('takes a static route first, then the pattern with the most fixed segments, by method', () => {
    const classify = routeClassifier([
      { method: 'GET', url: '/api/a/*', cls: 'read' },
      { method: 'GET', url: '/api/a/:id/b', cls: 'sale' },
      { method: 'GET', url: '/api/a/c/b', cls: 'sync' },
      { method: 'POST', url: '/api/a/:id/b', cls: 'write' },
    ]);
    expect(classify('GET', '/api/a/1/b')).toBe('sale');
    expect(classify('GET', '/api/a/c/b/')).toBe('sync');
    expect(classify('GET', '/api/a/1/x')).toBe('read');
    expect(classify('POST', '/api/a/1/b?q=1')).toBe('write');
    expect(classify('DELETE', '/api/a/1/b')).toBeNull();
    expect(classify('GET', '/api/a.b')).toBeNull(); // a dot in a pattern is a dot
  });
});

describe("the front's rules (the API's, on the board it writes)", () => {
  const now = epochNow();
  const services = (ms: number) => ({ sale: ms, sync: ms, read: ms, write: ms });
  const fresh = (busy: number, overflowAt: number, opts: { waiting?: number; struggling?: boolean; serviceMs?: number } = {}) => {
    const b = new FrontBoard();
    b.publish(busy, overflowAt, opts.waiting ?? 0, opts.struggling ?? false, services(opts.serviceMs ?? 0));
    return new FrontGates(DEFAULT_ADMISSION, b);
  };

  it('a busy loop refuses reads while sales overflow, and sales once two are running', () => {
    const g = fresh(0.9, now - 100);
    expect(g.refuses('read', now)).toBe(true);
    expect(g.refuses('sale', now)).toBe(false);
    g.enter('sale', now);
    g.enter('sale', now);
    expect(g.refuses('sale', now)).toBe(true);
    expect(g.shed).toMatchObject({ read: 1, sale: 1 });
    // Under the sales' share (85 %), only the other classes (70 %) are refused.
    const h = fresh(0.8, now - 100);
    h.enter('sale', now);
    h.enter('sale', now);
    expect(h.refuses('sale', now)).toBe(false);
    expect(h.refuses('sync', now)).toBe(true);
  });

  it('without a recent overflow, or on a quiet loop, nothing is refused', () => {
    expect(fresh(0.99, now - 1_500).refuses('read', now)).toBe(false);
    expect(fresh(0.5, now - 10).refuses('read', now)).toBe(false);
    expect(fresh(0.99, -Infinity).refuses('write', now)).toBe(false);
  });

  it('struggling sales refuse the other classes, never a sale', () => {
    const g = fresh(0, -Infinity, { struggling: true });
    expect(g.refuses('read', now)).toBe(true);
    expect(g.refuses('sale', now)).toBe(false);
  });

  it("a class's queue is judged as the API judges it: its length and its wait at the API's service time", () => {
    const g = fresh(0, -Infinity, { serviceMs: 100 });
    for (let i = 0; i < 20; i++) g.enter('sale', now); // every slot taken: the next one would queue
    expect(g.refuses('sale', now)).toBe(false); // 1 × 100 ms / 20 slots = 5 ms ≤ 50
    for (let i = 0; i < 10; i++) g.enter('sale', now);
    expect(g.refuses('sale', now)).toBe(true); // 11 × 100 / 20 = 55 ms > 50
    g.leave('sale', 200, now);
    expect(g.refuses('sale', now)).toBe(false);
    const q = fresh(0, -Infinity);
    for (let i = 0; i < 40; i++) q.enter('sale', now);
    expect(q.refuses('sale', now)).toBe(true); // 20 slots + 20 queued
  });

  it('while sales wait for a slot, another class does not queue, but takes a free slot', () => {
    const g = fresh(0, -Infinity, { waiting: 3 });
    expect(g.refuses('read', now)).toBe(false);
    g.enter('read', now);
    g.enter('read', now);
    expect(g.refuses('read', now)).toBe(true); // read: 2 slots at the default pool
  });

  it('a sale the front refused, or one the API refused, is an overflow for the loop rule', () => {
    const b = new FrontBoard();
    b.publish(0.9, -Infinity, 0, false, services(0));
    const g = new FrontGates(DEFAULT_ADMISSION, b);
    expect(g.refuses('read', now)).toBe(false);
    g.enter('sale', now);
    g.leave('sale', 503, now);
    expect(g.refuses('read', now)).toBe(true);
  });
});
