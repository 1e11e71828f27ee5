import { and, eq } from 'drizzle-orm';
import type { Violation } from '@pos/domain/errors';
import { computeOrderTotals, resolveOrderDiscount, type OrderDiscountInput, type OrderTotals } from '@pos/domain/cart';
import { parseMoney, parseQuantity, parseRate, quantityToString, toDecimalString } from '@pos/domain/money';
import { allocatePayments, changeDue, roundingAdjustment, validatePaymentAdd } from '@pos/domain/tender';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import { creditCheck } from '@pos/domain/ledger';
import { ORDER_STATUS, SALE_MESSAGES, type OrderStatus, type SaleInput } from '@pos/domain/schemas/sale';
import type { Tx } from '../../db/client.ts';
import { customer, discount, discountStore, tax, taxStore } from '../../db/schema/index.ts';
import { loadCustomerFigures } from '../customers/customer.figures.ts';
import { type Cents, linkedToStore, fail, notFoundRef, safe, proRata } from './sale-support.ts';
import { type LineTax, type OriginalOrder, type PricingProduct, type PaymentTypeRef, type Pricing } from './sale-read.ts';

// ---------------------------------------------------------------------------------------------
// Pricing: the server prices every sale with @pos/domain; the client's figures are only checked
// ---------------------------------------------------------------------------------------------

export interface PricedLine {
  productId: number;
  variantId: number | null;
  productName: string;
  manageInventory: boolean;
  qtyMilli: number;
  priceCents: Cents;
  /** Requested discount (the domain caps it). */
  discountCents: Cents;
  taxes: LineTax[];
  costCents: Cents;
}

export interface StoredDiscount { typeId: number | null; rateType: 'fixed' | 'percent'; rate: number }

export interface PaymentRow { typeId: number; totalCents: Cents; receivedCents: Cents; dueCents: Cents }

export interface PricedSale {
  lines: PricedLine[];
  totals: OrderTotals;
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
}

export function ruleOf(r: PricingProduct['rules'][number]): PriceRuleInput {
  let date: string | Date | null = null;
  if (r.date != null) {
    // 1-31 is a day of month; anything larger is read as a unix timestamp (seconds).
    date = r.date >= 1 && r.date <= 31 ? `2000-01-${String(r.date).padStart(2, '0')}` : new Date(r.date * 1000);
  }
  return {
    basePriceCents: parseMoney(r.basePrice), date, time: r.time, timeTo: r.timeTo, day: r.day,
    week: r.week, month: r.month, quarter: r.quarter,
  };
}

/**
 * Prices a sale: lines from the catalogue (product, variant or matching price rule, a barcode
 * price only when it is a barcode record of that product), return lines from the original order,
 * order tax and discount from their entities, then totals with @pos/domain/cart and payments with
 * @pos/domain/tender. Throws a 422 naming each faulty field.
 */
