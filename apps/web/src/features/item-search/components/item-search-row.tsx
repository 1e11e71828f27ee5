import { memo } from 'react';
import type { Product } from '@/features/catalogue-cache/types';
import { pricesOf } from '@/features/item-search/prices';
import type { Money } from '@/lib/money';
import { EyeIcon } from '@/components/ui/icons';

/** What a row does, behind one stable object (a row re-renders only when its product or selection changes). */
export interface RowActions {
  add: (p: Product) => void;
  view: (p: Product) => void;
  hover: (index: number) => void;
}

export interface ItemSearchRowProps {
  product: Product;
  index: number;
  selected: boolean;
  height: number;
  money: Money;
  /** The eye button's label for a product name ("View {{name}}", translated once per language). */
  viewLabel: (name: string) => string;
  actions: { current: RowActions };
}

/**
 * One result of the item search: view button, name, barcode, price in force (the base price struck
 * through when a price rule applies). Memoised: typing a key re-renders the dialog, not its rows.
 */
export const ItemSearchRow = memo(function ItemSearchRow({ product: p, index, selected, height, money, viewLabel, actions }: ItemSearchRowProps) {
  // Minor units of the store's currency, price rules on the store's clock (issue 19).
  const { base, effective } = pricesOf(p, { digits: money.digits, timeZone: money.timeZone });
  return (
    <div
      id={`item-search-${p.id}`}
      role="option"
      aria-selected={selected}
      className={selected ? 'item-search-row item-search-row-active' : 'item-search-row'}
      style={{ position: 'absolute', top: 0, insetInlineStart: 0, width: '100%', height, transform: `translateY(${index * height}px)` }}
      onMouseMove={() => { if (!selected) actions.current.hover(index); }}
      onClick={() => actions.current.add(p)}
    >
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-label={viewLabel(p.name)}
        onClick={(e) => {
          e.stopPropagation();
          actions.current.view(p);
        }}
      >
        <EyeIcon />
      </button>
      <span className="item-search-name">{p.name}</span>
      <span className="item-search-barcode text-muted">{p.barcode}</span>
      <span className="item-search-price">
        {base !== effective && <s className="text-muted" data-testid="base-price">{money.formatMinor(base)}</s>} {money.formatMinor(effective)}
      </span>
    </div>
  );
});
