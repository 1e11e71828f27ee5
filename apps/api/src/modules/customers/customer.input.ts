/** What a customer create/update may set (the routes' zod schema produces it; customer.access checks its credit terms). */
export interface CustomerInput {
  name?: string;
  phone?: string | null;
  email?: string | null;
  cnic?: string | null;
  address?: string | null;
  birthday?: string | null;
  lat?: number | null;
  lng?: number | null;
  openingBalance?: string | null;
  allowCreditSale?: boolean;
  creditLimit?: string | null;
}
