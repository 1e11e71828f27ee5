import { useCallback } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { apiDelete, apiGet, apiPost } from '@/features/list-table/api/http';
import { approvalNeeded } from '@/features/payment/approval';
import { useApproval } from '@/features/payment/components/approval-dialog';
import type { HistoryAction, HistoryOrder } from '../lib/types.ts';

export const HISTORY_KEY = ['/admin/order/list'] as const;

type Answer = { order?: HistoryOrder };
/** A manager's approval token rides in the body (issue 21.2); without one the old client's bodiless calls. */
const withToken = (approval?: string) => (approval ? { approval } : undefined);

const call: Record<HistoryAction, (id: number, approval?: string) => Promise<Answer>> = {
  refund: (id, approval) => apiPost(`/admin/order/refund/${id}`, withToken(approval)),
  restore: (id, approval) => apiPost(`/admin/order/restore/${id}`, withToken(approval)),
  // Delete and unsuspend are both DELETE (unsuspend removes the held order; the till reloads its lines).
  delete: (id, approval) => (approval ? apiFetch<Answer>(`/admin/order/${id}`, { method: 'DELETE', body: { approval } }) : apiDelete(`/admin/order/${id}`)),
  unsuspend: (id) => apiFetch<Answer>(`/admin/order/${id}`, { method: 'DELETE', body: { unsuspend: true } }),
};

export function useHistoryAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ action, order, approval }: { action: HistoryAction; order: HistoryOrder; approval?: string }) => call[action](order.id, approval),
    onSuccess: () => client.invalidateQueries({ queryKey: HISTORY_KEY }),
  });
}

/**
 * A history action that a manager may approve (issue 21.2): refused for a permission the user
 * lacks ('sale.void', 'sale.refund'), it opens the same "Manager approval" dialog as the till
 * (user name + PIN, `describe` says which order) and sends the action once more with the
 * single-use token. Resolves with null when the manager approval is cancelled.
 */
export function useApprovedHistoryAction(describe: (kind: HistoryAction, order: HistoryOrder) => string) {
  const action = useHistoryAction();
  const { ask, dialog } = useApproval();
  const sessionStore = useSession().store?.id;
  const { mutateAsync } = action;
  const run = useCallback(async (kind: HistoryAction, order: HistoryOrder): Promise<Answer | null> => {
    try {
      return await mutateAsync({ action: kind, order });
    } catch (error) {
      const need = approvalNeeded(error);
      const storeId = order.store?.id ?? sessionStore;
      if (!need || storeId == null) throw error;
      const token = await ask({ ...need, message: `${describe(kind, order)}: ${need.message}` }, storeId);
      if (!token) return null;
      return mutateAsync({ action: kind, order, approval: token });
    }
  }, [mutateAsync, ask, sessionStore, describe]);
  return { run, dialog, isPending: action.isPending };
}

/** Expenses of the same range, for the Expenses and Profit tiles (the reference never loaded them). */
export function useRangeExpenses(from: string, to: string) {
  return useQuery({
    queryKey: ['expenses', 'history', from, to],
    queryFn: async () =>
      (await apiGet<{ list?: Array<{ amount: number | string }> }>('/admin/expense/list', { dateTimeFrom: from, dateTimeTo: to, orderBy: 'id', orderMode: 'DESC' }))?.list ?? [],
  });
}
