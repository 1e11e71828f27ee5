import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '@/features/list-table/api/http';
import type { Purchase, SupplierPayment } from '../lib/types.ts';

interface Hydra<T> {
  'hydra:member'?: T[];
}

// The reference asks limit=9999999 and expects everything (spec 9: ledger page size 9999999).
const ALL = { limit: 9999999, page: 1, itemsPerPage: 9999999 };

export const getSupplierPayments = async (id: number) => (await apiGet<Hydra<SupplierPayment>>(`/suppliers/${id}/payments`, ALL))?.['hydra:member'] ?? [];
export const getSupplierPurchases = async (id: number) => (await apiGet<Hydra<Purchase>>(`/suppliers/${id}/purchases`, ALL))?.['hydra:member'] ?? [];

export function useSupplierLedger(id: number) {
  const payments = useQuery({ queryKey: ['supplier-ledger', id, 'payments'], queryFn: () => getSupplierPayments(id) });
  const purchases = useQuery({ queryKey: ['supplier-ledger', id, 'purchases'], queryFn: () => getSupplierPurchases(id) });
  return { payments, purchases };
}

export interface SupplierPaymentBody {
  amount: string;
  description: string;
  purchase?: string;
  supplier: string;
}

/** POST /supplier_payments; reloads the ledger. */
export function useCreateSupplierPayment(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SupplierPaymentBody) => apiPost<SupplierPayment>('/supplier_payments', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['supplier-ledger', id] }),
  });
}
