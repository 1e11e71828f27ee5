/**
 * Pricing a whole sale in one pure call (issue 22.5): `priceSale(input, facts, options)`. The server
 * reads the facts once (sale-facts.ts), this prices the order from them — lines from the catalogue
 * or, for a return, from the original; order tax and discount; totals in the store's tax mode; the
 * client's total checked, never used; payments settled — and the server writes the result. The till
 * prices its cart with the same maths (cart.ts, tax.ts), so both agree to the minor unit.
 * Throws a 422 naming each faulty field, or a 403 for a refund in cash the caller may not give.
 */
import type { Violation } from './errors.ts';
import { resolveOrderDiscount, type OrderDiscountInput } from './cart.ts';
import { minorToString, parseMinor, parseRate } from './money.ts';
import { roundingAdjustment } from './tender.ts';
import { priceOrder, type PricedOrder, type TaxMode } from './tax.ts';
import { ORDER_STATUS, type SaleInput } from './schemas/sale.ts';
import { fail, notFoundRef, safe, type Cents, type FactOriginal, type PriceSaleOptions, type SaleFacts } from './sale-facts.ts';
import { priceCatalogueLines, priceReturnLines, type PricedLine, type PriceOverride } from './sale-lines.ts';
import { settlePayments, type PaymentRow, type RefundableTender } from './sale-settle.ts';

export interface StoredDiscount { typeId: number | null; rateType: 'fixed' | 'percent'; rate: number }

export interface PricedSaleCore {
  lines: PricedLine[];
  /** Unit prices overridden on purpose, by line index of the input. */
  overrides: PriceOverride[];
  totals: PricedOrder;
  /** Minor-unit digits of the store's currency. */
  digits: number;
  /** Cash rounding of the cash part (signed). */
  roundingCents: Cents;
  /** What the sale puts on the customer's account: the server checks it against their limit under a lock. */
  creditCents: Cents;
  /** A return: per original line id the quantity it takes back, and whether nothing is left after it. */
  returned: { lines: Map<number, number>; complete: boolean } | null;
  orderTax: { typeId: number | null; rate: number } | null;
  discount: StoredDiscount | null;
  payments: PaymentRow[];
  customerId: number | null;
  customerName: string | null;
}

interface Priced { lines: PricedLine[]; overrides: PriceOverride[]; totals: PricedOrder; orderTax: PricedSaleCore['orderTax']; discount: StoredDiscount | null }

export function priceSale(input: SaleInput, facts: SaleFacts, opt: PriceSaleOptions): PricedSaleCore {
  const { digits, original } = facts;
  const v: Violation[] = [];
  const adjustmentCents = safe(() => parseMinor(input.adjustment, digits), v, 'adjustment') ?? 0;
  const priced = original ? priceReturnOrder(input, facts, original, v) : priceNewOrder(input, facts, opt, adjustmentCents, v);

  let customerId = input.customerId;
  let customerName = input.customerName;
  if (original) {
    customerId = original.row.customerId;
    customerName = original.row.customerName;
  } else if (customerId != null && !facts.customerVisible) {
    v.push({ propertyPath: 'customerId', message: notFoundRef('Customer', customerId) });
  }
  fail(v);

  const settled = settlePayments({
    payments: input.payments, types: facts.paymentTypes, grandCents: priced.totals.grandTotalCents, settling: opt.status === ORDER_STATUS.COMPLETED,
    isReturn: original != null, customerId, digits, roundingStep: priced.totals.adjustmentCents !== 0 ? 0 : facts.cashRoundingStep,
    refundable: original ? refundableTenders(original, digits) : null, mayRefundCashForNonCash: facts.mayRefundCashForNonCash,
  });
  return {
    ...priced,
    digits,
    roundingCents: settled.roundingCents,
    creditCents: settled.creditCents,
    payments: settled.payments,
    returned: original ? priced.returned : null,
    customerId,
    customerName: customerName ?? null,
  };
}

