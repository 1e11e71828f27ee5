import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useCan } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { usePreferences } from '@/features/sale/preferences-store';
import { openDrawer } from '@/features/receipt/api/network-print';

/**
 * "No sale" (issue 26.2): opens the cash drawer of this till's receipt printer without a sale. Shown
 * only to staff holding `drawer.open` at a till with a network printer; the server records every
 * opening in the audit log.
 */
export function NoSaleButton() {
  const { t } = useTranslation('sale');
  const allowed = useCan('drawer.open');
  const printer = usePreferences((p) => p.receiptPrinter);
  const { store } = useSession();
  const [busy, setBusy] = useState(false);
  if (!allowed || !printer || !store) return null;
  const open = async () => {
    setBusy(true);
    try {
      const job = await openDrawer(printer.id, store.id);
      if (job.status === 'printed') toast.success(t('noSale.opened'));
      else toast.error(t('receipt.printerProblem', { printer: printer.name, error: job.lastError ?? t('receipt.printerWaiting') }));
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return <Button variant="ghost" size="sm" loading={busy} onClick={() => void open()}>{t('noSale.button')}</Button>;
}
