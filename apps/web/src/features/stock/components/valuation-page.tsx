import { useMemo, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { moneyFor, moneySettingsOf, useMoney, type Money } from '@/lib/money';
import { useSession } from '@/lib/session';
import { when } from '../lib/forms.ts';
import {
  downloadValuationCsv, fetchValuation, todayIn, valuationQuery, VALUATION_GROUPS, type ValuationFilters, type ValuationGroup, type ValuationRow,
} from '../lib/valuation.ts';
import { StoreFilter, useStockStores } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

/**
 * /admin/stock/valuation (issue 25.5), for 'cost.view': the stock's value at cost at the end of a
 * day (today: now) from the ledger, by store, category or supplier, in one store or all of the
 * user's; quantity and value per group in the currency's own decimals, a total per currency, and
 * the same rows as CSV. The day is the chosen store's (else the first store's) local day.
 */
export function ValuationPage() {
  const { t, i18n } = useTranslation('stock');
  const stores = useStockStores();
  const session = useSession();
  const [draft, setDraft] = useState<ValuationFilters>(() => ({ date: todayIn(zoneOf(session.store?.timeZone ?? stores[0]?.timeZone)), store: '', group: 'store' }));
  const [filters, setFilters] = useState(draft);
  const chosen = stores.find((s) => String(s.id) === filters.store) ?? session.store ?? stores[0] ?? null;
  const zone = zoneOf(chosen?.timeZone);
  const query = useMemo(() => valuationQuery(filters, zone), [filters, zone]);
  const result = useQuery({ queryKey: ['stock', 'valuation', query], queryFn: () => fetchValuation(query), placeholderData: (previous) => previous });
  const report = result.data;
  const base = useMoney(chosen);
  const moneyOf = (currency: string): Money => (currency === base.currency ? base
    : moneyFor(moneySettingsOf(stores.find((s) => s.currency === currency) ?? { currency }), i18n.language));
  const value = (v: number, currency: string) => { const m = moneyOf(currency); return m.formatMinor(m.minor(v)); };
  const numbers = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 3 });
  const group = report?.group ?? filters.group;
  const name = (r: ValuationRow) => r[group]?.name || (r[group] ? `#${r[group]!.id}` : t(`valuation.none.${group}`));
  const several = (report?.totals.length ?? 0) > 1;
  const set = (patch: Partial<ValuationFilters>) => setDraft((d) => ({ ...d, ...patch }));
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };
  return (
    <div className="stock-page">
      <h1>{t('valuation.title')}</h1>
      <StockTabs />
      <form className="stock-toolbar" onSubmit={apply} aria-label={t('valuation.filters')}>
        <Input containerClassName="stock-filter" label={t('valuation.asOf')} type="date" value={draft.date} onChange={(e) => set({ date: e.target.value })} />
        <StoreFilter value={draft.store} onChange={(v) => set({ store: v })} />
        <Select containerClassName="stock-filter" label={t('valuation.groupBy')} value={draft.group} onChange={(e) => set({ group: e.target.value as ValuationGroup })}
          options={VALUATION_GROUPS.map((g) => ({ value: g, label: t(`valuation.groups.${g}`) }))} />
        <Button type="submit">{t('valuation.show')}</Button>
        <Button type="button" variant="secondary" onClick={() => downloadValuationCsv(query).catch((e) => toast.error(errorText(e)))}>{t('valuation.csv')}</Button>
      </form>
      {result.isPending ? <Spinner /> : result.isError ? <p role="alert">{errorText(result.error)}</p> : report && (
        <>
          <p className="muted">{t('valuation.meta', { at: when(report.at, zone, i18n.language) })}</p>
          {report.rows.length === 0 ? <p className="muted">{t('valuation.empty')}</p> : (
            <div className="table-scroll">
              <table className="table table-compact stock-table" aria-label={t('valuation.title')}>
                <thead>
                  <tr>
                    <th scope="col">{t(`valuation.groups.${group}`)}</th>
                    {several && <th scope="col">{t('valuation.columns.currency')}</th>}
                    <th scope="col" className="num">{t('valuation.columns.products')}</th>
                    <th scope="col" className="num">{t('valuation.columns.quantity')}</th>
                    <th scope="col" className="num">{t('valuation.columns.value')}</th>
                  </tr>
                </thead>
                <tbody>
                  {report.rows.map((r, i) => (
                    <tr key={`${r[group]?.id ?? 'none'}-${r.currency}-${i}`} data-testid="valuation-row">
                      <th scope="row">{name(r)}</th>
                      {several && <td>{r.currency}</td>}
                      <td className="num">{numbers.format(r.products)}</td>
                      <td className="num">{numbers.format(r.quantity)}</td>
                      <td className="num">{value(r.value, r.currency)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  {report.totals.map((tot) => (
                    <tr key={tot.currency} data-testid="valuation-total">
                      <th scope="row">{several ? t('valuation.totalIn', { currency: tot.currency }) : t('valuation.total')}</th>
                      {several && <td>{tot.currency}</td>}
                      <td />
                      <td className="num">{numbers.format(tot.quantity)}</td>
                      <td className="num">{value(tot.value, tot.currency)}</td>
                    </tr>
                  ))}
                </tfoot>
              </table>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function zoneOf(zone: string | null | undefined): string {
  return zone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
