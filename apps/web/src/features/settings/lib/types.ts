/** Wire shapes read by the settings tabs (reference client section 3). Only read fields are typed. */
export interface Ld {
  '@id'?: string;
  '@type'?: string;
}

export interface StoreRow extends Ld {
  id: number;
  name: string;
  location?: string | null;
  isActive: boolean;
  /** Money settings (issue 19). */
  currency?: string;
  locale?: string;
  timeZone?: string;
  cashRoundingStep?: number;
  pricesIncludeTax?: boolean;
  legacyTaxBase?: boolean;
  allowNegativeStock?: boolean;
}

export interface StoreRef extends Ld {
  id: number;
  name: string;
}

export interface UserRow extends Ld {
  id: number;
  displayName: string;
  username: string;
  email?: string | null;
  roles: string[];
  role?: { id: number | null; name: string; key: string } | null;
  stores: StoreRef[];
  isActive: boolean;
}

/** A role (issue 21.1): built-in ('owner' | 'manager' | 'cashier') or custom (builtin null). */
export interface RoleRow extends Ld {
  id: number;
  name: string;
  builtin: string | null;
  permissions: string[];
}

export interface BrandRow extends Ld {
  id: number;
  name: string;
  stores: StoreRef[];
  isActive: boolean;
}

export interface CategoryRow extends BrandRow {
  type?: string | null;
}

export interface PaymentTypeRow extends Ld {
  id: number;
  name: string;
  type: 'cash' | 'credit card' | 'credit' | string;
  canHaveChangeDue?: boolean | null;
  stores: StoreRef[];
  isActive: boolean;
}

export interface DiscountRow extends Ld {
  id: number;
  name: string;
  rate?: number | string | null;
  rateType?: 'fixed' | 'percent' | string | null;
  scope?: 'open' | 'exact' | string | null;
  stores: StoreRef[];
  isActive: boolean;
}

export interface TaxRow extends Ld {
  id: number;
  name: string;
  rate: number | string;
  stores: StoreRef[];
  isActive: boolean;
}

export interface DepartmentRow extends Ld {
  id: number;
  name: string;
  description?: string | null;
  store?: StoreRef | null;
  isActive?: boolean;
}

export interface ProductRef extends Ld {
  id: number;
  name: string;
}

export interface TerminalRow extends Ld {
  id: number;
  code: string;
  description?: string | null;
  store?: StoreRef | null;
  products: ProductRef[];
  excludeProducts?: ProductRef[];
  categories?: Array<Ld & { id: number; name?: string }>;
  isActive: boolean;
}

export interface BarcodeRow extends Ld {
  id: number;
  barcode: string;
  item?: ProductRef | null;
  variant?: (Ld & { id: number; attributeValue?: string | null }) | null;
  measurement?: string | null;
  unit?: string | null;
  price?: string | number | null;
}
