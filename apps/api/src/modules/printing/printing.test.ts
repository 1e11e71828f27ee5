/**
 * Issue 26 through the real API with a fake network printer: a TCP server on 127.0.0.1 that keeps
 * the bytes it is sent, decoded here (text, cut, drawer kick) independently of our encoder.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { PNG } from 'pngjs';
import { decode, FakePrinter, freePort, printed } from '../../../test/fake-printer.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { auditLog, device, printJob, product, productTax, tax, userAccount, userStore } from '../../db/schema/index.ts';
import { t, admin, cashier, printer, printerId, main, mall, t1, tMall, pay, openPrintingShop } from './printing.fixtures.ts';

let P: number;

openPrintingShop();
beforeAll(async () => {
  const db = t.app.db;
  const [x] = await db.insert(tax).values({ name: 'Sales tax', rate: '8.25' }).returning();
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  P = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !taxed.has(p.id) && !p.manageInventory)[3].id;
  await db.update(product).set({ basePrice: '10.75' }).where(eq(product.id, P));
  await db.insert(productTax).values({ productId: P, otherId: x.id });
  await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: { legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 } });
});

const sell = async (payments: unknown[], storeId = main, headers = cashier) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers, payload: { items: [{ item: P, quantity: 1, discount: 1.08 }], payments, store: storeId, terminal: storeId === main ? t1 : tMall } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order.id as number;
};
const print = (orderId: number, body: Record<string, unknown>, headers = cashier) =>
  t.app.inject({ method: 'POST', url: `/api/print/order/${orderId}`, headers, payload: body });

describe('receipts on a network printer (ESC/POS)', () => {
  it('a cash sale prints the figures, the tendered amount and the change, kicks the drawer once and cuts', async () => {
    const id = await sell([{ received: '20.00', type: pay.cash }]);
    const before = printer.jobs.length;
    const res = await print(id, { device: `/api/devices/${printerId}` });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ status: 'printed', attempts: 1, opensDrawer: true, kind: 'receipt' });
    const bytes = await printer.job(before);
    const text = printed(bytes);
    // 10.75 - 1.08 = 9.67 taxable; 8.25 % of 9.67 = 0.7978 -> 0.80; total 10.47; change 20 - 10.47 = 9.53.
    expect(text).toMatch(/1 x \$10\.75 +\$10\.75/);
    expect(text).toMatch(/Discount +-\$1\.08/);
    expect(text).toMatch(/Sales tax 8\.25% on \$9\.67 +\$0\.80/);
    expect(text).toMatch(/TOTAL +\$10\.47/);
    expect(text).toMatch(/Cash tendered +\$20\.00/);
    expect(text).toMatch(/Change +\$9\.53/);
    // 80 mm paper: 48 columns.
    expect(text.split('\n').find((l) => l.startsWith('TOTAL'))).toHaveLength(48);
    expect(decode(bytes).kicks).toBe(1);
    expect(decode(bytes).cuts).toBe(1);
    // The order number as a Code 128 barcode (GS k), once, under the totals.
    const orderNo = (await t.app.inject({ method: 'GET', url: `/api/admin/order/${id}`, headers: cashier })).json().order.orderId;
    expect(text).toContain(`Order# ${orderNo}`);
    expect(decode(bytes).barcodes).toEqual([{ symbology: 'code128', data: String(orderNo) }]);
  });

  it('a card sale and a reprint do not open the drawer; the copy says so; 58 mm paper prints 32 columns', async () => {
    const id = await sell([{ received: '10.47', type: pay.card }]);
    const before = printer.jobs.length;
    expect((await print(id, { device: printerId })).json()).toMatchObject({ status: 'printed', opensDrawer: false });
    expect(decode(await printer.job(before)).kicks).toBe(0);
    expect(printed(await printer.job(before))).toMatch(/Card +\$10\.47|Credit Card +\$10\.47|\$10\.47/);

    await t.app.inject({ method: 'PUT', url: `/api/devices/${printerId}`, headers: admin, payload: { paperWidth: 58 } });
    const cash = await sell([{ received: '20.00', type: pay.cash }]);
    const res = await print(cash, { device: printerId, copy: true });
    expect(res.json()).toMatchObject({ status: 'printed', opensDrawer: false, kind: 'copy' });
    const text = printed(await printer.job(before + 1));
    expect(text).toContain('Receipt (copy)');
    expect(text.split('\n').find((l) => l.startsWith('TOTAL'))).toHaveLength(32);
    expect(decode(printer.jobs[before + 1]).kicks).toBe(0);
    await t.app.inject({ method: 'PUT', url: `/api/devices/${printerId}`, headers: admin, payload: { paperWidth: 80 } });
  });

  it("the shop's logo (setting receipt_logo, a PNG) prints above the receipt as a raster image; a damaged one is left out", async () => {
    // A 96 x 48 PNG, black left half, white right half.
    const png = new PNG({ width: 96, height: 48 });
    for (let y = 0; y < 48; y++) for (let x = 0; x < 96; x++) png.data.set(x < 48 ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * 96 + x) * 4);
    const logo = `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
    const made = await t.app.inject({ method: 'POST', url: '/api/settings', headers: admin, payload: { name: 'receipt_logo', type: 'sale_receipt', value: logo } });
    expect(made.statusCode, made.body).toBe(201);
    const id = await sell([{ received: '10.47', type: pay.card }]);
    const before = printer.jobs.length;
    expect((await print(id, { device: printerId, copy: true })).json().status).toBe('printed');
    const { images, text } = decode(await printer.job(before));
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ width: 96, height: 48 });
    // Half of the dots are black (dithering keeps pure black and white as they are).
    expect(images[0].black).toBe(48 * 48);
    expect(text).toMatch(/TOTAL +\$10\.47/);

    await t.app.inject({ method: 'PUT', url: `/api/settings/${made.json().id}`, headers: admin, payload: { value: 'data:image/png;base64,AAAA' } });
    expect((await print(id, { device: printerId, copy: true })).json().status).toBe('printed');
    expect(decode(await printer.job(before + 1)).images).toHaveLength(0);
    await t.app.inject({ method: 'DELETE', url: `/api/settings/${made.json().id}`, headers: admin });
  });

  it('printer off: the job is queued with the reason, retried, and printed once the printer is back', async () => {
    const port = await freePort();
    const dev = (await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Back', ipAddress: '127.0.0.1', port } })).json().id;
    const id = await sell([{ received: '20.00', type: pay.cash }]);
    const res = await print(id, { device: dev });
    expect(res.statusCode).toBe(202);
    const job = res.json();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(job.lastError).toMatch(/refused the connection/);

    const back = await new FakePrinter(port).start();
    try {
      let status = job.status;
      for (let i = 0; i < 60 && status !== 'printed'; i++) {
        await new Promise((r) => setTimeout(r, 250));
        status = (await t.app.inject({ method: 'GET', url: `/api/print/job/${job.id}`, headers: cashier })).json().status;
      }
      expect(status).toBe('printed');
      expect(printed(await back.job(0))).toMatch(/TOTAL +\$10\.47/);
      // Printed once: a retry of a printed job is refused.
      const again = await t.app.inject({ method: 'POST', url: `/api/print/job/${job.id}/retry`, headers: cashier });
      expect(again.statusCode).toBe(422);
      expect(back.jobs).toHaveLength(1);
    } finally { await back.stop(); }
  });

  it('out of paper: the till is told, nothing is printed; with paper again Retry prints; a printer that never answers the status query still prints', async () => {
    const id = await sell([{ received: '10.47', type: pay.card }]);
    printer.paper = 'out';
    const before = printer.jobs.length;
    const res = await print(id, { device: printerId, copy: true });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ status: 'queued', lastError: `The printer at 127.0.0.1:${printer.port} is out of paper` });
    await new Promise((r) => setTimeout(r, 100));
    expect(printer.jobs.slice(before).map((b) => decode(b).text).join('')).not.toContain('TOTAL');

    printer.paper = 'ok';
    const retried = await t.app.inject({ method: 'POST', url: `/api/print/job/${res.json().id}/retry`, headers: cashier });
    expect(retried.json()).toMatchObject({ status: 'printed' });
    let printedText = '';
    for (let n = 0; n < 100 && !/TOTAL/.test(printedText); n++) {
      printedText = printer.jobs.slice(before).map((b) => decode(b).text).join('');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(printedText).toMatch(/TOTAL +\$10\.47/);

    printer.paper = null;
    const silent = await print(id, { device: printerId, copy: true });
    expect(silent.json()).toMatchObject({ status: 'printed' });
    printer.paper = 'ok';
  });

  it('a failed job is retried from the till and the job belongs to its cashier', async () => {
    const port = await freePort();
    const dev = (await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload: { name: 'Side', ipAddress: '127.0.0.1', port } })).json().id;
    const id = await sell([{ received: '10.47', type: pay.card }]);
    const job = (await print(id, { device: dev })).json();
    await t.app.db.update(printJob).set({ status: 'failed', nextAttemptAt: new Date(Date.now() + 3_600_000) }).where(eq(printJob.id, job.id));
    const back = await new FakePrinter(port).start();
    try {
      const res = await t.app.inject({ method: 'POST', url: `/api/print/job/${job.id}/retry`, headers: cashier });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'printed', attempts: 1 });
      expect(printed(await back.job(0))).toMatch(/TOTAL +\$10\.47/);
    } finally { await back.stop(); }
    // Another cashier of the same store does not see it.
    const [other] = await t.app.db.insert(userAccount).values({ username: 'second-till', password: await hashPassword('Second-till-9', 4), displayName: 'Second', roles: ['ROLE_USER'] }).returning();
    await t.app.db.insert(userStore).values({ userId: other.id, storeId: main });
    const second = await t.login('second-till', 'Second-till-9');
    expect((await t.app.inject({ method: 'GET', url: `/api/print/job/${job.id}`, headers: second })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/print/job/${job.id}`, headers: admin })).statusCode).toBe(200);
  });

  it('"no sale" opens the drawer only with its permission; every opening (no sale, cash sale) is in the audit log with who and why', async () => {
    const before = printer.jobs.length;
    expect((await t.app.inject({ method: 'POST', url: '/api/print/drawer', headers: cashier, payload: { device: printerId, store: main } })).statusCode).toBe(403);
    expect(printer.jobs.length).toBe(before);
    expect((await t.app.inject({ method: 'POST', url: '/api/print/drawer', headers: admin, payload: { device: printerId } })).json().violations[0].propertyPath).toBe('store');
    const res = await t.app.inject({ method: 'POST', url: '/api/print/drawer', headers: admin, payload: { device: printerId, store: main } });
    expect(res.statusCode, res.body).toBe(201);
    expect(decode(await printer.job(before)).kicks).toBe(1);
    expect(decode(await printer.job(before)).cuts).toBe(0);
    const [row] = await t.app.db.select().from(printJob).where(eq(printJob.id, res.json().id));
    expect(row).toMatchObject({ kind: 'drawer', opensDrawer: true, status: 'printed' });

    const cashSale = await sell([{ received: '20.00', type: pay.cash }]);
    expect((await print(cashSale, { device: printerId })).json().opensDrawer).toBe(true);
    const log = await t.app.inject({ method: 'GET', url: '/api/audit_log?action=drawer.opened', headers: admin });
    expect(log.statusCode, log.body).toBe(200);
    const entries = JSON.stringify(log.json());
    expect(entries).toContain('no sale');
    expect(entries).toContain('cash sale');
    expect(entries).toContain('Admin');
    expect(entries).toContain('Cashier');
  });
});

describe('bad input', () => {
  it('a printer address that is not an IP or host name, and a paper width other than 58/80: 422 naming the field, nothing written', async () => {
    const before = (await t.app.db.select().from(device)).length;
    for (const [payload, field] of [
      [{ name: 'X', ipAddress: 'http://printer:9100', port: 9100 }, 'ipAddress'],
      [{ name: 'X', ipAddress: 'a b', port: 9100 }, 'ipAddress'],
      [{ name: 'X', ipAddress: '127.0.0.1', port: 9100, paperWidth: 70 }, 'paperWidth'],
      [{ name: 'X', ipAddress: '127.0.0.1', port: 0 }, 'port'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/devices', headers: admin, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().violations.map((v: { propertyPath: string }) => v.propertyPath)).toContain(field);
    }
    expect((await t.app.db.select().from(device)).length).toBe(before);
  });

  it("an unknown printer, another store's order, a held order or a junk body: refused, nothing queued", async () => {
    const jobs = (await t.app.db.select().from(printJob)).length;
    const id = await sell([{ received: '20.00', type: pay.cash }]);
    const unknown = await print(id, { device: 999999 });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().violations[0].propertyPath).toBe('device');
    expect((await print(id, { device: 'printer' })).statusCode).toBe(422);
    expect((await print(id, { device: printerId, extra: 1 })).statusCode).toBe(422);
    const mallOrder = await sell([{ received: '20.00', type: pay.cash }], mall, admin);
    expect((await print(mallOrder, { device: printerId })).statusCode).toBe(404);
    expect((await print(999999, { device: printerId })).statusCode).toBe(404);
    expect((await t.app.db.select().from(printJob)).length).toBe(jobs);
  });
});

describe('a refund on the network printer', () => {
  it('a cash refund made at the till prints titled "Refund" with the refunded amounts, kicks the drawer once, cuts, and the opening is audited as "cash refund"', async () => {
    const sold = await sell([{ received: '20.00', type: pay.cash }]);
    // As the till does: the sale loaded as a refund cart (negated quantities, refundingFrom), paid back in cash.
    const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: cashier, payload: {
      items: [{ item: P, quantity: -1, discount: 1.08 }], payments: [{ received: '-10.47', type: pay.cash }], refundingFrom: sold, store: main, terminal: t1,
    } });
    expect(res.statusCode, res.body).toBe(201);
    const refund = res.json().order;
    expect(refund.returnedFrom.id).toBe(sold);
    const before = printer.jobs.length;
    const job = await print(refund.id, { device: printerId });
    expect(job.statusCode, job.body).toBe(201);
    expect(job.json()).toMatchObject({ status: 'printed', opensDrawer: true, kind: 'receipt' });
    const bytes = await printer.job(before);
    const { text, kicks, cuts, barcodes } = decode(bytes);
    const lines = text.split('\n').map((l) => l.trim());
    expect(lines).toContain('Refund');
    expect(lines).not.toContain('Receipt');
    expect(text).toContain(`Refund of order# ${res.json().order.returnedFrom.orderId}`);
    expect(text).toMatch(/-1 x \$10\.75 +-\$10\.75/);
    expect(text).toMatch(/TOTAL +-\$10\.47/);
    expect(text).toMatch(/Cash refunded +-\$10\.47/);
    expect(text).not.toMatch(/tendered|Change/);
    expect(kicks).toBe(1);
    expect(cuts).toBe(1);
    expect(barcodes).toEqual([{ symbology: 'code128', data: String(refund.orderId) }]);
    // The audit log: the refund's drawer opening, with who and why (the API and the row).
    const rows = await t.app.db.select().from(auditLog).where(and(eq(auditLog.action, 'drawer.opened'), eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(refund.id))));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ actorName: 'Cashier', storeId: main, details: { reason: 'cash refund', device: printerId, printJob: job.json().id } });
    const log = await t.app.inject({ method: 'GET', url: '/api/audit_log?action=drawer.opened', headers: admin });
    expect(log.body).toContain('cash refund');
  });
});
