import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMoney } from '@/lib/money';
import { tryParseScaled } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { toast } from '@/components/ui/toast';
import type { Product } from '@/features/catalogue-cache/types';
import { pricesOf } from '@/features/item-search/prices';
import type { FacetFilter } from '@/features/item-search/search-record';
import { useItemSearch, type ProductById, type SearchSource } from '@/features/item-search/hooks/use-item-search';
import { useSearchSettings } from '@/features/item-search/search-client';
import { SearchSettingsDialog } from './search-settings-dialog';
import { EyeIcon } from '@/components/ui/icons';

export const ROW_HEIGHT = 60;
const OVERSCAN = 2;
const SCROLL_RESET_DELAY = 150;


export interface ItemSearchDialogProps {
  open: boolean;
  onClose: () => void;
  /** What to index (the products visible at this till) and its version. */
  source: SearchSource;
  version: number | string;
  byId: ProductById;
  facets: FacetFilter | null;
  /** Add with the dialog's quantity (milli); the caller opens the variant chooser when needed. */
  onAdd: (product: Product, qtyMilli: number) => void;
  onView: (product: Product) => void;
  locale?: string;
}

/**
 * 'Search items' (ctrl+f): fuzzy search on name, barcode and price in the search worker, a
 * virtualised list of 60 px rows (window height - 250 tall, overscan 2), up/down/enter.
 */
export function ItemSearchDialog({ open, onClose, source, version, byId, facets, onAdd, onView }: ItemSearchDialogProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const [query, setQuery] = useState('');
  const [qty, setQty] = useState('1');
  const [active, setActive] = useState(0);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const closeAfterAdd = useSearchSettings((s) => s.closeAfterAdd);
  const { count, itemAt, error, resultQuery } = useItemSearch({ source, version, byId, facets, query, enabled: open });
  const scroller = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(() => (typeof window === 'undefined' ? 600 : Math.max(window.innerHeight - 250, ROW_HEIGHT * 3)));

  useEffect(() => {
    const onResize = () => setHeight(Math.max(window.innerHeight - 250, ROW_HEIGHT * 3));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    initialRect: { width: 600, height },
  });

  // A new query starts at the top (after a short delay, as the reference did).
  useEffect(() => {
    setActive(0);
    const timer = setTimeout(() => virtualizer.scrollToOffset(0), SCROLL_RESET_DELAY);
    return () => clearTimeout(timer);
     
  }, [query]);

  useEffect(() => {
    if (error) toast.error(error);
  }, [error]);

  const add = (p: Product | undefined) => {
    if (!p) return;
    const q = tryParseScaled(qty, 3);
    if (q === null || q <= 0) {
      toast.error(t('messages.quantityBelowOne'));
      return;
    }
    onAdd(p, q);
    if (closeAfterAdd) onClose();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!count) return;
      const d = e.key === 'ArrowDown' ? 1 : -1;
      const next = (((active + d) % count) + count) % count;
      setActive(next);
      virtualizer.scrollToIndex(next, { align: 'auto' });
    } else if (e.key === 'Enter') {
      e.preventDefault();
      add(itemAt(active));
    }
  };

  // Minor units of the store's currency, price rules on the store's clock (issue 19).
  const money = (minor: number) => currency.formatMinor(minor);

  return (
    <Dialog open={open} onClose={onClose} title={t('itemSearch.title', { count })} size="lg" className="item-search-dialog">
      <div className="row item-search-bar">
        <Input
          label={t('itemSearch.search')}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={onKeyDown}
          containerClassName="grow"
          autoComplete="off"
          role="combobox"
          aria-expanded
          aria-controls="item-search-list"
          aria-activedescendant={itemAt(active) ? `item-search-${itemAt(active)!.id}` : undefined}
          data-autofocus
        />
        <NumberInput label={t('search.quantity')} value={qty} onValueChange={(v) => setQty(v)} className="qty-input" />
        <Button variant="ghost" aria-label={t('itemSearch.settings')} onClick={() => setSettingsOpen(true)}>⚙</Button>
      </div>
      {error && <p className="field-error" role="alert">{error}</p>}
      <div ref={scroller} className="item-search-list" style={{ height, overflowY: 'auto' }} id="item-search-list" role="listbox" aria-label={t('itemSearch.results')} data-query={resultQuery ?? undefined}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => {
            const p = itemAt(row.index);
            if (!p) return null;
            const { base, effective } = pricesOf(p, { digits: currency.digits, timeZone: currency.timeZone });
            const selected = row.index === active;
            return (
              <div
                key={p.id}
                id={`item-search-${p.id}`}
                role="option"
                aria-selected={selected}
                className={selected ? 'item-search-row item-search-row-active' : 'item-search-row'}
                style={{ position: 'absolute', top: 0, insetInlineStart: 0, width: '100%', height: ROW_HEIGHT, transform: `translateY(${row.start}px)` }}
                onMouseMove={() => { if (row.index !== active) setActive(row.index); }}
                onClick={() => add(p)}
              >
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  aria-label={t('itemSearch.view', { name: p.name })}
                  onClick={(e) => {
                    e.stopPropagation();
                    onView(p);
                  }}
                >
                  <EyeIcon />
                </button>
                <span className="item-search-name">{p.name}</span>
                <span className="item-search-barcode text-muted">{p.barcode}</span>
                <span className="item-search-price">
                  {base !== effective && <s className="text-muted" data-testid="base-price">{money(base)}</s>} {money(effective)}
                </span>
              </div>
            );
          })}
        </div>
      </div>
      <SearchSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Dialog>
  );
}
