import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, downloadFile } from '@/features/list-table/api/http';

/** POST /products/import, multipart field `file` (reference client 2.3). */
export const importItems = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return apiUpload<unknown>('/products/import', form);
};

export function useImportItems() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: importItems,
    onSuccess: () => client.invalidateQueries({ queryKey: ['/products'] }),
  });
}

/** GET /admin/product/export (a CSV download; the token in the header, not in the URL: issue 21.5). */
export const exportItems = () => downloadFile('/admin/product/export', 'products.csv');
