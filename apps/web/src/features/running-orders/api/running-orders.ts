import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { HydraCollection, Order } from '@/features/catalogue-cache/types';

export const RUNNING_ORDERS_POLL_MS = 5_000;

/** GET /api/orders?status=Pending&store.id&terminal.id&itemsPerPage=100, polled every 5 s. */
export const useRunningOrders = (storeId: number, terminalId: number | null) =>
  useQuery({
    queryKey: ['running-orders', storeId, terminalId],
    queryFn: ({ signal }) => apiFetch<HydraCollection<Order>>('/orders', {
      query: { status: 'Pending', 'store.id': storeId, 'terminal.id': terminalId ?? undefined, itemsPerPage: 100 }, signal,
    }),
    refetchInterval: RUNNING_ORDERS_POLL_MS,
    refetchIntervalInBackground: false,
  });

/** GET /api/terminals?store.id (the terminal filter). */
export const useStoreTerminals = (storeId: number) =>
  useQuery({
    queryKey: ['store-terminals', storeId],
    queryFn: ({ signal }) => apiFetch<HydraCollection<{ id: number; code: string }>>('/terminals', {
      query: { 'store.id': storeId, page: 1, itemsPerPage: 100 }, signal,
    }),
    staleTime: 60_000,
  });
