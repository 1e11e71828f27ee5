import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FLAG_ACTIVE, SYNC_FORMAT, type ProductRow, type SyncPayload } from '@pos/domain/catalogue-sync';
import { renderWithProviders } from '@/test/render';
import { ProductSync } from '@/features/catalogue-cache/product-sync';
import { ProductTable } from '@/features/catalogue-cache/product-table';
import type { Product } from '@/features/catalogue-cache/types';
import { addToCart, emptyCart } from '@/features/cart/cart-logic';
import { cartStore, updateCart, useCart } from '@/features/cart/cart-store';
import { lineName } from '@/features/cart/components/line-text';
import { VariantChooser } from '@/features/item-search/components/variant-chooser';
import { PosProductGrid } from './pos-product-grid';

vi.setConfig({ testTimeout: 20_000 });

const dict: SyncPayload['dict'] = {
  taxes: [], categories: [[1, 'Dairy', 'product', true], [2, 'Hats', 'product', true]], brands: [], suppliers: [], terminals: [], departments: [], stores: [],
};
/** A compact catalogue row (catalogue-sync's column order): id, name, barcode, price, categories, variants. */
const row = (id: number, name: string, price: number, categories: number[], variants: unknown[] = []): ProductRow =>
  [id, name, `20${id}`, null, price, null, 'pcs', 'pcs', FLAG_ACTIVE, 1, null, null, [], categories, [], [], [], variants, [], []] as unknown as ProductRow;
const table = ProductTable.from(new ProductSync().apply({
  format: SYNC_FORMAT, full: true, cursor: '1', userId: 1, dict, removed: [],
  products: [
    row(1, 'Milk', 2.5, [1]),
    row(2, 'Butter', 4.25, [1]),
    row(3, 'Cap', 9.5, [2], [[31, 'Cap', 'Colour', 'Black', '2031', null, null, null, 5], [32, 'Cap', 'Colour', 'White', '2032', 11, null, null, 5]]),
  ],
}));

/** The grid wired as the till wires it: a tap adds one, a product with variants asks which first. */
function Till() {
  const [chooser, setChooser] = useState<Product | null>(null);
  const lines = useCart((s) => s.added);
  const visible = table.visibleAt(null, null);
  const add = (product: Product, variant: Product['variants'] extends (infer V)[] | undefined ? V | null : never) =>
    updateCart((s) => addToCart(s, { product, variant, qtyMilli: 1000 }).state);
  return (
    <>
      <PosProductGrid table={table} visible={visible} categories={table.facets(visible).categories} onAdd={(p) => (p.variants?.length ? setChooser(p) : add(p, null))} />
      <VariantChooser product={chooser} onClose={() => setChooser(null)} onPick={(v) => { if (chooser) add(chooser, v); setChooser(null); }} />
      <ul aria-label="cart">{lines.map((l) => <li key={l.key}>{`${lineName(l)} × ${l.quantity}`}</li>)}</ul>
    </>
  );
}

// jsdom has no layout: give the virtualised grid a viewport so it renders rows.
const sizes = ['clientHeight', 'clientWidth'] as const;
beforeAll(() => {
  for (const key of sizes) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => (key === 'clientHeight' ? 600 : 800) });
});
afterAll(() => {
  for (const key of sizes) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
});
afterEach(() => act(() => cartStore.set(emptyCart())));

describe('the till product grid (issue 23.2)', () => {
  it('shows every product under All, with its price in the store currency; a category tab shows only its products', async () => {
    renderWithProviders(<Till />);
    const grid = screen.getByRole('region', { name: 'Products' });
    expect(within(grid).getByRole('tab', { name: 'All' })).toHaveAttribute('aria-selected', 'true');
    const names = () => within(grid).getAllByTestId('grid-tile').map((t) => t.querySelector('.grid-tile-name')?.textContent);
    expect(names()).toEqual(['Milk', 'Butter', 'Cap']);
    expect(within(grid).getAllByTestId('grid-tile')[1]).toHaveTextContent('$4.25');

    await userEvent.click(within(grid).getByRole('tab', { name: /Hats/ }));
    expect(within(grid).getByRole('tab', { name: /Hats/ })).toHaveAttribute('aria-selected', 'true');
    expect(names()).toEqual(['Cap']);
    await userEvent.click(within(grid).getByRole('tab', { name: /Dairy/ }));
    expect(names()).toEqual(['Milk', 'Butter']);
    expect(within(grid).getByRole('tab', { name: /Dairy/ })).toHaveTextContent('2');
  });

  it('a tap adds the product to the cart, a second tap adds one more', async () => {
    renderWithProviders(<Till />);
    const tile = screen.getAllByTestId('grid-tile').find((t) => t.textContent?.includes('Butter'))!;
    await userEvent.click(tile);
    expect(screen.getByRole('list', { name: 'cart' })).toHaveTextContent('Butter × 1');
    await userEvent.click(tile);
    expect(cartStore.get().added).toHaveLength(1);
    expect(cartStore.get().added[0].quantity).toBe(2000);
  });

  it('a product with variants opens the variant chooser; the chosen one is added', async () => {
    renderWithProviders(<Till />);
    await userEvent.click(screen.getByRole('tab', { name: /Hats/ }));
    await userEvent.click(screen.getByTestId('grid-tile'));
    const chooser = await screen.findByRole('dialog', { name: /Cap/ });
    expect(cartStore.get().added).toHaveLength(0);
    await userEvent.click(within(chooser).getByRole('option', { name: /White/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Cap/ })).toBeNull());
    expect(screen.getByRole('list', { name: 'cart' })).toHaveTextContent('Cap (White) × 1');
  });

  it('a large catalogue renders only the rows on screen (virtualised)', () => {
    const big = ProductTable.from(new ProductSync().apply({
      format: SYNC_FORMAT, full: true, cursor: '1', userId: 1, dict, removed: [],
      products: Array.from({ length: 20_000 }, (_, i) => row(i + 1, `Item ${i + 1}`, 1, [1 + (i % 2)])),
    }));
    const visible = big.visibleAt(null, null);
    renderWithProviders(<PosProductGrid table={big} visible={visible} categories={big.facets(visible).categories} onAdd={() => {}} />);
    expect(screen.getByRole('tabpanel', { name: /^20,?000 products$/ })).toBeInTheDocument();
    const tiles = screen.getAllByTestId('grid-tile');
    expect(tiles.length).toBeGreaterThan(0);
    expect(tiles.length).toBeLessThan(100);
    expect(tiles[0]).toHaveTextContent('Item 1');
  });
});
