/**
 * Issue 11: money. For random carts (prices, quantities, line discounts, item taxes included or
 * not, an order tax, a fixed or percent order discount, a rounding adjustment) the totals the
 * server stores equal, to the cent, those of a small BigInt reference written in this file from
 * the spec's rules (legacy tax base, cart.ts header; issue 22.2d: not the domain code the server
 * itself prices with), and a refund mirrors its sale exactly: negated totals, negated payments,
 * and stock put back movement for movement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import crypto from 'node:crypto';
import { asc, sql } from 'drizzle-orm';
import { toDecimal } from '@pos/domain/money';
import { createTestApp, type TestApp } from '../helpers.ts';
import { discount, tax } from '../../src/db/schema/index.ts';
import { shopFacts, type ShopFacts } from '../security/fixtures.ts';
import { FUZZ_RUNS, report } from '../security/support.ts';

let t: TestApp;
let facts: ShopFacts;
let taxes: { id: number; name: string; rate: string }[] = [];
let discounts: { id: number; name: string; rate: string | null; rateType: string | null; scope: string | null }[] = [];
let h: Record<string, string>;
let hasSales = false;
const RUNS = FUZZ_RUNS ? Math.max(100, Math.floor(FUZZ_RUNS / 50)) : 40;
const rowsOf = (res: any): any[] => res.rows ?? res;

interface Product { id: number; priceCents: number; rateTexts: string[]; stocked: boolean }
let products: Product[] = [];

beforeAll(async () => {
  t = await createTestApp();
  // The carts are priced the reference client's way (the legacy tax base, issue 19): what refLegacyOrder computes.
  await t.app.db.execute(sql`update store set legacy_tax_base = true`);
  facts = await shopFacts(t.app.db);
  taxes = await t.app.db.select({ id: tax.id, name: tax.name, rate: tax.rate }).from(tax).orderBy(asc(tax.id));
  discounts = await t.app.db.select({ id: discount.id, name: discount.name, rate: discount.rate, rateType: discount.rateType, scope: discount.scope }).from(discount).orderBy(asc(discount.id));
  h = await t.login('admin');
  hasSales = t.app.routeTable.some((r) => r.method === 'post' && r.url === '/api/admin/order/create');
  // Products of store 1 without price rules: the till shows the catalogue price with the product's taxes.
  const rows = rowsOf(await t.app.db.execute(sql`select p.id, p.base_price, p.manage_inventory,
      coalesce((select json_agg(t.rate order by t.id) from product_tax pt join tax t on t.id = pt.tax_id where pt.product_id = p.id and t.is_active), '[]') as rates
    from product p join product_store ps on ps.product_id = p.id and ps.store_id = 1
    where p.is_active and not exists (select 1 from product_price r where r.product_id = p.id)
      and not exists (select 1 from product_variant v where v.product_id = p.id)
    order by p.id limit 60`));
  products = rows.map((r: any) => ({
    id: r.id, priceCents: Number(refScaled(String(r.base_price), 2)), stocked: r.manage_inventory,
    rateTexts: (typeof r.rates === 'string' ? JSON.parse(r.rates) : r.rates).map((x: unknown) => String(x)),
  }));
});
afterAll(async () => { await t?.close(); });

// ---- An independent reference of the legacy-base order arithmetic (plain BigInt, not @pos/domain) ----
// Spec rules: cents, quantities in thousandths, rates in hundredths of a percent; every amount is
// rounded once, half away from zero; item tax is rate % of the line gross (before the line
// discount); the order tax is rate % of the sum of (gross - line discount); the order discount is
// a fixed amount capped to subTotal + orderTax or a percent of it; the cash adjustment moves the
// total to the nearest 10 currency units (5 rounds up).
const big = BigInt;
/** round(n / d) half away from zero, d > 0. */
function refRound(n: bigint, d: bigint): bigint {
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  if ((r < 0n ? -r : r) * 2n >= d) return n < 0n ? q - 1n : q + 1n;
  return q;
}
type RefDiscount = { kind: 'none' } | { kind: 'fixed'; cents: bigint } | { kind: 'percent'; rate: bigint };
interface RefLine { price: bigint; qtyMilli: bigint; discount: bigint; taxed: boolean; rates: bigint[] }
interface RefTotals { subTotalCents: number; itemTaxesCents: number; orderTaxCents: number; discountTotalCents: number; totalCents: number; adjustmentCents: number; grandTotalCents: number }
function refLegacyOrder(lines: RefLine[], orderTaxRate: bigint | null, discount: RefDiscount, rounded: boolean): RefTotals {
  let subTotal = 0n, taxable = 0n, itemTaxes = 0n;
  for (const l of lines) {
    const gross = refRound(l.price * l.qtyMilli, 1000n);
    const disc = l.discount < 0n ? 0n : l.discount > gross ? gross : l.discount; // sale lines: gross >= 0
    const taxes = l.taxed ? l.rates.reduce((s, r) => s + refRound(gross * r, 10000n), 0n) : 0n;
    subTotal += gross - disc + taxes;
    taxable += gross - disc;
    itemTaxes += taxes;
  }
  const orderTax = orderTaxRate ? refRound(taxable * orderTaxRate, 10000n) : 0n;
  const base = subTotal + orderTax;
  let off = 0n;
  if (discount.kind === 'fixed') off = discount.cents < 0n ? 0n : discount.cents > base ? base : discount.cents;
  if (discount.kind === 'percent') off = refRound(base * (discount.rate > 10000n ? 10000n : discount.rate), 10000n);
  const total = subTotal + orderTax - off;
  const adjustment = rounded ? refRound(total, 1000n) * 1000n - total : 0n;
  const n = Number;
  return { subTotalCents: n(subTotal), itemTaxesCents: n(itemTaxes), orderTaxCents: n(orderTax), discountTotalCents: n(off), totalCents: n(total), adjustmentCents: n(adjustment), grandTotalCents: n(total + adjustment) };
}
/** A decimal text ("12.50", "16") scaled by 10^digits, exactly (the database stores at most that many digits). */
function refScaled(text: string, digits: number): bigint {
  const [int, frac = ''] = String(text).split('.');
  const kept = frac.padEnd(digits, '0');
  if (/[^0]/.test(kept.slice(digits))) throw new Error(`more than ${digits} digits: ${text}`);
  const v = big(int.replace('-', '')) * 10n ** big(digits) + big(kept.slice(0, digits) || '0');
  return int.startsWith('-') ? -v : v;
}

