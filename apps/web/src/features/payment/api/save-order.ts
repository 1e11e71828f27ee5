import { apiFetch } from '@/lib/api-client';
import type { Customer, Order } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/lib/sale-body';
import { canQueueOffline, queueOfflineSale } from '@/features/outbox/offline-sale';

/**
 * POST /api/admin/order/create, or PUT /api/admin/order/edit/{id} when settling a running order.
 * The body's uuid doubles as the Idempotency-Key: a submit retried after a timeout is stored once.
 * Offline (no answer, or 502/503/504): a new completed sale or a hold goes to the outbox and the
 * answer is a provisional order (`offline`, `localRef`, no number yet); `customer` is the cart's,
 * for the offline credit check.
 */
export async function saveOrder(body: SaleBody, editId: number | null, opts: { customer?: Customer | null } = {}): Promise<{ order: Order }> {
  const headers = { 'Idempotency-Key': body.uuid };
  if (editId) return apiFetch<{ order: Order }>(`/admin/order/edit/${editId}`, { method: 'PUT', body, headers });
  try {
    return await apiFetch<{ order: Order }>('/admin/order/create', { method: 'POST', body, headers });
  } catch (error) {
    if (!canQueueOffline(body, error)) throw error;
    return { order: await queueOfflineSale(body, opts.customer ?? null) };
  }
}
