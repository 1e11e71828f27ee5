/** Wire shapes of the stock operations (docs/api.md "Stock operations"); quantities are JSON numbers. */
export interface Who { id: number; username: string; displayName: string }
export interface StoreRef { id: number; name: string; location?: string | null }
export interface ProductRef { id: number; name: string; sku?: string | null; barcode?: string | null }
export interface VariantRef { id: number; name?: string | null; attributeValue?: string | null; sku?: string | null; barcode?: string | null }

export type TransferStatus = 'requested' | 'sent' | 'received' | 'cancelled';

export interface TransferLine {
  id: number;
  product: ProductRef;
  variant: VariantRef | null;
  location: string | null;
  requested: number;
  sent: number | null;
  received: number | null;
  lost: number | null;
  inTransit: number;
}

export interface Transfer {
  id: number;
  number: number;
  status: TransferStatus;
  fromStore: StoreRef;
  toStore: StoreRef;
  note?: string | null;
  lossReason?: string | null;
  requestedBy: Who | null;
  requestedAt: string | null;
  sentBy?: Who | null;
  sentAt: string | null;
  receivedBy?: Who | null;
  receivedAt: string | null;
  cancelledBy?: Who | null;
  cancelledAt?: string | null;
  lines?: TransferLine[];
  totals?: { requested: number; sent: number; received: number; lost: number; inTransit: number };
}

export type CountScope = 'full' | 'category' | 'brand' | 'supplier' | 'location';
export type CountStatus = 'open' | 'approved' | 'cancelled';

export interface CountLine {
  id?: number;
  product: ProductRef;
  location?: string | null;
  expected: number;
  counted: number;
  variance: number;
  cost: number;
  varianceValue: number;
  scans: number;
  /** While open: what moved (sales, receipts) since the first scan; not a variance. */
  movedSinceFirstCount?: number | null;
}

export interface StockCount {
  id: number;
  number: number;
  status: CountStatus;
  store: StoreRef;
  scope: CountScope;
  scopeId: number | null;
  /** A location count: the start of the shelf locations counted. */
  location?: string | null;
  note?: string | null;
  createdBy?: Who | null;
  createdAt?: string | null;
  approvedBy?: Who | null;
  approvedAt?: string | null;
  lines?: CountLine[];
  totals?: { lines: number; variance: number; varianceValue: number; uncounted: number };
}

export const ADJUSTMENT_REASONS = ['damage', 'theft', 'expiry', 'own_use', 'correction', 'found'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];
/** Reasons that only take stock out / only put it in (the server refuses the other sign); correction goes either way. */
export const OUT_REASONS: readonly AdjustmentReason[] = ['damage', 'theft', 'expiry', 'own_use'];

export interface AdjustmentLine { id: number; product: ProductRef; variant: VariantRef | null; quantity: number; reason: AdjustmentReason; note: string | null; value?: number }
export interface Adjustment {
  id: number;
  number: number;
  store: StoreRef;
  note?: string | null;
  createdBy?: Who | null;
  createdAt?: string | null;
  lines?: AdjustmentLine[];
  totals?: { value: number };
}

/** A product (and variant) chosen for a line: by barcode or from the item picker. */
export interface PickedItem { product: ProductRef; variant: VariantRef | null; variants?: VariantRef[] }
