import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { NumberInput } from '@/components/ui/number-input';
import type { Order } from '@/features/catalogue-cache/types';
import { refundLines, type RefundPick } from '@/features/orders/lib/refund-lines';

export interface RefundDialogProps {
  order: Order | null;
  onClose: () => void;
  /** The chosen lines and quantities: the till loads them as a refund cart. */
  onConfirm: (order: Order, picks: RefundPick[]) => void;
}

/**
 * 'Refund Order# n' (issue 19): the order's lines with what is still refundable; the cashier ticks
 * lines and sets quantities (at most what is left). Nothing refundable left: the line is disabled.
 */
export function RefundDialog({ order, onClose, onConfirm }: RefundDialogProps) {
  if (!order) return null;
  return <RefundForm key={order.id} order={order} onClose={onClose} onConfirm={onConfirm} />;
}

function RefundForm({ order, onClose, onConfirm }: { order: Order } & Omit<RefundDialogProps, 'order'>) {
  const { t } = useTranslation('sale');
  const lines = useMemo(() => refundLines(order), [order]);
  const [chosen, setChosen] = useState<Record<number, boolean>>(() => Object.fromEntries(lines.map((l) => [l.index, l.refundableMilli > 0])));
  const [qty, setQty] = useState<Record<number, string>>(() => Object.fromEntries(lines.map((l) => [l.index, quantityToString(l.refundableMilli)])));

  const picks: RefundPick[] = [];
  let error: string | null = null;
  for (const l of lines) {
    if (!chosen[l.index]) continue;
    let milli: number | null = null;
    try {
      milli = parseQuantity(qty[l.index] ?? '');
    } catch {
      milli = null;
    }
    if (milli === null || milli <= 0 || milli > l.refundableMilli) {
      error ??= t('refund.tooMuch', { name: l.name, left: quantityToString(l.refundableMilli) });
      continue;
    }
    picks.push({ index: l.index, qtyMilli: milli });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('refund.title', { number: order.orderId ?? order.id })}
      size="lg"
      footer={
        <div className="row">
          <Button variant="secondary" onClick={onClose}>{t('refund.cancel')}</Button>
          <Button variant="danger" disabled={!!error || picks.length === 0} onClick={() => onConfirm(order, picks)}>{t('refund.confirm')}</Button>
        </div>
      }
    >
      <table className="table" aria-label={t('refund.lines')}>
        <thead>
          <tr>
            <th />
            <th>{t('cart.item')}</th>
            <th className="num">{t('refund.sold')}</th>
            <th className="num">{t('refund.refundable')}</th>
            <th className="num">{t('refund.quantity')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr key={l.index} data-testid={`refund-line-${l.index}`}>
              <td>
                <input
                  type="checkbox"
                  aria-label={t('refund.pick', { name: l.name })}
                  checked={!!chosen[l.index]}
                  disabled={l.refundableMilli === 0}
                  onChange={(e) => setChosen((c) => ({ ...c, [l.index]: e.target.checked }))}
                />
              </td>
              <td>{l.name}</td>
              <td className="num">{quantityToString(l.soldMilli)}</td>
              <td className="num">{quantityToString(l.refundableMilli)}</td>
              <td className="num">
                <NumberInput
                  aria-label={t('refund.quantityOf', { name: l.name })}
                  value={qty[l.index] ?? ''}
                  disabled={!chosen[l.index]}
                  decimals={3}
                  onValueChange={(text) => setQty((q) => ({ ...q, [l.index]: text }))}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="field-error" role="alert">{error}</p>}
      <p className="text-muted">{t('refund.toOriginal')}</p>
    </Dialog>
  );
}
