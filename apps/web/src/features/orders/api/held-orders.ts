import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { HydraCollection, Order } from '@/features/catalogue-cache/types';

/** GET /api/orders?status=On Hold&store.id[&terminal.id]: the suspended sales of this store (they have no number yet), or of one of its terminals. */
export const useHeldOrders = (storeId: number | null, enabled: boolean, terminalId: number | null = null) =>
  useQuery({
    queryKey: ['held-orders', storeId, terminalId],
    queryFn: ({ signal }) => apiFetch<HydraCollection<Order>>('/orders', {
      query: { status: 'On Hold', 'store.id': storeId ?? undefined, 'terminal.id': terminalId ?? undefined, itemsPerPage: 100, 'order[createdAt]': 'desc' }, signal,
    }),
    enabled: enabled && storeId !== null,
    staleTime: 0,
  });