export async function priceSale(tx: Tx, input: SaleInput, opt: PriceOptions): Promise<PricedSale> {
  const v: Violation[] = [];
  const { storeId, original } = opt;
  const { products, types } = opt.pricing;
  const variants = products.flatMap((p) => p.variants);
  const pTaxes = products.flatMap((p) => p.taxes.map((t) => ({ productId: p.id, t })));
  const productBy = new Map(products.map((p) => [p.id, p]));
  const variantBy = new Map(variants.map((x) => [x.id, x]));

  // Return lines consume the original's lines.
  const remaining = original ? original.lines.map((l) => parseQuantity(l.quantity)) : [];

  const lines: PricedLine[] = [];
  input.items.forEach((l, i) => {
    const at = (f: string) => `items[${i}].${f}`;
    const qtyMilli = safe(() => parseQuantity(l.quantity), v, at('quantity'));
    if (qtyMilli === undefined) return;
    if (qtyMilli === 0) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.quantityZero }); return; }
    const p = productBy.get(l.productId);
    if (!p) { v.push({ propertyPath: at('item'), message: notFoundRef('Product', l.productId) }); return; }
    const variant = l.variantId != null ? variantBy.get(l.variantId) : undefined;
    if (l.variantId != null && (!variant || variant.productId !== p.id)) {
      v.push({ propertyPath: at('variant'), message: notFoundRef('Product variant', l.variantId) });
      return;
    }
    if (qtyMilli > 0) {
      if (original) { v.push({ propertyPath: at('quantity'), message: 'A return can only contain returned items (negative quantities)' }); return; }
      if (!p.isActive) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not for sale` }); return; }
      const sold = p.stores;
      if (sold.length && !sold.includes(storeId)) { v.push({ propertyPath: at('item'), message: `'${p.name}' is not sold in this store` }); return; }
      const productRules = p.rules.filter((r) => r.productVariantId == null).map(ruleOf);
      const base = parseMoney(p.basePrice);
      let priceCents: Cents;
      if (variant) {
        const own = p.rules.filter((r) => r.productVariantId === variant.id).map(ruleOf);
        priceCents = variant.price != null
          ? variantPrice(parseMoney(variant.price), base, productRules, opt.now)
          : effectivePrice(base, [...own, ...productRules], opt.now);
      } else {
        priceCents = effectivePrice(base, productRules, opt.now);
      }
      // A weighed / price-embedded barcode of this very product (and variant) may carry its own price.
      if (l.price != null) {
        const asked = safe(() => parseMoney(l.price), v, at('price'));
        if (asked !== undefined && asked !== priceCents
          && p.codes.some((c) => (c.variantId ?? null) === (l.variantId ?? null) && parseMoney(c.price) === asked)) {
          priceCents = asked;
        }
      }
      const discountCents = safe(() => parseMoney(l.discount), v, at('discount'));
      if (discountCents === undefined) return;
      const taxIncluded = l.taxIncluded ?? true;
      lines.push({
        productId: p.id, variantId: variant?.id ?? null, productName: p.name, manageInventory: p.manageInventory,
        qtyMilli, priceCents, discountCents,
        taxes: taxIncluded ? pTaxes.filter((x) => x.productId === p.id && x.t.isActive).map((x) => ({ taxId: x.t.id, rate: parseRate(x.t.rate) })) : [],
        costCents: variant?.purchasePrice != null ? parseMoney(variant.purchasePrice) : parseMoney(p.cost),
      });
      return;
    }
    // A return line: priced exactly as it was sold.
    if (!original) { v.push({ propertyPath: at('quantity'), message: SALE_MESSAGES.negativeWithoutReturn }); return; }
    const want = -qtyMilli;
    const key = (x: { productId: number; variantId: number | null }) => `${x.productId}:${x.variantId ?? ''}`;
    const candidates = original.lines.map((ol, k) => ({ ol, k })).filter(({ ol, k }) => key(ol) === key({ productId: p.id, variantId: l.variantId }) && remaining[k] >= want);
    const askedPrice = l.price != null ? (() => { try { return parseMoney(l.price); } catch { return null; } })() : null;
    const hit = candidates.find(({ ol }) => askedPrice !== null && parseMoney(ol.price) === askedPrice) ?? candidates[0];
    if (!hit) {
      const left = original.lines.reduce((s, ol, k) => (key(ol) === key({ productId: p.id, variantId: l.variantId }) ? s + remaining[k] : s), 0);
      v.push({
        propertyPath: at('quantity'),
        message: left > 0 ? `Cannot return more than ${quantityToString(left)} of '${p.name}'` : `'${p.name}' is not in order #${original.row.orderId}`,
      });
      return;
    }
    remaining[hit.k] -= want;
    const soldQty = parseQuantity(hit.ol.quantity);
    lines.push({
      productId: p.id, variantId: hit.ol.variantId, productName: p.name, manageInventory: p.manageInventory,
      qtyMilli, priceCents: parseMoney(hit.ol.price),
      // The stored discount is the line's effective discount; a partial return gets its share.
      discountCents: proRata(Math.abs(parseMoney(hit.ol.discount)), want, soldQty),
      taxes: hit.ol.taxes,
      costCents: parseMoney(hit.ol.cost),
    });
  });
  fail(v);

  // Order tax.
  let orderTaxInfo: PricedSale['orderTax'] = null;
  let taxType: typeof tax.$inferSelect | null = null;
  if (original) {
    if (original.tax) orderTaxInfo = { typeId: original.tax.typeId, rate: parseRate(original.tax.rate) };
  } else if (input.taxId != null) {
    const [t] = await tx.select().from(tax).where(and(eq(tax.id, input.taxId), eq(tax.isActive, true), linkedToStore(taxStore, tax.id, storeId)));
    if (!t) v.push({ propertyPath: 'tax', message: notFoundRef('Tax', input.taxId) });
    else { orderTaxInfo = { typeId: t.id, rate: parseRate(t.rate) }; taxType = t; }
  }

  // Order discount.
  let discountInput: OrderDiscountInput = { kind: 'none' };
  let stored: StoredDiscount | null = null;
  let alternative: { input: OrderDiscountInput; stored: StoredDiscount } | null = null;
  let discountType: typeof discount.$inferSelect | null = null;
  if (original) {
    // A return takes back the original's discount: the same percent, or its share of a fixed amount.
    const od = original.discount;
    if (od) {
      if (od.rateType === 'percent') {
        discountInput = { kind: 'percent', rate: parseRate(od.rate) };
        stored = { typeId: od.typeId, rateType: 'percent', rate: parseRate(od.rate) };
      } else {
        stored = { typeId: od.typeId, rateType: 'fixed', rate: 0 };
      }
    }
  } else if (input.discountId != null) {
    const [d] = await tx.select().from(discount)
      .where(and(eq(discount.id, input.discountId), eq(discount.isActive, true), linkedToStore(discountStore, discount.id, storeId)));
    if (d) discountType = d;
    if (!d) v.push({ propertyPath: 'discount', message: notFoundRef('Discount', input.discountId) });
    else if (d.scope === 'open' || d.rate == null) {
      // Open scope: the cashier's figure. `discountAmount` is a currency amount, except with
      // discountRateType 'percent', where our till sends the typed percent while the reference
      // client sends the discount total it computed: both readings are tried, and the one whose
      // total matches the till's `total` wins (the percent reading when no total is sent).
      const amount = safe(() => parseMoney(input.discountAmount), v, 'discountAmount');
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
      discountInput = safe(() => resolveOrderDiscount({ discount: { rateType: d.rateType, scope: d.scope, rate: d.rate } }), v, 'discount') ?? { kind: 'none' };
      stored = discountInput.kind === 'percent' ? { typeId: d.id, rateType: 'percent', rate: discountInput.rate }
        : { typeId: d.id, rateType: 'fixed', rate: discountInput.kind === 'fixed' ? discountInput.amountCents : 0 };
    }
  }
  const adjustmentCents = safe(() => parseMoney(input.adjustment), v, 'adjustment') ?? 0;
  fail(v);

  const cartLines = lines.map((l) => ({
    priceCents: l.priceCents, qtyMilli: l.qtyMilli, discountCents: l.discountCents, taxIncluded: true, taxRates: l.taxes.map((t) => t.rate),
  }));
  const compute = (d: OrderDiscountInput, adj: number) => computeOrderTotals({ lines: cartLines, orderTaxRate: orderTaxInfo?.rate ?? null, discount: d, adjustmentCents: adj });
  let totals = safe(() => compute(discountInput, adjustmentCents), v, 'items', 'The amounts are out of range.');
  fail(v);
  if (original?.discount && original.discount.rateType !== 'percent') {
    const share = proRata(parseMoney(original.discount.amount),
      totals!.subTotalCents + totals!.orderTaxCents,
      parseMoney(original.row.subTotal) + (original.tax ? parseMoney(original.tax.amount) : 0));
    discountInput = { kind: 'fixed', amountCents: share };
    stored = { typeId: original.discount.typeId, rateType: 'fixed', rate: share };
    totals = compute(discountInput, adjustmentCents);
  }
  let t = totals!;
  const tolerance = 1 + lines.length; // clients that do not round per line may drift by a cent per line
  const sentTotal = input.total == null ? null : (() => { try { return parseMoney(input.total); } catch { return null; } })();
  if (alternative && sentTotal !== null && Math.abs(sentTotal - t.totalCents) > tolerance) {
    const other = compute(alternative.input, adjustmentCents);
    if (Math.abs(sentTotal - other.totalCents) <= tolerance) {
      discountInput = alternative.input;
      stored = alternative.stored;
      t = other;
    }
  }

  // The adjustment may only round the total to a multiple of 10 (tender.roundingAdjustment).
  if (adjustmentCents !== 0 && adjustmentCents !== roundingAdjustment(t.totalCents)) {
    if (opt.status === ORDER_STATUS.ON_HOLD) t = compute(discountInput, 0); // re-checked when the held order is completed
    else v.push({ propertyPath: 'adjustment', message: `The adjustment can only round the total to a multiple of 10 (${toDecimalString(roundingAdjustment(t.totalCents))})` });
  }
  // What the client sent as a total is checked, never stored.
  if (input.total != null && !opt.skipTotalCheck && opt.status !== ORDER_STATUS.ON_HOLD) {
    const sent = safe(() => parseMoney(input.total), v, 'total');
    if (sent !== undefined && Math.abs(sent - t.totalCents) > tolerance) {
      v.push({
        propertyPath: 'total',
        message: `Total mismatch: the order comes to ${toDecimalString(t.totalCents)}, not ${toDecimalString(sent)}. Prices may have changed: reload the items.`,
      });
    }
  }
  fail(v);

  // Customer.
  let customerId = input.customerId;
  let customerName = input.customerName;
  if (original) {
    customerId = original.row.customerId;
    customerName = original.row.customerName;
  } else if (customerId != null) {
    const [c] = await tx.select({ id: customer.id }).from(customer).where(eq(customer.id, customerId));
    if (!c) v.push({ propertyPath: 'customerId', message: notFoundRef('Customer', customerId) });
  }

  // Payments.
  const typeBy = new Map(types.map((x) => [x.id, x]));
  const tendered: { index: number; receivedCents: Cents; type: PaymentTypeRef }[] = [];
  input.payments.forEach((p, i) => {
    const type = typeBy.get(p.typeId);
    if (!type) { v.push({ propertyPath: `payments[${i}].type`, message: notFoundRef('Payment', p.typeId) }); return; }
    const receivedCents = safe(() => parseMoney(p.received), v, `payments[${i}].received`);
    if (receivedCents === undefined) return;
    tendered.push({ index: i, receivedCents, type });
  });
  fail(v);
  const grand = t.grandTotalCents;
  const settling = opt.status === ORDER_STATUS.COMPLETED;
  // A zero payment is meaningless; for a zero total (everything discounted) the till sends one anyway.
  const kept = tendered.filter((p) => p.receivedCents !== 0 || (settling && grand !== 0));
  if (settling) {
    if (kept.length === 0 && grand !== 0) v.push({ propertyPath: 'payments', message: SALE_MESSAGES.noPayments });
    let already = 0;
    for (const p of kept) {
      const msg = validatePaymentAdd({ amountCents: p.receivedCents, paymentType: { name: p.type.name, canHaveChangeDue: p.type.canHaveChangeDue }, alreadyReceivedCents: already, totalCents: grand });
      if (msg) v.push({ propertyPath: `payments[${p.index}].received`, message: msg });
      already += p.receivedCents;
    }
    if (kept.length && !v.length) {
      const change = changeDue(grand, kept);
      if (grand >= 0 ? change < 0 : change > 0) {
        v.push({ propertyPath: 'payments', message: `The payments do not cover the total: ${toDecimalString(Math.abs(change))} still to ${grand >= 0 ? 'receive' : 'pay back'}` });
      }
    }
    kept.forEach((p) => {
      if (p.type.type === 'credit' && customerId == null) v.push({ propertyPath: `payments[${p.index}].type`, message: 'A customer is required for credit payments' });
    });
  }
  fail(v);
  const allocated = allocatePayments(grand, kept.map((p) => ({ receivedCents: p.receivedCents, canHaveChangeDue: p.type.canHaveChangeDue, type: p.type })));

  if (settling && customerId != null) {
    const newCredit = allocated.filter((p) => p.type.type === 'credit').reduce((s, p) => s + p.totalCents, 0);
    if (newCredit > 0) {
      // Lock the customer: two tills cannot both spend the same credit headroom.
      const [c] = await tx.select().from(customer).where(eq(customer.id, customerId)).for('update');
      const fig = (await loadCustomerFigures(tx, [customerId])).get(customerId);
      const msg = creditCheck({
        limitCents: c.creditLimit == null ? null : parseMoney(c.creditLimit),
        balanceCents: fig?.balance ?? 0,
        newCreditCents: newCredit,
        allowCredit: c.allowCreditSale,
      });
      if (msg) v.push({ propertyPath: 'payments', message: msg });
    }
  }
  fail(v);

  return {
    lines,
    totals: t,
    orderTax: orderTaxInfo,
    discount: stored,
    payments: allocated.map((p) => ({ typeId: p.type.id, totalCents: p.totalCents, receivedCents: p.receivedCents, dueCents: p.dueCents })),
    customerId,
    customerName,
    refs: { products: productBy, variants: variantBy, productTaxes: pTaxes, paymentTypes: typeBy, discountType, taxType },
  };
}

