import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { catalogueStore, setCatalogue } from '@/features/catalogue-cache/catalogue-store';
import { ProductTable } from '@/features/catalogue-cache/product-table';
import { DEFAULT_PREFERENCES, preferencesStore } from '@/features/sale/preferences-store';
import { FacetFilters } from './facet-filters';
import { GeneralSettings } from './general-settings';
import { ModeSelectorDialog } from './mode-selector-dialog';
import { SearchBar } from './search-bar';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  preferencesStore.set(DEFAULT_PREFERENCES);
  setCatalogue({
    products: ProductTable.empty(),
    taxes: [{ id: 1, name: 'VAT', rate: 16 }],
    discounts: [{ id: 1, name: 'Discount 5%', rate: 5, rateType: 'percent', scope: 'exact' }, { id: 3, name: 'Open', scope: 'open' }],
    paymentTypes: [{ id: 1, name: 'Cash', type: 'cash' }],
    devices: [],
    settings: [],
  });
});

describe('GeneralSettings', () => {
  it('has Refresh Browser Cache, the touch and customer toggles, and clearable defaults', async () => {
    renderWithProviders(<GeneralSettings />);
    expect(screen.getByRole('button', { name: 'Refresh Browser Cache' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('switch', { name: 'Enable Touch support (experimental)' }));
    expect(preferencesStore.get().enableTouch).toBe(true);
    // Requiring a name only exists while the customer input is shown; hiding it drops the requirement.
    await userEvent.click(screen.getByRole('switch', { name: 'Require customer name with every order' }));
    expect(preferencesStore.get().requireCustomerBox).toBe(true);
    await userEvent.click(screen.getByRole('switch', { name: 'Show customer input' }));
    expect(preferencesStore.get()).toMatchObject({ customerBox: false, requireCustomerBox: false });
    expect(screen.queryByRole('switch', { name: 'Require customer name with every order' })).toBeNull();

    await userEvent.selectOptions(screen.getByLabelText('Default tax'), 'VAT 16%');
    expect(preferencesStore.get().defaultTax?.name).toBe('VAT');
    await userEvent.selectOptions(screen.getByLabelText('Default tax'), 'None');
    expect(preferencesStore.get().defaultTax).toBeNull();
    expect(within(screen.getByLabelText('Default discount')).queryByText('Open')).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText('Default payment type'), 'Cash');
    expect(preferencesStore.get().defaultPaymentType?.name).toBe('Cash');
    // What a reload reads back: the choices above reach localStorage (writes are coalesced), not only memory.
    await vi.waitFor(() => expect(JSON.parse(localStorage.getItem('pos-default-data') ?? 'null')).toMatchObject({ customerBox: false, requireCustomerBox: false, defaultTax: null, defaultPaymentType: { name: 'Cash' } }));
    expect(catalogueStore.get().status).toBe('ready');
  });
});

describe('ModeSelectorDialog', () => {
  it("'Select a mode' offers Pos, Order only and Payment only", async () => {
    const onSelect = vi.fn();
    renderWithProviders(<ModeSelectorDialog open onClose={() => {}} mode="pos" onSelect={onSelect} />);
    const dialog = screen.getByRole('dialog', { name: 'Select a mode' });
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(expect.arrayContaining(['Pos', 'Order only', 'Payment only']));
    expect(within(dialog).getByRole('button', { name: 'Pos' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Payment only' }));
    expect(onSelect).toHaveBeenCalledWith('payment');
  });
});

describe('FacetFilters', () => {
  it('shows brand, category and department buttons with counts and toggles them', async () => {
    const onChange = vi.fn();
    renderWithProviders(
      <FacetFilters
        facets={{ brands: [{ id: 1, name: 'Acme', count: 64 }], categories: [{ id: 2, name: 'Food', count: 100 }], departments: [{ id: 3, name: 'Grocery', count: 100 }] }}
        selection={{ brands: [], categories: [], departments: [] }}
        onChange={onChange}
      />,
    );
    expect(screen.getByRole('group', { name: 'Brands' })).toHaveTextContent('Acme 64');
    await userEvent.click(screen.getByRole('button', { name: 'Food 100' }));
    expect(onChange).toHaveBeenCalledWith({ brands: [], categories: [2], departments: [] });
  });
});

describe('SearchBar', () => {
  it('scans on Enter with the quantity box beside it (default 1); Refund and Re Order use the typed number', async () => {
    const props = { onScan: vi.fn(), onRefund: vi.fn(), onReorder: vi.fn(), onOpenSearch: vi.fn(), onQueryChange: vi.fn(), onQuantityChange: vi.fn() };
    const { rerender } = renderWithProviders(<SearchBar query="" quantity="1" {...props} />);
    expect(screen.getByLabelText(/^Quantity/)).toHaveValue('1');
    expect(screen.getByRole('button', { name: 'Add' })).toBeDisabled();
    rerender(<SearchBar query="12" quantity="1" {...props} />);
    await userEvent.type(screen.getByTestId('scan-input'), '{Enter}');
    expect(props.onScan).toHaveBeenCalledWith('12');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(props.onRefund).toHaveBeenCalledWith('12');
    await userEvent.click(screen.getByRole('button', { name: 'Re Order' }));
    expect(props.onReorder).toHaveBeenCalledWith('12');
  });
});
