/**
 * Issue 26: a print agent on the shop's network relays a printer's jobs from a server that cannot
 * reach it. The real app listens on 127.0.0.1; the agent (cli/print-agent.ts) talks to it over HTTP
 * and prints on a fake network printer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { decode, FakePrinter } from '../../../test/fake-printer.ts';
import { paymentType, printJob, product, store, terminal } from '../../db/schema/index.ts';
import { agentRound, runAgent } from '../../cli/print-agent.ts';

let t: TestApp;
let server: string;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let printer: FakePrinter;
let device: number;
let order: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  server = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  printer = await new FakePrinter().start();
  device = (await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Back office', ipAddress: '127.0.0.1', port: printer.port } })).json().id;
  const db = t.app.db;
  const main = (await db.select().from(store).orderBy(asc(store.id)))[0].id;
  const t1 = (await db.select().from(terminal).orderBy(asc(terminal.id))).find((x) => x.code === 'T1')!.id;
  const cash = (await db.select().from(paymentType)).find((p) => p.type === 'cash')!.id;
  const milk = (await db.select().from(product).where(eq(product.name, 'Fresh Milk 1L')))[0].id;
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: cashier, payload: { items: [{ item: milk, quantity: 1 }], payments: [{ received: '20.00', type: cash }], store: main, terminal: t1 } });
  order = res.json().order.id;
});
afterAll(async () => { await printer?.stop(); await t?.close(); });

const print = () => t.app.inject({ method: 'POST', url: `/api/print/order/${order}`, headers: cashier, payload: { device, copy: true } });

describe('print agent', () => {
  it('with an agent the server stops sending to the printer itself; the running agent prints the job within the request', async () => {
    const made = await t.app.inject({ method: 'POST', url: `/api/devices/${device}/agent-key`, headers: admin });
    expect(made.statusCode).toBe(200);
    const { key } = made.json();
    expect(key).toMatch(/^[\w-]{32}$/);

    // No agent running yet: nobody delivers (the server no longer reaches this printer).
    const waiting = await print();
    expect(waiting.statusCode).toBe(202);
    expect(waiting.json()).toMatchObject({ status: 'queued', attempts: 0 });
    expect(printer.jobs).toHaveLength(0);

    const stop = new AbortController();
    const agent = runAgent({ server, key, idleMs: 100, signal: stop.signal });
    try {
      // The waiting job first, then a new one answered as printed in the same request.
      const now = await print();
      expect(now.json()).toMatchObject({ status: 'printed' });
      expect(decode(await printer.job(1)).text).toContain('Receipt (copy)');
      const first = await t.app.inject({ method: 'GET', url: `/api/print/job/${waiting.json().id}`, headers: cashier });
      expect(first.json().status).toBe('printed');
    } finally {
      stop.abort();
      await agent;
    }
  });

  it('a printer the agent cannot reach: the job is queued again with the reason, shown to the till', async () => {
    const { key } = (await t.app.inject({ method: 'POST', url: `/api/devices/${device}/agent-key`, headers: admin })).json();
    await printer.stop();
    const stop = new AbortController();
    const agent = runAgent({ server, key, idleMs: 100, signal: stop.signal });
    try {
      const res = await print();
      expect(res.json()).toMatchObject({ status: 'queued', attempts: 1 });
      expect(res.json().lastError).toMatch(/refused the connection/);
    } finally {
      stop.abort();
      await agent;
      printer = await new FakePrinter(printer.port).start();
    }
  });

  it('a wrong or withdrawn key is refused; a key cannot report a job of another printer', async () => {
    const { key } = (await t.app.inject({ method: 'POST', url: `/api/devices/${device}/agent-key`, headers: admin })).json();
    await expect(agentRound({ server, key: 'x'.repeat(32) })).rejects.toThrow(/401 .*wrong or withdrawn key/);
    const other = (await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Other', ipAddress: '127.0.0.1', port: 9 } })).json().id;
    const [job] = await t.app.db.insert(printJob).values({ deviceId: other, kind: 'copy', payload: Buffer.from('x'), status: 'sending' }).returning();
    const report = await fetch(`${server}/api/print/agent/job/${job.id}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-print-agent-key': key }, body: '{"ok":true}' });
    expect(report.status).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/devices/${device}/agent-key`, headers: admin })).statusCode).toBe(204);
    await expect(agentRound({ server, key })).rejects.toThrow(/401/);
    expect((await t.app.inject({ method: 'POST', url: `/api/devices/${device}/agent-key`, headers: cashier })).statusCode).toBe(403);
  });
});
