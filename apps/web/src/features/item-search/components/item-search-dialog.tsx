import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';
import { tryParseScaled } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import { toast } from '@/components/ui/toast';
import type { Product } from '@/features/catalogue-cache/types';
import type { FacetFilter } from '@/features/item-search/search-record';
import { useItemSearch, type ProductById, type SearchSource } from '@/features/item-search/hooks/use-item-search';
import { useSearchSettings } from '@/features/item-search/search-client';
import { useFixedRows } from '@/features/item-search/hooks/use-fixed-rows';
import { SearchSettingsDialog } from './search-settings-dialog';
import { ItemSearchRow, type RowActions } from './item-search-row';

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
  const [qty, setQty] = useState('1');
  const [settingsOpen, setSettingsOpen] = useState(false);
  const closeAfterAdd = useSearchSettings((s) => s.closeAfterAdd);
  // The search box is the browser's own (uncontrolled): a key re-renders nothing; its answer, when
  // the worker sends it, renders the rows, the count and the text they answer in one go.
  const { count, itemAt, error, resultQuery, typed, type } = useItemSearch({ source, version, byId, facets, enabled: open });
  // The highlighted row, for the answer it was chosen in: a new answer starts at the top.
  const [pick, setPick] = useState<{ answer: string | null; index: number }>({ answer: null, index: 0 });
  const active = pick.answer === resultQuery ? pick.index : 0;
  const setActive = (index: number) => setPick({ answer: resultQuery, index });
  const scroller = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(() => (typeof window === 'undefined' ? 600 : Math.max(window.innerHeight - 250, ROW_HEIGHT * 3)));

  useEffect(() => {
    const onResize = () => setHeight(Math.max(window.innerHeight - 250, ROW_HEIGHT * 3));
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  const rows = useFixedRows({ count, rowHeight: ROW_HEIGHT, height, overscan: OVERSCAN, scroller });

  // A new answer starts at the top (after a short delay, as the reference did).
  useEffect(() => {
    const timer = setTimeout(() => rows.scrollToTop(), SCROLL_RESET_DELAY);
    return () => clearTimeout(timer);
  }, [resultQuery]);

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
      rows.scrollToIndex(next);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      add(itemAt(active));
    }
  };

  // The rows call the latest handlers through one stable object, so a keystroke re-renders no row.
  const actions = useRef<RowActions>({ add, view: onView, hover: setActive });
  actions.current = { add, view: onView, hover: setActive };
  // "View {{name}}" translated once per language, the name put in per row.
  const viewLabel = useMemo(() => {
    const marker = '\u0000';
    const parts = t('itemSearch.view', { name: marker, interpolation: { escapeValue: false } }).split(marker);
    return (name: string) => parts.join(name);
  }, [t]);
  const visible: number[] = [];
  for (let i = rows.start; i < rows.end; i++) visible.push(i);

  return (
    <Dialog open={open} onClose={onClose} title={t('itemSearch.title', { count })} size="lg" className="item-search-dialog">
      <div className="row item-search-bar">
        <Input
          label={t('itemSearch.search')}
          defaultValue={typed}
          onChange={(e) => type(e.target.value)}
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
      <div ref={scroller} className="item-search-list" style={{ height, overflowY: 'auto' }} id="item-search-list" role="listbox" aria-label={t('itemSearch.results')} data-query={resultQuery ?? undefined}
        onScroll={(e) => rows.onScroll(e.currentTarget.scrollTop)}>
        <div style={{ height: rows.total, position: 'relative' }}>
          {visible.map((index) => {
            const p = itemAt(index);
            if (!p) return null;
            return <ItemSearchRow key={p.id} product={p} index={index} selected={index === active} height={ROW_HEIGHT} money={currency} viewLabel={viewLabel} actions={actions} />;
          })}
        </div>
      </div>
      <SearchSettingsDialog open={settingsOpen} onClose={() => setSettingsOpen(false)} />
    </Dialog>
  );
}
