/**
 * The cart's transitions as pure functions (state in, state out), so every rule of spec
 * sections 2.5, 4 and 5 is tested without React. Amounts are integer cents, quantities milli.
 */
import { capLineDiscount, lineDiscountFromPercent } from '@pos/domain/cart';
import { QTY_ONE, minorToString, mulPriceQty, parseMoney, tryParseMoney, parseRate, tryParseScaled } from '@pos/domain/money';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import { messages } from '@pos/domain/messages';
import type { Customer, Discount, PaymentType, PriceRule, Product, Tax, Variant } from '@/features/catalogue-cache/types';
import type { CartDefaults, CartField, CartLine, CartProduct, CartResult, CartState, CartVariant, DiscountRateType } from './cart-types';

export const QUANTITY_BELOW_ONE = messages.quantityBelowOne;

export const newId = (): string =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;

export function emptyCart(defaults: Partial<CartDefaults> = {}): CartState {
  return {
    q: '',
    added: [],
    selected: 0,
    selectedVariant: 0,
    quantity: '1',
    rate: 0,
    adjustment: 0,
    cartItemType: 'quantity',
    tax: defaults.tax ?? null,
    discount: defaults.discount ?? null,
    discountAmount: null,
    discountRateType: null,
    customer: null,
    customerName: '',
    paymentType: defaults.paymentType ?? null,
    orderId: null,
    refundingFrom: null,
    notes: '',
    uuid: newId(),
  };
}

/** Price rules in cents, as @pos/domain/price-rules expects them. */
export function priceRulesOf(rules: readonly PriceRule[] | null | undefined): PriceRuleInput[] {
  return (rules ?? []).map((r) => ({
    basePriceCents: r.basePrice === null || r.basePrice === undefined || r.basePrice === '' ? null : parseMoney(r.basePrice),
    date: r.date === null || r.date === undefined ? null : String(r.date),
    time: r.time ?? null,
    timeTo: r.timeTo ?? null,
    day: r.day ?? null,
    week: r.week ?? null,
    month: r.month ?? null,
    quarter: r.quarter ?? null,
  }));
}

/** The price in force now for a product (or one of its variants), in cents; rules on the store's clock (`timeZone`, issue 19). */
export function unitPriceOf(product: Product, variant: Variant | null | undefined, now = new Date(), timeZone?: string): number {
  const base = parseMoney(product.basePrice);
  if (variant) {
    const own = variant.price === null || variant.price === undefined || variant.price === '' ? null : parseMoney(variant.price);
    const rules = variant.prices?.length ? variant.prices : product.prices;
    return variantPrice(own, base, priceRulesOf(rules), now, timeZone);
  }
  return effectivePrice(base, priceRulesOf(product.prices), now, timeZone);
}

/**
 * The price in force as the catalogue's own decimal text (the variant's price, the matching price
 * rule's, else the product's), chosen by the same rules as `unitPriceOf` on thousandths: it keeps a
 * third minor digit (KWD 1.275) that cents cannot hold. Undefined when a price has more than three
 * decimals or the text does not round to the cents price.
 */
function exactPriceOf(product: Product, variant: Variant | null | undefined, priceCents: number, now = new Date(), timeZone?: string): string | undefined {
  const milli = (v: unknown) => (v === null || v === undefined || v === '' ? null : tryParseScaled(String(v).trim(), 3));
  const base = milli(product.basePrice);
  if (base === null) return undefined;
  const rulesOf = (rules: readonly PriceRule[] | null | undefined) => priceRulesOf(rules).map((r, i) => ({ ...r, basePriceCents: milli(rules![i].basePrice) }));
  const chosen = variant
    ? variantPrice(milli(variant.price), base, rulesOf(variant.prices?.length ? variant.prices : product.prices), now, timeZone)
    : effectivePrice(base, rulesOf(product.prices), now, timeZone);
  return exactIfSame(minorToString(chosen, 3), priceCents);
}

/** `text` when it rounds to `priceCents` (the exact figure of the same price), else undefined. */
const exactIfSame = (text: string | null | undefined, priceCents: number) =>
  text && tryParseMoney(text) === priceCents ? text : undefined;

export function cartProduct(p: Product | CartProduct): CartProduct {
  return { id: p.id, '@id': p['@id'], name: p.name, barcode: p.barcode ?? null, manageInventory: p.manageInventory ?? false, basePrice: p.basePrice, saleUnit: p.saleUnit ?? null };
}

export function cartVariant(v: Variant | CartVariant | null | undefined): CartVariant | null {
  if (!v) return null;
  return { id: v.id, '@id': v['@id'], attributeValue: v.attributeValue ?? null, attributeName: v.attributeName ?? null, barcode: v.barcode ?? null };
}

/** Parses the quantity box ('1', '2.5'); null when it is not a positive number. */
export function parseQuantityInput(text: string): number | null {
  const q = tryParseScaled(text, 3);
  return q === null || q <= 0 ? null : q;
}

