import { asc, eq, sql } from 'drizzle-orm';
import { createStaff, type TestApp } from '../../../test/helpers.ts';
import { auditLog, order, paymentType, product, store, terminal } from '../../db/schema/index.ts';

/** The demo shop as the staff tests use it: stores, a till, cash, a 10.00 product, and helpers. */
export async function staffShop(t: TestApp) {
  const db = t.app.db;
  const owner = await t.login('admin');
  const cashier = await t.login('cashier');
  const stores = await db.select().from(store).orderBy(asc(store.id));
  const main = stores[0].id;
  const till = (await db.select().from(terminal).where(eq(terminal.storeId, main)).orderBy(asc(terminal.id)))[0].id;
  const cash = (await db.select().from(paymentType).where(eq(paymentType.type, 'cash')))[0];
  const [p] = await db.insert(product).values({ name: 'Staff test kettle', basePrice: '10.00', cost: '6.00', manageInventory: false }).returning();
  const inject = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
    t.app.inject({ method, url, headers, payload: payload as never });

  /** A user made by the owner with a role (key or id), stores, and optionally a PIN; returns their headers and id. */
  async function staffUser(username: string, role: string | number, pin?: string, stores = [main]) {
    const { id, user, password } = await createStaff(t, { username, role, pin, stores, displayName: `${username[0].toUpperCase()}${username.slice(1)} Person` });
    return { id, headers: await t.login(username, password), displayName: user.displayName as string, password };
  }

  /** A sale of `qty` kettles at 10.00 with a line discount (major units), paid in cash. */
  const sale = (opts: { discount?: number; price?: number; priceOverride?: boolean; approval?: string; qty?: number } = {}) => {
    const qty = opts.qty ?? 1;
    const unit = opts.price ?? 10;
    const total = unit * qty - (opts.discount ?? 0);
    return {
      items: [{ item: `/api/products/${p.id}`, quantity: qty, price: unit, priceOverride: opts.priceOverride, discount: opts.discount ?? 0 }],
      store: main, terminal: till, status: 'Completed', total,
      payments: [{ received: total, total, type: cash.id }], ...(opts.approval ? { approval: opts.approval } : {}),
    };
  };
  const orderCount = async () => Number((await db.select({ n: sql<number>`count(*)::int` }).from(order))[0].n);
  const auditRows = (action: string) => db.select().from(auditLog).where(eq(auditLog.action, action)).orderBy(asc(auditLog.id));
  return { db, owner, cashier, main, till, cash, product: p, inject, staffUser, sale, orderCount, auditRows };
}
