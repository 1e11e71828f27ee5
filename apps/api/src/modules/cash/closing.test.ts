import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { closing, paymentType, product, productPrice, productTax, store, terminal, userAccount } from '../../db/schema/index.ts';

let t: TestApp;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let main: number;
let mall: number;
let t1: number;
let m1: number;
let pay: { cash: number; card: number; credit: number };
/** An untaxed product without price rules: a sale of q costs q x price. */
let item: { id: number; price: number };
let cashierId: number;

beforeAll(async () => {
  t = await createTestApp();
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  const db = t.app.db;
  const stores = await db.select().from(store).orderBy(asc(store.id));
  [main, mall] = [stores[0].id, stores[1].id];
  const terms = await db.select().from(terminal).orderBy(asc(terminal.id));
  t1 = terms.find((x) => x.code === 'T1')!.id;
  m1 = terms.find((x) => x.code === 'M1')!.id;
  const types = await db.select().from(paymentType);
  pay = { cash: types.find((x) => x.type === 'cash')!.id, card: types.find((x) => x.type === 'credit card')!.id, credit: types.find((x) => x.type === 'credit')!.id };
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  const ruled = new Set((await db.select().from(productPrice)).map((r) => r.productId));
  const p = (await db.select().from(product).orderBy(asc(product.id))).find((x) => !taxed.has(x.id) && !ruled.has(x.id) && x.isActive)!;
  // A round price keeps the hand-computed table readable.
  await db.update(product).set({ basePrice: '12.50' }).where(eq(product.id, p.id));
  item = { id: p.id, price: 12.5 };
  cashierId = (await db.select().from(userAccount).where(eq(userAccount.username, 'cashier')))[0].id;
});
afterAll(async () => { await t?.close(); });

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers = cashier) =>
  t.app.inject({ method, url, payload: payload as any, headers });

/** A sale through the real order endpoint: qty x 12.50 paid with one payment type. */
async function sell(qty: number, typeId: number, opts: { storeId?: number; terminalId?: number; headers?: Record<string, string>; extra?: Record<string, unknown> } = {}) {
  const amount = qty * item.price;
  const res = await inject('POST', '/api/admin/order/create', {
    items: [{ item: { id: item.id }, variant: null, quantity: qty, price: item.price, discount: 0, taxes: [] }],
    payments: [{ received: amount, total: amount, due: 0, type: { id: typeId } }],
    store: opts.storeId ?? main, terminal: opts.terminalId ?? t1, adjustment: 0, status: 'Completed', notes: '', ...opts.extra,
  }, opts.headers ?? cashier);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
}

const opened = async (storeId = main, terminalId = t1, headers = cashier) => {
  const res = await inject('GET', `/api/admin/closing/opened?store=${storeId}&terminal=${terminalId}`, undefined, headers);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().closing;
};

