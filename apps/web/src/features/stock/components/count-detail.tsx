import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { FullScreenSpinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useMoney } from '@/lib/money';
import { useCan } from '@/lib/permissions';
import { addCountLines, stockKeys, useCount, useCountStep } from '../api/stock.ts';
import { qtyText, when } from '../lib/forms.ts';
import type { CountLine, PickedItem, StockCount } from '../lib/types.ts';
import { ScanBox, StatusBadge, useStockStores, type PickerSlot } from './stock-common.tsx';
import { StockTabs } from './stock-lists.tsx';

/** The lines a scan answered (only the touched ones) merged into the count on screen. */
export function mergeLines(count: StockCount, touched: CountLine[]): StockCount {
  const byProduct = new Map((count.lines ?? []).map((l) => [l.product.id, l]));
  for (const l of touched) byProduct.set(l.product.id, l);
  return { ...count, lines: [...byProduct.values()].sort((a, b) => a.product.id - b.product.id) };
}

/**
 * /admin/stock/counts/:id: the counting screen for tablets. A scanned barcode adds the quantity
 * box (1 unless changed) to its product's line; several people scan at once (the server adds up),
 * so the lines are re-read every few seconds while the count is open. Variances with their value
 * at cost; Approve (asked first) books them, Cancel drops the count.
 */
