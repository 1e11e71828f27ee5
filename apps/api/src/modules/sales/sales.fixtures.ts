/**
 * The demo shop for the sale API tests (not a test file): sales.create.test.ts, sales.lifecycle.test.ts and
 * sales.records.test.ts. `openSalesShop()` registers the hooks that open a seeded app and close it;
 * the bindings below are filled by its beforeAll (ES module exports are live, so a test file reads the
 * values once the hook has run). Clean prices on chosen products, the stores on the reference client's
 * tax base, and the helpers that build a sale as the reference client does.
 */
import { ledgerMismatches } from '../../lib/stock-check.ts';
import { afterAll, beforeAll, expect } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import {
  customer, discount, order, paymentType, product, productPrice, productStore, productTax, productVariant,
  store, tax, terminal,
} from '../../db/schema/index.ts';

export let t: TestApp;
export let admin: Record<string, string>;
export let cashier: Record<string, string>;
export let main: number;
export let mall: number;
export let t1: number;
export let m1: number;
export const pay: Record<'cash' | 'card' | 'credit', typeof paymentType.$inferSelect> = {} as any;
export let vat: typeof tax.$inferSelect;
export let gst: typeof tax.$inferSelect;
export const disc: Record<'pct5' | 'fixed10' | 'open', typeof discount.$inferSelect> = {} as any;
/** Products with clean prices set by the test: A 10.00 untaxed managed, B 2.99 taxed VAT 16% managed, C 4.50 unmanaged. */
export let A: typeof product.$inferSelect;
export let B: typeof product.$inferSelect;
export let C: typeof product.$inferSelect;
/** A product with an always-matching price rule (1.23) and one that never matches. */
export let R: typeof product.$inferSelect;
/** The weighed-barcode product (barcode price 2.50). */
export let W: typeof product.$inferSelect;
export let clothing: typeof product.$inferSelect;
export let variants: (typeof productVariant.$inferSelect)[];
export const cust: Record<'walkin' | 'aisha' | 'bilal' | 'carla', number> = {} as any;

export function openSalesShop(): void {
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin');
    cashier = await t.login('cashier');
    const db = t.app.db;
    const stores = await db.select().from(store).orderBy(asc(store.id));
    [main, mall] = [stores[0].id, stores[1].id];
    // These tests pin the reference client's figures: the stores run the legacy tax base (issue 19;
    // the new bases are covered by money.test.ts).
    // The pricing maths are tested here with any discount: the stores allow 100 % (the limit and
    // manager approvals are tested in sale-permissions.test.ts).
    await db.update(store).set({ legacyTaxBase: true, maxDiscountPercent: 100 });
    const terms = await db.select().from(terminal).orderBy(asc(terminal.id));
    t1 = terms.find((x) => x.code === 'T1')!.id;
    m1 = terms.find((x) => x.code === 'M1')!.id;
    for (const p of await db.select().from(paymentType)) {
      if (p.type === 'cash') pay.cash = p; else if (p.type === 'credit') pay.credit = p; else pay.card = p;
    }
    const taxes = await db.select().from(tax);
    vat = taxes.find((x) => x.name === 'VAT')!;
    gst = taxes.find((x) => x.name === 'GST')!;
    for (const d of await db.select().from(discount)) {
      if (d.name === 'Discount 5%') disc.pct5 = d; else if (d.name === 'Fixed 10') disc.fixed10 = d; else disc.open = d;
    }
    const products = await db.select().from(product).orderBy(asc(product.id));
    const allVariants = await db.select().from(productVariant).orderBy(asc(productVariant.id));
    const taxed = new Set((await db.select().from(productTax)).map((x) => x.productId));
    const withVariants = new Set(allVariants.map((v) => v.productId));
    const plainManaged = products.filter((p) => p.manageInventory && !withVariants.has(p.id));
    A = plainManaged.find((p) => !taxed.has(p.id))!;
    B = plainManaged.find((p) => taxed.has(p.id))!;
    C = products.find((p) => !p.manageInventory && !taxed.has(p.id) && p.id !== products[0].id)!;
    W = products[0];
    R = products.find((p) => !p.manageInventory && !taxed.has(p.id) && ![C.id, W.id, products[1].id].includes(p.id))!;
    await db.update(product).set({ basePrice: '10.00', cost: '6.00' }).where(eq(product.id, A.id));
    await db.update(product).set({ basePrice: '2.99', cost: '1.50' }).where(eq(product.id, B.id));
    await db.update(product).set({ basePrice: '4.50' }).where(eq(product.id, C.id));
    await db.update(product).set({ basePrice: '9.00' }).where(eq(product.id, R.id));
    await db.insert(productPrice).values([
      { productId: R.id, month: ((new Date().getMonth() + 6) % 12) + 1, basePrice: '7.77' }, // another month: never matches now
      { productId: R.id, basePrice: '1.23' }, // no condition: always matches
    ]);
    clothing = products.find((p) => withVariants.has(p.id))!;
    variants = allVariants.filter((v) => v.productId === clothing.id);
    await db.update(productVariant).set({ price: '33.00' }).where(eq(productVariant.id, variants[0].id));
    for (const c of await db.select().from(customer)) {
      if (c.name === 'Walk-in Regular') cust.walkin = c.id;
      else if (c.name === 'Aisha Khan') cust.aisha = c.id;
      else if (c.name === 'Bilal Ahmed') cust.bilal = c.id;
      else if (c.name === 'Carla Diaz') cust.carla = c.id;
    }
  });
  afterAll(async () => { await t?.close(); });
}

