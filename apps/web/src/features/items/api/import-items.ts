import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { apiUpload, downloadFile } from '@/features/list-table/api/http';

/** What the import did (or, in a preview, would do). */
export interface ImportResult { created: number; updated: number; unchanged: number; total: number }

/** One column of the file and the field it was read as (docs/api.md, CSV import). */
export interface ImportColumn { index: number; header: string; field: string | null; status: 'matched' | 'mapped' | 'ignored' | 'unknown' | 'duplicate' }

/** The answer of a dry run: nothing was written. */
export interface ImportPreview {
  dryRun: true;
  columns: ImportColumn[];
  fields: string[];
  rows: number;
  sample: { row: number; line: number; cells: string[] }[];
  errors: { propertyPath: string; message: string; row: number; line: number; field: string | null }[];
  moreErrors: boolean;
  result: ImportResult | null;
}

/** file header -> column it holds ('' = ignore that column) */
export type ColumnMapping = Record<string, string>;

/** Options of an import: the mapping, and whether IDs not found create new items (copying a catalogue). */
export interface ImportOptions { mapping?: ColumnMapping; createUnknown?: boolean }

/** The server refuses files of this size or more (IMPORT_MAX_BYTES). */
export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;

const formOf = (file: File) => {
  const form = new FormData();
  form.append('file', file);
  return form;
};
const optionQuery = ({ mapping, createUnknown }: ImportOptions = {}) => ({
  ...(mapping && Object.keys(mapping).length ? { mapping: JSON.stringify(mapping) } : {}),
  ...(createUnknown ? { unknownIds: 'create' } : {}),
});

/** POST /products/import, multipart field `file` (reference client 2.3); options as query parameters. */
export const importItems = (file: File, options: ImportOptions = {}) => {
  const query = optionQuery(options);
  return Object.keys(query).length
    ? apiFetch<ImportResult>('/products/import', { method: 'POST', body: formOf(file), query })
    : apiUpload<ImportResult>('/products/import', formOf(file));
};

/** The same import as a dry run: the columns, the first rows and every error with its line; nothing written. */
export const previewImport = (file: File, options: ImportOptions = {}) =>
  apiFetch<ImportPreview>('/products/import', { method: 'POST', body: formOf(file), query: { dryRun: '1', ...optionQuery(options) } });

export function useImportItems() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ file, ...options }: { file: File } & ImportOptions) => importItems(file, options),
    onSuccess: () => client.invalidateQueries({ queryKey: ['/products'] }),
  });
}

/** GET /admin/product/export (a CSV download; the token in the header, not in the URL: issue 21.5). */
export const exportItems = () => downloadFile('/admin/product/export', 'products.csv');

/** GET /products/import/template: the header of every column and an example row. */
export const downloadTemplate = () => downloadFile('/products/import/template', 'products-template.csv');
