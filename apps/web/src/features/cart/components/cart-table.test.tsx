import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Product } from '@/features/catalogue-cache/types';
import { addToCart, emptyCart, setLineDiscount } from '@/features/cart/cart-logic';
import { cartStore } from '@/features/cart/cart-store';
import { endSession, startSession } from '@/lib/session';
import { CartTable } from './cart-table';
import { CartToolbar } from './cart-toolbar';
import { CartTotals } from './cart-totals';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const vat = { id: 1, name: 'VAT', rate: 16 };
const milk: Product = { id: 1, name: 'Milk', basePrice: 2.5 };
const soap: Product = { id: 2, name: 'Soap', basePrice: 10, taxes: [vat], manageInventory: true };
const shirt: Product = { id: 3, name: 'Shirt', basePrice: 20, variants: [{ id: 31, attributeValue: 'S-Black', price: null }] };

const fetchMock = vi.fn<typeof fetch>();

function fill(...items: Array<[Product, number, boolean?]>) {
  let s = emptyCart();
  for (const [product, qty, variant] of items) s = addToCart(s, { product, qtyMilli: qty, variant: variant ? product.variants![0] : null }).state;
  cartStore.set(s);
}

const renderCart = () =>
  renderWithProviders(
    <>
      <CartToolbar />
      <CartTable storeId={1} />
      <CartTotals />
    </>,
  );

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  cartStore.set(emptyCart());
});
afterEach(() => vi.unstubAllGlobals());

describe('CartTable', () => {
  it('shows the spec columns, the variant sub-label and a footer with count, quantity and total', () => {
    fill([milk, 2000], [shirt, 1000, true]);
    renderCart();
    const table = screen.getByRole('table', { name: 'Cart' });
    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(expect.arrayContaining(['Item', 'Stock', 'QTY', 'Disc.', 'Taxes', 'Rate', 'Total']));
    expect(within(table).getByText('S-Black')).toBeInTheDocument();
    expect(screen.getByTestId('cart-count')).toHaveTextContent('2 items');
    expect(screen.getByTestId('cart-quantity')).toHaveTextContent('3');
    expect(screen.getByTestId('cart-footer-total')).toHaveTextContent('$25.0');
    // The rate is shown but cannot be changed.
    expect(screen.getByLabelText('Rate of Milk')).toBeDisabled();
    expect(screen.getByLabelText('Rate of Milk')).toHaveValue('2.50');
  });

  it('select-all is clear, partial, then all', async () => {
    fill([milk, 1000], [soap, 1000]);
    fetchMock.mockResolvedValue(jsonResponse({ quantity: 5 }));
    renderCart();
    const all = screen.getByLabelText('Select all') as HTMLInputElement;
    expect(all.checked).toBe(false);
    await userEvent.click(screen.getByLabelText('Select Milk'));
    expect(all.indeterminate).toBe(true);
    expect(all).toHaveAttribute('aria-checked', 'mixed');
    await userEvent.click(all);
    expect(all.checked).toBe(true);
    expect(all.indeterminate).toBe(false);
    expect((screen.getByLabelText('Select Soap') as HTMLInputElement).checked).toBe(true);
  });

  it('loads stock only for items that manage inventory, with a spinner, and flags stock at or below zero', async () => {
    let resolve!: (r: Response) => void;
    fetchMock.mockReturnValue(new Promise((r) => { resolve = r; }));
    fill([milk, 1000], [soap, 1000]);
    renderCart();
    const soapRow = screen.getAllByTestId('cart-row')[1];
    expect(within(soapRow).getByRole('status')).toHaveTextContent('Loading stock');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/admin/product/quantities?itemId=2&store=1');
    resolve(jsonResponse({ quantity: 0 }));
    const stock = await within(soapRow).findByTestId('stock');
    expect(stock).toHaveTextContent('0');
    expect(stock).toHaveClass('stock-warning');
    expect(within(screen.getAllByTestId('cart-row')[0]).queryByTestId('stock')).toBeNull();
  });

  it("refuses a quantity below one ('Quantity cannot be less then 1') and keeps the old one", async () => {
    fill([milk, 2000]);
    renderCart();
    const qty = screen.getByLabelText('Quantity of Milk');
    await userEvent.clear(qty);
    await userEvent.type(qty, '0{Enter}');
    expect(await screen.findByText('Quantity cannot be less then 1')).toBeInTheDocument();
    expect(cartStore.get().added[0].quantity).toBe(2000);
    expect(qty).toHaveValue('2');
  });

  it('caps an inline discount at price x quantity', async () => {
    fill([milk, 2000]);
    renderCart();
    const disc = screen.getByLabelText('Discount of Milk');
    await userEvent.clear(disc);
    await userEvent.type(disc, '99{Enter}');
    expect(cartStore.get().added[0].discount).toBe(500);
    expect(disc).toHaveValue('5.00');
  });

  it('KWD: an inline discount typed to the fils is kept, shown and priced to the fils (issue 19)', async () => {
    act(() => startSession({ id: 1, username: 'c', displayName: 'C', roles: ['ROLE_USER'], stores: [{ id: 1, name: 'Shop', terminals: [], currency: 'KWD', locale: 'en-US' }] }, { restore: false }));
    try {
      fill([{ id: 5, name: 'Dates', basePrice: '1.275' }, 1000]);
      renderCart();
      const disc = screen.getByLabelText('Discount of Dates');
      await userEvent.clear(disc);
      await userEvent.type(disc, '0.125{Enter}');
      expect(cartStore.get().added[0].discountExact).toBe('0.125');
      expect(disc).toHaveValue('0.125'); // hundredths would show 0.130
      expect(screen.getByTestId('cart-footer-total')).toHaveTextContent(/KWD\s1\.150$/);
    } finally {
      act(() => endSession());
    }
  });

  it("asks 'Remove {item}?' before removing a line", async () => {
    fill([milk, 1000], [soap, 1000]);
    fetchMock.mockResolvedValue(jsonResponse({ quantity: 5 }));
    renderCart();
    await userEvent.click(screen.getByLabelText('Remove Milk'));
    const dialog = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(dialog).toHaveTextContent('Remove Milk?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'No, wait' }));
    expect(cartStore.get().added).toHaveLength(2);
    await userEvent.click(screen.getByLabelText('Remove Milk'));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(cartStore.get().added.map((l) => l.item.name)).toEqual(['Soap']));
  });

  it('says the discount goes too before removing a discounted line, from the row and from the toolbar (issue 23.3)', async () => {
    fill([milk, 1000], [soap, 1000]);
    cartStore.set(setLineDiscount(cartStore.get(), 1, 150));
    fetchMock.mockResolvedValue(jsonResponse({ quantity: 5 }));
    renderCart();
    await userEvent.click(screen.getByLabelText('Remove Soap'));
    let dialog = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(dialog).toHaveTextContent('Remove Soap? Its discount is lost with it.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'No, wait' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Confirmation' })).toBeNull());
    expect(cartStore.get().added).toHaveLength(2);
    expect(cartStore.get().added[1].discount).toBe(150);
    // The toolbar's Remove acts on the last line (the discounted one): same question, and Yes removes it.
    await userEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Remove' }));
    dialog = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(dialog).toHaveTextContent('Its discount is lost with it.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(cartStore.get().added.map((l) => l.item.name)).toEqual(['Milk']));
  });
});

