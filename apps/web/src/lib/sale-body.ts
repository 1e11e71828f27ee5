/**
 * The body of a sale as the till sends it (POST /api/admin/order/create): built by
 * features/payment/build-sale.ts, kept and replayed by features/outbox when the server is away.
 * Plain types only (the API's till-agreement test loads build-sale.ts through relative paths).
 */
export interface WirePayment {
  /** What the customer handed over for this row (cash: the notes given). */
  received: number;
  total: number;
  due: number;
  /** Cash payments (a type that can give change): the cash handed over and the change given back. */
  tendered?: number;
  change?: number;
  type: { id: number; '@id'?: string; name: string; type: string };
}

export type SaleStatus = 'Completed' | 'Pending';

export interface SaleBody {
  uuid: string;
  items: Array<{
    item: { id: number; '@id': string; name: string };
    variant: { id: number; '@id': string; attributeValue: string | null } | null;
    quantity: number;
    price: number;
    discount: number;
    taxIncluded: boolean;
    discountIncluded: boolean;
    taxes: Array<{ id: number; '@id': string; name: string; rate: number | string }>;
  }>;
  discount: { id: number; '@id': string; name: string; rate?: number | string | null; rateType?: string | null; scope?: string | null } | null;
  tax: { id: number; '@id': string; name: string; rate: number | string } | null;
  taxAmount: number;
  discountAmount: number | null;
  discountRateType: 'fixed' | 'percent' | null;
  payments: WirePayment[];
  customerId: number | null;
  customer: string | null;
  refundingFrom: number | null;
  notes: string | null;
  store: number;
  terminal: number;
  total: number;
  adjustment: number;
  /** A manager's approval token for the one permission this sale needs (issue 21.2). */
  approval?: string;
  isSuspended: boolean;
  status: SaleStatus;
}