export interface AddInput {
  product: Product;
  variant?: Variant | null;
  qtyMilli: number;
  /** An explicit unit price (a weighed barcode's price) overriding the product's. */
  priceCents?: number | null;
  /** The same price as decimal text, exact in a 3-decimal currency (issue 19). */
  priceExact?: string | null;
  now?: Date;
  /** The store's IANA time zone: price rules run on its clock (issue 19). */
  timeZone?: string;
}

const sameLine = (line: CartLine, productId: number, variantId: number | null) =>
  line.item.id === productId && (line.variant?.id ?? null) === variantId;

/**
 * Adds a product (or variant): an existing line of the same item and variant gets the quantity
 * added, otherwise a new line is appended with discount 0 and the product's taxes.
 */
export function addToCart(state: CartState, input: AddInput): CartResult {
  const { product, qtyMilli } = input;
  if (qtyMilli <= 0) return { state, error: QUANTITY_BELOW_ONE };
  const variant = input.variant ?? null;
  const variantId = variant?.id ?? null;
  const index = state.added.findIndex((l) => sameLine(l, product.id, variantId));
  if (index >= 0) {
    const added = state.added.map((l, i) => (i === index ? withQuantity(l, l.quantity + qtyMilli) : l));
    return { state: { ...state, added, selected: index } };
  }
  const price = input.priceCents ?? unitPriceOf(product, variant, input.now, input.timeZone);
  const exact = input.priceCents == null ? exactPriceOf(product, variant, price, input.now, input.timeZone) : exactIfSame(input.priceExact, price);
  const line: CartLine = {
    key: newId(),
    item: cartProduct(product),
    variant: cartVariant(variant),
    checked: false,
    quantity: qtyMilli,
    discount: 0,
    price,
    ...(exact === undefined ? {} : { priceExact: exact }),
    taxIncluded: true,
    taxes: (product.taxes ?? []).map((t) => ({ id: t.id, name: t.name, rate: t.rate })),
  };
  const added = [...state.added, line];
  return { state: { ...state, added, selected: added.length - 1 } };
}

/** The same line with another quantity; a percent discount is re-applied to the new gross. */
function withQuantity(line: CartLine, quantity: number): CartLine {
  const discount =
    line.discountRate !== null && line.discountRate !== undefined
      ? lineDiscountFromPercent(line.price, quantity, line.discountRate)
      : line.discount;
  return { ...line, quantity, discount };
}

/** Indexes the toolbar acts on: the checked lines, or the last line when none is checked. */
export function targetIndexes(state: CartState): number[] {
  const checked = state.added.flatMap((l, i) => (l.checked ? [i] : []));
  if (checked.length) return checked;
  return state.added.length ? [state.added.length - 1] : [];
}

function afterLinesChange(state: CartState, added: CartLine[]): CartState {
  const selected = added.length === 0 ? 0 : Math.min(state.selected, added.length - 1);
  // An empty cart has nothing to round.
  return { ...state, added, selected, adjustment: added.length === 0 ? 0 : state.adjustment };
}

/** Removes the checked lines, or the last line. */
export function removeTargets(state: CartState): CartState {
  const targets = new Set(targetIndexes(state));
  return afterLinesChange(state, state.added.filter((_, i) => !targets.has(i)));
}

/** Removes one line (del on the active row, the row's remove button). */
export function removeLine(state: CartState, index: number): CartState {
  if (index < 0 || index >= state.added.length) return state;
  return afterLinesChange(state, state.added.filter((_, i) => i !== index));
}

/** Duplicates the checked lines (or the last one) as new unchecked lines at the end. */
export function duplicateTargets(state: CartState): CartState {
  const copies = targetIndexes(state).map((i) => ({ ...state.added[i], key: newId(), checked: false }));
  const added = [...state.added.map((l) => ({ ...l, checked: false })), ...copies];
  return { ...state, added, selected: added.length - 1 };
}

const uncheck = (lines: CartLine[]) => lines.map((l) => (l.checked ? { ...l, checked: false } : l));

/** The quantity dialog: sets a quantity on the checked lines (or the last), then unchecks them. */
export function setTargetsQuantity(state: CartState, qtyMilli: number): CartResult {
  if (!(qtyMilli > 0)) return { state, error: QUANTITY_BELOW_ONE };
  const targets = new Set(targetIndexes(state));
  const added = uncheck(state.added.map((l, i) => (targets.has(i) ? withQuantity(l, qtyMilli) : l)));
  return { state: { ...state, added } };
}

/** Inline quantity edit of one line. Refused when zero or less, the quantity stays as it was. */
export function setLineQuantity(state: CartState, index: number, qtyMilli: number): CartResult {
  const line = state.added[index];
  if (!line) return { state };
  if (!(qtyMilli > 0)) return { state, error: QUANTITY_BELOW_ONE };
  const added = state.added.map((l, i) => (i === index ? withQuantity(l, qtyMilli) : l));
  return { state: { ...state, added } };
}

