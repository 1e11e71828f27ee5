import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import type { Order, Setting } from '@/features/catalogue-cache/types';
import { useEmailReceipt } from '@/features/receipt/api/email-receipt';
import { printReceipt } from '@/features/receipt/print-receipt';
import { printJobKey, useNetworkPrint, usePrintJob, useRetryPrint, type PrintJob } from '@/features/receipt/api/network-print';
import { usePreferences } from '@/features/sale/preferences-store';
import { Receipt } from './receipt';

export interface ReceiptPreviewDialogProps {
  order: Order | null;
  settings: Setting[];
  onClose: () => void;
  locale?: string;
  /** Print once as soon as it opens (after every completed sale). */
  autoPrint?: boolean;
}

/**
 * The receipt with Print and e-mail: 'Receipt' right after the sale (auto-print), 'Receipt (copy)'
 * when printed again. With a receipt printer chosen for this till (Settings > General) and an
 * order the server has, printing goes to that printer (the server sends ESC/POS; cash opens the
 * drawer); a printer that does not answer is said so, with Retry and the browser's print. While
 * the job waits in the server's queue (retried in the background) the till asks for its status
 * every 2 s for up to 2 minutes and shows the outcome: printed, or failed with Retry.
 */
export function ReceiptPreviewDialog({ order, settings, onClose, locale, autoPrint = false }: ReceiptPreviewDialogProps) {
  const { t } = useTranslation('sale');
  const node = useRef<HTMLDivElement>(null);
  const [emailOpen, setEmailOpen] = useState(false);
  const customerEmail = order && typeof order.customer === 'object' ? (order.customer?.email ?? '') : '';
  const [to, setTo] = useState('');
  const send = useEmailReceipt();
  const printer = usePreferences((p) => p.receiptPrinter);
  const netPrint = useNetworkPrint();
  const retry = useRetryPrint();
  const queryClient = useQueryClient();
  // The last answer of a print or a Retry, and when it came: the live status is polled from there.
  const [job, setJob] = useState<PrintJob | null>(null);
  const [since, setSince] = useState(0);
  const track = (answer: PrintJob) => {
    queryClient.setQueryData(printJobKey(answer.id), answer);
    setSince(Date.now());
    setJob(answer);
  };
  const live = usePrintJob(job, since);
  const current = job ? (live.data ?? job) : null;
  const [printError, setPrintError] = useState<string | null>(null);
  const printedOnce = useRef(false);

  const print = () => {
    if (!order) return;
    if (!printer || order.localRef) {
      printReceipt(node.current);
      return;
    }
    const copy = !autoPrint || printedOnce.current;
    printedOnce.current = true;
    setPrintError(null);
    netPrint.mutate({ orderId: order.id, device: printer.id, copy }, {
      onSuccess: track,
      onError: (error) => { setJob(null); setPrintError(errorText(error)); },
    });
  };
  const printRef = useRef(print);
  printRef.current = print;

  useEffect(() => {
    setJob(null);
    setPrintError(null);
    printedOnce.current = false;
    if (!order || !autoPrint) return;
    // After the receipt has rendered into the dialog.
    const timer = setTimeout(() => printRef.current(), 0);
    return () => clearTimeout(timer);
  }, [order, autoPrint]);

  const problem = printError ?? (current && current.status !== 'printed' ? (current.lastError ?? t('receipt.printerWaiting')) : null);
  // The queue gave up (its last attempt failed): the till says so; Retry starts it again.
  const failed = !printError && current?.status === 'failed';
  // Printed by a background retry after a first answer that was not 'printed'.
  const printedLater = current?.status === 'printed' && job?.status !== 'printed';

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
      returnFocus={autoPrint ? 'home' : 'opener'}
      size="sm"
      footer={
        <div className="row">
          <Button onClick={print} loading={netPrint.isPending}>{t('receipt.print')}</Button>
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
      {problem && (
        <Alert variant="warning" className="stack">
          <span>{t(failed ? 'receipt.printerFailed' : 'receipt.printerProblem', { printer: printer?.name ?? '', error: problem })}</span>
          <span className="row">
            {job && (
              <Button size="sm" loading={retry.isPending} onClick={() => retry.mutate(job.id, { onSuccess: track, onError: (e) => setPrintError(errorText(e)) })}>
                {t('receipt.printerRetry')}
              </Button>
            )}
            <Button size="sm" variant="secondary" onClick={() => printReceipt(node.current)}>{t('receipt.printInBrowser')}</Button>
          </span>
        </Alert>
      )}
      {current?.status === 'printed' && <p role="status" className="muted">{t(printedLater ? 'receipt.printerPrinted' : 'receipt.printerSent', { printer: printer?.name ?? '' })}</p>}
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