interface Line { product: Product; qty: number; discountCents: number; taxIncluded: boolean }
interface Cart {
  lines: Line[];
  orderTaxIdx: number | null;
  discount: { kind: 'none' } | { kind: 'entity'; idx: number } | { kind: 'open-fixed'; cents: number } | { kind: 'open-percent'; rate: number };
  rounded: boolean;
  refundBy: 'endpoint' | 'till';
}

const cartArb = () => fc.record({
  lines: fc.array(fc.record({
    product: fc.constantFrom(...products),
    qty: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0.5, 1.25, 2.333)),
    discountCents: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2_000 })),
    taxIncluded: fc.boolean(),
  }), { minLength: 1, maxLength: 6 }),
  orderTaxIdx: fc.option(fc.constantFrom(...taxes.map((_, i) => i)), { nil: null }),
  discount: fc.oneof(
    fc.constant({ kind: 'none' as const }),
    fc.constantFrom(...discounts.map((d, idx) => ({ d, idx })).filter(({ d }) => d.scope !== 'open' && d.rate != null).map(({ idx }) => ({ kind: 'entity' as const, idx }))),
    fc.integer({ min: 1, max: 3_000 }).map((cents) => ({ kind: 'open-fixed' as const, cents })),
    fc.integer({ min: 1, max: 50 }).map((rate) => ({ kind: 'open-percent' as const, rate })),
  ),
  rounded: fc.boolean(),
  refundBy: fc.constantFrom('endpoint' as const, 'till' as const),
});

