import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { orderNumberOf } from '@/features/orders/api/find-order';
import { OrderDetailDialog } from './order-detail-dialog';
import { OrderLookupDialog } from './order-lookup-dialog';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const order: Order = {
  id: 42, orderId: 7, createdAt: '2024-03-05T14:07:00', status: 'Completed',
  items: [
    { product: { id: 1, name: 'Soap', basePrice: 10 }, quantity: 2, price: 10, discount: 1, taxesTotal: 3.2, taxes: [{ id: 1, name: 'VAT', rate: 16 }] },
    { product: { id: 2, name: 'Shirt', basePrice: 20 }, variant: { id: 3, attributeValue: 'S-Black' }, quantity: 1, price: 20, discount: 0, taxesTotal: 0, taxes: [] },
  ],
  discount: { amount: 2, rateType: 'fixed', type: { id: 2, name: 'Fixed 2' } },
  tax: { amount: 1.5, rate: 5, type: { id: 2, name: 'GST', rate: 5 } },
  adjustment: -0.7,
  payments: [{ total: 40, received: 50, due: 10, type: { id: 1, name: 'Cash', type: 'cash' } }],
  notes: 'gift wrap',
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('OrderLookupDialog', () => {
  it("reads 'Finding...' while busy, closes on a hit", async () => {
    let resolve!: (r: Response) => void;
    fetchMock.mockImplementation((url) => (String(url).includes('On+Hold') || String(url).includes('On%20Hold')
      ? Promise.resolve(jsonResponse({ 'hydra:member': [] }))
      : new Promise((r) => { resolve = r; })));
    const onFound = vi.fn();
    const onClose = vi.fn();
    renderWithProviders(<OrderLookupDialog open onClose={onClose} onFound={onFound} storeId={1} />);
    await userEvent.type(screen.getByLabelText('Order number'), 'Order# 7{Enter}');
    expect(screen.getByRole('button', { name: 'Finding...' })).toBeDisabled();
    resolve(jsonResponse({ 'hydra:member': [order] }));
    await waitFor(() => expect(onFound).toHaveBeenCalledWith(order));
    expect(onClose).toHaveBeenCalled();
    expect(fetchMock.mock.calls.some(([u]) => String(u) === '/api/orders?orderId=7&store.id=1')).toBe(true);
  });

  it("says 'Order not found' on a miss, and lists the suspended sales", async () => {
    const held: Order = { ...order, id: 50, orderId: null, status: 'On Hold', customer: { id: 9, name: 'Aisha Khan' }, grandTotal: 12 };
    fetchMock.mockImplementation((url) => Promise.resolve(jsonResponse({ 'hydra:member': String(url).includes('status=On') ? [held] : [] })));
    const onFound = vi.fn();
    renderWithProviders(<OrderLookupDialog open onClose={() => {}} onFound={onFound} storeId={1} />);
    await userEvent.type(screen.getByLabelText('Order number'), '999{Enter}');
    expect(await screen.findByText('Order not found')).toBeInTheDocument();
    const region = await screen.findByRole('region', { name: 'Suspended orders' });
    await userEvent.click(await screen.findByRole('button', { name: /Aisha Khan/ }));
    expect(onFound).toHaveBeenCalledWith(held);
    expect(region).toBeInTheDocument();
  });

  it('reads the number out of a scanned code', () => {
    expect(orderNumberOf(' 12 ')).toBe('12');
    expect(orderNumberOf('ORDER:0012')).toBe('0012');
    expect(orderNumberOf('nothing')).toBe('');
  });
});

describe('OrderDetailDialog', () => {
  it("is titled 'Order# {orderId}' with the figure cards, notes and the item table", async () => {
    const onRefund = vi.fn();
    renderWithProviders(<OrderDetailDialog order={order} onClose={() => {}} onRefund={onRefund} onReorder={() => {}} onPrint={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Order# 7' });
    // items 2 x 10 - 1 + 3.2 = 22.2 and 20 -> 42.2; + tax 1.5 - discount 2 - 0.7 = 41.0
    expect(dialog).toHaveTextContent('Items total with tax$42.2');
    expect(dialog).toHaveTextContent('Tax$1.5');
    expect(dialog).toHaveTextContent('Discount$2.0');
    expect(dialog).toHaveTextContent('Adjustment-$0.7');
    expect(dialog).toHaveTextContent('Total$41.0');
    expect(dialog).toHaveTextContent('Payments$40.0');
    expect(dialog).toHaveTextContent('gift wrap');
    expect(dialog).toHaveTextContent('S-Black');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    expect(onRefund).toHaveBeenCalledWith(order);
  });

  it('does not refund a return, and unsuspends a held order', async () => {
    const onUnsuspend = vi.fn();
    const { rerender } = renderWithProviders(<OrderDetailDialog order={{ ...order, returnedFrom: { id: 1, orderId: 1 } }} onClose={() => {}} onRefund={() => {}} />);
    expect(screen.getByRole('button', { name: 'Refund' })).toBeDisabled();
    rerender(<OrderDetailDialog order={{ ...order, status: 'On Hold' }} onClose={() => {}} onUnsuspend={onUnsuspend} />);
    await userEvent.click(screen.getByRole('button', { name: 'Unsuspend' }));
    expect(onUnsuspend).toHaveBeenCalled();
  });
});
