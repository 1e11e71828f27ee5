import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { Customer, CustomerPayment, HydraCollection } from '@/features/catalogue-cache/types';

export interface CustomerQuery {
  page: number;
  itemsPerPage: number;
  q?: string;
}

/** GET /api/customers?page&itemsPerPage&q&order[name]=asc (each with figures, payments and orders). */
export const getCustomers = (query: CustomerQuery, signal?: AbortSignal) =>
  apiFetch<HydraCollection<Customer>>('/customers', { query: { ...query, q: query.q?.trim() || undefined, 'order[name]': 'asc' }, signal });

export const useCustomers = (query: CustomerQuery, enabled = true) =>
  useQuery({ queryKey: ['customers', query], queryFn: ({ signal }) => getCustomers(query, signal), placeholderData: keepPreviousData, enabled });

export const getCustomer = (id: number, signal?: AbortSignal) => apiFetch<Customer>(`/customers/${id}`, { signal });

export const useCustomer = (id: number | null) =>
  useQuery({ queryKey: ['customer', id], queryFn: ({ signal }) => getCustomer(id!, signal), enabled: id !== null });

export interface CustomerInput {
  name: string;
  phone: string;
  cnic: string;
  email: string;
  openingBalance: string;
  allowCredit: boolean;
  creditLimit: string;
}

/** POST /api/customers or PUT /api/customers/{id} -> {customer}. */
export async function saveCustomer(input: CustomerInput, id: number | null): Promise<Customer> {
  const body = { ...input, creditLimit: input.creditLimit.trim() || null, email: input.email.trim() || null, cnic: input.cnic.trim() || null };
  const res = id
    ? await apiFetch<{ customer?: Customer } & Customer>(`/customers/${id}`, { method: 'PUT', body })
    : await apiFetch<{ customer?: Customer } & Customer>('/customers', { method: 'POST', body });
  return res.customer ?? res;
}

export const useSaveCustomer = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ input, id }: { input: CustomerInput; id: number | null }) => saveCustomer(input, id),
    onSuccess: () => client.invalidateQueries({ queryKey: ['customers'] }),
  });
};

/** POST /api/customer_payments {amount (string), description, customer (IRI), orderId?} -> the payment. */
export const receiveCustomerPayment = (customerId: number, amount: string, description: string) =>
  apiFetch<CustomerPayment>('/customer_payments', {
    method: 'POST',
    body: { amount, description, customer: `/api/customers/${customerId}` },
  });

export const useReceivePayment = (customerId: number) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ amount, description }: { amount: string; description: string }) => receiveCustomerPayment(customerId, amount, description),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['customer', customerId] });
      void client.invalidateQueries({ queryKey: ['customers'] });
    },
  });
};
