import { Profiler, useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Product } from '@/features/catalogue-cache/types';
import { searchSettingsStore } from '@/features/item-search/search-client';
import { listSource } from '@/features/item-search/hooks/use-item-search';
import { ItemDetailDialog } from './item-detail-dialog';
import { ItemSearchDialog } from './item-search-dialog';
import { VariantChooser } from './variant-chooser';
import { signIn } from '@/features/list-table/testing/fake-api';
import { resetSession } from '@/lib/session';

/** A store with these money settings for one test (issue 19). */
function storeWith(currency: string) {
  signIn({ currency, locale: 'en-US' });
  onTestFinished(() => resetSession());
}

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const month = new Date().getMonth() + 1;
const products: Product[] = [
  { id: 1, name: 'Fresh Milk 1L', barcode: '5000000000001', basePrice: 10.75 },
  { id: 2, name: 'Classic Milk 1L', barcode: '5000000000011', basePrice: 4, prices: [{ month, basePrice: 3.5 }] },
  { id: 3, name: 'Organic Tea 250g', barcode: '5000000000003', basePrice: 7.25 },
];
const byId = new Map(products.map((p) => [p.id, p]));

const fetchMock = vi.fn<typeof fetch>();

// jsdom has no layout: give the virtualised list a viewport so it renders rows.
const sizes = ['clientHeight', 'clientWidth'] as const;
beforeAll(() => {
  for (const key of sizes) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => (key === 'clientHeight' ? 600 : 800) });
});
afterAll(() => {
  for (const key of sizes) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
});
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  searchSettingsStore.set({ closeAfterAdd: true, isCaseSensitive: false, threshold: 0.2 });
});
afterEach(() => vi.unstubAllGlobals());

