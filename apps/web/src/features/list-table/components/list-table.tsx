import { useEffect, useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
  type VisibilityState,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { apiGet } from '../api/http.ts';
import { buildListParams, DEFAULT_PAGE_SIZE, pageCount, PAGE_SIZES, type ParamValue } from '../lib/list-query.ts';
import '../backoffice.css';

export type ListFetcher = (url: string, params: URLSearchParams) => Promise<unknown>;

export interface ListResult<T> {
  rows: T[];
  total: number;
  raw: unknown;
}

export interface ListTableProps<T> {
  /** API path under /api, e.g. '/products'. */
  url: string;
  /** Cache key prefix; invalidate it to reload the table. */
  queryKey: readonly unknown[];
  columns: ColumnDef<T, any>[];
  /** Fixed filters sent with every request (store=..., q=...). */
  params?: Readonly<Record<string, ParamValue>>;
  defaultSort?: { id: string; desc: boolean };
  /** Hydra by default; sale history reads `list` and `total`. */
  itemsKey?: string;
  totalKey?: string;
  /** Buttons shown at the right of the toolbar (add, import...). */
  toolbar?: ReactNode;
  /** Loading placeholder: rows of `loaderLines` lines. */
  loaderRows?: number;
  loaderLines?: number;
  /** Search box and column selector (on by default). */
  searchable?: boolean;
  fetcher?: ListFetcher;
  onData?: (result: ListResult<T>) => void;
  caption?: string;
  getRowId?: (row: T, index: number) => string;
  rowClassName?: (row: T) => string | undefined;
}

const defaultFetcher: ListFetcher = (url, params) => apiGet(url, params);

/** The generic paged list of spec 2.5: search with a column, column selector, refresh, sort, pages. */
export function ListTable<T>({
  url,
  queryKey,
  columns,
  params,
  defaultSort,
  itemsKey = 'hydra:member',
  totalKey = 'hydra:totalItems',
  toolbar,
  loaderRows = 3,
  loaderLines = 1,
  searchable = true,
  fetcher = defaultFetcher,
  onData,
  caption,
  getRowId,
  rowClassName,
}: ListTableProps<T>) {
  const { t } = useTranslation('backoffice');
  const uid = useId();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sorting, setSorting] = useState<SortingState>(defaultSort ? [defaultSort] : []);
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>({});
  const [filter, setFilter] = useState<{ column: string; value: string } | null>(null);
  const [searchColumn, setSearchColumn] = useState('');
  const [searchValue, setSearchValue] = useState('');
  const [searchError, setSearchError] = useState<string | null>(null);
  const [showColumns, setShowColumns] = useState(false);

  const sort = sorting[0] ? { id: sorting[0].id, desc: sorting[0].desc } : null;
  const search = useMemo(
    () => buildListParams({ page, pageSize, sort, filter }, params),
     
    [page, pageSize, sort?.id, sort?.desc, filter?.column, filter?.value, JSON.stringify(params ?? {})],
  );

  const query = useQuery({
    queryKey: [...queryKey, 'list', search.toString()],
    queryFn: async (): Promise<ListResult<T>> => {
      const raw = (await fetcher(url, search)) as Record<string, unknown> | null;
      const rows = Array.isArray(raw?.[itemsKey]) ? (raw[itemsKey] as T[]) : [];
      const total = Number(raw?.[totalKey] ?? rows.length) || 0;
      return { rows, total, raw };
    },
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });

  useEffect(() => {
    if (query.data && onData) onData(query.data);
     
  }, [query.data]);

  const total = query.data?.total ?? 0;
  const pages = pageCount(total, pageSize);

  // A shrinking result set (a filter, a delete) must not leave us past the last page.
  useEffect(() => {
    if (query.data && page > pages) setPage(pages);
  }, [query.data, page, pages]);

  const table = useReactTable<T>({
    data: query.data?.rows ?? [],
    columns,
    state: { sorting, columnVisibility },
    manualSorting: true,
    manualPagination: true,
    manualFiltering: true,
    enableMultiSort: false,
    enableSortingRemoval: true,
    pageCount: pages,
    onSortingChange: (updater) => {
      setSorting(updater);
      setPage(1);
    },
    onColumnVisibilityChange: setColumnVisibility,
    getCoreRowModel: getCoreRowModel(),
    getRowId,
  });

  const filterable = table.getAllLeafColumns().filter((c) => c.getCanFilter() && c.columnDef.enableColumnFilter !== false && typeof c.columnDef.header === 'string');
  const hideable = table.getAllLeafColumns().filter((c) => c.getCanHide());

  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    if (!searchColumn) {
      setSearchError(t('list.columnRequired'));
      return;
    }
    setSearchError(null);
    setFilter({ column: searchColumn, value: searchValue });
    setPage(1);
  };

  const resetSearch = () => {
    setSearchValue('');
    setSearchError(null);
    setFilter(null);
    setPage(1);
  };

  const headerText = (id: string) => {
    const col = table.getColumn(id);
    const h = col?.columnDef.header;
    return typeof h === 'string' ? h : id;
  };

  const visibleCount = table.getVisibleLeafColumns().length;
  const loading = query.isPending;

  return (
    <div className="list-table" aria-busy={query.isFetching}>
      <div className="list-table__toolbar">
        {searchable && (
          <form className="list-table__search" onSubmit={submitSearch} role="search">
            <select
              aria-label={t('list.searchColumn')}
              value={searchColumn}
              onChange={(e) => {
                setSearchColumn(e.target.value);
                if (e.target.value) setSearchError(null);
              }}
              aria-invalid={searchError ? true : undefined}
              aria-describedby={searchError ? `${uid}-search-error` : undefined}
            >
              <option value="">{t('list.selectColumn')}</option>
              {filterable.map((c) => (
                <option key={c.id} value={c.id}>
                  {headerText(c.id)}
                </option>
              ))}
            </select>
            <input
              type="search"
              aria-label={t('list.search')}
              placeholder={t('list.search')}
              value={searchValue}
              onChange={(e) => setSearchValue(e.target.value)}
            />
            <button type="submit" className="btn btn-primary">
              {t('list.searchButton')}
            </button>
            {filter && (
              <button type="button" className="btn" onClick={resetSearch}>
                {t('list.reset')}
              </button>
            )}
            {searchError && (
              <span id={`${uid}-search-error`} role="alert" className="field-error">
                {searchError}
              </span>
            )}
          </form>
        )}
        <div className="list-table__actions">
          <div className="list-table__columns">
            <button
              type="button"
              className="btn"
              aria-expanded={showColumns}
              aria-controls={`${uid}-columns`}
              onClick={() => setShowColumns((v) => !v)}
            >
              {t('list.columns')}
            </button>
            {showColumns && (
              <fieldset id={`${uid}-columns`} className="list-table__column-menu">
                <legend>{t('list.columns')}</legend>
                {hideable.map((c) => (
                  <label key={c.id}>
                    <input type="checkbox" checked={c.getIsVisible()} onChange={c.getToggleVisibilityHandler()} />{' '}
                    {headerText(c.id)}
                  </label>
                ))}
              </fieldset>
            )}
          </div>
          <button
            type="button"
            className="btn"
            onClick={() => void query.refetch()}
            disabled={query.isFetching}
            aria-label={t('list.refresh')}
            title={t('list.refresh')}
          >
            <span aria-hidden="true">⟳</span> {t('list.refresh')}
          </button>
          {toolbar}
        </div>
      </div>

      {loading ? (
        <div className="list-table__loader" data-testid="list-loader" role="status" aria-label={t('list.loading')}>
          {Array.from({ length: loaderRows }, (_, i) => (
            <div key={i} className="skeleton-item">
              {Array.from({ length: loaderLines }, (_, j) => (
                <div key={j} className="skeleton-line" />
              ))}
            </div>
          ))}
        </div>
      ) : (
        <div className="list-table__scroll">
          <table className="table">
            {caption && <caption>{caption}</caption>}
            <thead>
              {table.getHeaderGroups().map((hg) => (
                <tr key={hg.id}>
                  {hg.headers.map((header) => {
                    const canSort = header.column.getCanSort();
                    const dir = header.column.getIsSorted();
                    const content = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                    return (
                      <th
                        key={header.id}
                        scope="col"
                        aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : canSort ? 'none' : undefined}
                      >
                        {canSort ? (
                          <button type="button" className="list-table__sort" onClick={header.column.getToggleSortingHandler()}>
                            {content}
                            <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ' ⇅'}</span>
                          </button>
                        ) : (
                          content
                        )}
                      </th>
                    );
                  })}
                </tr>
              ))}
            </thead>
            <tbody>
              {query.isError ? (
                <tr>
                  <td colSpan={visibleCount} role="alert">
                    {t('list.fetchError')}
                  </td>
                </tr>
              ) : table.getRowModel().rows.length === 0 ? (
                <tr>
                  <td colSpan={visibleCount} className="list-table__empty">
                    {t('list.empty')}
                  </td>
                </tr>
              ) : (
                table.getRowModel().rows.map((row) => (
                  <tr key={row.id} className={rowClassName?.(row.original)}>
                    {row.getVisibleCells().map((cell) => (
                      // data-label: the column's name, shown beside the value where a narrow page lays rows out as cards (admin.css).
                      <td key={cell.id} data-label={typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined}>
                        {flexRender(cell.column.columnDef.cell, cell.getContext())}
                      </td>
                    ))}
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}

      <nav className="list-table__pager" aria-label={t('list.pagination')}>
        <button type="button" className="btn" onClick={() => setPage(1)} disabled={page <= 1} aria-label={t('list.firstPage')}>
          «
        </button>
        <button type="button" className="btn" onClick={() => setPage((p) => Math.max(1, p - 1))} disabled={page <= 1} aria-label={t('list.previousPage')}>
          ‹
        </button>
        <span className="list-table__page-info">{t('list.pageOf', { page, pages })}</span>
        <button type="button" className="btn" onClick={() => setPage((p) => Math.min(pages, p + 1))} disabled={page >= pages} aria-label={t('list.nextPage')}>
          ›
        </button>
        <button type="button" className="btn" onClick={() => setPage(pages)} disabled={page >= pages} aria-label={t('list.lastPage')}>
          »
        </button>
        <label>
          {t('list.goToPage')}{' '}
          <select value={page} onChange={(e) => setPage(Number(e.target.value))}>
            {Array.from({ length: pages }, (_, i) => (
              <option key={i + 1} value={i + 1}>
                {i + 1}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('list.pageSize')}{' '}
          <select
            value={pageSize}
            onChange={(e) => {
              setPageSize(Number(e.target.value));
              setPage(1);
            }}
          >
            {PAGE_SIZES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <span className="list-table__total">{t('list.total', { count: total })}</span>
      </nav>
    </div>
  );
}
