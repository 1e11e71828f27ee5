import type { RefundSource } from './refund-source';
import type { Customer, Discount, OrderPayment, PaymentType, Product, Tax, Variant } from '@/features/catalogue-cache/types';

/** The fields of a product a cart line keeps (the whole cached product is not copied into every line). */
export type CartProduct = Pick<Product, 'id' | 'name' | 'barcode' | 'manageInventory' | 'basePrice' | 'saleUnit'> & {
  '@id'?: string;
};

export type CartVariant = Pick<Variant, 'id' | 'attributeValue' | 'attributeName' | 'barcode'> & { '@id'?: string };

/**
 * One cart line. Amounts are integer cents, quantities integer thousandths (milli), as in
 * @pos/domain/money; they are turned into wire decimals only when the sale is sent.
 */
export interface CartLine {
  /** Stable React key. */
  key: string;
  item: CartProduct;
  variant: CartVariant | null;
  checked: boolean;
  /** milli; negative on a refund line. */
  quantity: number;
  /** Whole-line discount in cents (capped to price x quantity by the totals). */
  discount: number;
  /**
   * A fixed line discount exactly as the cashier typed it (a signed decimal text, e.g. "0.125"):
   * a currency with three minor digits (KWD, BHD) keeps its last digit here, which hundredths
   * cannot hold. Pricing uses it while it still rounds to `discount`, like `priceExact` (issue 19).
   */
  discountExact?: string;
  /** When the discount was given as a percent: the rate (hundredths of a percent), re-applied on quantity change. */
  discountRate?: number | null;
  discountIncluded?: boolean;
  /** Unit price in cents (the rate column; read only at the till). */
  price: number;
  /**
   * The unit price exactly as the catalogue or the order stores it (a decimal text, e.g. "1.275"):
   * a currency with three minor digits (KWD, BHD) keeps its last digit here, which hundredths
   * cannot hold. Pricing uses it while it still rounds to `price` (issue 19).
   */
  priceExact?: string;
  taxIncluded: boolean;
  taxes: Tax[];
  /** A refund line: the index of the original's line it gives back (issue 19). */
  origin?: number;
}

export type CartField = 'quantity' | 'discount' | 'rate';

export type DiscountRateType = 'fixed' | 'percent';

/** The whole sale being rung up; persisted in localStorage 'pos-state' so a reload keeps it. */
export interface CartState {
  /** Search box text. */
  q: string;
  added: CartLine[];
  /** Active line index. */
  selected: number;
  /** Highlighted row of the variant chooser. */
  selectedVariant: number;
  /** The quantity box beside the search box, as typed (default '1'). */
  quantity: string;
  rate: number;
  /** Rounding adjustment in cents. */
  adjustment: number;
  /** Active field of the active line. */
  cartItemType: CartField;
  tax: Tax | null;
  discount: Discount | null;
  /** What the cashier typed for an open discount: an amount, or a percent when discountRateType is 'percent'. */
  discountAmount: string | null;
  discountRateType: DiscountRateType | null;
  customer: Customer | null;
  /** The free-text customer-name box. */
  customerName: string;
  paymentType: PaymentType | null;
  /** Database id of the order being edited (a running order settled in payment mode). */
  orderId: number | null;
  /** Database id of the order being refunded. */
  refundingFrom: number | null;
  /** A refund's original payments (issue 19): the refund goes back to them by default. */
  refundPayments?: OrderPayment[];
  /** A refund's original amounts (issue 19): the refund is priced from them (refund-source.ts). */
  refundOf?: RefundSource | null;
  notes: string;
  /** Client id of this sale: sent as `uuid` and Idempotency-Key so a retried submit stores once. */
  uuid: string;
}

export interface CartDefaults {
  tax: Tax | null;
  discount: Discount | null;
  paymentType: PaymentType | null;
}

/** A transition that may be refused with a message (shown as a toast). */
export interface CartResult {
  state: CartState;
  error?: string;
}
