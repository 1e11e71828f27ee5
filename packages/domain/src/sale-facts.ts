/**
 * The facts a sale is priced from (issue 22.5): what the server reads once, in the sale's own
 * transaction, before anything is priced — the products asked for (their prices, price rules,
 * barcode prices, variants, taxes, stores), the order tax and discount chosen, the payment types,
 * whether the customer may be charged here and, for a return, the original order. `priceSale`
 * (sale-price.ts) prices the whole order from them in one pure call; the server then writes the
 * result. Amounts are decimal strings as the database stores them; the store's currency digits turn
 * them into minor units.
 */
import { PrecisionError } from './money.ts';
import { validationError, type Violation } from './errors.ts';
import type { OrderStatus } from './schemas/sale.ts';
import type { TaxMode } from './tax.ts';

export type Cents = number;

/** A price rule of a product (or of one of its variants), as stored. */
export interface FactPriceRule {
  productVariantId: number | null;
  /** 1-31: a day of month; larger: a unix timestamp (seconds). */
  date: number | null;
  time: string | null;
  timeTo: string | null;
  day: string | null;
  week: number | null;
  month: number | null;
  quarter: number | null;
  basePrice: string;
}

/** A product of the sale, with what pricing needs about it. */
export interface FactProduct {
  id: number;
  name: string;
  basePrice: string;
  cost: string;
  manageInventory: boolean;
  isActive: boolean;
  /** Stores with a product_store row (none = sold everywhere). */
  stores: number[];
  /** Every tax of the product (only active ones price a sale). */
  taxes: { id: number; rate: string; isActive: boolean }[];
  rules: FactPriceRule[];
  /** Active barcode records (a weighed / price-embedded barcode may carry its own price). */
  codes: { variantId: number | null; price: string }[];
  /** The variants of this product among the ones asked for. */
  variants: { id: number; productId: number; price: string | null; purchasePrice: string | null }[];
}

export interface FactPaymentType { id: number; name: string; type: string; canHaveChangeDue: boolean | null }

/** An order-level tax or discount type chosen on the sale: the row, or 'missing' (not found, inactive or not in this store). */
export interface FactTax { id: number; rate: string }
export interface FactDiscount { id: number; rateType: string | null; scope: string | null; rate: string | null }

export interface FactTaxAmount { taxId: number; rate: number /* hundredths of a percent */; amount?: string }

/** The original of a return, as stored. */
export interface FactOriginal {
  row: { id: number; orderId: number | null; customerId: number | null; customerName: string | null; taxMode: string; adjustment: string };
  lines: {
    id: number; productId: number; variantId: number | null; quantity: string; returnedQuantity: string; price: string; cost: string;
    discount: string; orderDiscount: string; taxable: string; taxesTotal: string; taxes: FactTaxAmount[];
  }[];
  discount: { typeId: number | null; rateType: string | null; rate: string | null; amount: string } | null;
  tax: { typeId: number | null; rate: string; amount: string } | null;
  payments: { typeId: number | null; total: string }[];
  /** What earlier returns of this order paid back, per payment type (stored totals, negative). */
  returnedPayments: { typeId: number | null; total: string }[];
}

export interface SaleFacts {
  storeId: number;
  now: Date;
  /** The store's money settings. */
  digits: number;
  timeZone: string;
  taxMode: TaxMode;
  /** Cash rounding step in minor units (0: none). */
  cashRoundingStep: number;
  products: FactProduct[];
  /** Payment types the sale may use (active, in this store), plus a return's original tenders. */
  paymentTypes: FactPaymentType[];
  orderTax: FactTax | 'missing' | null;
  discount: FactDiscount | 'missing' | null;
  /** The sale's customer may be charged by this caller (false: not found or not visible). */
  customerVisible: boolean;
  original: FactOriginal | null;
  /** The caller holds 'refund.cashForNonCash' (a card payment refunded in cash). */
  mayRefundCashForNonCash: boolean;
}

export interface PriceSaleOptions {
  status: OrderStatus;
  /** Skip the client-total comparison (server-built input). */
  skipTotalCheck?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Violations: every faulty field named, all at once where they are independent
// ---------------------------------------------------------------------------------------------

export const fail = (v: Violation[]) => { if (v.length) throw validationError(v); };
export const notFoundRef = (label: string, id: number) => `'${label}' with ID '${id}' not found`;

/** f(), or undefined with a violation at `propertyPath` when it throws a RangeError (an amount out of range or too precise). */
export function safe<T>(f: () => T, v: Violation[], propertyPath: string, message = 'This value should be a valid number.'): T | undefined {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) { v.push({ propertyPath, message: e instanceof PrecisionError ? e.message : message }); return undefined; }
    throw e;
  }
}
