import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiGet, apiPost } from '@/features/list-table/api/http';

export interface DateWrap {
  datetime: string;
}

export interface Closing {
  '@id'?: string;
  id: number;
  dateFrom?: DateWrap | string | null;
  createdAt?: DateWrap | string | null;
  closedAt?: DateWrap | string | null;
  openingBalance: number | string | null;
  closingBalance?: number | string | null;
  cashAdded?: number | string | null;
  cashWithdrawn?: number | string | null;
  denominations?: Record<string, number | null> | null;
  openedBy?: { displayName?: string } | null;
  store?: { id: number; name?: string } | null;
  terminal?: { id: number; code?: string } | null;
}

export interface OrderLine {
  quantity: number | string;
  cost?: number | string | null;
  product?: { cost?: number | string | null } | null;
}

export interface OrderRow {
  id: number;
  status: string;
  items?: OrderLine[];
}

export interface OrderListResponse {
  list?: OrderRow[];
  total?: number;
  payments?: Record<string, number | string>;
}

/** GET /admin/closing/opened?store&terminal -> {closing}; always a closing (openingBalance null = not started). */
export function useOpenedClosing(storeId: number | undefined, terminalId: number | undefined) {
  return useQuery({
    queryKey: ['closing', 'opened', storeId, terminalId],
    queryFn: async () => (await apiGet<{ closing: Closing }>('/admin/closing/opened', { store: storeId, terminal: terminalId })).closing,
    enabled: storeId !== undefined && terminalId !== undefined,
    staleTime: 60_000,
    // A till left open past 24 hours must notice its day went stale.
    refetchInterval: 5 * 60_000,
  });
}

/**
 * Reference client 4.10: expenses since the day opened (store), and the sales per payment kind
 * plus the orders (for their cost) from the order list since the day opened (this terminal).
 */
export function useClosingFigures(storeId: number | undefined, terminalId: number | undefined, dateFrom: string | null, enabled: boolean) {
  const expenses = useQuery({
    queryKey: ['closing', 'expenses', storeId, dateFrom],
    queryFn: async () =>
      (await apiGet<{ list?: Array<{ amount: number | string }> }>('/admin/expense/list', { dateTimeFrom: dateFrom ?? undefined, store: storeId, orderBy: 'id', orderMode: 'DESC' }))?.list ?? [],
    enabled: enabled && !!dateFrom && storeId !== undefined,
  });
  const orders = useQuery({
    queryKey: ['closing', 'orders', storeId, terminalId, dateFrom],
    // The drawer holds this terminal's cash only (the reference asked store-wide; the server's day is per terminal).
    queryFn: () =>
      apiGet<OrderListResponse>('/admin/order/list', { dateTimeFrom: dateFrom ?? undefined, store: storeId, terminal: terminalId, page: 1, itemsPerPage: 1000 }),
    enabled: enabled && !!dateFrom && storeId !== undefined,
  });
  return { expenses, orders };
}

export interface ClosingBody {
  id: number;
  openingBalance: string;
  cashAdded: string;
  cashWithdrawn: string;
  expenses: number;
  data: Record<string, string>;
  terminal: number;
  closedBy?: number;
  closingBalance?: string;
  denominations: Record<string, number>;
  updateOnly?: true;
  closedAt?: DateWrap;
}

/** POST /admin/closing/{id} -> {closing}: Start day / Update (updateOnly) or Close day (closedAt). */
export function useSaveClosing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: ClosingBody) => apiPost<{ closing: Closing }>(`/admin/closing/${body.id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['closing'] }),
  });
}
