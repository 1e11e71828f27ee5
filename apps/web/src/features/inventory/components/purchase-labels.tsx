import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useCan } from '@/lib/permissions';
import { fetchLabels, LABEL_LAYOUTS, type LabelLayoutName, type LabelsRequest } from '@/features/items/api/labels';
import type { Purchase } from '../lib/types.ts';

/**
 * "Print labels" for a received purchase (issue 26): the server renders one label per unit
 * received (name, price in the store's currency, EAN-13 or Code 128) on the chosen sheet, and the
 * browser opens the PDF to print. Shown to staff who may print labels (products.manage).
 */
export function PurchaseLabels({ purchase }: { purchase: Pick<Purchase, 'id' | 'store'> }) {
  const { t } = useTranslation('backoffice');
  const allowed = useCan('products.manage');
  const [layout, setLayout] = useState<LabelLayoutName>('a4-3x8');
  const [busy, setBusy] = useState(false);
  const storeId = purchase.store?.id;
  if (!allowed || storeId == null) return null;

  const print = async () => {
    setBusy(true);
    try {
      const body: LabelsRequest = { store: storeId, layout, purchase: purchase.id };
      const url = URL.createObjectURL(await fetchLabels(body));
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Select
        label={t('labels.layout')}
        value={layout}
        options={LABEL_LAYOUTS.map((l) => ({ value: l, label: t(`labels.layouts.${l}`) }))}
        onChange={(e) => setLayout(e.target.value as LabelLayoutName)}
      />
      <Button variant="secondary" onClick={() => void print()} loading={busy}>{t('labels.print')}</Button>
    </>
  );
}
