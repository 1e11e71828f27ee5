import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { getProduct, useProductKeywords } from '../api/products.ts';
import type { ProductBrief } from '../lib/types.ts';

/** Filter box plus a select of products; picking one loads the full product and hands it over. */
export function ItemPicker({ onPick, disabled }: { onPick: (p: ProductBrief) => void; disabled?: boolean }) {
  const { t } = useTranslation('backoffice');
  const products = useProductKeywords();
  const [q, setQ] = useState('');
  const [busy, setBusy] = useState(false);
  const options = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = products.data ?? [];
    return (needle ? list.filter((p) => p.name.toLowerCase().includes(needle)) : list).map((p) => ({ value: String(p.id), label: p.name }));
  }, [products.data, q]);
  return (
    <div className="inline-form item-picker">
      <Input type="search" label={t('inventory.searchItem')} value={q} onChange={(e) => setQ(e.target.value)} disabled={disabled} />
      <Select
        label={t('inventory.item')}
        placeholder={t('inventory.chooseItem')}
        options={options}
        value=""
        disabled={disabled || busy}
        onChange={async (e) => {
          const id = e.target.value;
          if (!id) return;
          setBusy(true);
          try {
            onPick(await getProduct(id));
            setQ('');
          } catch (error) {
            toast.error(errorText(error));
          } finally {
            setBusy(false);
          }
        }}
      />
    </div>
  );
}
