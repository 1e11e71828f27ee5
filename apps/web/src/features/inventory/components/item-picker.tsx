import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { findByBarcode, getProduct, useProductKeywords } from '../api/products.ts';
import type { ProductBrief } from '../lib/types.ts';

export interface ItemPickerProps {
  onPick: (p: ProductBrief) => void;
  /**
   * With it, a barcode box: a code scanned or typed (Enter) hands over the product it belongs to,
   * and the variant's IRI when it is a variant's barcode. (The stock pages have their own scan box.)
   */
  onScan?: (p: ProductBrief, variant: string | null) => void;
  /** Only the barcode box (a purchase received against an order: its lines are the order's). */
  scanOnly?: boolean;
  disabled?: boolean;
}

/** (Barcode box), filter box and a select of products; picking one loads the full product and hands it over. */
export function ItemPicker({ onPick, onScan, scanOnly = false, disabled }: ItemPickerProps) {
  const { t } = useTranslation('backoffice');
  const products = useProductKeywords();
  const [q, setQ] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const options = useMemo(() => {
    const needle = q.trim().toLowerCase();
    const list = products.data ?? [];
    return (needle ? list.filter((p) => p.name.toLowerCase().includes(needle)) : list).map((p) => ({ value: String(p.id), label: p.name }));
  }, [products.data, q]);

  const scan = async () => {
    const typed = code.trim();
    if (!typed || busy) return;
    setBusy(true);
    try {
      const found = await findByBarcode(typed);
      if (!found) {
        toast.error(t('inventory.barcodeNotFound', { code: typed }));
        return;
      }
      const variant = found.variants?.find((v) => v.barcode === typed);
      const iri = variant ? (variant['@id'] ?? `/api/product_variants/${variant.id}`) : null;
      onScan?.(found, iri);
      setCode('');
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="inline-form item-picker">
      {onScan && (
        <Input
          label={t('inventory.scanBarcode')}
          value={code}
          autoComplete="off"
          inputMode="text"
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            // A scanner ends its code with Enter: never the form's submit.
            e.preventDefault();
            void scan();
          }}
          disabled={disabled}
          aria-busy={busy || undefined}
        />
      )}
      {!scanOnly && (
        <>
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
        </>
      )}
    </div>
  );
}
