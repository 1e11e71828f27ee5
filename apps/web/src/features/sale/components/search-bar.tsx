import { type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';

export interface SearchBarProps {
  query: string;
  quantity: string;
  onQueryChange: (q: string) => void;
  onQuantityChange: (q: string) => void;
  /** Enter in the search box: a barcode (product, variant, weighed) or a name. */
  onScan: (code: string) => void;
  onRefund: (orderNumber: string) => void;
  onReorder: (orderNumber: string) => void;
  onOpenSearch: () => void;
  busy?: boolean;
  displayShortcuts?: boolean;
  searchRef?: Ref<HTMLInputElement>;
}

/** The search box (barcode or name) with the quantity box (default 1), and Refund / Re Order. */
export function SearchBar({ query, quantity, onQueryChange, onQuantityChange, onScan, onRefund, onReorder, onOpenSearch, busy, displayShortcuts, searchRef }: SearchBarProps) {
  const { t } = useTranslation('sale');
  return (
    <form
      className="search-bar row"
      role="search"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (query.trim()) onScan(query);
      }}
    >
      <Input
        label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={query}
        ref={searchRef}
        autoComplete="off"
        containerClassName="grow"
        aria-busy={busy}
        onChange={(e) => onQueryChange(e.target.value)}
        onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
          if (e.key === 'Escape') onQueryChange('');
        }}
        data-testid="scan-input"
        data-focus-home
      />
      <NumberInput label={t('search.quantity')} value={quantity} onValueChange={(v) => onQuantityChange(v)} className="qty-input" required />
      <Button type="submit" variant="primary" disabled={!query.trim() || busy}>{t('search.add')}</Button>
      <Button variant="secondary" onClick={onOpenSearch}>
        {t('search.searchItems')}
        {displayShortcuts && <kbd className="shortcut-hint">ctrl+f</kbd>}
      </Button>
      <Button variant="secondary" onClick={() => onRefund(query)}>{t('search.refund')}</Button>
      <Button variant="secondary" onClick={() => onReorder(query)}>{t('search.reorder')}</Button>
    </form>
  );
}
