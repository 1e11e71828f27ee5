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

/**
 * GET /products?barcode=<code>: the product whose barcode, or one of whose variants' barcodes, is
 * exactly the code (the server's exact match, indexed), then the product as a new line needs it; null when none.
 */
export async function findByBarcode(code: string): Promise<ProductBrief | null> {
  const page = await apiGet<{ 'hydra:member'?: ProductBrief[] }>('/products', { barcode: code, itemsPerPage: 1 });
  const first = page?.['hydra:member']?.[0];
  return first ? getProduct(first.id) : null;
}