/** A return: lines and amounts from the original; its order tax and discount as the original stored them. */
function priceReturnOrder(input: SaleInput, facts: SaleFacts, original: FactOriginal, v: Violation[]): Priced & { returned: PricedSaleCore['returned'] } {
  const r = priceReturnLines(input, original, new Map(facts.products.map((p) => [p.id, p])), facts.digits, v);
  const od = original.discount;
  return {
    lines: r.lines,
    overrides: [],
    totals: r.totals,
    returned: { lines: r.returned, complete: r.complete },
    orderTax: original.tax ? { typeId: original.tax.typeId, rate: parseRate(original.tax.rate) } : null,
    discount: od ? { typeId: od.typeId, rateType: od.rateType === 'percent' ? 'percent' : 'fixed', rate: od.rateType === 'percent' ? parseRate(od.rate) : -r.totals.discountTotalCents } : null,
  };
}

/** A new order: lines from the catalogue, the order tax and discount chosen, totals, the client's total checked. */
function priceNewOrder(input: SaleInput, facts: SaleFacts, opt: PriceSaleOptions, adjustmentCents: Cents, v: Violation[]): Priced & { returned: null } {
  const { digits } = facts;
  const m = (x: string | null | undefined) => parseMinor(x, digits);
  const products = facts.products;
  const { lines, overrides } = priceCatalogueLines(input, {
    storeId: facts.storeId, now: facts.now, timeZone: facts.timeZone, digits,
    productBy: new Map(products.map((p) => [p.id, p])), variantBy: new Map(products.flatMap((p) => p.variants).map((x) => [x.id, x])),
  }, v);
  const tolerance = 1 + input.items.length; // clients that do not round per line may drift by a minor unit per line
  // The client's total and adjustment are figures it computed (floats): rounded to the minor unit, never refused for their decimals.
  const sentTotal = input.total == null ? null : (() => { try { return m(input.total); } catch { return null; } })();

  let orderTax: Priced['orderTax'] = null;
  if (input.taxId != null) {
    if (facts.orderTax == null || facts.orderTax === 'missing') v.push({ propertyPath: 'tax', message: notFoundRef('Tax', input.taxId) });
    else orderTax = { typeId: facts.orderTax.id, rate: parseRate(facts.orderTax.rate) };
  }
  let stored: StoredDiscount | null = null;
  let discountInput: OrderDiscountInput = { kind: 'none' };
  let alternative: { input: OrderDiscountInput; stored: StoredDiscount } | null = null;
  if (input.discountId != null) {
    const d = facts.discount;
    if (d == null || d === 'missing') v.push({ propertyPath: 'discount', message: notFoundRef('Discount', input.discountId) });
    else if (d.scope === 'open' || d.rate == null) {
      // Open scope: the cashier's figure. `discountAmount` is a currency amount, except with
      // discountRateType 'percent', where our till sends the typed percent while the reference
      // client sends the discount total it computed: both readings are tried, and the one whose
      // total matches the till's `total` wins (the percent reading when no total is sent).
      const amount = safe(() => m(input.discountAmount), v, 'discountAmount');
      if (amount !== undefined && amount < 0) v.push({ propertyPath: 'discountAmount', message: 'This value should be either positive or zero.' });
      else if (amount) {
        discountInput = { kind: 'fixed', amountCents: amount };
        stored = { typeId: d.id, rateType: 'fixed', rate: amount };
        if (input.discountRateType === 'percent') {
          const rate = parseRate(input.discountAmount);
          alternative = { input: discountInput, stored };
          discountInput = { kind: 'percent', rate };
          stored = { typeId: d.id, rateType: 'percent', rate };
        }
      } else stored = { typeId: d.id, rateType: 'fixed', rate: 0 };
    } else {
      discountInput = safe(() => resolveOrderDiscount({ discount: { rateType: d.rateType, scope: d.scope, rate: d.rate } }, digits), v, 'discount') ?? { kind: 'none' };
      stored = discountInput.kind === 'percent' ? { typeId: d.id, rateType: 'percent', rate: discountInput.rate }
        : { typeId: d.id, rateType: 'fixed', rate: discountInput.kind === 'fixed' ? discountInput.amountCents : 0 };
    }
  }
  fail(v);
  const cartLines = lines.map((l) => ({
    priceCents: l.priceCents, qtyMilli: l.qtyMilli, discountCents: l.discountCents, taxIncluded: true,
    taxRates: l.taxes.map((x) => x.rate), taxKeys: l.taxes.map((x) => x.taxId),
  }));
  const mode = facts.taxMode;
  const compute = (d: OrderDiscountInput, adj: number, md: TaxMode = mode) =>
    priceOrder({ lines: cartLines, orderTaxRate: orderTax?.rate ?? null, discount: d, adjustmentCents: adj, mode: md });
  let t = safe(() => compute(discountInput, adjustmentCents), v, 'items', 'The amounts are out of range.')!;
  fail(v);
  const off = (x: PricedOrder) => sentTotal !== null && Math.abs(sentTotal - x.totalCents) > tolerance;
  // The client's total picks between readings computed here, never a figure of its own: the
  // alternative reading of an open percent discount, then (in a store taxing what is charged) the
  // legacy tax base the old client computes.
  const readings: { input: OrderDiscountInput; stored: StoredDiscount | null; mode: TaxMode }[] = [];
  if (alternative) readings.push({ ...alternative, mode });
  if (mode !== 'legacy') {
    readings.push({ input: discountInput, stored, mode: 'legacy' });
    if (alternative) readings.push({ ...alternative, mode: 'legacy' });
  }
  for (const r of off(t) ? readings : []) {
    const other = compute(r.input, adjustmentCents, r.mode);
    if (!off(other)) { discountInput = r.input; stored = r.stored; t = other; break; }
  }
  // The old client's adjustment may only round the total to a multiple of 10 major units.
  const tenUnits = 10 * 10 ** digits;
  if (adjustmentCents !== 0 && adjustmentCents !== roundingAdjustment(t.totalCents, tenUnits)) {
    if (opt.status === ORDER_STATUS.ON_HOLD) t = compute(discountInput, 0, t.mode); // re-checked when the held order is completed
    else v.push({ propertyPath: 'adjustment', message: `The adjustment can only round the total to a multiple of 10 (${minorToString(roundingAdjustment(t.totalCents, tenUnits), digits)})` });
  }
  // What the client sent as a total is checked, never stored.
  if (input.total != null && !opt.skipTotalCheck && opt.status !== ORDER_STATUS.ON_HOLD) {
    const sent = safe(() => m(input.total), v, 'total');
    if (sent !== undefined && Math.abs(sent - t.totalCents) > tolerance) {
      v.push({
        propertyPath: 'total',
        message: `Total mismatch: the order comes to ${minorToString(t.totalCents, digits)}, not ${minorToString(sent, digits)}. Prices may have changed: reload the items.`,
      });
    }
  }
  fail(v);
  return { lines, overrides, totals: t, orderTax, discount: stored, returned: null };
}

/** What each tender of the original can still give back: what it settled minus earlier returns' refunds to it. */
function refundableTenders(original: FactOriginal, digits: number): RefundableTender[] {
  const left = new Map<number, number>();
  for (const p of original.payments) if (p.typeId != null) left.set(p.typeId, (left.get(p.typeId) ?? 0) + parseMinor(p.total, digits));
  for (const p of original.returnedPayments) if (p.typeId != null && left.has(p.typeId)) left.set(p.typeId, left.get(p.typeId)! + parseMinor(p.total, digits));
  return [...left].map(([typeId, availableCents]) => ({ typeId, availableCents: Math.max(availableCents, 0) }));
}
