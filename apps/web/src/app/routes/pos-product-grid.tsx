import { memo, useCallback, useMemo, useState } from 'react';
import type { Facet } from '@/features/catalogue-cache/product-index';
import type { ProductTable } from '@/features/catalogue-cache/product-table';
import { useCatalogue } from '@/features/catalogue-cache/catalogue-store';
import type { Product } from '@/features/catalogue-cache/types';
import { pricesOf } from '@/features/item-search/prices';
import { ProductGrid, type GridTile } from '@/features/sale/components/product-grid';
import { useMoney } from '@/lib/money';
import { Button } from '@/components/ui/button';
import { useTranslation } from 'react-i18next';

export interface PosProductGridProps {
  table: ProductTable;
  /** Positions of the products this till may sell (the table's columns). */
  visible: Int32Array;
  categories: readonly Facet[];
  /** Adds one of the product (the route opens the variant chooser for one with variants). */
  onAdd: (product: Product) => void;
}

/** A steady colour per category (or per product without one), so a cashier learns where things are. */
const hueOf = (p: Product) => ((p.categories?.[0]?.id ?? p.id) * 137) % 360;

/**
 * The product grid fed from the local catalogue cache (issue 23.2): a tab's products are positions in
 * the table's columns (no product decoded for it), a tile decodes its product when it comes on
 * screen, and a tap adds from memory: no server call. Memoised: a scan changes the cart, not these
 * props, so the grid does not render again on the scan path.
 */
export const PosProductGrid = memo(function PosProductGrid({ table, visible, categories, onAdd }: PosProductGridProps) {
  const currency = useMoney();
  const [category, setCategory] = useState<number | null>(null);
  const open = category !== null && categories.some((c) => c.id === category) ? category : null;
  const positions = useMemo(() => (open === null ? visible : table.inCategory(visible, open)), [table, visible, open]);
  // Tiles drawn empty while a warm start's product texts were still coming are drawn again.
  const textsPending = useCatalogue((s) => s.textsPending);

  const tileAt = useCallback((index: number): GridTile | undefined => {
    const p = index < positions.length ? table.at(positions[index]) : undefined;
    if (!p) return undefined;
    const { effective } = pricesOf(p, { digits: currency.digits, timeZone: currency.timeZone });
    return { id: p.id, name: p.name, price: currency.formatMinor(effective), hue: hueOf(p) };
  }, [table, positions, currency, textsPending]);

  const onTap = useCallback((index: number) => {
    const p = table.at(positions[index]);
    if (p) onAdd(p);
  }, [table, positions, onAdd]);

  return <ProductGrid categories={categories} category={open} onCategory={setCategory} count={positions.length} tileAt={tileAt} onTap={onTap} />;
});

/** Shows or hides the grid (it follows touch mode until the cashier chooses). */
export function GridToggle({ shown, onChange }: { shown: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation('sale');
  return (
    <Button size="sm" variant={shown ? 'primary' : 'secondary'} aria-pressed={shown} onClick={() => onChange(!shown)}>
      {t('grid.toggle')}
    </Button>
  );
}
