/**
 * Issue 19: what the till shows is what the server stores, to the minor unit. The till's own code
 * (apps/web cart-totals.ts computeCartTotals, build-sale.ts buildSaleBody, payment-logic.ts
 * wirePayments) prices a few carts in stores of each tax mode and currency; the body it builds is
 * posted to the real API and the stored order's figures must equal the till's, line by line, in
 * the currency's minor units (what the till shows): USD cents, whole yen, KWD fils.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { minorToDecimal, parseMoney } from '@pos/domain/money';
import { currencyDigits } from '@pos/domain/currency';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { paymentType, product, productTax, store, tax, terminal } from '../../db/schema/index.ts';

// The web app's modules, loaded at run time (their type imports go through the web app's own
// path aliases, which this package's type check does not know; at run time they are erased).
const web = (file: string) => new URL(`../../../../web/src/features/${file}`, import.meta.url).href;
interface Figures { totalCents: number; grandTotalCents: number; subTotalCents: number; itemTaxesCents: number; orderTaxCents: number; discountTotalCents: number;
  lines: { taxesTotalCents: number; taxableCents: number; discountCents: number }[]; taxBreakdown: { rate: number; netCents: number; taxCents: number }[] }
/** The till's totals: hundredths, plus the same figures in minor units (`minor`), which the till shows and sends. */
type Priced = Figures & { minor: Figures; currency: string };
interface Pricing { currency: string; pricesIncludeTax: boolean; legacyTaxBase: boolean }
let computeCartTotals: (cart: unknown, pricing: Pricing) => Priced;
let cashRoundingMinor: (totals: Priced, step: number, exact: number, cash: boolean) => number;
let buildSaleBody: (input: Record<string, unknown>) => Record<string, unknown>;
let wirePayments: (grand: number, rows: unknown[], digits?: number) => unknown[];
let refundTenders: (refund: number, original: unknown[], types: unknown[], digits?: number) => unknown[];
let loadOrder: (order: unknown, kind: 'refund', defaults: object, picks: { index: number; qtyMilli: number }[]) => ReturnType<typeof cart>;

let t: TestApp;
let admin: Record<string, string>;
let cashier: Record<string, string>;
let main: number;
let t1: number;
let cash: { id: number; name: string; type: string; canHaveChangeDue: boolean };
type TaxRef = { id: number; name: string; rate: string };
let vat: TaxRef;
let city: TaxRef;
let gst: TaxRef;
type DiscountRef = { id: number; name: string; rate: string | null; rateType: string; scope: string };
let tenOff: DiscountRef;
let open: DiscountRef;
/** Unmanaged products: A taxed 8.25 %, B taxed 8.25 % + 1.5 %, C untaxed. */
const P = { A: 0, B: 0, C: 0 };

beforeAll(async () => {
  computeCartTotals = (await import(/* @vite-ignore */ web('cart/cart-totals.ts'))).computeCartTotals;
  cashRoundingMinor = (await import(/* @vite-ignore */ web('cart/cart-totals.ts'))).cashRoundingMinor;
  buildSaleBody = (await import(/* @vite-ignore */ web('payment/build-sale.ts'))).buildSaleBody;
  wirePayments = (await import(/* @vite-ignore */ web('payment/payment-logic.ts'))).wirePayments;
  refundTenders = (await import(/* @vite-ignore */ web('payment/payment-logic.ts'))).refundTenders;
  loadOrder = (await import(/* @vite-ignore */ web('cart/load-order.ts'))).loadOrder;
  t = await createTestApp();
  admin = await t.login('admin');
  cashier = await t.login('cashier');
  const db = t.app.db;
  main = (await db.select().from(store).orderBy(asc(store.id)))[0].id;
  // These carts test pricing, not the cashier's discount limit (issue 21, approvals.test.ts): some
  // of their line discounts are above the default 20 %, which would need a manager's approval.
  await db.update(store).set({ maxDiscountPercent: 100 }).where(eq(store.id, main));
  t1 = (await db.select().from(terminal).orderBy(asc(terminal.id))).find((x) => x.code === 'T1')!.id;
  const c = (await db.select().from(paymentType)).find((p) => p.type === 'cash')!;
  cash = { id: c.id, name: c.name, type: c.type, canHaveChangeDue: true };
  const made = await db.insert(tax).values([{ name: 'Sales tax', rate: '8.25' }, { name: 'City tax', rate: '1.5' }, { name: 'GST', rate: '5' }]).returning();
  [vat, city, gst] = made.map((x) => ({ id: x.id, name: x.name, rate: x.rate }));
  const taxed = new Set((await db.select().from(productTax)).map((r) => r.productId));
  const plain = (await db.select().from(product).orderBy(asc(product.id))).filter((p) => !taxed.has(p.id) && !p.manageInventory);
  [P.A, P.B, P.C] = [plain[5].id, plain[6].id, plain[7].id];
  await db.insert(productTax).values([{ productId: P.A, otherId: vat.id }, { productId: P.B, otherId: vat.id }, { productId: P.B, otherId: city.id }]);
  const d = await t.app.inject({ method: 'POST', url: '/api/discounts', headers: admin, payload: { name: 'Ten percent', rate: '10', rateType: 'percent', scope: 'exact', stores: [main] } });
  expect(d.statusCode, d.body).toBe(201);
  tenOff = { id: d.json().id, name: 'Ten percent', rate: '10', rateType: 'percent', scope: 'exact' };
  const o = await t.app.inject({ method: 'POST', url: '/api/discounts', headers: admin, payload: { name: 'Open', rateType: 'fixed', scope: 'open', stores: [main] } });
  expect(o.statusCode, o.body).toBe(201);
  open = { id: o.json().id, name: 'Open', rate: null, rateType: 'fixed', scope: 'open' };
});
afterAll(async () => { await t?.close(); });

