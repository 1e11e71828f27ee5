import { and, eq, inArray } from 'drizzle-orm';
import type { Violation } from '@pos/domain/errors';
import { resolveOrderDiscount, type OrderDiscountInput } from '@pos/domain/cart';
import { minorToString, parseMinor, parseQuantity, parseRate, parseWireAmount } from '@pos/domain/money';
import { roundingAdjustment } from '@pos/domain/tender';
import { priceOrder, taxModeOf, type PricedOrder, type TaxMode } from '@pos/domain/tax';
import { currencyDigits } from '@pos/domain/currency';
import type { StoreMoneySettings } from '@pos/domain/store-settings';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import { ORDER_STATUS, SALE_MESSAGES, type OrderStatus, type SaleInput } from '@pos/domain/schemas/sale';
import type { Tx } from '../../db/client.ts';
import { customer, discount, discountStore, paymentType, tax, taxStore } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { type Cents, linkedToStore, fail, notFoundRef, safe } from './sale-support.ts';
import type { OriginalOrder, PricedLine, PricingProduct, PaymentTypeRef, Pricing } from './sale-read.ts';
import { settlePayments, type PaymentRow, type RefundableTender } from './sale-payments.ts';
import { customerScope } from '../customer-account/customer.scope.ts';
import { priceReturnLines } from './sale-return.ts';

export type { PricedLine } from './sale-read.ts';
export type { PaymentRow } from './sale-payments.ts';

// ---------------------------------------------------------------------------------------------
// Pricing: the server prices every sale with @pos/domain; the client's figures are only checked
// ---------------------------------------------------------------------------------------------


export interface StoredDiscount { typeId: number | null; rateType: 'fixed' | 'percent'; rate: number }


/** A line whose unit price was typed on purpose (needs 'price.override'). */
export interface PriceOverride { index: number; catalogueCents: Cents; askedCents: Cents }

export interface PricedSale {
  lines: PricedLine[];
  /** Unit prices overridden on purpose, by line index of the input. */
  overrides: PriceOverride[];
  totals: PricedOrder;
  /** Minor-unit digits of the store's currency. */
  digits: number;
  /** Cash rounding of the cash part (signed), see sale-payments.ts. */
  roundingCents: Cents;
  /** A return: per original line id the quantity it takes back, and whether nothing is left after it. */
  returned: { lines: Map<number, number>; complete: boolean } | null;
  orderTax: { typeId: number | null; rate: number } | null;
  discount: StoredDiscount | null;
  payments: PaymentRow[];
  customerId: number | null;
  customerName: string | null;
  /** The catalogue rows the sale was priced from (the answer is built from them: see saleDto). */
  refs: {
    products: Map<number, PricingProduct>;
    variants: Map<number, PricingProduct['variants'][number]>;
    productTaxes: { productId: number; t: PricingProduct['taxes'][number] }[];
    paymentTypes: Map<number, PaymentTypeRef>;
    discountType: typeof discount.$inferSelect | null;
    taxType: typeof tax.$inferSelect | null;
  };
}

export interface PriceOptions {
  storeId: number;
  now: Date;
  status: OrderStatus;
  original: OriginalOrder | null;
  /** Skip the client-total comparison (server-built input). */
  skipTotalCheck?: boolean;
  /** What pricing reads, from the order's read (readOrder). */
  pricing: Pricing;
  /** The store's money settings (currency, time zone, tax mode, cash rounding). */
  settings: StoreMoneySettings;
  actor: AuthInfo;
}

export function ruleOf(r: PricingProduct['rules'][number], digits: number): PriceRuleInput {
  let date: string | Date | null = null;
  if (r.date != null) {
    // 1-31 is a day of month; anything larger is read as a unix timestamp (seconds).
    date = r.date >= 1 && r.date <= 31 ? `2000-01-${String(r.date).padStart(2, '0')}` : new Date(r.date * 1000);
  }
  return {
    basePriceCents: parseMinor(r.basePrice, digits), date, time: r.time, timeTo: r.timeTo, day: r.day,
    week: r.week, month: r.month, quarter: r.quarter,
  };
}

