import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { loadOrder } from '@/features/cart/load-order';
import { canRefund, refundLines } from '@/features/orders/lib/refund-lines';
import { RefundDialog } from './refund-dialog';

vi.setConfig({ testTimeout: 20_000 });

const order: Order = {
  id: 42, orderId: 7, createdAt: '2024-03-05T14:07:00', status: 'Partially Returned',
  items: [
    { product: { id: 1, name: 'Soap', basePrice: 10 }, quantity: 3, price: 10, discount: 3, taxesTotal: 0, taxes: [], returnedQuantity: 1, refundableQuantity: 2 },
    { product: { id: 2, name: 'Tea', basePrice: 5 }, quantity: 2, price: 5, discount: 0, taxesTotal: 0, taxes: [], returnedQuantity: 2, refundableQuantity: 0 },
    { product: { id: 3, name: 'Rice', basePrice: 4 }, quantity: 1, price: 4, discount: 0, taxesTotal: 0, taxes: [] },
  ],
  payments: [{ total: 34, received: 34, due: 0, type: { id: 2, name: 'Card', type: 'credit card' } }],
};

describe('refund lines', () => {
  it('takes refundableQuantity, else sold less returned, else sold', () => {
    expect(refundLines(order).map((l) => [l.name, l.soldMilli, l.refundableMilli])).toEqual([['Soap', 3000, 2000], ['Tea', 2000, 0], ['Rice', 1000, 1000]]);
    const older = { ...order, items: [{ ...order.items[0], refundableQuantity: undefined }] };
    expect(refundLines(older)[0].refundableMilli).toBe(2000);
    const oldest = { ...order, items: [{ ...order.items[0], refundableQuantity: undefined, returnedQuantity: undefined }] };
    expect(refundLines(oldest)[0].refundableMilli).toBe(3000);
  });

  it('a partly returned sale is refundable until nothing is left; a return never', () => {
    expect(canRefund(order)).toBe(true);
    expect(canRefund({ ...order, status: 'Returned' })).toBe(false);
    expect(canRefund({ ...order, returnedFrom: { id: 1 } })).toBe(false);
    expect(canRefund({ ...order, items: [order.items[1]] })).toBe(false);
  });

  it('loads only the picked lines, negated, with their share of the line discount', () => {
    const cart = loadOrder(order, 'refund', {}, [{ index: 0, qtyMilli: 1000 }]);
    expect(cart.added.map((l) => [l.item.name, l.quantity, l.discount])).toEqual([['Soap', -1000, -100]]);
    expect(cart.refundingFrom).toBe(42);
    expect(cart.refundPayments).toEqual(order.payments);
  });
});

describe('RefundDialog', () => {
  it('lists what is still refundable; the cashier picks lines and quantities', async () => {
    const onConfirm = vi.fn();
    renderWithProviders(<RefundDialog order={order} onClose={() => {}} onConfirm={onConfirm} />);
    const dialog = screen.getByRole('dialog', { name: 'Refund Order# 7' });
    expect(within(screen.getByTestId('refund-line-0')).getAllByRole('cell').map((c) => c.textContent).slice(1, 4)).toEqual(['Soap', '3', '2']);
    expect(screen.getByRole('checkbox', { name: 'Refund Tea' })).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Refund Rice' })); // untick
    const soapQty = screen.getByRole('textbox', { name: 'Refund quantity of Soap' });
    await userEvent.clear(soapQty);
    await userEvent.type(soapQty, '3');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Soap: refund between 0 and 2');
    expect(screen.getByRole('button', { name: 'Refund selected' })).toBeDisabled();
    await userEvent.clear(soapQty);
    await userEvent.type(soapQty, '1');
    await userEvent.click(screen.getByRole('button', { name: 'Refund selected' }));
    expect(onConfirm).toHaveBeenCalledWith(order, [{ index: 0, qtyMilli: 1000 }]);
  });
});
