import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useMoney } from '@/lib/money';
import { useSession } from '@/lib/session';
import { storeDay } from '@/features/list-table/lib/dates';
import { downloadReportCsv, fetchReport, REPORT_KINDS, SALES_GROUPS, type ReportFilters, type ReportKind, type ReportRow } from '../api/reports.ts';
import '../reports.css';

const SalesChart = lazy(() => import('./sales-chart.tsx'));

/** Figures shown per report, in order; those the answer lacks (cost without 'cost.view') are left out. */
const COLUMNS: Record<ReportKind, readonly string[]> = {
  sales: ['orders', 'quantity', 'net', 'tax', 'gross', 'discount', 'refunds', 'cost', 'margin'],
  top: ['sku', 'orders', 'quantity', 'net', 'gross', 'stock', 'margin'],
  slow: ['sku', 'orders', 'quantity', 'net', 'gross', 'stock', 'margin'],
  customers: ['phone', 'balance', 'current', 'days1to30', 'days31to60', 'days61to90', 'over90'],
  suppliers: ['phone', 'balance', 'current', 'days1to30', 'days31to60', 'days61to90', 'over90'],
};
const MONEY = new Set(['net', 'tax', 'gross', 'discount', 'refunds', 'cost', 'margin', 'balance', 'current', 'days1to30', 'days31to60', 'days61to90', 'over90']);
const NUMBER = new Set(['orders', 'quantity', 'stock']);

/** A local date (YYYY-MM-DD) in `zone`, `days` from today. */
export const localDate = (zone: string, days: number, now = new Date()): string => storeDay(now, zone, days);

/**
 * Reports (issue 25.6): sales by day, hour, product, ... for a date range (default yesterday, in the
 * store's time zone), top sellers, slow movers, customer and supplier balances with ageing; a
 * store filter (all the user's stores by default), the table in the report's currency, a CSV of
 * the same rows, and a bar chart of sales by day or hour.
 */
export function ReportsPage() {
  const { t, i18n } = useTranslation('admin');
  const { user, store } = useSession();
  const zone = store?.timeZone ?? user?.stores[0]?.timeZone ?? 'UTC';
  const yesterday = localDate(zone, -1);
  const [draft, setDraft] = useState<ReportFilters>({ kind: 'sales', from: yesterday, to: yesterday, store: '', group: 'day' });
  const [filters, setFilters] = useState<ReportFilters>(draft);
  // The previous answer stays on screen while the next one loads (the chart is updated, not re-created).
  const query = useQuery({
    queryKey: ['report', filters], queryFn: async () => ({ filters, report: await fetchReport(filters) }), placeholderData: (previous) => previous,
  });
  const report = query.data?.report;
  /** The filters of the report on screen (the previous one while the next loads). */
  const shown = query.data?.filters ?? filters;
  const money = useMoney(report?.currency ? { currency: report.currency } : null);
  const columns = useMemo(() => {
    const sample = (report?.totals ?? report?.rows[0] ?? {}) as Record<string, unknown>;
    return COLUMNS[shown.kind].filter((c) => c in sample);
  }, [report, shown.kind]);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };
  const set = (patch: Partial<ReportFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const numbers = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 });
  const cell = (row: ReportRow | Record<string, unknown>, c: string) => {
    const v = (row as Record<string, unknown>)[c];
    if (v === undefined || v === null) return '';
    if (MONEY.has(c)) return money.formatMinor(Number(v));
    if (NUMBER.has(c)) return numbers.format(Number(v));
    return String(v);
  };
  const dated = draft.kind !== 'customers' && draft.kind !== 'suppliers';
  const chart = shown.kind === 'sales' && (shown.group === 'day' || shown.group === 'hour') && report && report.rows.length > 0;
  const label = (r: ReportRow) => r.label || (shown.kind === 'sales' && shown.group === 'tax' && r.key === null ? t('reports.noTax') : '—');
  return (
    <section className="stack reports-page" aria-labelledby="reports-title">
      <h1 id="reports-title">{t('reports.title')}</h1>
      <form className="row report-filters" onSubmit={apply} aria-label={t('reports.filters')}>
        <Select label={t('reports.kind')} value={draft.kind} onChange={(e) => set({ kind: e.target.value as ReportKind })}
          options={REPORT_KINDS.map((k) => ({ value: k, label: t(`reports.kinds.${k}`) }))} />
        {draft.kind === 'sales' && (
          <Select label={t('reports.group')} value={draft.group} onChange={(e) => set({ group: e.target.value as ReportFilters['group'] })}
            options={SALES_GROUPS.map((g) => ({ value: g, label: t(`reports.groups.${g}`) }))} />
        )}
        {dated && <Input label={t('reports.from')} type="date" value={draft.from} onChange={(e) => set({ from: e.target.value })} />}
        {dated && <Input label={t('reports.to')} type="date" value={draft.to} onChange={(e) => set({ to: e.target.value })} />}
        <Select label={t('reports.store')} value={draft.store} onChange={(e) => set({ store: e.target.value })} placeholder={t('reports.allStores')}
          options={(user?.stores ?? []).map((s) => ({ value: String(s.id), label: s.name }))} />
        <Button type="submit">{t('reports.show')}</Button>
        <Button type="button" variant="secondary" onClick={() => downloadReportCsv(filters).catch((e) => toast.error(errorText(e)))}>{t('reports.csv')}</Button>
      </form>
      {query.isError && <p role="alert">{errorText(query.error)}</p>}
      {report && (
        <p className="report-meta">
          {t('reports.meta', { currency: report.currency ?? '', zone: report.timeZone ?? t('reports.eachZone') })}
        </p>
      )}
      {chart && (
        <Suspense fallback={null}>
          <SalesChart title={t(`reports.chart.${shown.group}`)} rows={report.rows} money={money} rtl={i18n.dir() === 'rtl'} />
        </Suspense>
      )}
      {report && (
        <div className="report-scroll">
          <table className="table" data-testid="report-table">
            <thead>
              <tr>
                <th scope="col">{t(`reports.keyColumn.${shown.kind === 'sales' ? shown.group : shown.kind}`)}</th>
                {columns.map((c) => <th key={c} scope="col" className={c === 'sku' || c === 'phone' ? undefined : 'num'}>{t(`reports.columns.${c}`)}</th>)}
              </tr>
            </thead>
            <tbody>
              {report.rows.map((r, i) => (
                <tr key={`${r.key ?? ''}-${i}`} data-testid="report-row">
                  <th scope="row">{label(r)}</th>
                  {columns.map((c) => <td key={c} className={c === 'sku' || c === 'phone' ? undefined : 'num'}>{cell(r, c)}</td>)}
                </tr>
              ))}
            </tbody>
            {report.totals && (
              <tfoot>
                <tr data-testid="report-total">
                  <th scope="row">{t('reports.total')}</th>
                  {columns.map((c) => <td key={c} className="num">{cell(report.totals!, c)}</td>)}
                </tr>
              </tfoot>
            )}
          </table>
        </div>
      )}
      {report?.groups !== undefined && report.groups > report.rows.length && <p>{t('reports.cut', { shown: report.rows.length, groups: report.groups })}</p>}
      {query.isSuccess && report?.rows.length === 0 && <p>{t('reports.empty')}</p>}
    </section>
  );
}
