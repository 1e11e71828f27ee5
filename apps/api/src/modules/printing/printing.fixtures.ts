/**
 * The shop for the network-printer API tests (not a test file): printing.test.ts,
 * closing-report.test.ts and arabic-receipt.test.ts. `openPrintingShop()` registers the hooks that
 * open a seeded app with a fake network printer (a TCP server on 127.0.0.1, test/fake-printer.ts)
 * added as a device, and close both. The bindings below are filled by its beforeAll (ES module
 * exports are live, so a test file reads them once the hook has run; its own beforeAll runs after).
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { FakePrinter } from '../../../test/fake-printer.ts';
import { paymentType, product, store, terminal } from '../../db/schema/index.ts';

export let t: TestApp;
export let admin: Record<string, string>;
export let cashier: Record<string, string>;
/** The fake printer, and its device id. */
export let printer: FakePrinter;
export let printerId: number;
/** The two demo stores, the main store's till T1 and the mall's till. */
export let main: number;
export let mall: number;
export let t1: number;
export let tMall: number;
/** Payment type ids: cash and credit card. */
export const pay: Record<'cash' | 'card', number> = { cash: 0, card: 0 };
/** Fresh Milk 1L: 10.75, no stock tracking, no tax. */
export let milk: number;

export function openPrintingShop(): void {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin');
    cashier = await t.login('cashier');
    const db = t.app.db;
    [main, mall] = (await db.select().from(store).orderBy(asc(store.id))).map((s) => s.id);
    const terminals = await db.select().from(terminal).orderBy(asc(terminal.id));
    t1 = terminals.find((x) => x.code === 'T1')!.id;
    tMall = terminals.find((x) => x.storeId === mall)!.id;
    for (const p of await db.select().from(paymentType)) if (p.type === 'cash') pay.cash = p.id; else if (p.type === 'credit card') pay.card = p.id;
    milk = (await db.select().from(product).where(eq(product.name, 'Fresh Milk 1L')))[0].id;
    printer = await new FakePrinter().start();
    const d = await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Counter', ipAddress: '127.0.0.1', port: printer.port } });
    expect(d.statusCode, d.body).toBe(201);
    printerId = d.json().id;
  });
  afterAll(async () => { await printer?.stop(); await t?.close(); });
}
