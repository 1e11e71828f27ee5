import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { stubPdfWindow } from '@/test/pdf-window';
import { startSession } from '@/lib/session';
import type { Purchase } from '../lib/types.ts';
import { PurchaseDetailDialog } from './purchase-detail-dialog.tsx';

vi.setConfig({ testTimeout: 20_000 });

const { fetchMock, open } = stubPdfWindow();

const purchase: Purchase = {
  '@id': '/api/purchases/7', id: 7, purchaseNumber: 'P-7', total: 25, createdAt: '2024-03-01T10:00:00Z',
  store: { '@id': '/api/stores/1', id: 1, name: 'Main Street' }, supplier: null, paymentType: null,
  items: [{ id: 1, item: { '@id': '/api/products/1', id: 1, name: 'Fresh Milk' }, quantity: '10', quantityRequested: '10', purchasePrice: '2.50', comments: null }],
} as unknown as Purchase;

describe('Print labels on a received purchase', () => {
  it("asks the server for the purchase's labels on the chosen sheet and opens the PDF", async () => {
    fetchMock.mockResolvedValueOnce(new Response('%PDF-1.3', { status: 200, headers: { 'content-type': 'application/pdf' } }));
    const user = userEvent.setup();
    renderWithProviders(<PurchaseDetailDialog purchase={purchase} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: /P-7/ });
    await user.selectOptions(within(dialog).getByLabelText('Sheet'), 'single-58x40');
    await user.click(within(dialog).getByRole('button', { name: 'Print labels' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:labels', '_blank', 'noopener'));
    expect(fetchMock.mock.calls[0][0]).toBe('/api/labels');
    expect(fetchMock.mock.calls[0][1]?.method).toBe('POST');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ store: 1, layout: 'single-58x40', purchase: 7 });
  });

  it("the server's refusal is shown and nothing opens; staff who may not print labels do not see the button", async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'NOT_FOUND', message: 'Purchase not found', violations: [] }, 404));
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(<PurchaseDetailDialog purchase={purchase} onClose={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Print labels' }));
    expect(await screen.findByText(/Purchase not found/)).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
    unmount();

    startSession({ id: 8, username: 'clerk', displayName: 'Clerk', roles: ['ROLE_USER'], permissions: ['purchasing'], stores: [{ id: 1, name: 'Main Street', terminals: [] }] });
    renderWithProviders(<PurchaseDetailDialog purchase={purchase} onClose={() => {}} />);
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Print labels' })).toBeNull();
  });
});
