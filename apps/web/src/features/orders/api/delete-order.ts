import { apiFetch } from '@/lib/api-client';
import type { Order } from '@/features/catalogue-cache/types';

/**
 * DELETE /api/admin/order/{id}: used to unsuspend a held order before its lines go back into the cart
 * (`{unsuspend: true}`: the audit log records it as resumed, not deleted).
 */
export const deleteOrder = (id: number, opts: { unsuspend?: boolean } = {}) =>
  apiFetch<{ order?: Order }>(`/admin/order/${id}`, { method: 'DELETE', ...(opts.unsuspend ? { body: { unsuspend: true } } : {}) });
