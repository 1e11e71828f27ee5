import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { confirm } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { ListTable } from '@/features/list-table/components/list-table';
import { yesterdayTodayRange } from '@/features/list-table/lib/dates';
import { HISTORY_KEY, useApprovedHistoryAction, useRangeExpenses } from '../api/history.ts';
import { historySummary, orderCost, orderRate, orderTotal, wireAmount } from '../lib/summary.ts';
import { actionsFor, type HistoryAction, type HistoryListResponse, type HistoryOrder } from '../lib/types.ts';
import { PrintIcon } from '@/components/ui/icons';

export type { HistoryOrder };

const HistoryCharts = lazy(() => import('./history-charts.tsx'));

export interface SaleHistoryDialogProps {
  open: boolean;
  onClose: () => void;
  /** After POST refund/{id}: the till loads the negated lines (the server's return order is the 2nd argument). */
  onRefund?: (order: HistoryOrder, refund?: HistoryOrder) => void;
  /**
   * Refund with a choice of lines (issue 19): given, the row's Refund hands the order over (the till
   * opens its refund dialog: lines, quantities, original tenders) instead of refunding everything left.
   */
  onRefundLines?: (order: HistoryOrder) => void;
  /** Re-order: the till loads the lines with their quantities. */
  onReorder?: (order: HistoryOrder) => void;
  /** After DELETE of the held order: the till loads its lines. */
  onUnsuspend?: (order: HistoryOrder) => void;
  /** Duplicate receipt; without it the row's Print is hidden. */
  onPrint?: (order: HistoryOrder) => void;
}

const QUESTION: Record<HistoryAction, string> = {
  refund: 'history.refundQ',
  delete: 'history.deleteQ',
  unsuspend: 'history.unsuspendQ',
  restore: 'history.restoreQ',
};

