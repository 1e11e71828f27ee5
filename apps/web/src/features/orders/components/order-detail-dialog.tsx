import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { canRefund } from '@/features/orders/lib/refund-lines';
import { quantityToString } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { Order } from '@/features/catalogue-cache/types';
import { orderFigures } from '@/features/orders/order-figures';

export interface OrderDetailDialogProps {
  order: Order | null;
  onClose: () => void;
  onRefund?: (order: Order) => void;
  onReorder?: (order: Order) => void;
  onPrint?: (order: Order) => void;
  /** A held order: back into the cart. */
  onUnsuspend?: (order: Order) => void;
  locale?: string;
}

/** 'Order# {orderId}': figure cards, notes and the item table with a footer total. */
export function OrderDetailDialog({ order, onClose, onRefund, onReorder, onPrint, onUnsuspend }: OrderDetailDialogProps) {
  // The order's own store settings when it carries them (issue 19), else the till's store.
  const currency = useMoney(order?.store);
  const { t } = useTranslation('sale');
  if (!order) return null;
  const f = orderFigures(order, currency.digits);
  const money = (minor: number) => currency.formatMinor(minor);
  const refundable = canRefund(order);
  const cards: Array<[string, number]> = [
    [t('order.itemsTotal'), f.itemsTotal],
    [t('order.tax'), f.tax],
    [t('order.discount'), f.discount],
    [t('order.adjustment'), f.adjustment],
    [t('order.total'), f.total],
    [t('order.payments'), f.payments],
  ];
  return (
    <Dialog
      open
      onClose={onClose}
      title={t('order.number', { number: order.orderId ?? order.id })}
      size="lg"
      footer={
        <div className="row">
          {onUnsuspend && order.status === 'On Hold' && <Button onClick={() => onUnsuspend(order)}>{t('order.unsuspend')}</Button>}
          {onPrint && <Button variant="secondary" onClick={() => onPrint(order)}>{t('receipt.print')}</Button>}
          {onReorder && <Button variant="secondary" onClick={() => onReorder(order)}>{t('search.reorder')}</Button>}
          {onRefund && <Button variant="danger" disabled={!refundable} onClick={() => onRefund(order)}>{t('search.refund')}</Button>}
        </div>
      }
    >
      <p className="text-muted">
        {formatDateTime(order.createdAt, currency.timeZone)} · {order.status}
        {order.store?.name ? ` · ${order.store.name}` : ''}
        {order.terminal?.code ? ` · ${order.terminal.code}` : ''}
      </p>
      <div className="summary-cards">
        {cards.map(([label, value]) => (
          <div className="summary-card" key={label}>
            <span className="text-muted">{label}</span>
            <strong>{money(value)}</strong>
          </div>
        ))}
      </div>
      {order.notes && <p><strong>{t('payment.notes')}:</strong> {order.notes}</p>}
      <table className="data-table">
        <thead>
          <tr>
            <th>{t('cart.item')}</th>
            <th className="num">{t('order.quantity')}</th>
            <th className="num">{t('order.tax')}</th>
            <th className="num">{t('order.discount')}</th>
            <th className="num">{t('order.price')}</th>
            <th className="num">{t('order.total')}</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((i, idx) => (
            <tr key={i.id ?? idx}>
              <td>
                {i.product?.name}
                {i.variant?.attributeValue && <div className="text-muted">{i.variant.attributeValue}</div>}
              </td>
              <td className="num">{quantityToString(f.lines[idx].qty)}</td>
              <td className="num">{money(f.lines[idx].tax)}</td>
              <td className="num">{money(f.lines[idx].discount)}</td>
              <td className="num">{money(f.lines[idx].price)}</td>
              <td className="num">{money(f.lines[idx].total)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={5}>{t('order.total')}</td>
            <td className="num">{money(f.itemsTotal)}</td>
          </tr>
        </tfoot>
      </table>
      {f.taxBreakdown.length > 0 && (
        <table className="data-table" data-testid="order-tax-breakdown" aria-label={t('receipt.taxRate')}>
          <thead>
            <tr><th>{t('receipt.taxRate')}</th><th className="num">{t('receipt.net')}</th><th className="num">{t('receipt.tax')}</th><th className="num">{t('receipt.gross')}</th></tr>
          </thead>
          <tbody>
            {f.taxBreakdown.map((r, i) => (
              <tr key={i}><td>{r.label}</td><td className="num">{money(r.net)}</td><td className="num">{money(r.tax)}</td><td className="num">{money(r.gross)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </Dialog>
  );
}
