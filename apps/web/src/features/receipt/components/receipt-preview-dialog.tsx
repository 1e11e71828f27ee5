import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import type { Order, Setting } from '@/features/catalogue-cache/types';
import { useEmailReceipt } from '@/features/receipt/api/email-receipt';
import { printReceipt } from '@/features/receipt/print-receipt';
import { Receipt } from './receipt';

export interface ReceiptPreviewDialogProps {
  order: Order | null;
  settings: Setting[];
  onClose: () => void;
  locale?: string;
  /** Print once as soon as it opens (after every completed sale). */
  autoPrint?: boolean;
}

/** The receipt with Print and e-mail: 'Receipt' right after the sale (auto-print), 'Receipt (copy)' when printed again. */
export function ReceiptPreviewDialog({ order, settings, onClose, locale, autoPrint = false }: ReceiptPreviewDialogProps) {
  const { t } = useTranslation('sale');
  const node = useRef<HTMLDivElement>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const customerEmail = order && typeof order.customer === 'object' ? (order.customer?.email ?? '') : '';
  const [to, setTo] = useState('');
  const send = useEmailReceipt();

  useEffect(() => {
    if (!order || !autoPrint) return;
    // After the receipt has rendered into the dialog.
    const timer = setTimeout(() => printReceipt(node.current), 0);
    return () => clearTimeout(timer);
  }, [order, autoPrint]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!order) return;
    send.mutate(
      { orderId: order.id, to },
      {
        onSuccess: (r) => {
          toast.success(t('receipt.sent', { to: r.to.join(', ') }));
          setEmailOpen(false);
        },
        onError: (error) => toast.error(errorText(error)),
      },
    );
  };

  return (
    <Dialog
      open={!!order}
      onClose={() => {
        setEmailOpen(false);
        onClose();
      }}
      title={autoPrint ? t('receipt.titleSale') : t('receipt.title')}
      size="sm"
      footer={
        <div className="row">
          <Button onClick={() => printReceipt(node.current)}>{t('receipt.print')}</Button>
          <Button
            variant="secondary"
            aria-pressed={emailOpen}
            disabled={!!order?.localRef}
            onClick={() => {
              setTo(customerEmail ?? '');
              setEmailOpen((o) => !o);
            }}
          >
            {t('receipt.email')}
          </Button>
        </div>
      }
    >
      {order && <div className="receipt-preview"><Receipt order={order} settings={settings} locale={locale} ref={node} /></div>}
      {emailOpen && (
        <form className="stack receipt-email" noValidate onSubmit={submit}>
          <Input label={t('receipt.emails')} hint={t('receipt.emailsHint')} value={to} onChange={(e) => setTo(e.target.value)} type="text" autoFocus />
          <Button type="submit" loading={send.isPending}>{t('receipt.send')}</Button>
        </form>
      )}
    </Dialog>
  );
}
