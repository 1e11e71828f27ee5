/** The Product as /api/products returns it (reference client 2.3, section 3). */
export interface Ref {
  '@id'?: string;
  id: number;
  name?: string;
}

export interface ProductVariant {
  '@id'?: string;
  id: number;
  name?: string | null;
  attributeName?: string | null;
  attributeValue?: string | null;
  barcode?: string | null;
  price?: number | string | null;
  /** The variant's total over the stores (the old client's figure). */
  quantity?: number | string | null;
  /** Read-only: the variant's stock in each of the user's stores (issue 25, migration 0015). */
  stock?: { store: Ref; quantity: number | string }[];
}

export interface ProductStore {
  '@id'?: string;
  id?: number;
  store: Ref;
  quantity?: number | string | null;
  location?: string | null;
  reOrderLevel?: number | string | null;
  reOrderQuantity?: number | string | null;
}

export interface ProductPrice {
  id?: number;
  basePrice?: number | string | null;
  date?: number | null;
  day?: string | null;
  week?: number | null;
  month?: number | null;
  quarter?: number | null;
  time?: string | null;
  timeTo?: string | null;
}

export interface Product {
  '@id'?: string;
  id: number;
  name: string;
  barcode?: string | null;
  /** ean13 | ean8 | upca | upce (check digit validated) or null (issue 26). */
  barcodeType?: string | null;
  basePrice: number | string;
  cost?: number | string | null;
  saleUnit?: string | null;
  purchaseUnit?: string | null;
  manageInventory?: boolean;
  isActive: boolean;
  department?: Ref | null;
  categories: Ref[];
  suppliers: Ref[];
  brands: Ref[];
  taxes: Array<Ref & { rate?: number | string }>;
  terminals: Array<Ref & { code?: string }>;
  stores: ProductStore[];
  variants: ProductVariant[];
  prices?: ProductPrice[];
}
