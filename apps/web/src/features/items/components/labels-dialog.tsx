import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { useSession } from '@/lib/session';
import { fetchLabels, LABEL_LAYOUTS, type LabelLayoutName } from '../api/labels.ts';
import type { Product } from '../lib/types.ts';

/**
 * "Labels" for one item (issue 26): a sheet layout and a number of copies; the server renders the
 * PDF (name, price in the store's currency, EAN-13 or Code 128) and the browser opens it to print.
 */
export function LabelsDialog({ product, onClose }: { product: Product; onClose: () => void }) {
  const { t } = useTranslation('backoffice');
  const { store } = useSession();
  const [layout, setLayout] = useState<LabelLayoutName>('a4-3x8');
  const [copies, setCopies] = useState('1');
  const [busy, setBusy] = useState(false);
  const count = /^\d{1,3}$/.test(copies.trim()) ? Number(copies) : NaN;
  const valid = Number.isInteger(count) && count >= 1 && count <= 500;

  const print = async () => {
    if (!store || !valid) return;
    setBusy(true);
    try {
      const pdf = await fetchLabels({ store: store.id, layout, items: [{ product: product.id, copies: count }] });
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
      title={t('labels.title', { name: product.name })}
      footer={<Button onClick={() => void print()} loading={busy} disabled={!valid}>{t('labels.print')}</Button>}
    >
      <div className="stack">
        <Select
          label={t('labels.layout')}
          value={layout}
          options={LABEL_LAYOUTS.map((l) => ({ value: l, label: t(`labels.layouts.${l}`) }))}
          onChange={(e) => setLayout(e.target.value as LabelLayoutName)}
        />
        <Input
          label={t('labels.copies')}
          inputMode="numeric"
          value={copies}
          onChange={(e) => setCopies(e.target.value)}
          error={valid ? undefined : t('labels.copiesHint')}
        />
      </div>
    </Dialog>
  );
}
