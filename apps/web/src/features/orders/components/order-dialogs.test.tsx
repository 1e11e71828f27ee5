import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
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

  it("a KWD order (its store's currency) keeps the fils in every figure and shows its tax per rate (issue 19)", () => {
    const kwd: Order = {
      id: 43, orderId: 8, createdAt: '2024-03-05T14:07:00Z', status: 'Completed',
      store: { id: 2, name: 'Kuwait City', currency: 'KWD', locale: 'en-US', timeZone: 'Asia/Kuwait' },
      items: [{ product: { id: 1, name: 'Soap', basePrice: 1.275 }, quantity: 2, price: 1.275, discount: 0.125, taxesTotal: 0.195, taxes: [{ id: 1, name: 'VAT', rate: 8.25 }] }],
      adjustment: 0,
      payments: [{ total: 2.62, received: 3, due: 0.38, type: { id: 1, name: 'Cash', type: 'cash' } }],
      taxBreakdown: [{ rate: 8.25, name: 'VAT', net: 2.425, tax: 0.195, gross: 2.62 }],
    };
    renderWithProviders(<OrderDetailDialog order={kwd} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Order# 8' });
    const text = (dialog.textContent ?? '').replace(/\s/g, ' ');
    // 2 x 1.275 - 0.125 + 0.195 = 2.620
    expect(text).toContain('Items total with taxKWD 2.620');
    expect(text).toContain('TotalKWD 2.620');
    expect(text).toContain('PaymentsKWD 2.620');
    const soap = screen.getByRole('row', { name: /Soap/ });
    expect(within(soap).getAllByRole('cell').map((c) => c.textContent?.replace(/\s/g, ' '))).toEqual(['Soap', '2', 'KWD 0.195', 'KWD 0.125', 'KWD 1.275', 'KWD 2.620']);
    // Server's time zone for the order time: 14:07 UTC is 05:07 PM in Kuwait.
    expect(text).toContain('05-03-2024 05:07 PM');
    const breakdown = screen.getByTestId('order-tax-breakdown');
    expect(within(breakdown).getByRole('row', { name: /VAT 8.25%/ }).textContent?.replace(/\s/g, ' ')).toBe('VAT 8.25%KWD 2.425KWD 0.195KWD 2.620');
  });

  it('a JPY order shows whole yen', () => {
    const jpy: Order = {
      id: 44, orderId: 9, createdAt: '2024-03-05T14:07:00Z', status: 'Completed',
      store: { id: 3, name: 'Tokyo', currency: 'JPY', locale: 'en-US' },
      items: [{ product: { id: 1, name: 'Tea', basePrice: 1075 }, quantity: 3, price: 1075, discount: 0, taxesTotal: 323, taxes: [] }],
      payments: [{ total: 3548, received: 4000, due: 452, type: { id: 1, name: 'Cash', type: 'cash' } }],
    };
    renderWithProviders(<OrderDetailDialog order={jpy} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Order# 9' });
    expect(dialog).toHaveTextContent('Items total with tax¥3,548');
    expect(within(screen.getByRole('row', { name: /Tea/ })).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Tea', '3', '¥323', '¥0', '¥1,075', '¥3,548']);
    expect(screen.queryByTestId('order-tax-breakdown')).toBeNull();
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
