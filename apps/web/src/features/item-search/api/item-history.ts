import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import type { HydraCollection } from '@/features/catalogue-cache/types';

export interface OrderProductRow {
  id: number;
  order: string | { '@id'?: string; id?: number; orderId?: number | null };
  variant?: string | { attributeValue?: string | null } | null;
  createdAt: string;
  quantity: number | string;
  price: number | string;
  discount?: number | string | null;
  taxesTotal?: number | string | null;
}

export interface PurchaseItemRow {
  id: number;
  purchase?: { '@id'?: string; id?: number; purchaseNumber?: string | null; createdAt?: string } | string | null;
  quantityRequested?: number | string | null;
  quantity: number | string;
  purchasePrice: number | string;
  createdAt: string;
}

const PAGE = 10;

/** GET /api/order_products/?product.id=<product IRI>: the item's sales (order and variant as IRIs). */
export const useItemSales = (productId: number | null, page: number) =>
  useQuery({
    queryKey: ['item-sales', productId, page],
    queryFn: ({ signal }) => apiFetch<HydraCollection<OrderProductRow>>('/order_products', {
      query: { 'product.id': `/api/products/${productId}`, page, itemsPerPage: PAGE, 'order[createdAt]': 'desc' }, signal,
    }),
    enabled: productId !== null,
    placeholderData: keepPreviousData,
  });

/** GET /api/purchase_items?item.id=<product IRI>: the item's purchases. */
export const useItemPurchases = (productId: number | null, page: number) =>
  useQuery({
    queryKey: ['item-purchases', productId, page],
    queryFn: ({ signal }) => apiFetch<HydraCollection<PurchaseItemRow>>('/purchase_items', {
      query: { 'item.id': `/api/products/${productId}`, page, itemsPerPage: PAGE }, signal,
    }),
    enabled: productId !== null,
    placeholderData: keepPreviousData,
  });

/** A label of a resource known by IRI only (order number, variant value, purchase number), cached. */
export const useIriLabel = (iri: string | null, field: 'orderId' | 'attributeValue' | 'purchaseNumber') =>
  useQuery({
    queryKey: ['iri', iri],
    queryFn: ({ signal }) => apiFetch<Record<string, unknown>>(iri!.replace(/^\/api/, ''), { signal }),
    enabled: !!iri,
    staleTime: Infinity,
    select: (r) => {
      const v = (r as Record<string, unknown>)[field] ?? ((r as Record<string, Record<string, unknown>>).order?.[field]);
      return v === null || v === undefined ? '' : String(v);
    },
  });

export const ITEM_HISTORY_PAGE = PAGE;
