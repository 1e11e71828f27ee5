/**
 * Issue 11: money. For random carts (prices, quantities, line discounts, item taxes included or
 * not, an order tax, a fixed or percent order discount, a rounding adjustment) the totals the
 * server stores equal the till's (packages/domain/src/cart.ts) to the cent, and a refund mirrors
 * its sale exactly: negated totals, negated payments, and stock put back movement for movement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import crypto from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { computeOrderTotals, cartLineFromWire, resolveOrderDiscount } from '@pos/domain/cart';
import { parseRate, toDecimal } from '@pos/domain/money';
import { createTestApp, type TestApp } from '../helpers.ts';
import { tax } from '../../src/db/schema/index.ts';
import { shopFacts, type ShopFacts } from '../security/fixtures.ts';
import { FUZZ_RUNS, report } from '../security/support.ts';

let t: TestApp;
let facts: ShopFacts;
let taxes: { id: number; name: string; rate: string }[] = [];
let h: Record<string, string>;
let hasSales = false;
const RUNS = FUZZ_RUNS ? Math.max(100, Math.floor(FUZZ_RUNS / 50)) : 40;
const rowsOf = (res: any): any[] => res.rows ?? res;

beforeAll(async () => {
  t = await createTestApp();
  facts = await shopFacts(t.app.db);
  taxes = await t.app.db.select({ id: tax.id, name: tax.name, rate: tax.rate }).from(tax).orderBy(asc(tax.id));
  h = await t.login('admin');
  hasSales = t.app.routeTable.some((r) => r.method === 'post' && r.url === '/api/admin/order/create');
});
afterAll(async () => { await t?.close(); });

interface Line { product: { id: number; price: string }; priceCents: number; qty: number; discountCents: number; taxIdx: number[]; taxIncluded: boolean }
interface Cart { lines: Line[]; orderTaxIdx: number | null; discount: { kind: 'none' } | { kind: 'fixed'; cents: number } | { kind: 'percent'; rate: number }; adjustmentCents: number }

const cartArb = (products: { id: number; price: string }[]) => fc.record({
  lines: fc.array(fc.record({
    product: fc.constantFrom(...products),
    priceCents: fc.integer({ min: 1, max: 250_000 }),
    qty: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0.5, 1.25, 2.333)),
    discountCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 5_000 })),
    taxIdx: fc.subarray([0, 1]),
    taxIncluded: fc.boolean(),
  }), { minLength: 1, maxLength: 6 }),
  orderTaxIdx: fc.option(fc.constantFrom(0, 1), { nil: null }),
  discount: fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.integer({ min: 1, max: 3_000 }).map((cents) => ({ kind: 'fixed' as const, cents })),
    fc.integer({ min: 1, max: 50 }).map((rate) => ({ kind: 'percent' as const, rate })),
  ),
  adjustmentCents: fc.integer({ min: -499, max: 500 }),
});

/** The wire body of a cart, as the till builds it (reference client 2.5a). */
function wire(cart: Cart, sign = 1, refundingFrom?: number) {
  const items = cart.lines.map((l) => ({
    item: { id: l.product.id, '@id': `/api/products/${l.product.id}` },
    quantity: sign * l.qty,
    price: toDecimal(l.priceCents),
    discount: sign * toDecimal(l.discountCents),
    taxes: l.taxIdx.map((i) => ({ id: taxes[i].id, '@id': `/api/taxes/${taxes[i].id}`, name: taxes[i].name, rate: Number(taxes[i].rate) })),
    taxIncluded: l.taxIncluded,
    stock: 0,
  }));
  const orderTax = cart.orderTaxIdx == null ? null : { id: taxes[cart.orderTaxIdx].id, '@id': `/api/taxes/${taxes[cart.orderTaxIdx].id}`, name: taxes[cart.orderTaxIdx].name, rate: Number(taxes[cart.orderTaxIdx].rate) };
  const discountFields = cart.discount.kind === 'none' ? { discountAmount: 0 }
    : cart.discount.kind === 'fixed' ? { discountAmount: toDecimal(cart.discount.cents), discountRateType: 'fixed' }
      : { discountAmount: cart.discount.rate, discountRateType: 'percent' };
  // The till's own maths, from the same wire fields.
  const till = computeOrderTotals({
    lines: items.map((i) => cartLineFromWire(i)),
    orderTaxRate: orderTax ? parseRate(orderTax.rate) : null,
    discount: resolveOrderDiscount({ ...discountFields, discount: null }),
    adjustmentCents: sign * cart.adjustmentCents,
  });
  const paid = toDecimal(till.grandTotalCents);
  return {
    till,
    body: {
      items, tax: orderTax, taxAmount: 0, ...discountFields, discount: null,
      adjustment: toDecimal(sign * cart.adjustmentCents), total: toDecimal(till.totalCents),
      payments: [{ type: { id: facts.cashPaymentId, '@id': `/api/payments/${facts.cashPaymentId}` }, received: paid, total: paid, due: 0 }],
      store: 1, terminal: facts.terminals[1][0], status: 'Completed', uuid: crypto.randomUUID(), customer: '', notes: 'money property',
      ...(refundingFrom ? { refundingFrom } : {}),
    },
  };
}

