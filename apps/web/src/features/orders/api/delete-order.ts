import { apiFetch } from '@/lib/api-client';
import type { Order } from '@/features/catalogue-cache/types';

/** DELETE /api/admin/order/{id}: used to unsuspend a held order before its lines go back into the cart. */
export const deleteOrder = (id: number) => apiFetch<{ order?: Order }>(`/admin/order/${id}`, { method: 'DELETE' });
