/**
 * Query parameters of the generic paged table (reference client 2.0): 1-based `page`,
 * `itemsPerPage`, one `order[<column id>]` and one column filter whose name is the column id
 * (dotted, e.g. `supplier.name`). Unlike the reference we never send junk keys ("undefined").
 */
export const PAGE_SIZES = [10, 20, 25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;

export type ParamValue = string | number | boolean | null | undefined;

export interface ListState {
  page: number;
  pageSize: number;
  sort?: { id: string; desc: boolean } | null;
  filter?: { column: string; value: string } | null;
}

/** Column id -> request parameter: the first '_' becomes '.' (TanStack ids of dotted accessors). */
export function filterParamName(columnId: string): string {
  return columnId.includes('.') ? columnId : columnId.replace('_', '.');
}

export function buildListParams(state: ListState, fixed: Readonly<Record<string, ParamValue>> = {}): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(fixed)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, String(value));
  }
  if (state.filter && state.filter.column && state.filter.value.trim() !== '') {
    params.set(filterParamName(state.filter.column), state.filter.value.trim());
  }
  params.set('page', String(Math.max(1, state.page)));
  params.set('itemsPerPage', String(state.pageSize));
  if (state.sort) params.set(`order[${state.sort.id}]`, state.sort.desc ? 'desc' : 'asc');
  return params;
}

export function pageCount(total: number, pageSize: number): number {
  if (pageSize <= 0) return 1;
  return Math.max(1, Math.ceil(total / pageSize));
}