async function stored(id: number) {
  const [o] = rowsOf(await t.app.db.execute(sql`select total, sub_total, item_taxes, adjustment,
    (select coalesce(sum(total), 0) from order_payment where order_id = ${id}) as paid,
    (select amount from order_discount where "orderId" = ${id}) as discount,
    (select amount from order_tax where "orderId" = ${id}) as order_tax
    from "order" where id = ${id}`));
  const moves = rowsOf(await t.app.db.execute(sql`select product_id, store_id, quantity from stock_movement where order_id = ${id} order by product_id, id`));
  return { o, moves };
}

const cents = (v: unknown) => Math.round(Number(v ?? 0) * 100);

describe('money: server totals equal the till to the cent', () => {
  it('random carts: stored total, sub total, item taxes, discount, order tax, adjustment and payments match cart.ts', { timeout: 600_000 }, async (ctx) => {
    if (!hasSales) { report('money: POST /api/admin/order/create not present yet: property not run'); ctx.skip(); return; }
    const products = [...(facts.untracked[1] ?? []), ...(facts.stocked[1] ?? [])].slice(2, 60);
    let carts = 0;
    let refunds = 0;
    const mismatches: string[] = [];
    await fc.assert(fc.asyncProperty(cartArb(products), async (cart) => {
      const { till, body } = wire(cart);
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: h, payload: body });
      if (res.statusCode >= 400 && res.statusCode < 500) return true; // refused (e.g. out of stock): no money to compare
      expect(res.statusCode, res.body).toBeLessThan(300);
      carts++;
      const order = res.json().order ?? res.json();
      const { o, moves } = await stored(order.id);
      const got = { total: cents(o.total), subTotal: cents(o.sub_total), itemTaxes: cents(o.item_taxes), adjustment: cents(o.adjustment), paid: cents(o.paid), discount: cents(o.discount), orderTax: cents(o.order_tax), wireTotal: cents(order.total) };
      const want = { total: till.totalCents, subTotal: till.subTotalCents, itemTaxes: till.itemTaxesCents, adjustment: till.adjustmentCents, paid: till.grandTotalCents, discount: till.discountTotalCents, orderTax: till.orderTaxCents, wireTotal: till.totalCents };
      if (JSON.stringify(got) !== JSON.stringify(want)) mismatches.push(`cart ${JSON.stringify(cart).slice(0, 300)}: server ${JSON.stringify(got)} till ${JSON.stringify(want)}`);
      expect(got).toEqual(want);

      // The refund mirrors it: the till fills the cart with negated lines and refundingFrom.
      const r1 = await t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${order.id}`, headers: h });
      expect(r1.statusCode, r1.body).toBeLessThan(300);
      const refund = wire(cart, -1, order.id);
      const r2 = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: h, payload: refund.body });
      expect(r2.statusCode, r2.body).toBeLessThan(300);
      refunds++;
      const back = await stored((r2.json().order ?? r2.json()).id);
      expect(cents(back.o.total)).toBe(-got.total);
      expect(cents(back.o.sub_total)).toBe(-got.subTotal);
      expect(cents(back.o.item_taxes)).toBe(-got.itemTaxes);
      expect(cents(back.o.paid)).toBe(-got.paid);
      expect(cents(back.o.adjustment)).toBe(-got.adjustment);
      expect(back.moves.map((m: any) => `${m.product_id}@${m.store_id}:${-Number(m.quantity)}`)).toEqual(moves.map((m: any) => `${m.product_id}@${m.store_id}:${Number(m.quantity)}`));
      return true;
    }), { numRuns: RUNS });
    report(`money: ${carts} random carts equal to the cent, ${refunds} refunds mirrored exactly, ${mismatches.length} mismatches`);
    expect(carts).toBeGreaterThan(RUNS / 2);
  });
});
