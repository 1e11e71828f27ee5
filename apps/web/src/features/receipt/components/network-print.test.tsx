import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { DEFAULT_PREFERENCES, setPreferences } from '@/features/sale/preferences-store';
import { ReceiptPreviewDialog } from './receipt-preview-dialog';

const print = vi.hoisted(() => vi.fn());
// The browser's print dialog (a hidden frame's window.print) is outside the product: counted here.
vi.mock('@/features/receipt/print-receipt', () => ({ printReceipt: print }));

vi.setConfig({ testTimeout: 20_000 });

const order: Order = {
  id: 42, orderId: 7, createdAt: '2024-03-05T14:07:00', status: 'Completed',
  items: [{ product: { id: 1, name: 'Soap', basePrice: 10 }, quantity: 1, price: 10, discount: 0, taxesTotal: 0, taxes: [] }],
  payments: [{ total: 10, received: 20, due: 10, type: { id: 1, name: 'Cash', type: 'cash' } }],
  store: { name: 'Main Street' },
};
const job = (over: Record<string, unknown> = {}) => ({ id: 5, status: 'printed', attempts: 1, lastError: null, opensDrawer: true, kind: 'receipt', ...over });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  print.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  setPreferences({ ...DEFAULT_PREFERENCES, receiptPrinter: { id: 3, name: 'Counter', ipAddress: '10.0.0.9', port: 9100 } });
});
afterEach(() => {
  setPreferences({ ...DEFAULT_PREFERENCES });
  vi.unstubAllGlobals();
});

const body = (i: number) => JSON.parse(String(fetchMock.mock.calls[i][1]?.body));

