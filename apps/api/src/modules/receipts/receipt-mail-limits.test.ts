/**
 * Issue 26 point 5: an e-mailed receipt goes to the sale's customer or one typed address, carries
 * the receipt as a PDF, and a till cannot send mail in bulk (per order and per cashier, per hour).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { inflateSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { paymentType, product, receiptEmail, store, terminal, userAccount } from '../../db/schema/index.ts';
import { EMAIL_LIMITS } from './receipts.service.ts';

let t: TestApp;
let cashier: Record<string, string>;
let main: number;
let t1: number;
let cash: number;
let milk: number;

beforeAll(async () => {
  t = await createTestApp();
  cashier = await t.login('cashier');
  const db = t.app.db;
  main = (await db.select().from(store).orderBy(asc(store.id)))[0].id;
  t1 = (await db.select().from(terminal).orderBy(asc(terminal.id))).find((x) => x.code === 'T1')!.id;
  cash = (await db.select().from(paymentType)).find((p) => p.type === 'cash')!.id;
  milk = (await db.select().from(product).where(eq(product.name, 'Fresh Milk 1L')))[0].id;
});
afterAll(async () => { await t?.close(); });

const sell = async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: cashier, payload: { items: [{ item: milk, quantity: 2 }], payments: [{ received: '30.00', type: cash }], store: main, terminal: t1 } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order as { id: number; orderId: number };
};
const send = (id: number, to: string | null) => t.app.inject({ method: 'POST', url: `/api/admin/order/${id}/email`, headers: cashier, payload: { to } });

/** The text a PDF viewer shows: the content streams inflated, the strings of their Tj/TJ operators. */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index! + m[0].length;
    const end = raw.indexOf('endstream', start);
    let body: Buffer;
    try { body = inflateSync(pdf.subarray(start, end)); } catch { continue; }
    for (const s of body.toString('latin1').matchAll(/<([0-9a-fA-F]+)>|\(((?:\\.|[^\\)])*)\)/g)) {
      out.push(s[1] ? Buffer.from(s[1], 'hex').toString('latin1') : s[2]);
    }
    out.push('\n');
  }
  return out.join('');
}

describe('e-mailed receipts', () => {
  it('to one typed address, with the receipt attached as a PDF showing the same figures', async () => {
    const o = await sell();
    const before = t.mail.sent.length;
    const res = await send(o.id, 'customer@example.com');
    expect(res.statusCode, res.body).toBe(200);
    const mail = t.mail.sent[before];
    expect(mail.to).toBe('customer@example.com');
    expect(mail.attachments).toHaveLength(1);
    const pdf = mail.attachments![0];
    expect(pdf).toMatchObject({ filename: `receipt-${o.orderId}.pdf`, contentType: 'application/pdf' });
    expect(pdf.content.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.content);
    // 2 x 10.75 (Fresh Milk 1L, no tax) = 21.50; cash 30.00, change 8.50.
    expect(text).toContain('Fresh Milk 1L');
    expect(text).toMatch(/TOTAL +\$21\.50/);
    expect(text).toMatch(/Cash tendered +\$30\.00/);
    expect(text).toMatch(/Change +\$8\.50/);
    const [row] = await t.app.db.select().from(receiptEmail).where(eq(receiptEmail.orderId, o.id));
    expect(row).toMatchObject({ recipient: 'customer@example.com' });
  });

  it('two addresses are refused, naming the field; nothing is sent', async () => {
    const o = await sell();
    const before = t.mail.sent.length;
    const res = await send(o.id, 'a@example.com, b@example.com');
    expect(res.statusCode).toBe(422);
    expect(res.json().violations[0].propertyPath).toBe('to');
    expect(t.mail.sent.length).toBe(before);
  });

  it(`one receipt at most ${EMAIL_LIMITS.perOrderPerHour} times an hour: then 429, nothing sent`, async () => {
    const o = await sell();
    for (let i = 0; i < EMAIL_LIMITS.perOrderPerHour; i++) expect((await send(o.id, `r${i}@example.com`)).statusCode).toBe(200);
    const before = t.mail.sent.length;
    const res = await send(o.id, 'again@example.com');
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/this receipt was sent 3 times in the last hour/);
    expect(t.mail.sent.length).toBe(before);
  });

  it(`a cashier at most ${EMAIL_LIMITS.perUserPerHour} receipts an hour, whatever the orders; older sends do not count`, async () => {
    const [{ id: userId }] = await t.app.db.select({ id: userAccount.id }).from(userAccount).where(eq(userAccount.username, 'cashier'));
    const o = await sell();
    // Fill the hour with sends of other orders (written as the route writes them).
    const missing = EMAIL_LIMITS.perUserPerHour - (await t.app.db.select().from(receiptEmail).where(eq(receiptEmail.userId, userId))).length;
    await t.app.db.insert(receiptEmail).values(Array.from({ length: missing }, () => ({ orderId: o.id - 1, userId, recipient: 'x@example.com' })));
    expect((await send(o.id, 'late@example.com')).statusCode).toBe(429);
    // An hour later they no longer count.
    await t.app.db.update(receiptEmail).set({ createdAt: new Date(Date.now() - 61 * 60_000) });
    expect((await send(o.id, 'late@example.com')).statusCode).toBe(200);
  });
});
