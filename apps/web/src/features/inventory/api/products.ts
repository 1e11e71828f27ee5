import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/features/list-table/api/http';
import type { ProductBrief } from '../lib/types.ts';

/** GET /admin/product/keywords?page=1&itemsPerPage=9999999 -> {list:[{id, name, @id}]} (purchase and PO pickers). */
export function useProductKeywords() {
  return useQuery({
    queryKey: ['options', '/admin/product/keywords'],
    queryFn: async () => (await apiGet<{ list?: ProductBrief[] }>('/admin/product/keywords', { page: 1, itemsPerPage: 9999999 }))?.list ?? [],
    staleTime: 30_000,
  });
}

/** GET /products/{id}: cost, purchase unit and variants for a new line. */
export const getProduct = (id: number | string) => apiGet<ProductBrief>(`/products/${id}`);
