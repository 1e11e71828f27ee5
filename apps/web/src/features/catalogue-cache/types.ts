/**
 * Wire shapes the till reads (reference-client.md section 3). Money, rates and quantities
 * arrive as JSON numbers (decimals); the till converts them to integer cents / milli /
 * hundredths with @pos/domain/money before any arithmetic.
 */

export interface HydraCollection<T> {
  'hydra:member': T[];
  'hydra:totalItems'?: number;
}

export interface Named {
  id: number;
  '@id'?: string;
  name: string;
}

export interface Tax extends Named {
  rate: number | string;
  isActive?: boolean;
}

export interface Discount extends Named {
  rate?: number | string | null;
  rateType?: 'fixed' | 'percent' | string | null;
  scope?: 'open' | 'exact' | string | null;
  isActive?: boolean;
}

export interface PaymentType extends Named {
  /** 'cash' | 'credit card' | 'credit' */
  type: string;
  canHaveChangeDue?: boolean | null;
  isActive?: boolean;
}

export interface Device {
  id: number;
  name: string;
  ipAddress?: string;
  port?: number | string;
  prints?: number;
}

export interface Setting {
  id: number;
  name: string;
  value?: string | null;
  description?: string | null;
  type?: string | null;
}

export interface PriceRule {
  id?: number;
  date?: string | number | null;
  time?: string | null;
  timeTo?: string | null;
  day?: string | null;
  week?: number | string | null;
  month?: number | string | null;
  quarter?: number | string | null;
  basePrice?: number | string | null;
}

export interface Variant {
  id: number;
  '@id'?: string;
  name?: string | null;
  attributeName?: string | null;
  attributeValue?: string | null;
  barcode?: string | null;
  /** null: the product's price applies. */
  price?: number | string | null;
  quantity?: number | string | null;
  prices?: PriceRule[];
}

export interface ProductStore {
  id?: number;
  store: { id: number; name?: string };
  quantity?: number | string | null;
  location?: string | null;
  reOrderLevel?: number | string | null;
  reOrderQuantity?: number | string | null;
}

export interface Product {
  id: number;
  '@id'?: string;
  name: string;
  barcode?: string | null;
  sku?: string | null;
  basePrice: number | string;
  cost?: number | string | null;
  saleUnit?: string | null;
  purchaseUnit?: string | null;
  manageInventory?: boolean;
  isActive?: boolean;
  taxes?: Tax[];
  variants?: Variant[];
  prices?: PriceRule[];
  categories?: Named[];
  brands?: Named[];
  suppliers?: Named[];
  department?: (Named & { description?: string | null }) | null;
  stores?: ProductStore[];
  terminals?: Array<{ id: number; code?: string }>;
}

export interface CustomerPayment {
  id?: number;
  '@id'?: string;
  amount: number | string;
  description?: string | null;
  createdAt: string;
  order?: { id?: number; '@id'?: string; orderId?: number | null } | null;
}

export interface Customer {
  id: number;
  '@id'?: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  cnic?: string | null;
  openingBalance?: number | string | null;
  allowCreditSale?: boolean;
  creditLimit?: number | string | null;
  sale?: number | null;
  paid?: number | null;
  outstanding?: number | null;
  payments?: CustomerPayment[];
  orders?: Order[];
}

export interface OrderItem {
  id?: number;
  product: Product;
  variant?: Variant | null;
  quantity: number | string;
  price: number | string;
  discount?: number | string | null;
  taxesTotal?: number | string | null;
  /** Issue 19: each tax with this line's amount at that rate (`amount`, as stored). */
  taxes?: Array<Tax & { amount?: number | string | null }>;
  /** Issue 19: the amount taxed (net of every discount) and this line's share of the order discount. */
  taxable?: number | string | null;
  orderDiscount?: number | string | null;
  /** Issue 19: how much of the line has been refunded, and what is still refundable (absent on an older server). */
  returnedQuantity?: number | string | null;
  refundableQuantity?: number | string | null;
}

export interface OrderPayment {
  id?: number;
  total: number | string;
  received: number | string;
  due: number | string;
  /** Cash payments (issue 19): the cash handed over and the change given back (major units). */
  tendered?: number | string | null;
  change?: number | string | null;
  type?: PaymentType | null;
}

/** One rate of an order's tax breakdown (issue 19), major units. */
export interface TaxBreakdownRow {
  rate: number | string;
  name?: string | null;
  net: number | string;
  tax: number | string;
  gross: number | string;
}

export type OrderStatus = 'Completed' | 'On Hold' | 'Deleted' | 'Dispatched' | 'Pending' | 'Returned' | string;

export interface Order {
  id: number;
  '@id'?: string;
  orderId?: number | null;
  createdAt: string;
  status: OrderStatus;
  items: OrderItem[];
  discount?: { id?: number; rate?: number | string | null; rateType?: string | null; amount?: number | string | null; type?: Discount | null } | null;
  tax?: { id?: number; rate?: number | string | null; amount?: number | string | null; type?: Tax | null } | null;
  itemTaxes?: number | string | null;
  adjustment?: number | string | null;
  total?: number | string | null;
  payments: OrderPayment[];
  notes?: string | null;
  description?: string | null;
  customer?: (Omit<Partial<Customer>, 'id'> & { id?: number | null; name?: string }) | string | null;
  customerName?: string | null;
  subTotal?: number | string | null;
  grandTotal?: number | string | null;
  returnedFrom?: { id: number; orderId?: number | null; createdAt?: string } | null;
  store?: { id?: number; name?: string; currency?: string | null; locale?: string | null; timeZone?: string | null } | null;
  terminal?: { id?: number; code?: string } | null;
  /** Cash rounding of the order (signed, major units; issue 19). */
  rounding?: number | string | null;
  taxBreakdown?: TaxBreakdownRow[] | null;
  /** How the order was priced (issue 19): 'legacy', 'exclusive' or 'inclusive'. */
  taxMode?: string | null;
  user?: { id?: number; displayName?: string } | null;
  isSuspended?: boolean;
  /** A sale still in the outbox (offline, issue 9): no number yet, the receipt shows this reference. */
  offline?: boolean;
  localRef?: string | null;
}

/**
 * The reference lists the till keeps (spec 3 "Offline cache"). The till holds its products as a
 * ProductTable (product-table.ts: decoded on demand); a plain list where that is all one needs.
 */
export interface Catalogue<Products = Product[]> {
  products: Products;
  discounts: Discount[];
  taxes: Tax[];
  paymentTypes: PaymentType[];
  devices: Device[];
  settings: Setting[];
}
