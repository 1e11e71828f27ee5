import { useCallback, useMemo, useState } from 'react';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { Link, NavLink } from 'react-router';
import { Select } from '@/components/ui/select';
import { ListTable } from '@/features/list-table/components/list-table';
import { useCan } from '@/lib/permissions';
import { stockKeys, stockListFetcher, STOCK } from '../api/stock.ts';
import { when } from '../lib/forms.ts';
import type { Adjustment, StockCount, Transfer } from '../lib/types.ts';
import { StatusBadge, StoreFilter, useStockStores } from './stock-common.tsx';

/** Transfers, Counts, Adjustments, Movements, Valuation (with 'cost.view': it shows cost): the stock pages' own tabs. */
export function StockTabs() {
  const { t } = useTranslation('stock');
  const canValue = useCan('cost.view');
  return (
    <nav className="stock-tabs" aria-label={t('nav')}>
      <NavLink to="/admin/stock/transfers" className="stock-tab">{t('tabs.transfers')}</NavLink>
      <NavLink to="/admin/stock/counts" className="stock-tab">{t('tabs.counts')}</NavLink>
      <NavLink to="/admin/stock/adjustments" className="stock-tab">{t('tabs.adjustments')}</NavLink>
      <NavLink to="/admin/stock/movements" className="stock-tab">{t('tabs.movements')}</NavLink>
      {canValue && <NavLink to="/admin/stock/valuation" className="stock-tab">{t('tabs.valuation')}</NavLink>}
    </nav>
  );
}

function useTimeZone() {
  const stores = useStockStores();
  return useCallback((storeId: number) => stores.find((s) => s.id === storeId)?.timeZone ?? undefined, [stores]);
}

const LIST = { itemsKey: 'list', totalKey: 'total', fetcher: stockListFetcher, searchable: false } as const;

/**
 * Each cell carries its column's name, shown only on narrow screens where a row becomes a card
 * (stock.css), so the lists never scroll sideways on a phone.
 */
function labelled<T>(columns: ColumnDef<T, any>[]): ColumnDef<T, any>[] {
  return columns.map((c) => {
    const inner = c.cell;
    return {
      ...c,
      cell: (ctx: any) => (
        <>
          <span className="stock-cell-label" aria-hidden="true">{String(c.header)}</span>
          <span className="stock-cell-value">{typeof inner === 'function' ? inner(ctx) : String(ctx.getValue() ?? '')}</span>
        </>
      ),
    };
  });
}

export function TransfersList() {
  const { t, i18n } = useTranslation('stock');
  const [store, setStore] = useState('');
  const [status, setStatus] = useState('');
  const canWrite = useCan('purchasing');
  const tz = useTimeZone();
  const columns = useMemo<ColumnDef<Transfer, any>[]>(() => labelled([
    { id: 'number', header: t('common.number'), enableSorting: false, cell: ({ row }) => <Link to={`/admin/stock/transfers/${row.original.id}`}>{t('transfers.number', { number: row.original.number })}</Link> },
    { id: 'status', header: t('common.status'), enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} label={t(`transfers.statuses.${row.original.status}`)} /> },
    { id: 'from', header: t('transfers.from'), enableSorting: false, accessorFn: (r) => r.fromStore.name },
    { id: 'to', header: t('transfers.to'), enableSorting: false, accessorFn: (r) => r.toStore.name },
    { id: 'date', header: t('common.date'), enableSorting: false, accessorFn: (r) => when(r.receivedAt ?? r.sentAt ?? r.requestedAt, tz(r.fromStore.id), i18n.language) },
    { id: 'by', header: t('transfers.requestedBy'), enableSorting: false, accessorFn: (r) => r.requestedBy?.displayName || r.requestedBy?.username || '' },
  ]), [t, i18n.language, tz]);
  return (
    <div className="stock-page">
      <h1>{t('transfers.title')}</h1>
      <StockTabs />
      <div className="stock-toolbar">
        <StoreFilter value={store} onChange={setStore} />
        <Select
          containerClassName="stock-filter"
          label={t('transfers.filterStatus')}
          placeholder={t('common.allStatuses')}
          options={(['requested', 'sent', 'received', 'cancelled'] as const).map((s) => ({ value: s, label: t(`transfers.statuses.${s}`) }))}
          value={status}
          onChange={(e) => setStatus(e.target.value)}
        />
        <span className="grow" />
        {canWrite && <Link className="btn btn-primary btn-md" to="/admin/stock/transfers/new">{t('transfers.new')}</Link>}
      </div>
      <div className="stock-list"><ListTable<Transfer> {...LIST} url={`${STOCK}/transfer/list`} queryKey={stockKeys.transfers} columns={columns} params={{ store, status }} caption={t('transfers.title')} /></div>
    </div>
  );
}

