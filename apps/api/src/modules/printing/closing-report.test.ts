/**
 * Issue 26: X and Z reports of a day closing printed on the till's network printer (the fake TCP
 * printer; its bytes decoded here, independently of our encoder): totals per payment type,
 * expected and counted cash, over or short, in the store's currency.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decode, pictures, printed } from '../../../test/fake-printer.ts';
import { printJob } from '../../db/schema/index.ts';
import { t, admin, cashier, printer, printerId, main, mall, t1, tMall, pay, milk, openPrintingShop } from './printing.fixtures.ts';

openPrintingShop();

const openDay = async (storeId: number, terminalId: number, headers: Record<string, string>) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/admin/closing/opened?store=${storeId}&terminal=${terminalId}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().closing.id as number;
};
const saveDay = async (id: number, body: Record<string, unknown>, headers = cashier) => {
  const res = await t.app.inject({ method: 'POST', url: `/api/admin/closing/${id}`, headers, payload: body });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().closing;
};
const sell = async (payments: unknown[]) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: cashier, payload: { items: [{ item: milk, quantity: 2 }], payments, store: main, terminal: t1 } });
  expect(res.statusCode, res.body).toBe(201);
};
const printReport = (id: number, body: unknown, headers = cashier) =>
  t.app.inject({ method: 'POST', url: `/api/print/closing/${id}`, headers, payload: body as object });

describe('X and Z reports on a network printer', () => {
  it('X mid-day: sales per payment type, expected cash, the day left open; Z at closing: counted cash and the shortfall', async () => {
    const day = await openDay(main, t1, cashier);
    await saveDay(day, { openingBalance: '100', updateOnly: true });
    await sell([{ received: '30.00', type: pay.cash }]); // 2 x 10.75 = 21.50 cash
    await sell([{ received: '21.50', type: pay.card }]);
    await saveDay(day, { cashAdded: '20', cashWithdrawn: '5', updateOnly: true });

    let before = printer.jobs.length;
    const x = await printReport(day, { device: printerId });
    expect(x.statusCode, x.body).toBe(201);
    expect(x.json()).toMatchObject({ status: 'printed', kind: 'x-report', opensDrawer: false });
    let bytes = await printer.job(before);
    let text = printed(bytes);
    expect(text).toContain('X REPORT');
    expect(text).toMatch(/ {2}Cash +\$21\.50/);
    expect(text).toMatch(/ {2}Credit Card +\$21\.50/);
    expect(text).toMatch(/Total sales +\$43\.00/);
    expect(text).toMatch(/Opening float +\$100\.00/);
    expect(text).toMatch(/Cash added +\$20\.00/);
    expect(text).toMatch(/Cash withdrawn +-\$5\.00/);
    // 100 + 20 - 5 + 21.50 cash sales = 136.50
    expect(text).toMatch(/Expected cash +\$136\.50/);
    expect(text).toMatch(/Counted cash +not counted/);
    expect(text.split('\n').find((l) => l.startsWith('Expected cash'))).toHaveLength(48);
    expect(decode(bytes).cuts).toBe(1);
    expect(decode(bytes).kicks).toBe(0);
    // An X report closes nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/admin/closing/${day}`, headers: cashier })).json().closing.closedAt).toBeNull();

    // Close with a count of 135.00 in notes: 1.50 short.
    await saveDay(day, { denominations: { 100: 1, 20: 1, 10: 1, 5: 1 } });
    before = printer.jobs.length;
    const z = await printReport(day, { device: `/api/devices/${printerId}` });
    expect(z.json()).toMatchObject({ status: 'printed', kind: 'z-report' });
    bytes = await printer.job(before);
    text = printed(bytes);
    expect(text).toContain('Z REPORT');
    expect(text).toMatch(/Closed by +Cashier|Closed by +cashier/);
    expect(text).toMatch(/Expected cash +\$136\.50/);
    expect(text).toMatch(/Counted cash +\$135\.00/);
    expect(text).toMatch(/Short +-\$1\.50/);
    const [job] = await t.app.db.select().from(printJob).where(eq(printJob.id, z.json().id));
    expect(job).toMatchObject({ kind: 'z-report', deviceId: printerId });
  });

  it("in the store's currency (a yen store prints no decimals) and language", async () => {
    const res = await t.app.inject({ method: 'PUT', url: `/api/stores/${mall}`, headers: admin, payload: { currency: 'JPY' } });
    expect(res.statusCode, res.body).toBe(200);
    const day = await openDay(mall, tMall, admin);
    await saveDay(day, { openingBalance: '15000', updateOnly: true }, admin);
    const before = printer.jobs.length;
    expect((await printReport(day, { device: printerId }, admin)).json().status).toBe('printed');
    const text = printed(await printer.job(before));
    // (The yen sign is a code page character, outside the ASCII this decoder reads.)
    expect(text).toMatch(/Opening float +(JP)?¥?15,000\n/);
    expect(text).toMatch(/Expected cash +(JP)?¥?15,000\n/);
    expect(text).not.toMatch(/15,000\.00/);

    // An Arabic store: the report's words are Arabic, so it is printed as a picture (no code page text).
    await t.app.inject({ method: 'PUT', url: `/api/stores/${mall}`, headers: admin, payload: { locale: 'ar-SA' } });
    const at = printer.jobs.length;
    expect((await printReport(day, { device: printerId }, admin)).json().status).toBe('printed');
    const bytes = await printer.job(at);
    expect(decode(bytes).text).not.toMatch(/[A-Za-z?]/);
    expect(pictures(bytes)[0].width).toBe(576);
  });

  it('bad input is a 422 naming the field; a day of another store is not found; a stranger is refused', async () => {
    const day = await openDay(main, t1, cashier);
    const bad = await printReport(day, { device: 'printer' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('device');
    const none = await printReport(day, { device: 999999 });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('device');
    const mallDay = await openDay(mall, tMall, admin);
    expect((await printReport(mallDay, { device: printerId })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/print/closing/${day}`, payload: { device: printerId } })).statusCode).toBe(401);
  });
});