/** Sale history (ctrl+h): search, range, tiles, charts and the order table with per-status actions. */
export function SaleHistoryDialog({ open, onClose, onRefund, onRefundLines, onReorder, onUnsuspend, onPrint }: SaleHistoryDialogProps) {
  const currency = useMoney();
  const { t, i18n } = useTranslation('backoffice');
  const lng = i18n.language;
  const [draft, setDraft] = useState(() => ({ q: '', ...yesterdayTodayRange(new Date(), currency.timeZone) })); // the store's yesterday and today (issue 19)
  const [search, setSearch] = useState(draft);
  const [page, setPage] = useState<HistoryListResponse | null>(null);
  const [charts, setCharts] = useState(false);
  const expenses = useRangeExpenses(search.from, search.to);
  // Void, restore and refund: refused for a permission the user lacks, a manager approves on this till (issue 21.2).
  const describe = useCallback((kind: HistoryAction, o: HistoryOrder) => t(`history.actionNamed.${kind}`, { id: String(o.orderId ?? o.id) }), [t]);
  const action = useApprovedHistoryAction(describe);
  // Sales and refunds rung up since the last look (the app keeps lists fresh for 30 s): read again on open.
  const client = useQueryClient();
  useEffect(() => {
    if (open) void client.invalidateQueries({ queryKey: HISTORY_KEY });
  }, [open, client]);
  // Every figure in minor units of the store's currency (issue 19: KWD 1.275, JPY 1,075).
  const cur = (minor: number) => currency.formatMinor(minor);
  const digits = currency.digits;

  const orders = useMemo(() => page?.list ?? [], [page]);
  const summary = useMemo(() => historySummary(orders, (expenses.data ?? []).map((e) => e.amount), digits), [orders, expenses.data, digits]);

  const columns = useMemo<ColumnDef<HistoryOrder, any>[]>(() => {
    const run = async (kind: HistoryAction, order: HistoryOrder) => {
      if (kind === 'refund' && onRefundLines) {
        onRefundLines(order);
        return;
      }
      if (!(await confirm(t(QUESTION[kind]), { danger: kind === 'delete' }))) return;
      try {
        const res = await action.run(kind, order);
        if (res === null) return; // the manager approval was cancelled
        if (kind === 'refund') onRefund?.(order, res?.order);
        if (kind === 'unsuspend') onUnsuspend?.(order);
        toast.success(t(`history.done.${kind}`));
      } catch (error) {
        toast.error(errorText(error));
      }
    };
    return [
      { id: 'orderId', accessorKey: 'orderId', header: t('history.orderNo') },
      { id: 'createdAt', accessorKey: 'createdAt', header: t('history.time'), enableColumnFilter: false, cell: ({ getValue }) => formatDateTime(getValue(), currency.timeZone) },
      { id: 'customer', accessorFn: (o) => o.customer?.name || o.customerName || '', header: t('history.customer'), enableSorting: false, enableColumnFilter: false },
      {
        id: 'status',
        accessorKey: 'status',
        header: t('history.status'),
        enableColumnFilter: false,
        cell: ({ row }) => (
          <span className={`badge status-${row.original.status.replace(/\s+/g, '-').toLowerCase()}`} data-testid="order-status">
            {t(`history.statuses.${row.original.status}`, { defaultValue: row.original.status })}
            {row.original.returnedFrom ? ` (${t('history.returnOf', { id: row.original.returnedFrom.orderId ?? row.original.returnedFrom.id })})` : ''}
          </span>
        ),
      },
      { id: 'rate', header: t('history.rate'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(orderRate(row.original, digits)) },
      { id: 'cost', header: t('history.cost'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(orderCost(row.original, digits)) },
      { id: 'discount', header: t('history.discount'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(wireAmount(row.original.discount?.amount, digits)) },
      { id: 'tax', header: t('history.tax'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(wireAmount(row.original.tax?.amount, digits)) },
      { id: 'itemTaxes', header: t('history.itemsTax'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(wireAmount(row.original.itemTaxes, digits)) },
      { id: 'total', header: t('history.total'), enableSorting: false, enableColumnFilter: false, cell: ({ row }) => cur(orderTotal(row.original, digits)) },
      { id: 'store', accessorFn: (o) => o.store?.name ?? '', header: t('common.store'), enableSorting: false, enableColumnFilter: false },
      { id: 'terminal', accessorFn: (o) => o.terminal?.code ?? '', header: t('history.terminal'), enableSorting: false, enableColumnFilter: false },
      {
        id: 'actions',
        header: t('common.actions'),
        enableSorting: false,
        enableColumnFilter: false,
        enableHiding: false,
        cell: ({ row }) => {
          const o = row.original;
          const label = String(o.orderId ?? o.id);
          return (
            <div className="row-actions">
              {actionsFor(o).map((kind) => (
                <Button
                  key={kind}
                  size="sm"
                  variant={kind === 'delete' ? 'danger' : 'secondary'}
                  aria-label={t(`history.actionNamed.${kind}`, { id: label })}
                  disabled={action.isPending}
                  onClick={() => void run(kind, o)}
                >
                  {t(`history.actions.${kind}`)}
                </Button>
              ))}
              {onReorder && o.status !== 'On Hold' && o.status !== 'Deleted' && (
                <Button size="sm" variant="secondary" aria-label={t('history.actionNamed.reorder', { id: label })} onClick={() => onReorder(o)}>
                  {t('history.actions.reorder')}
                </Button>
              )}
              {onPrint && (
                <Button size="sm" variant="ghost" aria-label={t('history.actionNamed.print', { id: label })} onClick={() => onPrint(o)}>
                  <PrintIcon />
                </Button>
              )}
            </div>
          );
        },
      },
    ];
     
  }, [t, lng, onRefund, onRefundLines, onReorder, onUnsuspend, onPrint, action.isPending, action.run, currency]);

  return (
    <Dialog open={open} onClose={onClose} size="full" title={t('history.title')}>
      <form
        className="inline-form"
        role="search"
        aria-label={t('history.search')}
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(draft);
        }}
      >
        <Input type="search" label={t('history.searchLabel')} value={draft.q} onChange={(e) => setDraft((d) => ({ ...d, q: e.target.value }))} />
        <Input type="datetime-local" label={t('common.from')} value={draft.from} onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))} />
        <Input type="datetime-local" label={t('common.to')} value={draft.to} onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))} />
        <Button type="submit">{t('common.search')}</Button>
        <Checkbox label={t('history.showCharts')} checked={charts} onChange={(e) => setCharts(e.target.checked)} />
      </form>

      <div className="summary-boxes" aria-label={t('history.summary')}>
        <div className="summary-box">
          <span>{t('history.tiles.bills')}</span>
          <strong data-testid="tile-bills">{summary.bills}</strong>
        </div>
        <div className="summary-box">
          <span>{t('history.tiles.amount')}</span>
          <strong data-testid="tile-amount">{cur(summary.amount)}</strong>
        </div>
        <div className="summary-box">
          <span>{t('history.tiles.cost')}</span>
          <strong data-testid="tile-cost">{cur(summary.cost)}</strong>
        </div>
        <div className="summary-box">
          <span>{t('history.tiles.expenses')}</span>
          <strong data-testid="tile-expenses">{cur(summary.expenses)}</strong>
        </div>
        {/* A loss shows its size under "Loss"; zero is neither profit nor loss. */}
        <div className={`summary-box ${summary.profit.amountCents === 0 ? '' : summary.profit.isLoss ? 'summary-box-danger' : 'summary-box-success'}`}>
          <span data-testid="tile-profit-label">{t(summary.profit.amountCents === 0 ? 'history.tiles.even' : summary.profit.isLoss ? 'history.tiles.loss' : 'history.tiles.profit')}</span>
          <strong data-testid="tile-profit">{cur(Math.abs(summary.profit.amountCents))}</strong>
        </div>
      </div>

      {charts && (
        <Suspense fallback={<Spinner />}>
          <HistoryCharts orders={orders} payments={page?.payments ?? {}} />
        </Suspense>
      )}

      <ListTable<HistoryOrder>
        url="/admin/order/list"
        queryKey={HISTORY_KEY}
        itemsKey="list"
        totalKey="total"
        params={{ q: search.q.trim() || undefined, dateTimeFrom: search.from, dateTimeTo: search.to }}
        defaultSort={{ id: 'orderId', desc: true }}
        columns={columns}
        searchable={false}
        onData={(r) => setPage(r.raw as HistoryListResponse)}
        rowClassName={(o) => `order-row status-${o.status.replace(/\s+/g, '-').toLowerCase()}`}
      />
      {action.dialog}
    </Dialog>
  );
}
