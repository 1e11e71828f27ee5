import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export interface StockQuery {
  itemId: number;
  variantId: number | null;
  storeId: number;
}

/** GET /api/admin/product/quantities?itemId&variantId&store -> {quantity} */
export const getStock = (q: StockQuery, signal?: AbortSignal) =>
  apiFetch<{ quantity: number | string | null }>('/admin/product/quantities', {
    query: { itemId: q.itemId, variantId: q.variantId ?? undefined, store: q.storeId },
    signal,
  });

/**
 * Stock of a cart line, only for items that manage inventory; reloaded when the line changes
 * (`revision` is the line's quantity, so a changed line asks again).
 */
export const useStock = (q: StockQuery, enabled: boolean, revision: number) =>
  useQuery({
    queryKey: ['stock', q.itemId, q.variantId, q.storeId, revision],
    queryFn: ({ signal }) => getStock(q, signal),
    enabled,
    staleTime: 5_000,
    retry: false,
  });