describe('ItemSearchDialog (ctrl+f)', () => {
  it('lists everything, filters fuzzily, moves with the arrows (wrapping) and adds with enter at the quantity typed', async () => {
    const onAdd = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(<ItemSearchDialog open onClose={onClose} source={listSource(products)} version={1} byId={byId} facets={null} onAdd={onAdd} onView={() => {}} />);
    expect(await screen.findByRole('dialog', { name: 'Search items (3)' }, { timeout: 5000 })).toBeInTheDocument();
    const box = screen.getByLabelText('Search by name, barcode or price');
    await userEvent.type(box, 'milk');
    await screen.findByRole('dialog', { name: 'Search items (2)' }, { timeout: 5000 });
    // Struck-through base price when a price rule applies.
    const classic = screen.getByRole('option', { name: /Classic Milk/ });
    expect(within(classic).getByTestId('base-price')).toHaveTextContent('$4.0');
    expect(classic).toHaveTextContent('$3.5');
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getAllByRole('option')[0]).toHaveAttribute('aria-selected', 'true');
    const qty = screen.getByLabelText('Quantity');
    await userEvent.clear(qty);
    await userEvent.type(qty, '3');
    await userEvent.click(box);
    await userEvent.keyboard('{Enter}');
    expect(onAdd).toHaveBeenCalledWith(expect.objectContaining({ name: 'Fresh Milk 1L' }), 3000);
    expect(onClose).toHaveBeenCalled();
  });

  it("keeps the window open when asked, and shows 'Pattern length exceeds max of 32.'", async () => {
    searchSettingsStore.set({ closeAfterAdd: false, isCaseSensitive: false, threshold: 0.2 });
    const onClose = vi.fn();
    const onAdd = vi.fn();
    renderWithProviders(<ItemSearchDialog open onClose={onClose} source={listSource(products)} version={2} byId={byId} facets={null} onAdd={onAdd} onView={() => {}} />);
    await screen.findByRole('dialog', { name: 'Search items (3)' }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('option', { name: /Organic Tea/ }));
    expect(onAdd).toHaveBeenCalledWith(expect.objectContaining({ id: 3 }), 1000);
    expect(onClose).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Search by name, barcode or price'), 'x'.repeat(33));
    expect((await screen.findAllByText('Pattern length exceeds max of 32.')).length).toBeGreaterThan(0);
  });

  it('draws only the rows in view of a long answer, the rows further down once scrolled, and scrolls to the one the arrows reach', async () => {
    const many: Product[] = Array.from({ length: 5000 }, (_, i) => ({ id: i + 1, name: `Product ${i + 1}`, barcode: String(7000000000000 + i), basePrice: 1 }));
    const manyById = new Map(many.map((p) => [p.id, p]));
    renderWithProviders(<ItemSearchDialog open onClose={() => {}} source={listSource(many)} version={'many'} byId={manyById} facets={null} onAdd={() => {}} onView={() => {}} />);
    await screen.findByRole('dialog', { name: 'Search items (5000)' }, { timeout: 5000 });
    const list = screen.getByRole('listbox');
    // 60 px rows in a list of (window height - 250) px, two more each side: a screenful, not 5,000.
    const shown = () => screen.getAllByRole('option').map((o) => o.textContent ?? '');
    expect(shown().length).toBeLessThanOrEqual(Math.ceil((window.innerHeight - 250) / 60) + 3);
    expect(within(list).getByText('Product 1')).toBeInTheDocument();
    Object.defineProperty(list, 'scrollTop', { configurable: true, writable: true, value: 60 * 3000 });
    fireEvent.scroll(list);
    expect(await within(list).findByText('Product 3001')).toBeInTheDocument();
    expect(within(list).queryByText('Product 1')).toBeNull();
    // ArrowUp from the first row wraps to the last: the list scrolls to show it whole.
    list.scrollTop = 0;
    fireEvent.scroll(list);
    await userEvent.click(screen.getByLabelText('Search by name, barcode or price'));
    await userEvent.keyboard('{ArrowUp}');
    // The list scrolls in the effect after the key (on a loaded machine, after userEvent returns).
    await vi.waitFor(() => expect(list.scrollTop).toBe(5000 * 60 - 600), { timeout: 5000 });
    fireEvent.scroll(list);
    expect((await within(list).findByText('Product 5000')).closest('[role="option"]')).toHaveAttribute('aria-selected', 'true');
  });

  it('a key renders the dialog once, with its answer; reopened, the box shows its text and that text\'s answer', async () => {
    let commits = 0;
    let setOpen: (open: boolean) => void = () => {};
    function Till() {
      const [open, set] = useState(true);
      setOpen = set;
      return (
        <Profiler id="search" onRender={() => { commits++; }}>
          <ItemSearchDialog open={open} onClose={() => set(false)} source={listSource(products)} version={4} byId={byId} facets={null} onAdd={() => {}} onView={() => {}} />
        </Profiler>
      );
    }
    renderWithProviders(<Till />);
    await screen.findByRole('dialog', { name: 'Search items (3)' }, { timeout: 5000 });
    const box = screen.getByLabelText('Search by name, barcode or price');
    const list = screen.getByRole('listbox');
    for (const [typed, count] of [['t', 1], ['te', 1], ['tea', 1]] as const) {
      const before = commits;
      await userEvent.type(box, typed.slice(-1));
      await vi.waitFor(() => expect(list).toHaveAttribute('data-query', typed));
      expect(screen.getAllByRole('option')).toHaveLength(count);
      // The key itself renders nothing (the box is the browser's); the answer renders once.
      expect(commits - before, typed).toBe(1);
    }
    act(() => setOpen(false));
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => setOpen(true));
    const again = await screen.findByLabelText('Search by name, barcode or price');
    expect(again).toHaveValue('tea');
    await vi.waitFor(() => expect(screen.getByRole('listbox')).toHaveAttribute('data-query', 'tea'));
    expect(screen.getByRole('option', { name: /Organic Tea/ })).toBeInTheDocument();
  });

  it('has its settings: close after adding, case-sensitive, threshold 0 to 1 in steps of 0.1', async () => {
    renderWithProviders(<ItemSearchDialog open onClose={() => {}} source={listSource(products)} version={3} byId={byId} facets={null} onAdd={() => {}} onView={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Search settings' }));
    const settings = await screen.findByRole('dialog', { name: 'Search settings' });
    await userEvent.click(within(settings).getByRole('switch', { name: 'Case-sensitive search' }));
    expect(searchSettingsStore.get().isCaseSensitive).toBe(true);
    await userEvent.click(within(settings).getByRole('switch', { name: 'Close the search window after adding an item' }));
    expect(searchSettingsStore.get().closeAfterAdd).toBe(false);
    const slider = within(settings).getByRole('slider');
    expect(slider).toHaveAttribute('min', '0');
    expect(slider).toHaveAttribute('max', '1');
    expect(slider).toHaveAttribute('step', '0.1');
    expect(slider).toHaveValue('0.2');
  });
});

