import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** POST /api/admin/order/{id}/email {to?}: the server sends the receipt (SMTP when configured). */
export const emailReceipt = (orderId: number, to: string) =>
  apiFetch<{ message: string; to: string[] }>(`/admin/order/${orderId}/email`, { method: 'POST', body: { to: to.trim() || null } });

export const useEmailReceipt = () =>
  useMutation({ mutationFn: ({ orderId, to }: { orderId: number; to: string }) => emailReceipt(orderId, to) });