/** The wire body of a cart and the reference's figures for it. */
function wire(cart: Cart) {
  const items = cart.lines.map((l) => ({
    item: { id: l.product.id, '@id': `/api/products/${l.product.id}` },
    quantity: l.qty,
    price: toDecimal(l.product.priceCents),
    discount: toDecimal(l.discountCents),
    taxIncluded: l.taxIncluded,
    stock: 0,
  }));
  const orderTax = cart.orderTaxIdx == null ? null : taxes[cart.orderTaxIdx];
  const open = discounts.find((d) => d.scope === 'open');
  let discountFields: Record<string, unknown> = { discount: null, discountAmount: 0 };
  // The order discount the reference applies (reference client 4.3: a typed amount wins; else the
  // entity's rate, a percent or a fixed amount; a zero rate is no discount).
  let refDiscount: RefDiscount = { kind: 'none' };
  if (cart.discount.kind === 'entity') {
    const d = discounts[cart.discount.idx];
    discountFields = { discount: { id: d.id, '@id': `/api/discounts/${d.id}`, name: d.name, rate: Number(d.rate), rateType: d.rateType, scope: d.scope }, discountAmount: 0 };
    const rate = refScaled(d.rate!, 2);
    if (rate !== 0n && d.rateType === 'percent') refDiscount = { kind: 'percent', rate };
    else if (rate !== 0n && (d.rateType === 'fixed' || (!d.rateType && d.scope === 'exact'))) refDiscount = { kind: 'fixed', cents: rate };
  } else if (open && cart.discount.kind === 'open-fixed') {
    discountFields = { discount: { id: open.id, scope: 'open', rateType: open.rateType, rate: null }, discountAmount: toDecimal(cart.discount.cents), discountRateType: 'fixed' };
    refDiscount = { kind: 'fixed', cents: big(cart.discount.cents) };
  } else if (open && cart.discount.kind === 'open-percent') {
    discountFields = { discount: { id: open.id, scope: 'open', rateType: open.rateType, rate: null }, discountAmount: cart.discount.rate, discountRateType: 'percent' };
    refDiscount = { kind: 'percent', rate: big(cart.discount.rate) * 100n };
  }
  const lines: RefLine[] = cart.lines.map((l) => ({ price: big(l.product.priceCents), qtyMilli: big(Math.round(l.qty * 1000)), discount: big(l.discountCents), taxed: l.taxIncluded, rates: l.product.rateTexts.map((r) => refScaled(r, 2)) }));
  const till = refLegacyOrder(lines, orderTax ? refScaled(orderTax.rate, 2) : null, refDiscount, cart.rounded);
  const paid = toDecimal(till.grandTotalCents);
  return {
    till,
    body: {
      items, tax: orderTax ? { id: orderTax.id, '@id': `/api/taxes/${orderTax.id}`, rate: Number(orderTax.rate) } : null, taxAmount: 0, ...discountFields,
      adjustment: toDecimal(till.adjustmentCents), total: toDecimal(till.totalCents),
      payments: [{ type: { id: facts.cashPaymentId, '@id': `/api/payments/${facts.cashPaymentId}` }, received: paid, total: paid, due: 0 }],
      store: 1, terminal: facts.terminals[1][0], status: 'Completed', uuid: crypto.randomUUID(), customer: '', notes: 'money property',
    } as Record<string, unknown>,
  };
}

/** A return of the whole cart as the till sends it: negated lines, negated payment, refundingFrom. */
function tillReturn(cart: Cart, saleId: number, grandTotalCents: number) {
  const { body } = wire(cart);
  const paid = toDecimal(-grandTotalCents);
  return {
    ...body,
    items: (body.items as any[]).map((i) => ({ ...i, quantity: -i.quantity })),
    adjustment: toDecimal(-Math.round(Number(body.adjustment) * 100)),
    total: null,
    payments: [{ type: { id: facts.cashPaymentId }, received: paid, total: paid, due: 0 }],
    refundingFrom: saleId,
    uuid: crypto.randomUUID(),
  };
}

