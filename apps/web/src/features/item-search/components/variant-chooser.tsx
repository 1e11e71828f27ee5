import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import { Dialog } from '@/components/ui/dialog';
import type { Product, Variant } from '@/features/catalogue-cache/types';
import { variantPriceOf } from '@/features/item-search/prices';

export interface VariantChooserProps {
  product: Product | null;
  onPick: (variant: Variant) => void;
  onClose: () => void;
  locale?: string;
}

/** The variant chooser: up/down (wrapping), enter adds the highlighted variant, or a click. */
export function VariantChooser({ product, onPick, onClose }: VariantChooserProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [active, setActive] = useState(0);
  const list = useRef<HTMLDivElement>(null);
  const variants = product?.variants ?? [];
  useEffect(() => setActive(0), [product]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (!variants.length) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const d = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (((i + d) % variants.length) + variants.length) % variants.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      onPick(variants[active]);
    }
  };
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${active}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active]);

  return (
    <Dialog open={!!product} onClose={onClose} title={t('variants.title', { name: product?.name ?? '' })} size="md">
      <div ref={list} role="listbox" aria-label={t('variants.list')} tabIndex={0} data-autofocus onKeyDown={onKeyDown} className="variant-list">
        {product && variants.map((v, i) => (
          <div
            key={v.id}
            role="option"
            data-index={i}
            aria-selected={i === active}
            className={i === active ? 'variant-option variant-option-active' : 'variant-option'}
            onMouseMove={() => { if (i !== active) setActive(i); }}
            onClick={() => onPick(v)}
          >
            <span className="grow">{v.attributeValue ?? v.name}</span>
            <span className="text-muted">{v.barcode}</span>
            <span>{currency.formatMinor(variantPriceOf(product, v, { digits: currency.digits, timeZone: currency.timeZone }))}</span>
            {v.quantity !== null && v.quantity !== undefined && <span className="text-muted">{quantityToString(parseQuantity(v.quantity))}</span>}
          </div>
        ))}
      </div>
    </Dialog>
  );
}