/**
 * A line discount, capped to price x quantity (spec 5). `exact` is a fixed amount's decimal text
 * as typed (e.g. "0.125" at a KWD till), kept signed like the line so pricing can use its third
 * digit (cart-totals.ts lineDiscountMinor); a percent discount keeps none.
 */
function discountedLine(line: CartLine, type: DiscountRateType, value: number, exact?: string): CartLine {
  const { discountExact: _old, ...rest } = line;
  const gross = mulPriceQty(line.price, line.quantity);
  if (type === 'percent') {
    const rate = Math.min(Math.max(value, 0), 10_000);
    return { ...rest, discount: lineDiscountFromPercent(line.price, line.quantity, rate), discountRate: rate, discountIncluded: true };
  }
  const typed = exact?.trim().replace(/^[-+]/, '');
  const discountExact = typed ? { discountExact: gross < 0 ? `-${typed}` : typed } : {};
  return { ...rest, discount: capLineDiscount(gross < 0 ? -Math.abs(value) : value, gross), ...discountExact, discountRate: null, discountIncluded: true };
}

/**
 * The discount dialog: fixed (value in cents, `exact` the typed decimal) or percent (value in
 * hundredths of a percent) on the checked lines (or the last), then unchecks them.
 */
export function setTargetsDiscount(state: CartState, type: DiscountRateType, value: number, exact?: string): CartState {
  const targets = new Set(targetIndexes(state));
  const added = uncheck(state.added.map((l, i) => (targets.has(i) ? discountedLine(l, type, value, exact) : l)));
  return { ...state, added };
}

/** Inline discount edit of one line, in cents (`exact` the typed decimal), capped to the line's gross. */
export function setLineDiscount(state: CartState, index: number, discountCents: number, exact?: string): CartState {
  if (!state.added[index]) return state;
  const added = state.added.map((l, i) => (i === index ? discountedLine(l, 'fixed', discountCents, exact) : l));
  return { ...state, added };
}

/** Toggle tax on the checked lines (or the last), then uncheck them. */
export function toggleTargetsTax(state: CartState): CartState {
  const targets = new Set(targetIndexes(state));
  const added = uncheck(state.added.map((l, i) => (targets.has(i) ? { ...l, taxIncluded: !l.taxIncluded } : l)));
  return { ...state, added };
}

export function toggleChecked(state: CartState, index: number): CartState {
  return { ...state, added: state.added.map((l, i) => (i === index ? { ...l, checked: !l.checked } : l)) };
}

/** The header checkbox: checks every line unless all are checked already. */
export function toggleAllChecked(state: CartState): CartState {
  const all = state.added.length > 0 && state.added.every((l) => l.checked);
  return { ...state, added: state.added.map((l) => ({ ...l, checked: !all })) };
}

export type CheckState = 'none' | 'some' | 'all';
export function checkState(lines: readonly CartLine[]): CheckState {
  const n = lines.filter((l) => l.checked).length;
  if (n === 0) return 'none';
  return n === lines.length ? 'all' : 'some';
}

/** Moves an index by delta with wrap-around (ctrl+up/down, list navigation). */
export function wrapIndex(index: number, delta: number, length: number): number {
  if (length <= 0) return 0;
  return (((index + delta) % length) + length) % length;
}

export function moveActiveLine(state: CartState, delta: number): CartState {
  return { ...state, selected: wrapIndex(state.selected, delta, state.added.length) };
}

const FIELDS: CartField[] = ['quantity', 'discount'];
/** ctrl+left/right: switch the active field between quantity and discount (rate is read only). */
export function moveActiveField(state: CartState, delta: number): CartState {
  const i = Math.max(FIELDS.indexOf(state.cartItemType), 0);
  return { ...state, cartItemType: FIELDS[wrapIndex(i, delta, FIELDS.length)] };
}

export function setTax(state: CartState, tax: Tax | null): CartState {
  return { ...state, tax };
}

/** Choosing a discount clears any typed open amount. */
export function setDiscount(state: CartState, discount: Discount | null): CartState {
  return { ...state, discount, discountAmount: null, discountRateType: null };
}

/** An open-scope discount: the typed amount and whether it is a fixed amount or a percent. */
export function setOpenDiscount(state: CartState, discount: Discount | null, amount: string, rateType: DiscountRateType): CartState {
  return { ...state, discount, discountAmount: amount, discountRateType: rateType };
}

export function setCustomer(state: CartState, customer: Customer | null): CartState {
  return { ...state, customer };
}

export function setPaymentType(state: CartState, paymentType: PaymentType | null): CartState {
  return { ...state, paymentType };
}

/** Rate in hundredths of a percent of a tax entity. */
export const taxRateOf = (tax: Pick<Tax, 'rate'>): number => parseRate(tax.rate);

export { QTY_ONE };