describe('day closing', () => {
  it('opened always answers a closing, the same one for concurrent calls', async () => {
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => inject('GET', `/api/admin/closing/opened?store=${main}&terminal=/api/terminals/${t1}`)));
    const ids = new Set(results.map((r) => r.json().closing.id));
    expect(ids.size).toBe(1);
    const rows = await t.app.db.select().from(closing).where(and(eq(closing.terminalId, t1), isNull(closing.closedAt)));
    expect(rows).toHaveLength(1);
    const c = results[0].json().closing;
    expect(c).toMatchObject({ openingBalance: null, closedAt: null, closedBy: null, isStale: false, expenses: 0, cashSales: 0, expectedCash: 0, sales: { cash: 0 } });
    expect(c.dateFrom.datetime).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(c.createdAt.datetime).toBe(c.dateFrom.datetime);
    expect(c.openedBy.username).toBe('cashier');
    expect(c.store).toMatchObject({ id: main });
    expect(c.terminal).toMatchObject({ id: t1, code: 'T1' });
  });

  it('a day with sales, expenses, cash added and withdrawn closes to the right cash in hand', async () => {
    const day = await opened();
    // Start day
    const start = await inject('POST', `/api/admin/closing/${day.id}`, { id: day.id, openingBalance: '100', cashAdded: 0, cashWithdrawn: 0, expenses: 0, data: {}, terminal: t1, updateOnly: true });
    expect(start.statusCode, start.body).toBe(200);
    expect(start.json().closing).toMatchObject({ id: day.id, openingBalance: 100, closedAt: null, expectedCash: 100 });

    // | what                                  | cash     | card  | credit |
    // | sale 4 x 12.50, cash                   |  +50.00  |       |        |
    // | sale 2 x 12.50, cash                   |  +25.00  |       |        |
    // | sale 3 x 12.50, card                   |          | 37.50 |        |
    // | sale 1 x 12.50, cash, then refunded    |  +12.50  |       |        |
    // | its return                             |  -12.50  |       |        |
    // | sale 2 x 12.50, cash, one returned     |  +25.00  |       |        |
    // | the return of one                      |  -12.50  |       |        |
    // | sale 2 x 12.50, cash, then deleted     |   (0)    |       |        |
    // | held order 5 x 12.50                   |   (0)    |       |        |
    // | sale at the other store (Mall, M1)     |   (0)    |       |        |
    // | cash sales                             |  87.50   | 37.50 |        |
    // | expenses: 15.50 + 4.25 (+ 9 deleted, + 7 at the Mall: not counted) = 19.75 |
    // | cash added 60, cash withdrawn 30.25                                       |
    // | expected cash = 100 + 60 - 30.25 - 19.75 + 87.50 = 197.50                  |
    await sell(4, pay.cash);
    await sell(2, pay.cash);
    await sell(3, pay.card);
    const refunded = await sell(1, pay.cash);
    const refund = await inject('POST', `/api/admin/order/refund/${refunded.id}`, undefined, admin);
    expect(refund.statusCode, refund.body).toBe(201);
    // A partly returned sale stays counted (until session 49 only its return was: the drawer came out 25.00 over).
    const partly = await sell(2, pay.cash);
    const one = await inject('POST', '/api/admin/order/create', {
      items: [{ item: item.id, quantity: -1 }], payments: [], refundingFrom: partly.id, store: main, terminal: t1,
    }, admin);
    expect(one.statusCode, one.body).toBe(201);
    const deleted = await sell(2, pay.cash);
    expect((await inject('DELETE', `/api/admin/order/${deleted.id}`, undefined, admin)).statusCode).toBe(200);
    expect((await sell(5, pay.cash, { extra: { isSuspended: true } })).status).toBe('On Hold');
    await sell(3, pay.cash, { storeId: mall, terminalId: m1, headers: admin });

    const e1 = await inject('POST', '/api/admin/expense/create', { description: 'Milk for the office', amount: '15.50', dateTime: new Date().toISOString(), store: main });
    expect(e1.statusCode, e1.body).toBe(201);
    await inject('POST', '/api/admin/expense/create', { description: 'Stamps', amount: 4.25, dateTime: new Date().toISOString(), store: main });
    const wrong = (await inject('POST', '/api/admin/expense/create', { description: 'typo', amount: '9', store: main })).json().expense;
    expect((await inject('DELETE', `/api/admin/expense/${wrong.id}`, undefined, admin)).statusCode).toBe(200);
    await inject('POST', '/api/admin/expense/create', { description: 'Mall cleaning', amount: '7', store: mall }, admin);

    const update = await inject('POST', `/api/admin/closing/${day.id}`, { id: day.id, openingBalance: 100, cashAdded: '60', cashWithdrawn: '30.25', updateOnly: true });
    expect(update.statusCode, update.body).toBe(200);
    const live = update.json().closing;
    expect(live).toMatchObject({ expenses: 19.75, cashSales: 87.5, expectedCash: 197.5, closedAt: null });
    expect(live.sales).toEqual({ cash: 87.5, 'credit card': 37.5 });
    // the same figures from GET opened
    expect((await opened()).expectedCash).toBe(197.5);

    // Close day: the client's closedAt and closedBy are ignored.
    const before = Date.now();
    const close = await inject('POST', `/api/admin/closing/${day.id}`, {
      id: day.id, openingBalance: 100, cashAdded: 60, cashWithdrawn: 30.25, expenses: 999, data: { cash: '1' }, terminal: t1,
      dateTe: { datetime: '2000-01-01T00:00:00Z' }, closedBy: 999, closedAt: { datetime: '2000-01-01T00:00:00Z' },
    });
    expect(close.statusCode, close.body).toBe(200);
    const closed = close.json().closing;
    expect(closed.closedBy).toMatchObject({ id: cashierId, username: 'cashier' });
    expect(Date.parse(closed.closedAt.datetime)).toBeGreaterThan(before - 60_000);
    expect(closed.dateTo.datetime).toBe(closed.closedAt.datetime);
    expect(closed).toMatchObject({ expenses: 19.75, cashSales: 87.5, expectedCash: 197.5, closingBalance: 197.5, isStale: false });
    expect(closed.data).toEqual({ cash: 87.5, 'credit card': 37.5 });

    // A closed day is frozen: no more changes, later sales and expenses do not touch it.
    const again = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: 1, updateOnly: true });
    expect(again.statusCode).toBe(422);
    expect(again.json().errorMessage).toBe('This day is already closed.');
    await sell(1, pay.cash);
    await inject('POST', '/api/admin/expense/create', { description: 'after', amount: '1', store: main });
    const frozen = (await inject('GET', `/api/admin/closing/${day.id}`)).json().closing;
    expect(frozen).toMatchObject({ expenses: 19.75, cashSales: 87.5, expectedCash: 197.5, openingBalance: 100 });

    // The next opened call starts a new day, not started yet.
    const next = await opened();
    expect(next.id).not.toBe(day.id);
    expect(next).toMatchObject({ openingBalance: null, closedAt: null });
    const [row] = await t.app.db.select().from(closing).where(eq(closing.id, day.id));
    expect(row.closedById).toBe(cashierId);
    expect(row.expenses).toBe('19.750');
  });

  it('reports an opening older than 24 hours so the till forces closing', async () => {
    const day = await opened(mall, m1, admin);
    expect(day.isStale).toBe(false);
    await t.app.db.update(closing).set({ dateFrom: sql`now() - interval '25 hours'`, createdAt: sql`now() - interval '25 hours'` }).where(eq(closing.id, day.id));
    const stale = await opened(mall, m1, admin);
    expect(stale.id).toBe(day.id);
    expect(stale.isStale).toBe(true);
    const close = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: 0 }, admin);
    expect(close.statusCode).toBe(200);
    expect(close.json().closing.isStale).toBe(false);
    expect((await opened(mall, m1, admin)).isStale).toBe(false);
  });

  it('validates and scopes: 422 naming the field, nothing written; another store is refused', async () => {
    const none = await inject('GET', '/api/admin/closing/opened?store=undefined');
    expect(none.statusCode).toBe(422);
    expect(none.json().violations.map((v: any) => v.propertyPath)).toEqual(['store', 'terminal']);
    const otherStore = await inject('GET', `/api/admin/closing/opened?store=${mall}&terminal=${m1}`);
    expect(otherStore.statusCode).toBe(422);
    expect(otherStore.json().violations[0].propertyPath).toBe('store');
    const wrongTerminal = await inject('GET', `/api/admin/closing/opened?store=${main}&terminal=${m1}`, undefined, admin);
    expect(wrongTerminal.statusCode).toBe(422);
    expect(wrongTerminal.json().violations).toEqual([{ propertyPath: 'terminal', message: `'Terminal' with ID '${m1}' not found` }]);

    const day = await opened();
    const bad = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: 'abc', cashAdded: -5, cashWithdrawn: '1', denominations: 'lots' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations.map((v: any) => v.propertyPath).sort()).toEqual(['cashAdded', 'denominations', 'openingBalance']);
    const [row] = await t.app.db.select().from(closing).where(eq(closing.id, day.id));
    expect(row.cashWithdrawn).toBeNull();
    expect(row.closedAt).toBeNull();

    const mallDay = await opened(mall, m1, admin);
    expect((await inject('GET', `/api/admin/closing/${mallDay.id}`)).statusCode).toBe(404);
    expect((await inject('POST', `/api/admin/closing/${mallDay.id}`, { openingBalance: 1 })).statusCode).toBe(404);
    expect((await inject('GET', `/api/admin/closing/opened?store=${main}&terminal=${t1}`, undefined, {})).statusCode).toBe(401);

    // denominations are kept as counts
    const counted = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: 10, denominations: { '100': 1, '5': 2 }, updateOnly: true });
    expect(counted.statusCode, counted.body).toBe(200);
    expect(counted.json().closing.denominations).toEqual({ '100': 1, '5': 2 });
  });

  it("a KWD store's day keeps the fils in every figure; an amount with more decimals than the currency is a 422 naming it (issue 19)", async () => {
    const db = t.app.db;
    await db.update(store).set({ currency: 'KWD' }).where(eq(store.id, mall));
    try {
      const day = await opened(mall, m1, admin);
      // opening 10.005 + added 0.125 - expenses 1.275 + cash sale 12.500 = 21.355 (in hundredths it would read 21.36)
      const start = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: '10.005', cashAdded: 0.125, cashWithdrawn: 0, updateOnly: true }, admin);
      expect(start.statusCode, start.body).toBe(200);
      const e = await inject('POST', '/api/admin/expense/create', { description: 'Tea', amount: '1.275', store: mall }, admin);
      expect(e.statusCode, e.body).toBe(201);
      await sell(1, pay.cash, { storeId: mall, terminalId: m1, headers: admin });
      const live = await opened(mall, m1, admin);
      expect(live).toMatchObject({ openingBalance: 10.005, cashAdded: 0.125, expenses: 1.275, cashSales: 12.5, expectedCash: 21.355 });

      // Four decimals in a three-decimal currency: refused, the field named, nothing written.
      const bad = await inject('POST', `/api/admin/closing/${day.id}`, { openingBalance: '10.0051', cashWithdrawn: '0.0005', updateOnly: true }, admin);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().violations.map((v: any) => v.propertyPath).sort()).toEqual(['cashWithdrawn', 'openingBalance']);
      expect(bad.json().violations[0].message).toContain('more decimals than the currency allows');
      const badExpense = await inject('POST', '/api/admin/expense/create', { description: 'Too fine', amount: '0.0005', store: mall }, admin);
      expect(badExpense.statusCode).toBe(422);
      expect(badExpense.json().violations[0].propertyPath).toBe('amount');

      const close = await inject('POST', `/api/admin/closing/${day.id}`, { denominations: { '0.25': 3, '0.005': 3 } }, admin);
      expect(close.statusCode, close.body).toBe(200);
      expect(close.json().closing).toMatchObject({ expenses: 1.275, expectedCash: 21.355, closingBalance: 21.355, denominations: { '0.25': 3, '0.005': 3 } });
      const [row] = await db.select().from(closing).where(eq(closing.id, day.id));
      expect(row).toMatchObject({ openingBalance: '10.005', cashAdded: '0.125', expenses: '1.275', closingBalance: '21.355' });
      expect(row.data).toEqual({ cash: 12.5 });
    } finally {
      await db.update(store).set({ currency: 'USD' }).where(eq(store.id, mall));
    }
  });

  it("a USD store refuses a third decimal and stores the old client's float noise rounded (docs/api.md 'Currency amounts')", async () => {
    const day = await opened();
    const bad = await inject('POST', `/api/admin/closing/${day.id}`, { cashAdded: '1.005', updateOnly: true });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().violations).toEqual([{ propertyPath: 'cashAdded', message: expect.stringContaining('more decimals') }]);
    const [before] = await t.app.db.select().from(closing).where(eq(closing.id, day.id));
    expect(before.cashAdded).toBeNull();
    // Float noise within 1/10,000 of a cent is the amount it stands for.
    const ok = await inject('POST', `/api/admin/closing/${day.id}`, { cashAdded: 4.499999, updateOnly: true });
    expect(ok.statusCode, ok.body).toBe(200);
    const [after] = await t.app.db.select().from(closing).where(eq(closing.id, day.id));
    expect(after.cashAdded).toBe('4.500');
    const e = await inject('POST', '/api/admin/expense/create', { description: 'Float', amount: 10.750001, store: main });
    expect(e.statusCode, e.body).toBe(201);
    expect(e.json().expense.amount).toBe(10.75);
    expect((await inject('POST', '/api/admin/expense/create', { description: 'Too fine', amount: '2.499', store: main })).statusCode).toBe(422);
  });
});