export type Headers = Record<string, string>;
export const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, headers: Headers = cashier) =>
  t.app.inject({ method, url, payload: payload as any, headers });

export interface Line { p: { id: number }; qty: number | string; discount?: number | string; price?: number; variant?: { id: number } | null; taxIncluded?: boolean }

/** A sale body as the reference client builds it (whole objects, numbers, client totals). */
export function body(lines: Line[], extra: Record<string, unknown> = {}) {
  return {
    items: lines.map((l) => ({
      item: { ...l.p, name: 'cached', variants: [], prices: [], taxes: [] }, variant: l.variant ?? null, quantity: l.qty,
      price: l.price ?? 999, discount: l.discount ?? 0, taxIncluded: l.taxIncluded ?? true, taxes: [], stock: 0, checked: false,
    })),
    discount: undefined, tax: undefined, taxAmount: 0,
    customerId: undefined, customer: '', refundingFrom: undefined, notes: 'test',
    store: main, terminal: t1, adjustment: 0, status: 'Completed',
    ...extra,
  };
}
export const cashPaid = (amount: number | string) => ({ payments: [{ received: amount, total: amount, due: 0, type: { ...pay.cash } }] });

export async function create(b: unknown, headers: Headers = cashier, extraHeaders: Headers = {}) {
  return inject('POST', '/api/admin/order/create', b, { ...headers, ...extraHeaders });
}
export async function storeQty(productId: number, storeId = main): Promise<number> {
  const [row] = await t.app.db.select().from(productStore).where(and(eq(productStore.productId, productId), eq(productStore.storeId, storeId)));
  return row ? Number(row.quantity) : 0;
}
export async function variantQty(id: number): Promise<number> {
  const [row] = await t.app.db.select().from(productVariant).where(eq(productVariant.id, id));
  return Number(row.quantity);
}
/** The ledger equals the stock for every stock row (product store rows, variant store rows, variant totals: lib/stock-check.ts). */
export async function assertLedgerMatchesStock() {
  expect(await ledgerMismatches(t.app.db as any)).toEqual([]);
}

export async function maxNumber(storeId: number): Promise<number> {
  const [{ n }] = await t.app.db.select({ n: sql<number>`coalesce(max(${order.orderId}), 0)::int` }).from(order).where(eq(order.storeId, storeId));
  return Number(n);
}

export async function sell(lines: Line[], extra: Record<string, unknown> = {}, headers: Headers = cashier) {
  const res = await create(body(lines, extra), headers);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().order;
}
