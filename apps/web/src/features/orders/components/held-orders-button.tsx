import { useImperativeHandle, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { formatDateTime } from '@pos/domain/format';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import { isHttpError } from '@/lib/api-client';
import { errorText } from '@/lib/form-errors';
import { useMoney } from '@/lib/money';
import type { Order } from '@/features/catalogue-cache/types';
import { cartStore } from '@/features/cart/cart-store';
import { deleteOrder } from '@/features/orders/api/delete-order';
import { useHeldOrders } from '@/features/orders/api/held-orders';

const customerOf = (o: Order) => (typeof o.customer === 'object' && o.customer?.name ? o.customer.name : o.customerName || null);

/**
 * "Held (n)" on the sale screen (issue 23.3): the suspended sales of this terminal, one tap from
 * the cart. A tap on one resumes it (`onResume`: the till deletes the held copy and loads its lines;
 * a cart with lines asks first); Delete throws one away after a confirmation (audited by the server).
 */
export function HeldOrdersButton({ storeId, terminalId, onResume, ref, displayShortcuts }: { storeId: number; terminalId: number | null; onResume: (order: Order) => void; ref?: Ref<{ open(): void }>; displayShortcuts?: boolean }) {
  const { t } = useTranslation('sale');
  const currency = useMoney();
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const held = useHeldOrders(storeId, true, terminalId);
  const orders = held.data?.['hydra:member'] ?? [];
  useImperativeHandle(ref, () => ({ open: () => setOpen(true) }), []); // F9

  const resume = async (o: Order) => {
    if (cartStore.get().added.length > 0 && !(await confirm(t('heldOrders.replaceCart')))) return;
    setOpen(false);
    onResume(o);
  };

  const remove = async (o: Order) => {
    if (!(await confirm(t('heldOrders.deleteQ', { time: formatDateTime(o.createdAt), total: currency.formatWire(o.grandTotal ?? o.total ?? 0) }), { danger: true }))) return;
    try {
      await deleteOrder(o.id);
      toast.success(t('heldOrders.deleted'));
    } catch (error) {
      if (!isHttpError(error, 404)) toast.error(errorText(error));
    }
    void client.invalidateQueries({ queryKey: ['held-orders'] });
  };

  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => setOpen(true)} data-testid="held-orders-button">
        {t('heldOrders.button', { count: orders.length })}
        {displayShortcuts && <kbd className="shortcut-hint">f9</kbd>}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title={t('heldOrders.title')} size="sm">
        {orders.length === 0 ? (
          <p className="text-muted">{t('heldOrders.none')}</p>
        ) : (
          <ul className="held-orders-list stack">
            {orders.map((o) => (
              <li key={o.id} className="row held-order-row">
                <button type="button" className="btn btn-ghost held-order grow" onClick={() => void resume(o)} aria-label={t('heldOrders.resume', { time: formatDateTime(o.createdAt) })}>
                  <span>{formatDateTime(o.createdAt)}</span>
                  {customerOf(o) && <bdi>{customerOf(o)}</bdi>}
                  <span>{t('order.itemCount', { count: o.items.length })}</span>
                  <span className="num">{currency.formatWire(o.grandTotal ?? o.total ?? 0)}</span>
                </button>
                <Button variant="danger" size="sm" onClick={() => void remove(o)} aria-label={t('heldOrders.delete', { time: formatDateTime(o.createdAt) })}>
                  {t('heldOrders.deleteShort')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  );
}
