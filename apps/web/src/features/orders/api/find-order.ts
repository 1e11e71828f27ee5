import { apiFetch } from '@/lib/api-client';
import type { HydraCollection, Order } from '@/features/catalogue-cache/types';

/** The order number as typed or scanned (a QR code or barcode may carry text around the digits). */
export function orderNumberOf(text: string): string {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return trimmed;
  const digits = /(\d+)\s*$/.exec(trimmed);
  return digits ? digits[1] : '';
}

/**
 * GET /api/orders?orderId=&store.id= -> the first member, or null ("Order not found"). Order numbers
 * run per store, so the till looks in its own store (the reference sent the number alone).
 */
export async function findOrder(orderNumber: string, storeId?: number | null, signal?: AbortSignal): Promise<Order | null> {
  const n = orderNumberOf(orderNumber);
  if (!n) return null;
  const page = await apiFetch<HydraCollection<Order>>('/orders', { query: { orderId: n, 'store.id': storeId ?? undefined }, signal });
  return page['hydra:member']?.[0] ?? null;
}

/** GET /api/admin/order/{id} -> {order}: one order as the server presents it now (refundable quantities, payments). */
export function getOrder(id: number, signal?: AbortSignal): Promise<{ order: Order }> {
  return apiFetch<{ order: Order }>(`/admin/order/${id}`, { signal });
}