/**
 * Prices a sale: lines from the catalogue (product, variant or matching price rule in the store's
 * time zone, a barcode price only when it is a barcode record of that product) or, for a return,
 * from the original order (sale-return.ts); order tax and discount from their entities; totals
 * with @pos/domain/tax in the store's tax mode; payments with sale-payments.ts. Amounts are minor
 * units of the store's currency. Throws a 422 naming each faulty field.
 */
export async function priceSale(tx: Tx, input: SaleInput, opt: PriceOptions): Promise<PricedSale> {
  const v: Violation[] = [];
  const { storeId, original, settings } = opt;
  const digits = currencyDigits(settings.currency);
  const m = (x: string | null | undefined) => parseMinor(x, digits);
  const { products, types } = opt.pricing;
  const variants = products.flatMap((p) => p.variants);
  const pTaxes = products.flatMap((p) => p.taxes.map((t) => ({ productId: p.id, t })));
  const productBy = new Map(products.map((p) => [p.id, p]));
  const variantBy = new Map(variants.map((x) => [x.id, x]));
  const adjustmentCents = safe(() => m(input.adjustment), v, 'adjustment') ?? 0;
  const tolerance = 1 + input.items.length; // clients that do not round per line may drift by a minor unit per line
  // The client's total and adjustment are figures it computed (floats): rounded to the minor unit, never refused for their decimals.
  const sentTotal = input.total == null ? null : (() => { try { return m(input.total); } catch { return null; } })();

  let lines: PricedLine[] = [];
  let t: PricedOrder;
  let orderTaxInfo: PricedSale['orderTax'] = null;
  let taxType: typeof tax.$inferSelect | null = null;
  let stored: StoredDiscount | null = null;
  let discountType: typeof discount.$inferSelect | null = null;
  let returned: PricedSale['returned'] = null;
  const overrides: PriceOverride[] = [];
  if (original) {
    const r = priceReturnLines(input, original, productBy, digits, v);
    fail(v);
    lines = r!.lines;
    t = r!.totals;
    returned = { lines: r!.returned, complete: r!.complete };
    if (original.tax) orderTaxInfo = { typeId: original.tax.typeId, rate: parseRate(original.tax.rate) };
    const od = original.discount;
    if (od) stored = { typeId: od.typeId, rateType: od.rateType === 'percent' ? 'percent' : 'fixed', rate: od.rateType === 'percent' ? parseRate(od.rate) : -t.discountTotalCents };
  } else {
    lines = priceCatalogueLines(input, { storeId, now: opt.now, timeZone: settings.timeZone, digits, productBy, variantBy, pTaxes, overrides }, v);
    if (input.taxId != null) {
      const [x] = await tx.select().from(tax).where(and(eq(tax.id, input.taxId), eq(tax.isActive, true), linkedToStore(taxStore, tax.id, storeId)));
      if (!x) v.push({ propertyPath: 'tax', message: notFoundRef('Tax', input.taxId) });
      else { orderTaxInfo = { typeId: x.id, rate: parseRate(x.rate) }; taxType = x; }
    }
    let discountInput: OrderDiscountInput = { kind: 'none' };
    let alternative: { input: OrderDiscountInput; stored: StoredDiscount } | null = null;
    if (input.discountId != null) {
      const [d] = await tx.select().from(discount)
        .where(and(eq(discount.id, input.discountId), eq(discount.isActive, true), linkedToStore(discountStore, discount.id, storeId)));
      if (d) discountType = d;
      if (!d) v.push({ propertyPath: 'discount', message: notFoundRef('Discount', input.discountId) });
      else if (d.scope === 'open' || d.rate == null) {
        // Open scope: the cashier's figure. `discountAmount` is a currency amount, except with
        // discountRateType 'percent', where our till sends the typed percent while the reference
        // client sends the discount total it computed: both readings are tried, and the one whose
        // total matches the till's `total` wins (the percent reading when no total is sent).
        const percentTyped = input.discountRateType === 'percent';
        const amount = safe(() => m(input.discountAmount), v, 'discountAmount');
        if (amount !== undefined && amount < 0) v.push({ propertyPath: 'discountAmount', message: 'This value should be either positive or zero.' });
        else if (amount) {
          discountInput = { kind: 'fixed', amountCents: amount };
          stored = { typeId: d.id, rateType: 'fixed', rate: amount };
          if (percentTyped) {
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
    const mode = taxModeOf(settings);
    const compute = (d: OrderDiscountInput, adj: number, md: TaxMode = mode) =>
      priceOrder({ lines: cartLines, orderTaxRate: orderTaxInfo?.rate ?? null, discount: d, adjustmentCents: adj, mode: md });
    t = safe(() => compute(discountInput, adjustmentCents), v, 'items', 'The amounts are out of range.')!;
    fail(v);
    const off = (x: PricedOrder) => sentTotal !== null && Math.abs(sentTotal - x.totalCents) > tolerance;
    // The client's total picks between readings the server computed, never a figure of its own:
    // the alternative reading of an open percent discount, then (in a store taxing what is
    // charged) the legacy tax base the old client computes.
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
    // What the client sent as a total is checked, never stored (a return's amounts come from its original).
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
  }

  // Customer.
  let customerId = input.customerId;
  let customerName = input.customerName;
  if (original) {
    customerId = original.row.customerId;
    customerName = original.row.customerName;
  } else if (customerId != null) {
    const [c] = await tx.select({ id: customer.id }).from(customer).where(and(eq(customer.id, customerId), customerScope(opt.actor)));
    if (!c) v.push({ propertyPath: 'customerId', message: notFoundRef('Customer', customerId) });
  }
  fail(v);

  // A return with no payments goes back to the original's tenders: their types, even if deactivated since.
  const tenderTypes = original && input.payments.length === 0 && original.payments.length
    ? await tx.select({ id: paymentType.id, name: paymentType.name, type: paymentType.type, canHaveChangeDue: paymentType.canHaveChangeDue }).from(paymentType)
      .where(inArray(paymentType.id, original.payments.map((p) => p.typeId).filter((x): x is number => x != null)))
    : [];
  const allTypes = [...types, ...tenderTypes.filter((x) => !types.some((y) => y.id === x.id))];
  const settled = await settlePayments(tx, {
    payments: input.payments, types: allTypes, grandCents: t.grandTotalCents, settling: opt.status === ORDER_STATUS.COMPLETED,
    isReturn: original != null, customerId, digits, roundingStep: t.adjustmentCents !== 0 ? 0 : settings.cashRoundingStep,
    refundable: original ? refundableTenders(original, digits) : null, actor: opt.actor,
  });

  return {
    lines,
    overrides,
    totals: t,
    digits,
    roundingCents: settled.roundingCents,
    orderTax: orderTaxInfo,
    discount: stored,
    payments: settled.payments,
    returned,
    customerId,
    customerName,
    refs: { products: productBy, variants: variantBy, productTaxes: pTaxes, paymentTypes: new Map(allTypes.map((x) => [x.id, x])), discountType, taxType },
  };
}

/** What each tender of the original can still give back: what it settled minus earlier returns' refunds to it. */
function refundableTenders(original: OriginalOrder, digits: number): RefundableTender[] {
  const left = new Map<number, number>();
  for (const p of original.payments) if (p.typeId != null) left.set(p.typeId, (left.get(p.typeId) ?? 0) + parseMinor(p.total, digits));
  for (const p of original.returnedPayments) if (p.typeId != null && left.has(p.typeId)) left.set(p.typeId, left.get(p.typeId)! + parseMinor(p.total, digits));
  return [...left].map(([typeId, availableCents]) => ({ typeId, availableCents: Math.max(availableCents, 0) }));
}

interface CatalogueCtx {
  storeId: number; now: Date; timeZone: string; digits: number;
  /** Lines whose unit price was overridden (filled by priceCatalogueLines). */
  overrides: PriceOverride[];
  productBy: Map<number, PricingProduct>; variantBy: Map<number, PricingProduct['variants'][number]>;
  pTaxes: { productId: number; t: PricingProduct['taxes'][number] }[];
}

/** A sale's lines priced from the catalogue: variant price, price rule in force (store time zone), base price, or a barcode price. */
function priceCatalogueLines(input: SaleInput, c: CatalogueCtx, v: Violation[]): PricedLine[] {
  const m = (x: string | null | undefined) => parseMinor(x, c.digits);
  const lines: PricedLine[] = [];
  input.items.forEach((l, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const qtyMilli = safe(() => parseQuantity(l.quantity), v, at('quantity'));
    if (qtyMilli === undefined) return;
    if (qtyMilli === 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.quantityZero }); return; }
    if (qtyMilli < 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.negativeWithoutReturn }); return; }
    const p = c.productBy.get(l.productId);
    if (!p) { v.push({ propertyPath: at('item'), message: notFoundRef('Product', l.productId) }); return; }
    const variant = l.variantId != null ? c.variantBy.get(l.variantId) : undefined;
    if (l.variantId != null && (!variant || variant.productId !== p.id)) {
      v.push({ propertyPath: at('variant'), message: notFoundRef('Product variant', l.variantId) });
      return;
    }
    if (!p.isActive) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not for sale` }); return; }
    const sold = p.stores;
    if (sold.length && !sold.includes(c.storeId)) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not sold in this store` }); return; }
    const productRules = p.rules.filter((r) => r.productVariantId == null).map((r) => ruleOf(r, c.digits));
    const base = m(p.basePrice);
    let priceCents: Cents;
    if (variant) {
      const own = p.rules.filter((r) => r.productVariantId === variant.id).map((r) => ruleOf(r, c.digits));
      priceCents = variant.price != null
        ? variantPrice(m(variant.price), base, productRules, c.now, c.timeZone)
        : effectivePrice(base, [...own, ...productRules], c.now, c.timeZone);
    } else {
      priceCents = effectivePrice(base, productRules, c.now, c.timeZone);
    }
    // A price typed on purpose (priceOverride) is used as it is; who may do it is checked by
    // sale-authorise.ts before anything is written.
    if (l.priceOverride && l.price != null) {
      const asked = safe(() => m(l.price), v, at('price'));
      if (asked !== undefined && asked < 0) v.push({ propertyPath: at('price'), message: 'This value should be either positive or zero.' });
      else if (asked !== undefined && asked !== priceCents) { c.overrides.push({ index: i, catalogueCents: priceCents, askedCents: asked }); priceCents = asked; }
    } else if (l.price != null) {
      // A weighed / price-embedded barcode of this very product (and variant) may carry its own price.
      const asked = safe(() => m(l.price), v, at('price'));
      if (asked !== undefined && asked !== priceCents
        && p.codes.some((x) => (x.variantId ?? null) === (l.variantId ?? null) && m(x.price) === asked)) {
        priceCents = asked;
      }
    }
    const discountCents = safe(() => (l.discountTyped ? parseWireAmount(l.discount, c.digits) : m(l.discount)), v, at('discount'));
    if (discountCents === undefined) return;
    const taxIncluded = l.taxIncluded ?? true;
    lines.push({
      productId: p.id, variantId: variant?.id ?? null, productName: p.name, manageInventory: p.manageInventory,
      qtyMilli, priceCents, discountCents,
      taxes: taxIncluded ? c.pTaxes.filter((x) => x.productId === p.id && x.t.isActive).map((x) => ({ taxId: x.t.id, rate: parseRate(x.t.rate) })) : [],
      costCents: variant?.purchasePrice != null ? m(variant.purchasePrice) : m(p.cost),
    });
  });
  fail(v);
  return lines;
}
