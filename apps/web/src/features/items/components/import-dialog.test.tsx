import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import { signIn } from '@/features/list-table/testing/fake-api';
import { ImportDialog } from './import-dialog.tsx';

vi.setConfig({ testTimeout: 20_000 });

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  signIn();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const fields = ['ID', 'Name', 'Barcode', 'Is Available?', 'Purchase price', 'Sale price', 'Available Quantity', 'Purchase Unit', 'Sale Unit'];
const columns = (priceField: string | null) => [
  { index: 0, header: 'Name', field: 'Name', status: 'matched' },
  { index: 1, header: 'Price', field: priceField, status: priceField ? 'mapped' : 'unknown' },
];
const sample = [{ row: 2, line: 2, cells: ['Tea', '3'] }, { row: 3, line: 4, cells: ['Multi\nline', 'x'] }];
const urlOf = (i: number) => new URL(String(fetchMock.mock.calls[i][0]), 'http://x');

describe('ImportDialog', () => {
  it('previews the file, shows errors with their line, lets a column be mapped, then imports', async () => {
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ dryRun: true, columns: columns(null), fields, rows: 2, sample, moreErrors: false, result: null, errors: [
        { propertyPath: 'row 1.Price', message: 'Unknown column.', row: 1, line: 1, field: 'Price' },
        { propertyPath: 'row 3.Name', message: 'This value should not be blank.', row: 3, line: 4, field: 'Name' },
      ] }))
      .mockResolvedValueOnce(jsonResponse({ dryRun: true, columns: columns('Sale price'), fields, rows: 2, sample, moreErrors: false, errors: [], result: { created: 2, updated: 0, unchanged: 0, total: 2 } }))
      .mockResolvedValueOnce(jsonResponse({ created: 2, updated: 0, unchanged: 0, total: 2 }));
    const user = userEvent.setup();
    renderWithProviders(<ImportDialog onClose={() => {}} />);
    const file = new File(['Name,Price\r\nTea,3\r\n'], 'items.csv', { type: 'text/csv' });
    fireEvent.change(screen.getByLabelText('CSV file of items'), { target: { files: [file] } });

    const errors = await screen.findByRole('list', { name: 'Errors' });
    expect(within(errors).getByText(/Line 4 Name:/)).toHaveTextContent('This value should not be blank.');
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
    expect(screen.getByRole('rowheader', { name: '4' }).closest('tr')).toHaveClass('is-error');
    expect(urlOf(0).pathname).toBe('/api/products/import');
    expect(urlOf(0).searchParams.get('dryRun')).toBe('1');

    await user.selectOptions(screen.getByLabelText('Price'), 'Sale price');
    expect(await screen.findByText(/Import will create 2, update 0/)).toBeInTheDocument();
    expect(JSON.parse(urlOf(1).searchParams.get('mapping')!)).toEqual({ Price: 'Sale price' });

    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported: 2 created, 0 updated, 0 unchanged.')).toBeInTheDocument();
    expect(urlOf(2).searchParams.get('dryRun')).toBeNull();
    expect(JSON.parse(urlOf(2).searchParams.get('mapping')!)).toEqual({ Price: 'Sale price' });
    expect(fetchMock.mock.calls[2][1]?.body).toBeInstanceOf(FormData);
  });

  it('downloads the template with the token in the header', async () => {
    fetchMock.mockResolvedValueOnce(new Response('\uFEFFID,Name\r\n', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="products-template.csv"' } }));
    URL.createObjectURL = vi.fn(() => 'blob:template');
    URL.revokeObjectURL = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ImportDialog onClose={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Download template' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(String(fetchMock.mock.calls[0][0])).toBe('/api/products/import/template');
    expect(URL.createObjectURL).toHaveBeenCalled();
  });

  it('refuses a file of 50 MB or more without sending it', async () => {
    renderWithProviders(<ImportDialog onClose={() => {}} />);
    const big = new File(['x'], 'huge.csv', { type: 'text/csv' });
    Object.defineProperty(big, 'size', { value: 50 * 1024 * 1024 });
    fireEvent.change(screen.getByLabelText('CSV file of items'), { target: { files: [big] } });
    expect(await screen.findByRole('alert')).toHaveTextContent('smaller than 50 MB');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(screen.getByRole('button', { name: 'Import' })).toBeDisabled();
  });

  it('"create the items whose ID is not found" previews and imports with unknownIds=create', async () => {
    const clean = { dryRun: true, columns: columns('Sale price'), fields, rows: 2, sample, moreErrors: false, errors: [] };
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ ...clean, errors: [{ propertyPath: 'row 2.ID', message: "'Product' with ID '7' not found", row: 2, line: 2, field: 'ID' }], result: null }))
      .mockResolvedValueOnce(jsonResponse({ ...clean, result: { created: 2, updated: 0, unchanged: 0, total: 2 } }))
      .mockResolvedValueOnce(jsonResponse({ created: 2, updated: 0, unchanged: 0, total: 2 }));
    const user = userEvent.setup();
    renderWithProviders(<ImportDialog onClose={() => {}} />);
    fireEvent.change(screen.getByLabelText('CSV file of items'), { target: { files: [new File(['ID,Name\r\n7,Tea\r\n'], 'copy.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText(/Line 2 ID:/)).toBeInTheDocument();
    await user.click(screen.getByLabelText(/Create the items and variants whose ID is not found/));
    expect(await screen.findByText(/Import will create 2/)).toBeInTheDocument();
    expect(urlOf(1).searchParams.get('unknownIds')).toBe('create');
    await user.click(screen.getByRole('button', { name: 'Import' }));
    expect(await screen.findByText('Imported: 2 created, 0 updated, 0 unchanged.')).toBeInTheDocument();
    expect(urlOf(2).searchParams.get('unknownIds')).toBe('create');
  });
});
