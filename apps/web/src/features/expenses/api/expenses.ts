import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '@/features/list-table/api/http';

export interface Expense {
  id: number;
  description: string;
  amount: number | string;
  createdAt: string;
}

export interface ExpenseQuery {
  dateTimeFrom: string;
  dateTimeTo: string;
  store: number | undefined;
}

/** GET /admin/expense/list -> {list} (reference client 2.10). */
export const getExpenses = async (q: ExpenseQuery) =>
  (await apiGet<{ list?: Expense[] }>('/admin/expense/list', { ...q, orderBy: 'id', orderMode: 'DESC' }))?.list ?? [];

export function useExpenses(q: ExpenseQuery) {
  return useQuery({ queryKey: ['expenses', q], queryFn: () => getExpenses(q), enabled: q.store !== undefined });
}

/** POST /admin/expense/create {description, amount, dateTime: now, store}. */
export function useCreateExpense() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { description: string; amount: string; store: number }) =>
      apiPost<unknown>('/admin/expense/create', { ...body, dateTime: new Date().toISOString() }),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['expenses'] });
      // The day closing subtracts expenses from the cash in hand.
      await client.invalidateQueries({ queryKey: ['closing'] });
    },
  });
}
