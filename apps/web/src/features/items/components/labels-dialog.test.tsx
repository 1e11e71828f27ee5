import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { stubPdfWindow } from '@/test/pdf-window';
import { LabelsDialog } from './labels-dialog.tsx';

vi.setConfig({ testTimeout: 20_000 });

const { fetchMock, open } = stubPdfWindow();

describe('LabelsDialog', () => {
  it('asks the server for the chosen sheet and copies, and opens the PDF to print', async () => {
    fetchMock.mockResolvedValueOnce(new Response('%PDF-1.3', { status: 200, headers: { 'content-type': 'application/pdf' } }));
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<LabelsDialog product={{ id: 9, name: 'Ballpoint pen' }} onClose={onClose} />);
    await user.selectOptions(screen.getByLabelText('Sheet'), 'single-50x30');
    await user.clear(screen.getByLabelText('Copies'));
    await user.type(screen.getByLabelText('Copies'), '12');
    await user.click(screen.getByRole('button', { name: 'Print labels' }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('blob:labels', '_blank', 'noopener'));
    expect(fetchMock.mock.calls[0][0]).toBe('/api/labels');
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ store: 1, layout: 'single-50x30', items: [{ product: 9, copies: 12 }] });
    expect(onClose).toHaveBeenCalled();
  });

  it("a copies count out of range cannot be sent; the server's refusal is shown", async () => {
    const user = userEvent.setup();
    renderWithProviders(<LabelsDialog product={{ id: 9, name: 'Ballpoint pen' }} onClose={() => {}} />);
    await user.clear(screen.getByLabelText('Copies'));
    await user.type(screen.getByLabelText('Copies'), '0');
    expect(screen.getByRole('button', { name: 'Print labels' })).toBeDisabled();
    await user.clear(screen.getByLabelText('Copies'));
    await user.type(screen.getByLabelText('Copies'), '2');
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'VALIDATION_FAILED', message: 'items[0].product: This item does not exist in this store.', errorMessage: 'items[0].product: This item does not exist in this store.', violations: [{ propertyPath: 'items[0].product', message: 'This item does not exist in this store.' }] }, 422));
    await user.click(screen.getByRole('button', { name: 'Print labels' }));
    expect(await screen.findByText(/This item does not exist in this store/)).toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });
});

describe('LabelsDialog (price changes)', () => {
  it('asks for one label per item whose price changed since the chosen day', async () => {
    fetchMock.mockResolvedValueOnce(new Response('%PDF-1.3', { status: 200, headers: { 'content-type': 'application/pdf' } }));
    const user = userEvent.setup();
    renderWithProviders(<LabelsDialog product={null} onClose={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Labels for price changes' })).toBeInTheDocument();
    const since = screen.getByLabelText('Prices changed since');
    await user.clear(since);
    await user.type(since, '2026-11-20');
    await user.click(screen.getByRole('button', { name: 'Print labels' }));
    await waitFor(() => expect(open).toHaveBeenCalled());
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toEqual({ store: 1, layout: 'a4-3x8', priceChangedSince: new Date('2026-11-20T00:00:00').toISOString() });
  });
});