/** Sets the store's money settings and the products' prices (major units), as the till then sees them. */
async function shop(settings: Record<string, unknown>, prices: Record<keyof typeof P, string>): Promise<Pricing & { cashRoundingStep: number }> {
  const put = await t.app.inject({ method: 'PUT', url: `/api/stores/${main}`, headers: admin, payload: settings });
  expect(put.statusCode, put.body).toBe(200);
  for (const k of Object.keys(P) as (keyof typeof P)[]) await t.app.db.update(product).set({ basePrice: prices[k] }).where(eq(product.id, P[k]));
  const s = (await t.app.inject({ method: 'GET', url: `/api/stores/${main}`, headers: cashier })).json();
  return { currency: s.currency, pricesIncludeTax: s.pricesIncludeTax, legacyTaxBase: s.legacyTaxBase, cashRoundingStep: s.cashRoundingStep };
}

/** `discountExact`: a fixed line discount as the cashier typed it (setLineDiscount keeps it beside the cents). */
interface LineSpec { p: keyof typeof P; price: string; qty: number; discountCents?: number; discountExact?: string }
const taxesOf = (p: keyof typeof P) => (p === 'A' ? [vat] : p === 'B' ? [vat, city] : []);

/** A till cart as the cart store keeps it (hundredths, milli), each line with its catalogue price text as addToCart keeps it. */
function cart(lines: LineSpec[], extra: { tax?: TaxRef; discount?: DiscountRef; discountAmount?: string; discountRateType?: 'fixed' | 'percent' } = {}) {
  return {
    q: '', selected: 0, selectedVariant: 0, quantity: '1', rate: 0, adjustment: 0, cartItemType: 'quantity',
    added: lines.map((l, i) => ({
      key: `k${i}`, item: { id: P[l.p], name: l.p }, variant: null, checked: false, quantity: l.qty, discount: l.discountCents ?? 0,
      ...(l.discountExact === undefined ? {} : { discountExact: l.discountExact, discountIncluded: true }),
      price: parseMoney(l.price), priceExact: l.price, taxIncluded: true, taxes: taxesOf(l.p),
    })),
    tax: extra.tax ?? null, discount: extra.discount ?? null, discountAmount: extra.discountAmount ?? null, discountRateType: extra.discountRateType ?? null,
    customer: null, customerName: '', paymentType: null, orderId: null, refundingFrom: null, notes: '', uuid: crypto.randomUUID(),
  };
}

/** The till prices the cart, pays it in cash (the store's cash rounding applied as the panel does), posts the body it builds. */
async function ringUp(pricing: Pricing & { cashRoundingStep: number }, c: ReturnType<typeof cart>) {
  const totals = computeCartTotals(c, pricing);
  const rounding = cashRoundingMinor(totals, pricing.cashRoundingStep, 0, true);
  const due = totals.minor.grandTotalCents + rounding;
  const payments = wirePayments(due, [{ key: 'f', type: cash, receivedCents: due }], currencyDigits(pricing.currency));
  const body = buildSaleBody({ cart: c, totals, payments, storeId: main, terminalId: t1, status: 'Completed' });
  const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: { ...cashier, 'idempotency-key': c.uuid }, payload: body as any });
  expect(res.statusCode, res.body).toBe(201);
  return { totals, rounding, order: res.json().order };
}