describe('receipt on the till\'s network printer', () => {
  it('after a sale the receipt goes to the printer (not the browser); Print again sends a copy', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(job(), 201));
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    expect(await screen.findByText('Sent to Counter')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0][0]).toBe('/api/print/order/42');
    expect(body(0)).toEqual({ device: 3, copy: false });
    expect(print).not.toHaveBeenCalled();

    fetchMock.mockResolvedValueOnce(jsonResponse(job({ id: 6, kind: 'copy', opensDrawer: false }), 201));
    await userEvent.click(screen.getByRole('button', { name: 'Print' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(body(1)).toEqual({ device: 3, copy: true });
  });

  it('a printer that does not answer is said so, with Retry and the browser print', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(job({ status: 'queued', lastError: 'The printer at 10.0.0.9:9100 refused the connection (off, or another port)' }), 202));
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    expect(await screen.findByText(/Printer Counter: The printer at 10\.0\.0\.9:9100 refused the connection/)).toBeInTheDocument();

    fetchMock.mockResolvedValueOnce(jsonResponse(job(), 200));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Sent to Counter')).toBeInTheDocument();
    expect(fetchMock.mock.calls[1][0]).toBe('/api/print/job/5/retry');
    expect(screen.queryByText(/refused the connection/)).toBeNull();
  });

  it('the browser print stays available when the printer fails, and an offline sale prints in the browser', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(job({ status: 'queued', lastError: 'The printer at 10.0.0.9:9100 did not answer within 4 s' }), 202));
    const { unmount } = renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Print in browser' }));
    expect(print).toHaveBeenCalledTimes(1);
    unmount();

    fetchMock.mockReset();
    renderWithProviders(<ReceiptPreviewDialog order={{ ...order, localRef: 'abc' }} settings={[]} autoPrint onClose={() => {}} />);
    await waitFor(() => expect(print).toHaveBeenCalledTimes(2));
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('a job the queue retries in the background: the till learns its later outcome', () => {
  const refused = 'The printer at 10.0.0.9:9100 refused the connection (off, or another port)';
  const jobCalls = () => fetchMock.mock.calls.filter(([url]) => url === '/api/print/job/5');

  it('polls the job every 2 s while it waits and shows "Printed" once a background retry has printed it; then stops asking', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(job({ status: 'queued', lastError: refused }), 202))
      .mockResolvedValueOnce(jsonResponse(job({ status: 'printed', attempts: 2 }), 200));
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    expect(await screen.findByText(/Printer Counter: The printer at 10\.0\.0\.9:9100 refused the connection/)).toBeInTheDocument();
    expect(jobCalls()).toHaveLength(0);

    expect(await screen.findByText('Printed on Counter', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(jobCalls()).toHaveLength(1);
    expect(fetchMock.mock.calls[1][1]?.method ?? 'GET').toBe('GET');
    expect(screen.queryByText(/refused the connection/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    // Printed: no more questions.
    await new Promise((r) => setTimeout(r, 2500));
    expect(jobCalls()).toHaveLength(1);
  });

  it('stops asking 2 minutes after the job was sent, still showing the problem with Retry', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(job({ status: 'queued', lastError: refused }), 202))
      .mockResolvedValueOnce(jsonResponse(job({ status: 'queued', attempts: 5, lastError: refused }), 200));
    const realNow = Date.now.bind(Date);
    let later = 0;
    const now = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + later);
    try {
      renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
      expect(await screen.findByText(/refused the connection/)).toBeInTheDocument();
      later = 121_000; // the next answer comes after the 2 minutes
      await waitFor(() => expect(jobCalls()).toHaveLength(1), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 2500));
      expect(jobCalls()).toHaveLength(1);
      expect(screen.getByText(/refused the connection/)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    } finally { now.mockRestore(); }
  });

  it('shows the error with Retry when the queue finally gives up; Retry prints it', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse(job({ status: 'queued', lastError: refused }), 202))
      .mockResolvedValueOnce(jsonResponse(job({ status: 'failed', attempts: 6, lastError: 'The printer at 10.0.0.9:9100 is out of paper' }), 200));
    renderWithProviders(<ReceiptPreviewDialog order={order} settings={[]} autoPrint onClose={() => {}} />);
    expect(await screen.findByText(/refused the connection/)).toBeInTheDocument();

    expect(await screen.findByText('Printer Counter could not print the receipt: The printer at 10.0.0.9:9100 is out of paper. Retry, or print in the browser.', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(jobCalls()).toHaveLength(1);
    expect(screen.queryByText(/Printed on|Sent to/)).toBeNull();

    fetchMock.mockResolvedValueOnce(jsonResponse(job(), 200));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Sent to Counter')).toBeInTheDocument();
    expect(fetchMock.mock.calls[2][0]).toBe('/api/print/job/5/retry');
    expect(screen.queryByText(/out of paper/)).toBeNull();
  });
});

describe('No sale', () => {
  it('opens the drawer of the till printer for staff with drawer.open, and is not there for others', async () => {
    const { NoSaleButton } = await import('./no-sale-button');
    const { signIn } = await import('@/features/list-table/testing/fake-api');
    signIn(); // an Owner of Main Street / T1
    fetchMock.mockResolvedValueOnce(jsonResponse(job({ kind: 'drawer' }), 201));
    renderWithProviders(<NoSaleButton />);
    await userEvent.click(screen.getByRole('button', { name: 'No sale' }));
    expect(await screen.findByText('Drawer opened')).toBeInTheDocument();
    expect(fetchMock.mock.calls[0][0]).toBe('/api/print/drawer');
    expect(body(0)).toEqual({ device: 3, store: 1 });
  });

  it('is not offered to a cashier (no drawer.open)', async () => {
    const { NoSaleButton } = await import('./no-sale-button');
    const { startSession, selectStoreTerminal } = await import('@/lib/session');
    const store = { id: 1, name: 'Main Street', terminals: [{ id: 1, code: 'T1' }] };
    startSession({ id: 8, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'], stores: [store] });
    selectStoreTerminal(store, store.terminals[0]);
    renderWithProviders(<NoSaleButton />);
    expect(screen.queryByRole('button', { name: 'No sale' })).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
