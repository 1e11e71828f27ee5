import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/toast';
import { isHttpError } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';
import type { Order } from '@/features/catalogue-cache/types';
import { loadOrder } from '@/features/cart/load-order';
import { cartStore } from '@/features/cart/cart-store';
import type { CartDefaults } from '@/features/cart/cart-types';
import { deleteOrder } from '@/features/orders/api/delete-order';

/**
 * A held order goes back into the cart: the held copy is deleted first (spec 4; `{unsuspend: true}`,
 * so the audit log records it as resumed, not thrown away), then its lines load.
 */
export function useUnsuspend(defaults: CartDefaults) {
  const queryClient = useQueryClient();
  return useCallback(async (order: Order) => {
    try {
      await deleteOrder(order.id, { unsuspend: true });
    } catch (error) {
      // Already removed (e.g. by the history dialog): just load it.
      if (!isHttpError(error, 404)) {
        toast.error(errorText(error));
        return;
      }
    }
    cartStore.set(loadOrder(order, 'unsuspend', defaults));
    void queryClient.invalidateQueries({ queryKey: ['held-orders'] });
  }, [defaults, queryClient]);
}
