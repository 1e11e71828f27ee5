import { apiFetch } from '@/lib/api-client';
import type { Order } from '@/features/catalogue-cache/types';
import type { SaleBody } from '@/features/payment/build-sale';

/**
 * POST /api/admin/order/create, or PUT /api/admin/order/edit/{id} when settling a running order.
 * The body's uuid doubles as the Idempotency-Key: a submit retried after a timeout is stored once.
 */
export function saveOrder(body: SaleBody, editId: number | null): Promise<{ order: Order }> {
  const headers = { 'Idempotency-Key': body.uuid };
  return editId
    ? apiFetch<{ order: Order }>(`/admin/order/edit/${editId}`, { method: 'PUT', body, headers })
    : apiFetch<{ order: Order }>('/admin/order/create', { method: 'POST', body, headers });
}
