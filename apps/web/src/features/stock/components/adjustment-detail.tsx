import { useTranslation } from 'react-i18next';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/form-errors';
import { useMoney } from '@/lib/money';
import { useAdjustment } from '../api/stock.ts';
import { when } from '../lib/forms.ts';
import { useStockStores, variantLabel } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

/** /admin/stock/adjustments/:id: a booked adjustment (read only: the ledger keeps it). */
export function AdjustmentDetailPage({ id }: { id: number }) {
  const { t, i18n } = useTranslation('stock');
  const adjustment = useAdjustment(id);
  const stores = useStockStores();
  const store = stores.find((s) => s.id === adjustment.data?.store.id);
  const money = useMoney(store);
  if (adjustment.isPending) return <FullScreenSpinner />;
  if (adjustment.isError) return <p role="alert">{errorText(adjustment.error)}</p>;
  const a = adjustment.data;
  return (
    <div className="stock-page">
      <h1>{t('adjustments.number', { number: a.number })}</h1>
      <StockTabs />
      <dl className="stock-meta">
        <div><dt>{t('common.store')}</dt><dd>{a.store.name}</dd></div>
        <div><dt>{t('common.by')}</dt><dd>{a.createdBy?.displayName || a.createdBy?.username} {when(a.createdAt, store?.timeZone, i18n.language)}</dd></div>
        {a.note && <div><dt>{t('common.note')}</dt><dd>{a.note}</dd></div>}
        {a.totals && <div><dt>{t('adjustments.value')}</dt><dd>{money.formatWire(a.totals.value)}</dd></div>}
      </dl>
      <table className="table table-compact stock-lines stock-cards">
        <caption className="visually-hidden">{t('adjustments.lines')}</caption>
        <thead><tr><th>{t('common.product')}</th><th className="num">{t('common.quantity')}</th><th>{t('adjustments.reason')}</th><th>{t('adjustments.lineNote')}</th><th className="num">{t('adjustments.value')}</th></tr></thead>
        <tbody>
          {(a.lines ?? []).map((l) => (
            <tr key={l.id}>
              <td className="stock-cell-product">{l.product.name}{l.variant ? ` (${variantLabel(l.variant)})` : ''}</td>
              <td className="num" data-label={t('common.quantity')}>{l.quantity}</td>
              <td data-label={t('adjustments.reason')}>{t(`adjustments.reasons.${l.reason}`)}</td>
              <td data-label={t('adjustments.lineNote')}>{l.note ?? ''}</td>
              <td className="num" data-label={t('adjustments.value')}>{money.formatWire(l.value ?? 0)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
