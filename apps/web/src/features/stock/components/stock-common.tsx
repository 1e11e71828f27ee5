import { useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Select } from '@/components/ui/select';
import { useSession, type Store } from '@/lib/session';
import type { PickedItem } from '../lib/types.ts';
import '../stock.css';

/** The signed-in user's stores (the stock pages show and write only these). */
export function useStockStores(): Store[] {
  return useSession().user?.stores ?? [];
}

export const storeOptions = (stores: Store[]) => stores.map((s) => ({ value: String(s.id), label: s.name }));

/** A status as a coloured badge. */
export function StatusBadge({ status, label }: { status: string; label: string }) {
  return <span className={`badge stock-status stock-status-${status}`}>{label}</span>;
}

/** "All stores" or one of the user's stores: the lists' store filter. */
export function StoreFilter({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation('stock');
  const stores = useStockStores();
  return (
    <Select
      containerClassName="stock-filter"
      label={t('common.store')}
      placeholder={t('common.allStores')}
      options={storeOptions(stores)}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}

/**
 * The scan box: a barcode typed or scanned (scanners end with Enter) is handed over and the box is
 * emptied and focused again, ready for the next one. Large touch targets (tablets).
 */
export function ScanBox({ onCode, busy, label, button, extra }: {
  onCode: (code: string) => void | Promise<void>;
  busy?: boolean;
  label?: string;
  button?: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('stock');
  const id = useId();
  const [code, setCode] = useState('');
  const ref = useRef<HTMLInputElement>(null);
  async function submit() {
    const c = code.trim();
    if (!c || busy) return;
    setCode('');
    try {
      await onCode(c);
    } finally {
      ref.current?.focus();
    }
  }
  // Not a <form>: the box sits inside the document's own form, and a scanner's Enter must not submit that.
  return (
    <div className="stock-scan" role="search" aria-label={label ?? t('common.scan')}>
      <label htmlFor={id} className="stock-scan__label">{label ?? t('common.scan')}</label>
      <div className="stock-scan__row">
        <input
          id={id}
          ref={ref}
          className="input stock-scan__input"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            void submit();
          }}
          inputMode="numeric"
          autoComplete="off"
          enterKeyHint="go"
          aria-describedby={`${id}-hint`}
        />
        {extra}
        <Button size="lg" loading={busy} className="stock-touch" onClick={() => void submit()}>{button ?? t('common.add')}</Button>
      </div>
      <small id={`${id}-hint`} className="muted">{t('common.scanHint')}</small>
    </div>
  );
}

/** A slot where the route puts the product picker (features/inventory), so features stay apart. */
export type PickerSlot = (onPick: (item: PickedItem) => void) => ReactNode;

/** The variant's name for a line (attribute value, else name). */
export const variantLabel = (v: { attributeValue?: string | null; name?: string | null } | null | undefined) => v?.attributeValue || v?.name || '';