export function CountDetailPage({ id, picker }: { id: number; picker?: PickerSlot }) {
  const { t, i18n } = useTranslation('stock');
  const client = useQueryClient();
  const count = useCount(id);
  const step = useCountStep(id);
  const stores = useStockStores();
  const canWrite = useCan('purchasing');
  // Approving books the variances as adjustments: 'stock.adjust' (issue 25.3).
  const canApprove = useCan('stock.adjust');
  const qtyId = useId();
  const [qty, setQty] = useState('1');
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const store = stores.find((s) => s.id === count.data?.store.id);
  const money = useMoney(store);
  if (count.isPending) return <FullScreenSpinner />;
  if (count.isError) return <p role="alert">{errorText(count.error)}</p>;
  const c = count.data;
  const open = c.status === 'open';
  const title = t('counts.number', { number: c.number });

  async function scan(line: { barcode?: string; product?: number }, name?: string) {
    const quantity = qtyText(qty) || '1';
    setBusy(true);
    try {
      const res = await addCountLines(id, [{ ...line, quantity }]);
      const touched = res.count.lines ?? [];
      client.setQueryData<StockCount>(stockKeys.count(id), (old) => (old ? mergeLines({ ...old, totals: res.count.totals ?? old.totals }, touched) : old));
      const l = touched[0];
      setSaid(l ? t('counts.scanned', { name: l.product.name, counted: l.counted }) : '');
      setQty('1');
      void client.invalidateQueries({ queryKey: stockKeys.count(id) });
    } catch (error) {
      toast.error(name ? `${name}: ${errorText(error)}` : errorText(error));
    } finally {
      setBusy(false);
    }
  }

  async function finish(kind: 'approve' | 'cancel') {
    const question = kind === 'approve'
      ? t('counts.approveQ', { number: c.number, lines: c.totals?.lines ?? 0, value: money.formatWire(c.totals?.varianceValue ?? 0) })
      : t('counts.cancelQ', { number: c.number });
    if (!(await confirm(question, { danger: kind === 'cancel', title: t(kind === 'approve' ? 'counts.approve' : 'counts.cancel') }))) return;
    try {
      await step.mutateAsync(kind);
      toast.success(t(kind === 'approve' ? 'counts.approvedOk' : 'counts.cancelledOk', { number: c.number }));
    } catch (error) {
      toast.error(errorText(error));
    }
  }

  const cls = (v: number) => (v < 0 ? 'stock-variance-neg' : v > 0 ? 'stock-variance-pos' : undefined);
  const lines = c.lines ?? [];
  return (
    <div className="stock-page">
      <h1>{title} <StatusBadge status={c.status} label={t(`counts.statuses.${c.status}`)} /></h1>
      <StockTabs />
      <dl className="stock-meta">
        <div><dt>{t('common.store')}</dt><dd>{c.store.name}</dd></div>
        <div><dt>{t('counts.scope')}</dt><dd>{t(`counts.scopes.${c.scope}`)}{c.scope === 'location' && c.location ? `: ${c.location}` : ''}</dd></div>
        <div><dt>{t('common.by')}</dt><dd>{c.createdBy?.displayName || c.createdBy?.username} {when(c.createdAt, store?.timeZone, i18n.language)}</dd></div>
        {c.approvedAt && <div><dt>{t('counts.statuses.approved')}</dt><dd>{c.approvedBy?.displayName || c.approvedBy?.username} {when(c.approvedAt, store?.timeZone, i18n.language)}</dd></div>}
        {c.note && <div><dt>{t('common.note')}</dt><dd>{c.note}</dd></div>}
      </dl>
      {open && canWrite && (
        <section className="admin-panel stock-form">
          <ScanBox
            label={t('counts.scanBox')}
            button={t('counts.scanButton').replace('1', qtyText(qty) || '1')}
            busy={busy}
            onCode={(barcode) => scan({ barcode })}
            extra={(
              <>
                <label htmlFor={qtyId} className="visually-hidden">{t('common.quantity')}</label>
                <input id={qtyId} className="input stock-scan__qty" inputMode="decimal" value={qty} onChange={(e) => setQty(e.target.value)} aria-label={t('common.quantity')} />
              </>
            )}
          />
          {picker?.((item: PickedItem) => void scan({ product: item.product.id }, item.product.name))}
          <p className="muted" role="status" aria-live="polite">{said || t('counts.refreshing')}</p>
        </section>
      )}
      <div className="summary-boxes">
        <div className="summary-box"><span>{t('counts.lines')}</span><strong>{c.totals?.lines ?? lines.length}</strong></div>
        <div className="summary-box"><span>{t('counts.totalVariance')}</span><strong className={cls(c.totals?.variance ?? 0)}>{c.totals?.variance ?? 0}</strong></div>
        <div className="summary-box"><span>{t('counts.varianceValue')}</span><strong className={cls(c.totals?.varianceValue ?? 0)} data-testid="count-variance-value">{money.formatWire(c.totals?.varianceValue ?? 0)}</strong></div>
        <div className="summary-box"><span>{t('counts.uncounted')}</span><strong>{c.totals?.uncounted ?? 0}</strong></div>
      </div>
      <table className="table table-compact stock-lines stock-cards">
        <caption className="visually-hidden">{t('counts.lines')}</caption>
        <thead>
          <tr>
            <th>{t('common.product')}</th><th className="num">{t('counts.expected')}</th><th className="num">{t('counts.counted')}</th>
            <th className="num">{t('counts.variance')}</th><th className="num">{t('counts.cost')}</th><th className="num">{t('counts.varianceValue')}</th>
            {open && <th className="num">{t('counts.moved')}</th>}
          </tr>
        </thead>
        <tbody>
          {lines.length === 0 && <tr><td colSpan={open ? 7 : 6} className="muted">{t('counts.noLines')}</td></tr>}
          {lines.map((l) => (
            <tr key={l.product.id}>
              <td className="stock-cell-product">{l.product.name}{l.product.barcode ? <small className="muted"> {l.product.barcode}</small> : null}</td>
              <td className="num" data-label={t('counts.expected')}>{l.expected}</td>
              <td className="num" data-label={t('counts.counted')}>{l.counted}</td>
              <td className={['num', cls(l.variance)].filter(Boolean).join(' ')} data-label={t('counts.variance')}>{l.variance}</td>
              <td className="num" data-label={t('counts.cost')}>{money.formatWire(l.cost)}</td>
              <td className={['num', cls(l.varianceValue)].filter(Boolean).join(' ')} data-label={t('counts.varianceValue')}>{money.formatWire(l.varianceValue)}</td>
              {open && <td className="num" data-label={t('counts.moved')} title={t('counts.movedHint')}>{l.movedSinceFirstCount ?? 0}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {open && canWrite && (
        <div className="stock-actions">
          {canApprove && <Button size="lg" variant="success" onClick={() => void finish('approve')} loading={step.isPending} disabled={lines.length === 0}>{t('counts.approve')}</Button>}
          <Button size="lg" variant="danger" onClick={() => void finish('cancel')} disabled={step.isPending}>{t('counts.cancel')}</Button>
        </div>
      )}
    </div>
  );
}