describe('CartToolbar', () => {
  it('is disabled while the cart is empty', () => {
    renderCart();
    for (const name of ['Remove', 'Duplicate', 'QTY', 'Disc.', 'Toggle tax']) {
      expect(within(screen.getByRole('toolbar')).getByRole('button', { name })).toBeDisabled();
    }
  });

  it('sets the quantity of the last line (default 1 in the dialog) and a percent discount', async () => {
    fill([milk, 1000], [soap, 1000]);
    fetchMock.mockResolvedValue(jsonResponse({ quantity: 5 }));
    renderCart();
    const bar = screen.getByRole('toolbar');
    await userEvent.click(within(bar).getByRole('button', { name: 'QTY' }));
    const qtyDialog = await screen.findByRole('dialog', { name: 'Update quantity' });
    expect(within(qtyDialog).getByLabelText('Quantity')).toHaveValue('1');
    await userEvent.clear(within(qtyDialog).getByLabelText('Quantity'));
    await userEvent.type(within(qtyDialog).getByLabelText('Quantity'), '3');
    await userEvent.click(within(qtyDialog).getByRole('button', { name: 'Update' }));
    expect(cartStore.get().added.map((l) => l.quantity)).toEqual([1000, 3000]);

    await userEvent.click(within(bar).getByRole('button', { name: 'Disc.' }));
    const discDialog = await screen.findByRole('dialog', { name: 'Update discount' });
    await userEvent.selectOptions(within(discDialog).getByLabelText('Discount type'), 'percent');
    await userEvent.click(within(discDialog).getByRole('button', { name: 'Update' }));
    expect(within(discDialog).getByText('This value should not be blank.')).toBeInTheDocument();
    await userEvent.type(within(discDialog).getByLabelText(/^Discount/, { selector: 'input' }), '10');
    await userEvent.click(within(discDialog).getByRole('button', { name: 'Update' }));
    expect(cartStore.get().added[1].discount).toBe(300); // 10 % of 3 x 10.00
  });

  it('duplicates the checked lines and toggles their tax', async () => {
    fill([soap, 1000]);
    fetchMock.mockResolvedValue(jsonResponse({ quantity: 5 }));
    renderCart();
    await userEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Duplicate' }));
    expect(cartStore.get().added).toHaveLength(2);
    await userEvent.click(within(screen.getByRole('toolbar')).getByRole('button', { name: 'Toggle tax' }));
    expect(cartStore.get().added.map((l) => l.taxIncluded)).toEqual([true, false]);
    expect(screen.getByTestId('sub-total')).toHaveTextContent('$21.6'); // 11.60 + 10.00
  });
});

describe('CartTotals', () => {
  it('asks before detaching the customer', async () => {
    fill([milk, 1000]);
    cartStore.set({ ...cartStore.get(), customer: { id: 9, name: 'Aisha Khan', outstanding: 10, openingBalance: 5 } });
    renderCart();
    const totals = screen.getByRole('table', { name: 'Totals' });
    expect(totals).toHaveTextContent('Aisha Khan');
    expect(totals).toHaveTextContent('$15.0');
    await userEvent.click(within(totals).getByLabelText('Detach customer'));
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(cartStore.get().customer).toBeNull());
  });
});
