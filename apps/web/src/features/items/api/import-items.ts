import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload, downloadUrl } from '@/features/list-table/api/http';

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

/** GET /admin/product/export?bearer=<token>, opened by the browser (a CSV download). */
export const exportItemsUrl = () => downloadUrl('/admin/product/export');
