import { apiFetch } from '@/lib/api-client';

/** One product to order (GET /api/stock/reorder, issue 25.4). Quantities and money are wire numbers; cost and value null without 'cost.view'. */
export interface ToOrderLine {
  product: { id: number; name: string; sku: string | null; barcode: string | null };
  stock: number;
  level: number;
  reorderQuantity: number | null;
  suggested: number;
  cost: number | null;
  value: number | null;
}
export interface ToOrderGroup { supplier: { id: number; name: string } | null; value: number | null; lines: ToOrderLine[] }
export interface ToOrder { store: number; count: number; suppliers: ToOrderGroup[] }
export interface LowStock { store: number; count: number; products: { id: number; name: string; stock: number; level: number; supplier: { id: number; name: string } | null }[] }

export const getToOrder = (store: number) => apiFetch<ToOrder>('/stock/reorder', { query: { store } });

/** Draft (Open) purchase orders, one per supplier, from the whole list. */
export const createDraftOrders = (store: number) =>
  apiFetch<{ purchaseOrders: { '@id': string; id: number }[] }>('/stock/reorder/purchase-orders', { method: 'POST', body: { store } });

export const getLowStock = (store: number, limit = 5) => apiFetch<LowStock>('/stock/low', { query: { store, limit } });