describe('ItemSearchDialog in the store currency (issue 19)', () => {
  it('a KWD store lists prices with their fils, the price rule and the base struck through', async () => {
    storeWith('KWD');
    const kwd: Product[] = [
      { id: 1, name: 'Saffron 1g', barcode: '1', basePrice: 1.275 },
      { id: 2, name: 'Dates 1kg', barcode: '2', basePrice: 2.5, prices: [{ month, basePrice: 2.125 }] },
    ];
    renderWithProviders(<ItemSearchDialog open onClose={() => {}} source={listSource(kwd)} version={11} byId={new Map(kwd.map((p) => [p.id, p]))} facets={null} onAdd={() => {}} onView={() => {}} />);
    await screen.findByRole('dialog', { name: 'Search items (2)' }, { timeout: 5000 });
    expect(screen.getByRole('option', { name: /Saffron/ }).textContent?.replace(/\s/g, ' ')).toContain('KWD 1.275');
    const dates = screen.getByRole('option', { name: /Dates/ });
    expect(within(dates).getByTestId('base-price').textContent?.replace(/\s/g, ' ')).toBe('KWD 2.500');
    expect(dates.textContent?.replace(/\s/g, ' ')).toContain('KWD 2.125');
  });

  it('a JPY store lists whole yen', async () => {
    storeWith('JPY');
    const jpy: Product[] = [{ id: 1, name: 'Green Tea', barcode: '1', basePrice: 1075 }];
    renderWithProviders(<ItemSearchDialog open onClose={() => {}} source={listSource(jpy)} version={12} byId={new Map(jpy.map((p) => [p.id, p]))} facets={null} onAdd={() => {}} onView={() => {}} />);
    await screen.findByRole('dialog', { name: 'Search items (1)' }, { timeout: 5000 });
    expect(screen.getByRole('option', { name: /Green Tea/ })).toHaveTextContent(/¥1,075$/);
  });
});

describe('VariantChooser', () => {
  const shirt: Product = {
    id: 5, name: 'T-Shirt', basePrice: 20,
    variants: [{ id: 51, attributeValue: 'S-Black', barcode: '51', price: null }, { id: 52, attributeValue: 'M-Black', barcode: '52', price: 22 }],
  };
  it('moves with the arrows (wrapping) and picks with enter or a click', async () => {
    const onPick = vi.fn();
    renderWithProviders(<VariantChooser product={shirt} onPick={onPick} onClose={() => {}} />);
    const list = screen.getByRole('listbox', { name: 'Variants' });
    expect(list).toHaveFocus();
    await userEvent.keyboard('{ArrowUp}');
    expect(screen.getByRole('option', { name: /M-Black/ })).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenLastCalledWith(shirt.variants![0]);
    expect(screen.getByRole('option', { name: /M-Black/ })).toHaveTextContent('$22.0');
    await userEvent.click(screen.getByRole('option', { name: /M-Black/ }));
    expect(onPick).toHaveBeenLastCalledWith(shirt.variants![1]);
  });
});

