import { memo, useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { Facet } from '@/features/catalogue-cache/product-index';

/** What one tile shows: the product's picture when it has one, else a colour tile with its name and price. */
export interface GridTile {
  id: number;
  name: string;
  /** The price in force, written in the store's currency. */
  price: string;
  /** Hue (0-359) of the colour tile. */
  hue: number;
  image?: string | null;
}

export interface ProductGridProps {
  /** The category tabs (with their counts), after "All". */
  categories: readonly Facet[];
  /** The open tab: a category id, or null for all products. */
  category: number | null;
  onCategory: (id: number | null) => void;
  /** How many products the open tab holds. */
  count: number;
  /** The tile of the index-th product of the open tab (decoded only for the rows on screen). */
  tileAt: (index: number) => GridTile | undefined;
  onTap: (index: number) => void;
}

/** Tiles at least this wide; as many columns as fit. */
const TILE_MIN = 120;
const ROW_HEIGHT = 92;
const GAP = 8;

/**
 * The till's product grid for touch (issue 23.2): category tabs and a virtualised grid of product
 * tiles (only the rows on screen are rendered and decoded, so 100,000 products scroll as fast as 10).
 * Tapping a tile adds the product; the route opens the variant chooser for one with variants. It
 * knows nothing of the cart or the catalogue: the route hands it the tabs, a count and `tileAt`.
 */
export const ProductGrid = memo(function ProductGrid({ categories, category, onCategory, count, tileAt, onTap }: ProductGridProps) {
  const { t } = useTranslation('sale');
  const scroller = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);

  useEffect(() => {
    const node = scroller.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(node.clientWidth || 600));
    observer.observe(node);
    return () => observer.disconnect();
  }, []);

  const columns = Math.max(1, Math.floor((width + GAP) / (TILE_MIN + GAP)));
  const rows = Math.ceil(count / columns);
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT + GAP,
    overscan: 2,
    initialRect: { width, height: 400 },
  });

  // A new tab starts at its top.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [category]);

  const tabs: Array<{ id: number | null; name: string; count?: number }> = [{ id: null, name: t('grid.all') }, ...categories];
  return (
    <section className="product-grid" aria-label={t('grid.title')}>
      <div className="product-grid-tabs" role="tablist" aria-label={t('grid.categories')}>
        {tabs.map((tab) => (
          <button
            key={tab.id ?? 'all'}
            type="button"
            role="tab"
            aria-selected={tab.id === category}
            className={tab.id === category ? 'chip chip-on' : 'chip'}
            onClick={() => onCategory(tab.id)}
          >
            {tab.name}
            {tab.count !== undefined && <span className="badge">{tab.count}</span>}
          </button>
        ))}
      </div>
      <div ref={scroller} className="product-grid-scroller" role="tabpanel" aria-label={t('grid.products', { count })}>
        {count === 0 && <p className="text-muted product-grid-empty">{t('grid.empty')}</p>}
        <div style={{ blockSize: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              className="product-grid-row"
              style={{ position: 'absolute', insetBlockStart: 0, insetInlineStart: 0, inlineSize: '100%', blockSize: ROW_HEIGHT, transform: `translateY(${row.start}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}
            >
              {Array.from({ length: Math.min(columns, count - row.index * columns) }, (_, c) => {
                const index = row.index * columns + c;
                const tile = tileAt(index);
                if (!tile) return <span key={index} />;
                return (
                  <button
                    key={tile.id}
                    type="button"
                    className={tile.image ? 'grid-tile grid-tile-image' : 'grid-tile'}
                    style={{ '--tile-hue': tile.hue, ...(tile.image ? { backgroundImage: `url(${JSON.stringify(tile.image)})` } : null) } as CSSProperties}
                    data-testid="grid-tile"
                    onClick={() => onTap(index)}
                  >
                    <span className="grid-tile-name">{tile.name}</span>
                    <span className="grid-tile-price">{tile.price}</span>
                  </button>
                );
              })}
            </div>
          ))}
        </div>
      </div>
    </section>
  );
});
