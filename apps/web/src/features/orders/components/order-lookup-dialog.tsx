import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { errorText } from '@/lib/form-errors';
import type { Order } from '@/features/catalogue-cache/types';
import { findOrder } from '@/features/orders/api/find-order';

/** Order lookup: an order number typed, or a QR code / barcode scanned into the box. Closes on a hit. */
export function OrderLookupDialog({ open, onClose, onFound }: { open: boolean; onClose: () => void; onFound: (order: Order) => void }) {
  const { t } = useTranslation('sale');
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) {
      setError(t('messages.required'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const order = await findOrder(text);
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
      <form className="stack" onSubmit={(e) => void submit(e)}>
        <Input label={t('order.numberLabel')} hint={t('order.scanHint')} value={text} onChange={(e) => setText(e.target.value)} error={error} autoFocus data-autofocus />
        <Button type="submit" disabled={busy}>{busy ? t('order.finding') : t('order.find')}</Button>
      </form>
    </Dialog>
  );
}