/** The stored order's figures next to the till's minor figures (major units: what both print). */
function expectAgreement(till: Priced, rounding: number, o: any) {
  const digits = currencyDigits(till.currency);
  const d = (minor: number) => minorToDecimal(minor, digits);
  const totals = till.minor;
  expect({
    total: o.total, subTotal: o.subTotal, itemTaxes: o.itemTaxes, orderTax: o.tax?.amount ?? 0, discount: o.discount?.amount ?? 0, rounding: o.rounding,
    lines: o.items.map((i: any) => [i.taxesTotal, i.taxable, i.discount]),
    breakdown: o.taxBreakdown.map((r: any) => [r.rate, r.net, r.tax]),
  }).toEqual({
    total: d(totals.totalCents), subTotal: d(totals.subTotalCents), itemTaxes: d(totals.itemTaxesCents), orderTax: d(totals.orderTaxCents),
    discount: d(totals.discountTotalCents), rounding: d(rounding),
    lines: totals.lines.map((l) => [d(l.taxesTotalCents), d(l.taxableCents), d(l.discountCents)]),
    breakdown: totals.taxBreakdown.map((r) => [r.rate / 100, d(r.netCents), d(r.taxCents)]),
  });
}

describe('the till and the server price the same carts to the minor unit', () => {
  const carts = () => [
    cart([{ p: 'A', price: '10.75', qty: 1000, discountCents: 108 }]),
    cart([{ p: 'A', price: '10.75', qty: 3000, discountCents: 99 }, { p: 'B', price: '4.99', qty: 1500 }, { p: 'C', price: '2.35', qty: 2000 }], { discount: tenOff }),
    cart([{ p: 'B', price: '4.99', qty: 1000, discountCents: 200 }, { p: 'C', price: '2.35', qty: 7000 }], { tax: gst, discountAmount: '3.33', discountRateType: 'fixed', discount: open }),
    cart([{ p: 'A', price: '10.75', qty: 2500 }, { p: 'B', price: '4.99', qty: 3000, discountCents: 150 }], { tax: gst, discountAmount: '12.5', discountRateType: 'percent', discount: open }),
  ];

  it('tax-exclusive USD store: discounts lower the taxable base, the order discount spread by net value', async () => {
    const pricing = await shop({ currency: 'USD', legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 }, { A: '10.75', B: '4.99', C: '2.35' });
    for (const c of carts()) {
      const { totals, rounding, order } = await ringUp(pricing, c);
      expectAgreement(totals, rounding, order);
    }
    // The first cart, by hand: 10.75 - 1.08 = 9.67; 8.25 % of 9.67 = 0.797775 -> 0.80; total 10.47.
    const { order } = await ringUp(pricing, carts()[0]);
    expect(order.total).toBe(10.47);
  });

  it('tax-inclusive store: the tax contained in what is charged', async () => {
    const pricing = await shop({ currency: 'USD', legacyTaxBase: false, pricesIncludeTax: true, cashRoundingStep: 0 }, { A: '10.75', B: '4.99', C: '2.35' });
    for (const c of carts()) {
      const { totals, rounding, order } = await ringUp(pricing, c);
      expect(order.taxMode).toBe('inclusive');
      expectAgreement(totals, rounding, order);
    }
    // 9.67 charged contains 9.67 x 8.25 / 108.25 = 0.7369... -> 0.74.
    const { order } = await ringUp(pricing, carts()[0]);
    expect([order.total, order.itemTaxes]).toEqual([9.67, 0.74]);
  });

  it('legacy tax base store: the old client\'s order of operations', async () => {
    const pricing = await shop({ currency: 'USD', legacyTaxBase: true, pricesIncludeTax: false, cashRoundingStep: 0 }, { A: '10.75', B: '4.99', C: '2.35' });
    for (const c of carts()) {
      const { totals, rounding, order } = await ringUp(pricing, c);
      expect(order.taxMode).toBe('legacy');
      expectAgreement(totals, rounding, order);
    }
    // Tax on the price before the discount: 8.25 % of 10.75 = 0.886875 -> 0.89; 9.67 + 0.89 = 10.56.
    const { order } = await ringUp(pricing, carts()[0]);
    expect(order.total).toBe(10.56);
  });

  it('JPY store: whole yen, each tax rounded to the yen as the server does', async () => {
    const pricing = await shop({ currency: 'JPY', legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 }, { A: '1075', B: '499', C: '235' });
    const jpy = () => [
      cart([{ p: 'A', price: '1075', qty: 1000, discountCents: 10800 }]),
      cart([{ p: 'A', price: '1075', qty: 3000 }, { p: 'B', price: '499', qty: 1500 }, { p: 'C', price: '235', qty: 2000 }], { discount: tenOff }),
      cart([{ p: 'B', price: '499', qty: 1000 }, { p: 'C', price: '235', qty: 3000 }], { tax: gst, discountAmount: '7.5', discountRateType: 'percent', discount: open }),
    ];
    for (const c of jpy()) {
      const { totals, rounding, order } = await ringUp(pricing, c);
      expect(order.store.currency).toBe('JPY');
      expect(Number.isInteger(order.total)).toBe(true);
      expectAgreement(totals, rounding, order);
    }
    // 1075 - 108 = 967; 8.25 % of 967 = 79.7775 -> 80 yen; total 1047.
    const { order } = await ringUp(pricing, jpy()[0]);
    expect([order.total, order.itemTaxes]).toEqual([1047, 80]);
  });

  for (const inclusive of [false, true]) {
    it(`KWD store (${inclusive ? 'tax-inclusive' : 'tax-exclusive'}): three decimals kept from the catalogue price to the stored order, to the fils`, async () => {
      const pricing = await shop({ currency: 'KWD', legacyTaxBase: false, pricesIncludeTax: inclusive, cashRoundingStep: 0 }, { A: '1.275', B: '0.125', C: '2.35' });
      const kwd = () => [
        cart([{ p: 'A', price: '1.275', qty: 1000 }]),
        cart([{ p: 'A', price: '1.275', qty: 3000, discountCents: 10 }, { p: 'B', price: '0.125', qty: 3000 }, { p: 'C', price: '2.35', qty: 1500 }], { discount: tenOff }),
        cart([{ p: 'B', price: '0.125', qty: 7000 }, { p: 'A', price: '1.275', qty: 2000 }], { tax: gst, discountAmount: '0.333', discountRateType: 'fixed', discount: open }),
        cart([{ p: 'A', price: '1.275', qty: 2500 }, { p: 'B', price: '0.125', qty: 1000 }], { tax: gst, discountAmount: '12.5', discountRateType: 'percent', discount: open }),
      ];
      for (const c of kwd()) {
        const { totals, rounding, order } = await ringUp(pricing, c);
        expect(order.store.currency).toBe('KWD');
        expect(order.taxMode).toBe(inclusive ? 'inclusive' : 'exclusive');
        expectAgreement(totals, rounding, order);
        // The till's price is the catalogue's, third decimal included.
        expect(order.items.map((i: any) => i.price)).toEqual(c.added.map((l) => Number(l.priceExact)));
      }
      // By hand: exclusive, 8.25 % of 1.275 = 0.1051875 -> 0.105, total 1.380; inclusive, 1.275 contains
      // 1.275 x 8.25 / 108.25 = 0.09717... -> 0.097. Hundredths would have made it 1.28 (tax 0.106 / 0.097, total 1.386 / 1.28).
      const { totals, order } = await ringUp(pricing, kwd()[0]);
      expect([order.total, order.itemTaxes]).toEqual(inclusive ? [1.275, 0.097] : [1.38, 0.105]);
      expect([totals.minor.totalCents, totals.minor.itemTaxesCents]).toEqual(inclusive ? [1275, 97] : [1380, 105]);
    });
  }

  it('KWD store: a line discount typed to the fils (0.125) is priced and stored to the fils', async () => {
    const pricing = await shop({ currency: 'KWD', legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 0 }, { A: '1.275', B: '0.125', C: '2.35' });
    // The cashier types 0.125 on a 1.275 line taxed 8.25 %: the cart keeps 13 hundredths and the typed text.
    const c = cart([{ p: 'A', price: '1.275', qty: 1000, discountCents: 13, discountExact: '0.125' }]);
    const { totals, rounding, order } = await ringUp(pricing, c);
    expect(order.taxMode).toBe('exclusive');
    expectAgreement(totals, rounding, order);
    // By hand: 1.275 - 0.125 = 1.150; 8.25 % of 1.150 = 0.094875 -> 0.095; total 1.245.
    // Hundredths would have made the discount 0.13: taxable 1.145, tax 0.094, total 1.239.
    expect(order.items.map((i: any) => [i.price, i.discount, i.taxable])).toEqual([[1.275, 0.125, 1.15]]);
    expect([order.itemTaxes, order.total]).toEqual([0.095, 1.245]);
    expect([totals.minor.lines[0].discountCents, totals.minor.itemTaxesCents, totals.minor.totalCents]).toEqual([125, 95, 1245]);
  });

  it('a store rounding cash to 0.05: the till\'s rounding line is the server\'s', async () => {
    const pricing = await shop({ currency: 'USD', legacyTaxBase: false, pricesIncludeTax: false, cashRoundingStep: 5 }, { A: '10.75', B: '4.99', C: '2.35' });
    const { totals, rounding, order } = await ringUp(pricing, carts()[0]);
    expect(rounding).toBe(-2); // 10.47 -> 10.45
    expectAgreement(totals, rounding, order);
    expect(order.grandTotal).toBe(10.45);
    await shop({ currency: 'USD', cashRoundingStep: 0 }, { A: '10.75', B: '4.99', C: '2.35' });
  });

  for (const mode of ['exclusive', 'inclusive', 'legacy'] as const) {
    it(`${mode}: a partial refund and then the rest give back what the server gives back, to the minor unit`, async () => {
      const pricing = await shop({ currency: 'USD', legacyTaxBase: mode === 'legacy', pricesIncludeTax: mode === 'inclusive', cashRoundingStep: 0 }, { A: '10.75', B: '4.99', C: '2.35' });
      const sale = await ringUp(pricing, cart([{ p: 'A', price: '10.75', qty: 3000, discountCents: 99 }, { p: 'B', price: '4.99', qty: 1500 }, { p: 'C', price: '2.35', qty: 2000 }], { discount: tenOff }));
      const refunds: any[] = [];
      for (const picks of [[{ index: 0, qtyMilli: 1000 }, { index: 1, qtyMilli: 500 }], [{ index: 0, qtyMilli: 2000 }, { index: 1, qtyMilli: 1000 }, { index: 2, qtyMilli: 2000 }]]) {
        // The till reads the original again, the cashier picks lines in the refund dialog, the till prices the refund cart.
        const original = (await t.app.inject({ method: 'GET', url: `/api/admin/order/${sale.order.id}`, headers: cashier })).json().order;
        const c = loadOrder(original, 'refund', {}, picks);
        const till = computeCartTotals(c, pricing);
        const totals = till.minor;
        const rows = refundTenders(totals.grandTotalCents, original.payments, [cash], 2);
        const body = buildSaleBody({ cart: c, totals: till, payments: wirePayments(totals.grandTotalCents, rows, 2), storeId: main, terminalId: t1, status: 'Completed' });
        const res = await t.app.inject({ method: 'POST', url: '/api/admin/order/create', headers: { ...cashier, 'idempotency-key': c.uuid }, payload: body as any });
        expect(res.statusCode, res.body).toBe(201);
        const o = res.json().order;
        expect(o.returnedFrom.id).toBe(sale.order.id);
        const d = (minor: number) => minorToDecimal(minor, 2);
        expect({ total: o.total, itemTaxes: o.itemTaxes, orderTax: o.tax?.amount ?? 0, discount: o.discount?.amount ?? 0, lines: o.items.map((i: any) => [i.taxesTotal, i.taxable, i.discount]) })
          .toEqual({
            total: d(totals.totalCents), itemTaxes: d(totals.itemTaxesCents), orderTax: d(totals.orderTaxCents), discount: d(totals.discountTotalCents),
            lines: totals.lines.map((l) => [d(l.taxesTotalCents), d(l.taxableCents), d(l.discountCents)]),
          });
        refunds.push(o);
      }
      // Together the two refunds give back exactly what was charged.
      expect(Math.round((refunds[0].total + refunds[1].total) * 100)).toBe(-Math.round(sale.order.total * 100));
      expect((await t.app.inject({ method: 'GET', url: `/api/admin/order/${sale.order.id}`, headers: cashier })).json().order.status).toBe('Returned');
    });
  }
});
