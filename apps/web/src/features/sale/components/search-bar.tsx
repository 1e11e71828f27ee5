import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ComboListbox, comboboxProps, moveHighlight } from '@/components/ui/combobox';
import { Input } from '@/components/ui/input';
import { NumberInput } from '@/components/ui/number-input';
import type { Product } from '@/features/catalogue-cache/types';

/** The pause in typing after which the matches are asked for (a scanner never pauses mid-code). */
export const SUGGEST_DELAY_MS = 150;
/** Keys closer than this are a scanner's (USB HID scanners send one every few ms; people type slower). */
export const SCANNER_KEY_GAP_MS = 50;
/** Fast keys in a row before the input counts as a scan (scanned codes are 8 to 14 characters). */
const SCANNER_RUN = 4;
/** Characters before any match is listed. */
export const SUGGEST_MIN_CHARS = 2;

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
  /** Type-ahead: the matches listed under the box, the text they answer, and the request for a text. */
  suggestions?: readonly Product[];
  suggestFor?: string;
  onSuggest?: (text: string) => void;
  /** A listed match picked (Enter on the highlighted one, or a tap): added with the quantity box. */
  onPick?: (product: Product) => void;
  /** True when the text is an exact barcode / name of the catalogue: Enter then always scans it. */
  isExact?: (code: string) => boolean;
  /** One match's row content (name, code, price). */
  renderSuggestion?: (product: Product) => ReactNode;
}

/**
 * The search box (barcode or name) with the quantity box (default 1), and Refund / Re Order. As a
 * combobox (ARIA pattern) it lists the catalogue's matches for the typed text after a pause; Down /
 * Up highlight one, Enter adds the highlighted one, Escape closes the list (a second Escape empties
 * the box). A scanner's input (keys a few ms apart) lists nothing, and Enter on it, on an exact
 * barcode or with nothing highlighted scans the text as before: the list never takes a scan's Enter.
 */
export function SearchBar({ query, quantity, onQueryChange, onQuantityChange, onScan, onRefund, onReorder, onOpenSearch, busy, displayShortcuts, searchRef, suggestions = [], suggestFor = '', onSuggest, onPick, isExact, renderSuggestion }: SearchBarProps) {
  const { t } = useTranslation('sale');
  const listId = useId();
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const keys = useRef({ last: 0, run: 0, scanner: false });
  const text = query.trim();

  // Ask for matches once typing pauses; a scan (or an empty / short text) asks for none.
  useEffect(() => {
    if (!text) keys.current = { last: 0, run: 0, scanner: false };
    if (!onSuggest) return;
    if (text.length < SUGGEST_MIN_CHARS || keys.current.scanner) {
      onSuggest('');
      return;
    }
    const timer = setTimeout(() => onSuggest(text), SUGGEST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text, onSuggest]);

  const open = suggestions.length > 0 && suggestFor === text && dismissed !== query && !keys.current.scanner;
  const highlighted = open && active < suggestions.length ? active : -1;

  const pick = (i: number) => {
    const p = suggestions[i];
    if (!p || !onPick) return;
    setActive(-1);
    onPick(p);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key.length === 1) {
      // When the key arrived (not when it is handled: keys queued behind a busy frame keep their own times).
      const now = e.timeStamp;
      const k = keys.current;
      k.run = k.last && now - k.last < SCANNER_KEY_GAP_MS ? k.run + 1 : 0;
      k.last = now;
      if (k.run >= SCANNER_RUN - 1) k.scanner = true;
      return;
    }
    if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        e.stopPropagation();
        setDismissed(query);
      } else onQueryChange('');
      return;
    }
    if (e.key === 'Enter') {
      // Only a highlighted match of typed (not scanned) text that is no exact code takes the Enter.
      if (highlighted >= 0 && !keys.current.scanner && !isExact?.(text)) {
        e.preventDefault();
        pick(highlighted);
      }
      return;
    }
    const next = open ? moveHighlight(e, highlighted, suggestions.length) : null;
    if (next !== null) {
      e.preventDefault();
      setActive(next);
    }
  };

  // The boxes and buttons beside the input do not change with each typed key (a scanner sends one
  // every few ms): built again only when what they show changes.
  const latest = useRef(query);
  latest.current = query;
  const empty = !text;
  const actions = useMemo(() => (
    <>
      <NumberInput label={t('search.quantity')} value={quantity} onValueChange={(v) => onQuantityChange(v)} className="qty-input" required />
      <Button type="submit" variant="primary" disabled={empty || busy}>{t('search.add')}</Button>
      <Button variant="secondary" onClick={onOpenSearch}>
        {t('search.searchItems')}
        {displayShortcuts && <kbd className="shortcut-hint">ctrl+f</kbd>}
      </Button>
      <Button variant="secondary" onClick={() => onRefund(latest.current)}>{t('search.refund')}</Button>
      <Button variant="secondary" onClick={() => onReorder(latest.current)}>{t('search.reorder')}</Button>
    </>
  ), [t, quantity, onQuantityChange, empty, busy, onOpenSearch, displayShortcuts, onRefund, onReorder]);

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
      <div className="grow scan-combo">
        <Input
          label={t('search.label')}
          placeholder={t('search.placeholder')}
          value={query}
          ref={searchRef}
          autoComplete="off"
          aria-busy={busy}
          {...(onSuggest ? comboboxProps(listId, open, highlighted) : {})}
          onChange={(e) => {
            setActive(-1);
            setDismissed(null);
            onQueryChange(e.target.value);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setDismissed(query)}
          onFocus={() => setDismissed(null)}
          data-testid="scan-input"
          data-focus-home
        />
        {onSuggest && (
          <ComboListbox
            id={listId}
            label={t('search.matches')}
            className="scan-suggestions"
            open={open}
            active={highlighted}
            onPick={pick}
            options={suggestions.map((p) => ({ key: p.id, content: renderSuggestion ? renderSuggestion(p) : <bdi>{p.name}</bdi> }))}
          />
        )}
      </div>
      {actions}
    </form>
  );
}
