/** Wire shapes of purchasing (reference client 2.7-2.9, section 3). */
export interface Ld {
  '@id'?: string;
  '@type'?: string;
}

export interface VariantRef extends Ld {
  id: number;
  attributeValue?: string | null;
  barcode?: string | null;
  price?: number | string | null;
  purchasePrice?: number | string | null;
}

export interface ProductBrief extends Ld {
  id: number;
  name: string;
  barcode?: string | null;
  cost?: number | string | null;
  purchaseUnit?: string | null;
  variants?: VariantRef[];
}

export interface StoreBrief extends Ld {
  id: number;
  name: string;
}

export interface Supplier extends Ld {
  id: number;
  name: string;
  phone?: string | null;
  email?: string | null;
  openingBalance?: number | string | null;
  stores?: StoreBrief[];
  isActive?: boolean;
}

export interface LineVariantWire extends Ld {
  id: number;
  variant: VariantRef | null;
  quantity: string | number;
  quantityRequested?: string | number | null;
  purchasePrice: string | number;
  purchaseUnit?: string | null;
  comments?: string | null;
}

export interface PurchaseOrderItem extends Ld {
  id: number;
  item: ProductBrief | null;
  quantity: string | number;
  price: string | number;
  unit?: string | null;
  comments?: string | null;
  variants: LineVariantWire[];
}

export interface PurchaseOrder extends Ld {
  id: number;
  poNumber: string;
  isUsed: boolean;
  supplier?: Supplier | null;
  store?: StoreBrief | null;
  items: PurchaseOrderItem[];
  createdAt: string;
}

export interface PurchaseItem extends Ld {
  id: number;
  item: ProductBrief | null;
  quantity: string | number;
  quantityRequested?: string | number | null;
  purchasePrice: string | number;
  purchaseUnit?: string | null;
  comments?: string | null;
  variants: LineVariantWire[];
}

export interface PaymentTypeBrief extends Ld {
  id: number;
  name: string;
  type?: string;
}

export interface Purchase extends Ld {
  id: number;
  purchaseNumber: string;
  purchaseMode?: string | null;
  purchaseOrder?: (Ld & { id: number; poNumber?: string }) | null;
  supplier?: Supplier | null;
  paymentType?: PaymentTypeBrief | null;
  store?: StoreBrief | null;
  purchasedBy?: (Ld & { id: number; displayName?: string }) | null;
  updateStocks?: boolean;
  updatePrice?: boolean;
  total: number | string;
  items: PurchaseItem[];
  createdAt: string;
}

export interface SupplierPayment extends Ld {
  id: number;
  amount: number | string;
  description?: string | null;
  createdAt: string;
  purchase?: (Ld & { id?: number; purchaseNumber?: string }) | string | null;
}
