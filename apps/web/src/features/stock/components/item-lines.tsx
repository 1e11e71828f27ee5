import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/components/ui/toast';
import { errorText } from '@/lib/form-errors';
import { findByBarcode } from '../api/stock.ts';
import type { PickedItem, VariantRef } from '../lib/types.ts';
import { ScanBox, type PickerSlot } from './stock-common.tsx';

/**
 * Adds items to a document's lines: a scanned barcode (a product's or a variant's) or the product
 * picker of the route. `onAdd` gets the product and the variant the barcode named (null: none).
 */
export function ItemAdder({ onAdd, picker, disabled }: { onAdd: (item: PickedItem) => void; picker?: PickerSlot; disabled?: boolean }) {
  const { t } = useTranslation('stock');
  const [busy, setBusy] = useState(false);
  async function scan(code: string) {
    setBusy(true);
    try {
      const item = await findByBarcode(code);
      if (!item) toast.error(t('common.unknownBarcode', { code }));
      else onAdd(item);
    } catch (error) {
      toast.error(errorText(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="stock-adder">
      <ScanBox onCode={scan} busy={busy || disabled} />
      {picker?.(onAdd)}
    </div>
  );
}

/** Variant choices of a line ('' = none). */
export const variantOptions = (variants: VariantRef[] | undefined) =>
  (variants ?? []).map((v) => ({ value: String(v.id), label: v.attributeValue || v.name || String(v.id) }));

/** Where a picked item goes: the index of the line with the same product and variant, else -1. */
export function lineIndexOf(lines: { product: number; variant: string }[], item: PickedItem): number {
  const variant = item.variant ? String(item.variant.id) : '';
  return lines.findIndex((l) => l.product === item.product.id && l.variant === variant);
}

/** Adds one to a typed quantity ("2" -> "3"; junk -> "1"). */
export function plusOne(text: string): string {
  const n = Number(text.replace(',', '.'));
  return Number.isFinite(n) ? String(Math.round((n + 1) * 1000) / 1000) : '1';
}