export function CountsList() {
  const { t, i18n } = useTranslation('stock');
  const [store, setStore] = useState('');
  const canWrite = useCan('purchasing');
  const tz = useTimeZone();
  const columns = useMemo<ColumnDef<StockCount, any>[]>(() => labelled([
    { id: 'number', header: t('common.number'), enableSorting: false, cell: ({ row }) => <Link to={`/admin/stock/counts/${row.original.id}`}>{t('counts.number', { number: row.original.number })}</Link> },
    { id: 'status', header: t('common.status'), enableSorting: false, cell: ({ row }) => <StatusBadge status={row.original.status} label={t(`counts.statuses.${row.original.status}`)} /> },
    { id: 'store', header: t('common.store'), enableSorting: false, accessorFn: (r) => r.store.name },
    { id: 'scope', header: t('counts.scope'), enableSorting: false, accessorFn: (r) => t(`counts.scopes.${r.scope}`) },
    { id: 'date', header: t('common.date'), enableSorting: false, accessorFn: (r) => when(r.approvedAt ?? r.createdAt, tz(r.store.id), i18n.language) },
    { id: 'by', header: t('common.by'), enableSorting: false, accessorFn: (r) => r.createdBy?.displayName || r.createdBy?.username || '' },
  ]), [t, i18n.language, tz]);
  return (
    <div className="stock-page">
      <h1>{t('counts.title')}</h1>
      <StockTabs />
      <div className="stock-toolbar">
        <StoreFilter value={store} onChange={setStore} />
        <span className="grow" />
        {canWrite && <Link className="btn btn-primary btn-md" to="/admin/stock/counts/new">{t('counts.new')}</Link>}
      </div>
      <div className="stock-list"><ListTable<StockCount> {...LIST} url={`${STOCK}/count/list`} queryKey={stockKeys.counts} columns={columns} params={{ store }} caption={t('counts.title')} /></div>
    </div>
  );
}

export function AdjustmentsList() {
  const { t, i18n } = useTranslation('stock');
  const [store, setStore] = useState('');
  const canWrite = useCan('stock.adjust');
  const tz = useTimeZone();
  const columns = useMemo<ColumnDef<Adjustment, any>[]>(() => labelled([
    { id: 'number', header: t('common.number'), enableSorting: false, cell: ({ row }) => <Link to={`/admin/stock/adjustments/${row.original.id}`}>{t('adjustments.number', { number: row.original.number })}</Link> },
    { id: 'store', header: t('common.store'), enableSorting: false, accessorFn: (r) => r.store.name },
    { id: 'note', header: t('common.note'), enableSorting: false, accessorFn: (r) => r.note ?? '' },
    { id: 'date', header: t('common.date'), enableSorting: false, accessorFn: (r) => when(r.createdAt, tz(r.store.id), i18n.language) },
    { id: 'by', header: t('common.by'), enableSorting: false, accessorFn: (r) => r.createdBy?.displayName || r.createdBy?.username || '' },
  ]), [t, i18n.language, tz]);
  return (
    <div className="stock-page">
      <h1>{t('adjustments.title')}</h1>
      <StockTabs />
      <div className="stock-toolbar">
        <StoreFilter value={store} onChange={setStore} />
        <span className="grow" />
        {canWrite && <Link className="btn btn-primary btn-md" to="/admin/stock/adjustments/new">{t('adjustments.new')}</Link>}
      </div>
      <div className="stock-list"><ListTable<Adjustment> {...LIST} url={`${STOCK}/adjustment/list`} queryKey={stockKeys.adjustments} columns={columns} params={{ store }} caption={t('adjustments.title')} /></div>
    </div>
  );
}
