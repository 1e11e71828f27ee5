import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../api/http.ts';
import type { ParamValue } from '../lib/list-query.ts';

export interface Option {
  value: string;
  label: string;
}

interface Hydra<T> {
  'hydra:member'?: T[];
  list?: T[];
}

/**
 * A picker's whole list (spec 7: option lists are GET isActive=true, page 1, size 999999).
 * Rows come back untouched; `toOption` turns them into select options.
 */
export function useOptionList<T extends { id: number | string }>(
  path: string,
  params: Readonly<Record<string, ParamValue>> = { isActive: true },
  enabled = true,
) {
  return useQuery({
    queryKey: ['options', path, params],
    queryFn: async () => {
      const body = await apiGet<Hydra<T>>(path, { page: 1, itemsPerPage: 999999, ...params });
      return body?.['hydra:member'] ?? body?.list ?? [];
    },
    staleTime: 30_000,
    enabled,
  });
}

export function toOptions<T extends { id: number | string }>(rows: readonly T[] | undefined, label: (row: T) => string): Option[] {
  return (rows ?? []).map((r) => ({ value: String(r.id), label: label(r) }));
}
