import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { receiptFigures } from '@/features/receipt/receipt-figures';
import { printReceipt } from '@/features/receipt/print-receipt';
import { ReceiptPreviewDialog } from './receipt-preview-dialog';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const order: Order = {
  id: 42, orderId: 7, createdAt: '2024-03-05T14:07:00', status: 'Completed',
  items: [{ product: { id: 1, name: 'Soap', basePrice: 10 }, quantity: 3, price: 10, discount: 1, taxesTotal: 4.8, taxes: [] }],
  discount: { amount: 2 }, tax: { amount: 1.4 }, adjustment: 0.8,
  payments: [{ total: 34, received: 40, due: 6, type: { id: 1, name: 'Cash', type: 'cash' } }],
  customer: { id: 4, name: 'Carla Diaz', email: 'carla@example.com' },
  store: { name: 'Main Street' }, terminal: { code: 'T1' }, user: { displayName: 'Cashier' },
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('receipt figures', () => {
  it('line total = price x qty - discount + taxes; net = items - discount + tax; change = sum of due', () => {
    const f = receiptFigures(order);
    expect(f.lines[0].totalCents).toBe(3380);
    expect(f.itemsTotalCents).toBe(3380);
    expect(f.netTotalCents).toBe(3320);
    expect(f.grandTotalCents).toBe(3400);
    expect(f.changeCents).toBe(600);
  });
});

describe('ReceiptPreviewDialog', () => {
  it("a copy is 'Receipt (copy)', 3.5 inch, with the shop name, 2-decimal amounts, Cash tendered and Change", () => {
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[{ id: 1, name: 'shop_name', value: 'Demo Shop', type: 'sale_receipt' }]} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Receipt (copy)' });
    expect(dialog).toHaveTextContent('Demo Shop');
    expect(dialog).toHaveTextContent('Order# 7');
    expect(dialog).toHaveTextContent('05-03-2024 02:07 PM');
    expect(dialog).toHaveTextContent('Customer: Carla Diaz');
    expect(dialog).toHaveTextContent('Net Total$33.20');
    expect(dialog).toHaveTextContent('Cash tendered$40.00');
    expect(dialog).toHaveTextContent('Change$6.00');
    expect(dialog).not.toHaveTextContent('Duplicate');
    expect(dialog).toHaveTextContent('Thank you for your visit');
  });

  it("right after a sale (auto-print) it is titled 'Receipt'", () => {
    vi.stubGlobal('print', () => {});
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Receipt' })).toBeInTheDocument();
  });

  it('a KWD order prints three decimals, exactly as stored (1.275 x 2 + 0.210 tax = 2.760)', () => {
    const kwd: Order = {
      ...order,
      store: { name: 'Kuwait City', currency: 'KWD', locale: 'en-US' },
      items: [{ product: { id: 1, name: 'Dates', basePrice: 1.275 }, quantity: 2, price: 1.275, discount: 0, taxesTotal: 0.21, taxes: [] }],
      discount: null, tax: null, adjustment: 0, rounding: 0,
      payments: [{ total: 2.76, received: 3, due: 0.24, tendered: 3, change: 0.24, type: { id: 1, name: 'Cash', type: 'cash' } }],
      taxBreakdown: [{ rate: 8.25, name: 'VAT', net: 2.55, tax: 0.21, gross: 2.76 }],
    };
    expect(receiptFigures(kwd, 3).netTotalCents).toBe(2760);
    renderWithProviders(<ReceiptPreviewDialog order={kwd} settings={[]} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Receipt (copy)' });
    const text = (dialog.textContent ?? '').replace(/\s/g, ' ');
    expect(text).toContain('1.275');
    expect(text).toContain('Net TotalKWD 2.760');
    expect(screen.getByTestId('receipt-tendered').textContent?.replace(/\s/g, ' ')).toBe('KWD 3.000');
    expect(screen.getByTestId('receipt-change').textContent?.replace(/\s/g, ' ')).toBe('KWD 0.240');
    expect(screen.getByTestId('receipt-tax-breakdown').textContent?.replace(/\s/g, ' ')).toContain('VAT 8.25%KWD 2.550KWD 0.210KWD 2.760');
  });

  it('prints the server\'s tendered, change, rounding and tax breakdown, in the order\'s store currency', () => {
    const jpy: Order = {
      ...order,
      store: { name: 'Tokyo', currency: 'JPY', locale: 'ja-JP' },
      items: [{ product: { id: 1, name: 'Tea', basePrice: 1000 }, quantity: 1, price: 1000, discount: 0, taxesTotal: 100, taxes: [] }],
      discount: null, tax: null, adjustment: 0, rounding: 0,
      payments: [
        { total: 600, received: 600, due: 0, type: { id: 2, name: 'Card', type: 'credit card' } },
        { total: 500, received: 1000, due: 500, tendered: 1000, change: 500, type: { id: 1, name: 'Cash', type: 'cash' } },
      ],
      taxBreakdown: [{ rate: 10, name: 'VAT', net: 1000, tax: 100, gross: 1100 }],
    };
    renderWithProviders(<ReceiptPreviewDialog order={jpy} settings={[]} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Receipt (copy)' });
    expect(dialog).toHaveTextContent('Net Total￥1,100');
    expect(dialog).toHaveTextContent('Card￥600');
    expect(screen.getByTestId('receipt-tendered')).toHaveTextContent('￥1,000');
    expect(screen.getByTestId('receipt-change')).toHaveTextContent('￥500');
    expect(screen.queryByTestId('receipt-rounding')).toBeNull();
    expect(screen.getByTestId('receipt-tax-breakdown')).toHaveTextContent('VAT 10%￥1,000￥100￥1,100');
  });

  it('prints the cash rounding line when the order carries one', () => {
    renderWithProviders(<ReceiptPreviewDialog order={{ ...order, rounding: -0.02 }} settings={[]} onClose={() => {}} />);
    expect(screen.getByTestId('receipt-rounding')).toHaveTextContent('-$0.02');
  });

  it("e-mails the receipt to the customer's address through the server, and shows the server's refusal", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ message: 'sent', to: ['carla@example.com'] }));
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} onClose={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'E-mail' }));
    const to = screen.getByLabelText('E-mail to (one address)');
    expect(to).toHaveValue('carla@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Receipt sent to carla@example.com')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0][0]).toBe('/api/admin/order/42/email');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ to: 'carla@example.com' });

    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'VALIDATION_FAILED', message: 'E-mail is not configured on this server', errorMessage: 'E-mail is not configured on this server', violations: [] }, 422));
    await userEvent.click(screen.getByRole('button', { name: 'E-mail' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('E-mail is not configured on this server')).toBeInTheDocument();
  });

  it('prints through a hidden frame that is removed 100 ms after the print call', async () => {
    vi.useFakeTimers();
    try {
      const node = document.createElement('div');
      node.className = 'receipt';
      node.textContent = 'Thank you for your visit';
      const print = vi.fn();
      const realCreate = document.createElement.bind(document);
      const spy = vi.spyOn(document, 'createElement').mockImplementation((tag: string) => {
        const el = realCreate(tag);
        if (tag === 'iframe') queueMicrotask(() => Object.defineProperty((el as HTMLIFrameElement).contentWindow!, 'print', { value: print }));
        return el;
      });
      printReceipt(node);
      spy.mockRestore();
      const frame = document.querySelector('iframe');
      expect(frame).not.toBeNull();
      expect(frame!.contentDocument!.body.innerHTML).toContain('Thank you for your visit');
      expect(frame!.contentDocument!.head.innerHTML).toContain('3.5in');
      vi.advanceTimersByTime(100);
      expect(document.querySelector('iframe')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