async function stored(id: number) {
  const [o] = rowsOf(await t.app.db.execute(sql`select total, sub_total, item_taxes, adjustment,
    (select coalesce(sum(total), 0) from order_payment where order_id = ${id}) as paid,
    (select amount from order_discount where "orderId" = ${id}) as discount,
    (select amount from order_tax where "orderId" = ${id}) as order_tax
    from "order" where id = ${id}`));
  const moves = rowsOf(await t.app.db.execute(sql`select product_id, store_id, quantity from stock_movement where order_id = ${id} order by product_id, store_id, quantity`));
  return { o, moves };
}

const cents = (v: unknown) => (v == null ? 0 : Number(refScaled(String(v), 2)));
const neg = (v: unknown) => 0 - cents(v) || 0;

describe('money: server totals equal the till to the cent', () => {
  it('random carts: stored total, sub total, item taxes, discount, order tax, adjustment and payments match an independent BigInt reference; refunds mirror them', { timeout: 600_000 }, async () => {
    expect(hasSales, 'POST /api/admin/order/create is registered').toBe(true);
    let carts = 0;
    let refunds = 0;
    let refused = 0;
    const refusals = new Map<string, number>();
    await fc.assert(fc.asyncProperty(cartArb(), async (cart) => {
      const { till, body } = wire(cart);
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: h, payload: body });
      if (res.statusCode === 422) {
        // Refusals are legitimate only for business rules the till also applies (none expected here).
        const msg = res.json().message as string;
        refusals.set(msg.slice(0, 80), (refusals.get(msg.slice(0, 80)) ?? 0) + 1);
        refused++;
      }
      expect(res.statusCode, res.body).toBeLessThan(300);
      carts++;
      const order = res.json().order ?? res.json();
      const { o, moves } = await stored(order.id);
      const got = { total: cents(o.total), subTotal: cents(o.sub_total), itemTaxes: cents(o.item_taxes), adjustment: cents(o.adjustment), paid: cents(o.paid), discount: cents(o.discount), orderTax: cents(o.order_tax) };
      const want = { total: till.totalCents, subTotal: till.subTotalCents, itemTaxes: till.itemTaxesCents, adjustment: till.adjustmentCents, paid: till.grandTotalCents, discount: till.discountTotalCents, orderTax: till.orderTaxCents };
      expect(got, JSON.stringify(cart)).toEqual(want);
      expect(cents(order.total ?? 0), 'wire total').toBe(till.totalCents);

      // The refund mirrors it, whether the server builds it or the till sends the negated cart.
      const r = cart.refundBy === 'endpoint'
        ? await t.app.inject({ method: 'POST', url: `/api/admin/order/refund/${order.id}`, headers: h })
        : await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: h, payload: tillReturn(cart, order.id, till.grandTotalCents) });
      expect(r.statusCode, `${cart.refundBy} refund: ${r.body}`).toBeLessThan(300);
      refunds++;
      const back = await stored((r.json().order ?? r.json()).id);
      const mirrored = { total: neg(back.o.total), subTotal: neg(back.o.sub_total), itemTaxes: neg(back.o.item_taxes), adjustment: neg(back.o.adjustment), paid: neg(back.o.paid), discount: neg(back.o.discount), orderTax: neg(back.o.order_tax) };
      expect(mirrored, `${cart.refundBy} refund of ${JSON.stringify(cart)}`).toEqual(got);
      const key = (m: any, sign: number) => `${m.product_id}@${m.store_id}:${sign * Number(m.quantity)}`;
      expect(back.moves.map((m: any) => key(m, -1)).sort(), 'stock put back movement for movement').toEqual(moves.map((m: any) => key(m, 1)).sort());
      return true;
    }), { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined });
    report(`money: ${carts} random carts equal to the cent, ${refunds} refunds mirrored exactly (${RUNS} runs, ${refused} refused${refusals.size ? ': ' + [...refusals].map(([m, n]) => `${n}x ${m}`).join('; ') : ''})`);
  });
});
