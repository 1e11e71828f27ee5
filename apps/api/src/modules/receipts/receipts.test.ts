import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import * as s from '../../db/schema/index.ts';
import { NOT_CONFIGURED, NO_ADDRESS, parseRecipients } from './receipts.service.ts';

let t: TestApp;
let mainOrderId: number;
let carlaOrderId: number;
let mallOrderId: number;

/** Factory: a completed order of one line written straight to the database. */
async function makeOrder(storeName: string, customerName?: string): Promise<number> {
  const db = t.database.db;
  const [st] = await db.select().from(s.store).where(eq(s.store.name, storeName));
  const [p] = await db.select().from(s.product).where(eq(s.product.name, 'Fresh Milk 1L'));
  const cust = customerName ? (await db.select().from(s.customer).where(eq(s.customer.name, customerName)))[0] : undefined;
  const [o] = await db.insert(s.order).values({
    orderId: Math.floor(Math.random() * 1e6), storeId: st.id, status: 'Completed', customerId: cust?.id ?? null,
    subTotal: '5.00', total: '5.00', adjustment: '0',
  }).returning();
  await db.insert(s.orderProduct).values({ orderId: o.id, productId: p.id, quantity: '2', price: '2.50', discount: '0', taxesTotal: '0' });
  await db.insert(s.orderPayment).values({ orderId: o.id, total: '5.00', received: '10.00', due: '5.00' });
  return o.id;
}

beforeAll(async () => {
  t = await createTestApp();
  mainOrderId = await makeOrder('Main Street', 'Aisha Khan');
  carlaOrderId = await makeOrder('Main Street', 'Carla Diaz');
  mallOrderId = await makeOrder('Harbour Mall');
});
afterAll(async () => { await t?.close(); });

const send = async (id: number | string, payload: unknown, user = 'cashier') =>
  t.app.inject({ method: 'POST', url: `/api/admin/order/${id}/email`, headers: await t.login(user), payload: payload as object });

describe('POST /api/admin/order/:id/email', () => {
  it('sends the receipt to the typed address', async () => {
    const before = t.mail.sent.length;
    const res = await send(mainOrderId, { to: 'a@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.json().to).toEqual(['a@example.com']);
    const mail = t.mail.sent[before];
    expect(mail.to).toBe('a@example.com');
    expect(mail.subject).toContain('Demo Shop');
    expect(mail.text).toContain('Fresh Milk 1L');
    // The store's currency with its two decimals (issue 19), never the old one-decimal '$2.5'.
    // The same layout as the printed receipt and the PDF (printing/receipt-doc.ts): one rendering.
    expect(mail.text).toMatch(/ {2}2 x \$2\.50 +\$5\.00\n/);
    expect(mail.text).toMatch(/\nTOTAL +\$5\.00\n/);
    expect(mail.text).toMatch(/\nPayment +\$5\.00\n/);
    expect(mail.text).toContain('Receipt (copy)');
    expect(mail.text).not.toMatch(/\$\d+\.\d(?!\d)/);
    expect(mail.text).toContain('Thank you for your visit');
    expect(mail.html).toContain('max-width:3.5in');
  });

  it("writes the amounts in the order's store currency: three decimals for a KWD store, none for JPY", async () => {
    const db = t.database.db;
    await db.update(s.store).set({ currency: 'KWD', locale: 'en-US' }).where(eq(s.store.name, 'Harbour Mall'));
    const before = t.mail.sent.length;
    expect((await send(mallOrderId, { to: 'a@example.com' }, 'admin')).statusCode).toBe(200);
    expect(t.mail.sent[before].text).toMatch(/2 x KWD\u00a02\.500 +KWD\u00a05\.000\n/);
    await db.update(s.store).set({ currency: 'JPY' }).where(eq(s.store.name, 'Harbour Mall'));
    const yen = await makeOrder('Harbour Mall');
    await db.update(s.orderProduct).set({ price: '250' }).where(eq(s.orderProduct.orderId, yen));
    expect((await send(yen, { to: 'a@example.com' }, 'admin')).statusCode).toBe(200);
    expect(t.mail.sent[before + 1].text).toMatch(/2 x ¥250 +¥500\n/);
    await db.update(s.store).set({ currency: 'USD' }).where(eq(s.store.name, 'Harbour Mall'));
  });

  it("falls back to the customer's address", async () => {
    const before = t.mail.sent.length;
    const res = await send(carlaOrderId, {});
    expect(res.statusCode).toBe(200);
    expect(t.mail.sent[before].to).toBe('carla@example.com');
  });

  it('answers 422 when there is no address at all', async () => {
    const res = await send(mainOrderId, { to: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errorMessage).toBe(NO_ADDRESS);
    expect(res.json().violations[0].propertyPath).toBe('to');
  });

  it('answers 422 naming the field for a bad address', async () => {
    const res = await send(mainOrderId, { to: 'not-an-address' });
    expect(res.statusCode).toBe(422);
    expect(res.json().violations).toEqual([{ propertyPath: 'to', message: 'This value is not a valid email address.' }]);
  });

  it("is a 404 for another store's order, a missing one and a junk id", async () => {
    for (const id of [mallOrderId, 999999, 'abc']) {
      const res = await send(id, { to: 'a@example.com' });
      expect(res.statusCode).toBe(404);
    }
    // The admin belongs to both stores.
    expect((await send(mallOrderId, { to: 'a@example.com' }, 'admin')).statusCode).toBe(200);
  });

  it('needs a signed-in user', async () => {
    const res = await t.app.inject({ method: 'POST', url: `/api/admin/order/${mainOrderId}/email`, payload: { to: 'a@example.com' } });
    expect(res.statusCode).toBe(401);
  });

  it('says so when e-mail is not configured, and sends nothing', async () => {
    const app = t.app as unknown as { mailer: unknown };
    const real = app.mailer;
    const sent: unknown[] = [];
    app.mailer = { configured: false, async send(m: unknown) { sent.push(m); } };
    try {
      const res = await send(mainOrderId, { to: 'a@example.com' });
      expect(res.statusCode).toBe(422);
      expect(res.json().errorMessage).toBe(NOT_CONFIGURED);
      expect(sent).toHaveLength(0);
    } finally {
      app.mailer = real;
    }
  });
});

describe('parseRecipients', () => {
  it.each([
    ['', []],
    ['a@x.io', ['a@x.io']],
    [' a@x.io ;', ['a@x.io']],
  ])('%j -> %j', (input, expected) => {
    expect(parseRecipients(input)).toEqual(expected);
  });
  it('refuses junk and a second address (issue 26: one address per receipt)', () => {
    expect(() => parseRecipients('nope')).toThrow('This value is not a valid email address.');
    expect(() => parseRecipients('a@x.io, b@y.io')).toThrow('A receipt goes to one address');
  });
});
