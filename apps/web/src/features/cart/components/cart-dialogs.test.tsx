import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { addToCart, emptyCart } from '@/features/cart/cart-logic';
import { cartStore } from '@/features/cart/cart-store';
import { computeCartTotals } from '@/features/cart/cart-totals';
import { DiscountsDialog } from './discounts-dialog';
import { TaxesDialog } from './taxes-dialog';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const taxes = [{ id: 1, name: 'VAT', rate: 16 }, { id: 2, name: 'GST', rate: 5 }];
const discounts = [
  { id: 1, name: 'Discount 5%', rate: 5, rateType: 'percent', scope: 'exact' },
  { id: 2, name: 'Fixed 10', rate: 10, rateType: 'fixed', scope: 'exact' },
  { id: 3, name: 'Open', rate: null, rateType: 'fixed', scope: 'open' },
];

beforeEach(() => {
  cartStore.set(addToCart(emptyCart(), { product: { id: 1, name: 'Soap', basePrice: 100 }, qtyMilli: 1000 }).state);
});

describe('TaxesDialog (ctrl+shift+q)', () => {
  it('offers Clear Tax and one button per tax with its rate', async () => {
    let open = true;
    const { rerender } = renderWithProviders(<TaxesDialog open={open} onClose={() => { open = false; }} taxes={taxes} />);
    expect(screen.getByRole('dialog', { name: 'Taxes' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'GST 5%' }));
    expect(cartStore.get().tax?.name).toBe('GST');
    expect(computeCartTotals(cartStore.get()).orderTaxCents).toBe(500);
    expect(open).toBe(false);
    rerender(<TaxesDialog open onClose={() => {}} taxes={taxes} />);
    await userEvent.click(screen.getByRole('button', { name: 'Clear Tax' }));
    expect(cartStore.get().tax).toBeNull();
  });
});

describe('DiscountsDialog (ctrl+shift+d)', () => {
  it('applies a preset, clears it, and takes an open amount as fixed or percent', async () => {
    renderWithProviders(<DiscountsDialog open onClose={() => {}} discounts={discounts} />);
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull(); // the open one is the form
    await userEvent.click(screen.getByRole('button', { name: 'Fixed 10' }));
    expect(computeCartTotals(cartStore.get()).discountTotalCents).toBe(1000);
    await userEvent.click(screen.getByRole('button', { name: 'Clear Discount' }));
    expect(cartStore.get().discount).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(screen.getByText('This value should not be blank.')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Fixed' })).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByRole('radio', { name: 'Percent' }));
    await userEvent.type(screen.getByLabelText('Amount'), '12.5');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const s = cartStore.get();
    expect(s).toMatchObject({ discountAmount: '12.5', discountRateType: 'percent' });
    expect(s.discount?.name).toBe('Open');
    expect(computeCartTotals(s).discountTotalCents).toBe(1250);
  });
});