describe('ItemDetailDialog', () => {
  const product: Product = {
    id: 7, name: 'Classic Soap', barcode: '777', basePrice: 5, cost: 3, saleUnit: 'pcs', purchaseUnit: 'box',
    taxes: [{ id: 1, name: 'VAT', rate: 16 }], department: { id: 1, name: 'Household' }, brands: [{ id: 1, name: 'Acme' }],
    categories: [{ id: 2, name: 'Cleaning' }], suppliers: [{ id: 3, name: 'CleanCo' }], terminals: [{ id: 1, code: 'T1' }],
    stores: [{ id: 1, store: { id: 1, name: 'Main Street' }, quantity: 12, location: 'Aisle 3', reOrderLevel: 5 }],
    variants: [{ id: 71, attributeValue: 'Lemon', barcode: '7771', price: null, quantity: 4 }],
  };
  it('has the five tabs with their columns', async () => {
    fetchMock.mockImplementation((url) => {
      const u = String(url);
      if (u.startsWith('/api/order_products')) return Promise.resolve(jsonResponse({ 'hydra:member': [{ id: 1, order: '/api/orders/9', variant: null, createdAt: '2024-01-02T10:00:00Z', quantity: 2, price: 5, discount: 0, taxesTotal: 1.6 }], 'hydra:totalItems': 1 }));
      if (u.startsWith('/api/orders/9')) return Promise.resolve(jsonResponse({ id: 9, orderId: 31 }));
      return Promise.resolve(jsonResponse({ 'hydra:member': [{ id: 1, purchase: { '@id': '/api/purchases/4', purchaseNumber: 'P-4' }, quantityRequested: 10, quantity: 8, purchasePrice: 3, createdAt: '2024-01-01T10:00:00Z' }], 'hydra:totalItems': 1 }));
    });
    renderWithProviders(<ItemDetailDialog product={product} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Classic Soap' });
    expect(within(dialog).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Item Information', 'Stores', 'Variants', 'Sales', 'Purchases']);
    expect(dialog).toHaveTextContent('$5.00 / pcs');
    expect(dialog).toHaveTextContent('$3.00 / box');
    expect(dialog).toHaveTextContent('VAT 16%');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Stores' }));
    expect(dialog).toHaveTextContent('Main Street');
    expect(dialog).toHaveTextContent('Aisle 3');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Variants' }));
    expect(dialog).toHaveTextContent('Lemon');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Sales' }));
    expect(await within(dialog).findByText('Order# 31')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('$11.6');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Purchases' }));
    expect(await within(dialog).findByText('P-4')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Quantity Requested');
    expect(dialog).toHaveTextContent('$24.0');
  });

  it('in a KWD store: prices, sales and purchases keep the fils (issue 19)', async () => {
    storeWith('KWD');
    fetchMock.mockImplementation((url) => {
      const u = String(url);
      if (u.startsWith('/api/order_products')) return Promise.resolve(jsonResponse({ 'hydra:member': [{ id: 1, order: { orderId: 31 }, variant: null, createdAt: '2024-01-02T10:00:00Z', quantity: 2, price: 1.275, discount: 0.125, taxesTotal: 0.195 }], 'hydra:totalItems': 1 }));
      return Promise.resolve(jsonResponse({ 'hydra:member': [{ id: 1, purchase: { purchaseNumber: 'P-4' }, quantityRequested: 10, quantity: 8, purchasePrice: 0.455, createdAt: '2024-01-01T10:00:00Z' }], 'hydra:totalItems': 1 }));
    });
    const kwd: Product = { ...product, basePrice: 1.275, cost: 0.455, variants: [{ id: 71, attributeValue: 'Lemon', barcode: '7771', price: 1.375, quantity: 4 }] };
    renderWithProviders(<ItemDetailDialog product={kwd} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Classic Soap' });
    const text = () => (dialog.textContent ?? '').replace(/\s/g, ' ');
    expect(text()).toContain('KWD 1.275 / pcs');
    expect(text()).toContain('KWD 0.455 / box');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Variants' }));
    expect(text()).toContain('KWD 1.375');
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Sales' }));
    expect(await within(dialog).findByText('Order# 31')).toBeInTheDocument();
    expect(text()).toContain('KWD 2.620'); // 2 x 1.275 - 0.125 + 0.195
    await userEvent.click(within(dialog).getByRole('tab', { name: 'Purchases' }));
    expect(await within(dialog).findByText('P-4')).toBeInTheDocument();
    expect(text()).toContain('KWD 3.640'); // 8 x 0.455
  });
});
