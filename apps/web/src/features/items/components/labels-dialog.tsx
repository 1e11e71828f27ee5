import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useWorkingStore } from '@/lib/working-store';
import { fetchLabels, LABEL_LAYOUTS, type LabelLayoutName } from '../api/labels.ts';
import type { Product } from '../lib/types.ts';

/** The start of today on this device, as the date input writes it (yyyy-mm-dd). */
const today = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * "Labels" (issue 26) for one item (a number of copies), or for every item whose price changed
 * since a day (new shelf-edge labels); a sheet layout. The server renders the PDF (name, price in
 * the store's currency, EAN-13 or Code 128) and the browser opens it to print.
 */
export function LabelsDialog({ product, onClose }: { product: Pick<Product, 'id' | 'name'> | null; onClose: () => void }) {
  const { t } = useTranslation('backoffice');
  const store = useWorkingStore();
  const [layout, setLayout] = useState<LabelLayoutName>('a4-3x8');
  const [copies, setCopies] = useState('1');
  const [since, setSince] = useState(today);
  const [busy, setBusy] = useState(false);
  const count = /^\d{1,3}$/.test(copies.trim()) ? Number(copies) : NaN;
  const valid = product ? Number.isInteger(count) && count >= 1 && count <= 500 : /^\d{4}-\d{2}-\d{2}$/.test(since);

  const print = async () => {
    if (!store || !valid) return;
    setBusy(true);
    try {
      const pdf = await fetchLabels(product
        ? { store: store.id, layout, items: [{ product: product.id, copies: count }] }
        : { store: store.id, layout, priceChangedSince: new Date(`${since}T00:00:00`).toISOString() });
      const url = URL.createObjectURL(pdf);
      window.open(url, '_blank', 'noopener');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      onClose();
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={product ? t('labels.title', { name: product.name }) : t('labels.priceChanges')}
      footer={<Button onClick={() => void print()} loading={busy} disabled={!valid}>{t('labels.print')}</Button>}
    >
      <div className="stack">
        <Select
          label={t('labels.layout')}
          value={layout}
          options={LABEL_LAYOUTS.map((l) => ({ value: l, label: t(`labels.layouts.${l}`) }))}
          onChange={(e) => setLayout(e.target.value as LabelLayoutName)}
        />
        {product ? (
          <Input
            label={t('labels.copies')}
            inputMode="numeric"
            value={copies}
            onChange={(e) => setCopies(e.target.value)}
            error={valid ? undefined : t('labels.copiesHint')}
          />
        ) : (
          <Input label={t('labels.changedSince')} type="date" value={since} onChange={(e) => setSince(e.target.value)} />
        )}
      </div>
    </Dialog>
  );
}
