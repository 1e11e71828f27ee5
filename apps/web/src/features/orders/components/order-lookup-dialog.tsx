import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/form-errors';
import type { Order } from '@/features/catalogue-cache/types';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { findOrder } from '@/features/orders/api/find-order';
import { useHeldOrders } from '@/features/orders/api/held-orders';

export interface OrderLookupDialogProps {
  open: boolean;
  onClose: () => void;
  onFound: (order: Order) => void;
  /** Lists this store's suspended sales (they have no number to type) when given. */
  storeId?: number | null;
  locale?: string;
}

/** Order lookup: an order number typed, or a QR code / barcode scanned into the box; closes on a hit. Also lists the suspended sales. */
export function OrderLookupDialog({ open, onClose, onFound, storeId = null }: OrderLookupDialogProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const held = useHeldOrders(storeId, open);
  const heldOrders = held.data?.['hydra:member'] ?? [];
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setError(t('messages.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const order = await findOrder(text, storeId);
      if (!order) {
        setError(t('messages.orderNotFound'));
        return;
      }
      setText('');
      onClose();
      onFound(order);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('order.lookup')} size="sm">
      <form className="stack" noValidate onSubmit={(e) => void submit(e)}>
        <Input label={t('order.numberLabel')} hint={t('order.scanHint')} value={text} onChange={(e) => setText(e.target.value)} error={error} autoFocus data-autofocus />
        <Button type="submit" disabled={busy}>{busy ? t('order.finding') : t('order.find')}</Button>
      </form>
      {heldOrders.length > 0 && (
        <section className="held-orders" aria-label={t('order.held')}>
          <h3>{t('order.held')}</h3>
          <ul className="held-orders-list">
            {heldOrders.map((o) => (
              <li key={o.id}>
                <button
                  type="button"
                  className="btn btn-ghost btn-block held-order"
                  onClick={() => {
                    onClose();
                    onFound(o);
                  }}
                >
                  <span>{formatDateTime(o.createdAt)}</span>
                  <span>{typeof o.customer === 'object' && o.customer?.name ? o.customer.name : o.terminal?.code}</span>
                  <span>{t('order.itemCount', { count: o.items.length })}</span>
                  <span className="num">{currency.formatWire(o.grandTotal ?? o.total ?? 0)}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Dialog>
  );
}
