import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiDelete, apiGet, apiPost } from '@/features/list-table/api/http';
import type { HistoryAction, HistoryOrder } from '../lib/types.ts';

export const HISTORY_KEY = ['/admin/order/list'] as const;

const call: Record<HistoryAction, (id: number) => Promise<{ order?: HistoryOrder }>> = {
  refund: (id) => apiPost(`/admin/order/refund/${id}`),
  restore: (id) => apiPost(`/admin/order/restore/${id}`),
  // Delete and unsuspend are both DELETE (unsuspend removes the held order; the till reloads its lines).
  delete: (id) => apiDelete(`/admin/order/${id}`),
  unsuspend: (id) => apiDelete(`/admin/order/${id}`),
};

export function useHistoryAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, order }: { action: HistoryAction; order: HistoryOrder }) => call[action](order.id),
    onSuccess: () => client.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

/** Expenses of the same range, for the Expenses and Profit tiles (the reference never loaded them). */
export function useRangeExpenses(from: string, to: string) {
  return useQuery({
    queryKey: ['expenses', 'history', from, to],
    queryFn: async () =>
      (await apiGet<{ list?: Array<{ amount: number | string }> }>('/admin/expense/list', { dateTimeFrom: from, dateTimeTo: to, orderBy: 'id', orderMode: 'DESC' }))?.list ?? [],
  });
}
