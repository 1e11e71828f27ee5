import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { renderWithProviders } from '@/test/render';
import { ListTable, type ListFetcher } from './list-table.tsx';

interface Row {
  id: number;
  name: string;
  supplier: { name: string };
}

const columns: ColumnDef<Row, any>[] = [
  { id: 'name', accessorKey: 'name', header: 'Name' },
  { id: 'supplier.name', accessorFn: (r) => r.supplier.name, header: 'Supplier' },
  { id: 'actions', header: 'Actions', enableSorting: false, enableColumnFilter: false, cell: () => 'act' },
];

function makeFetcher(total = 42) {
  const calls: URLSearchParams[] = [];
  const fetcher = vi.fn<ListFetcher>(async (_url, params) => {
    calls.push(new URLSearchParams(params));
    const page = Number(params.get('page'));
    const size = Number(params.get('itemsPerPage'));
    const rows: Row[] = Array.from({ length: Math.max(0, Math.min(size, total - (page - 1) * size)) }, (_, i) => ({
      id: (page - 1) * size + i + 1,
      name: `Row ${(page - 1) * size + i + 1}`,
      supplier: { name: 'Acme' },
    }));
    return { 'hydra:member': rows, 'hydra:totalItems': total };
  });
  return { fetcher, calls, last: () => calls[calls.length - 1] };
}

function setup(total?: number, extra: Partial<Parameters<typeof ListTable<Row>>[0]> = {}) {
  const f = makeFetcher(total);
  const user = userEvent.setup();
  renderWithProviders(<ListTable<Row> url="/rows" queryKey={['rows']} columns={columns} params={{ store: 3 }} fetcher={f.fetcher} loaderRows={4} {...extra} />);
  return { ...f, user };
}

describe('ListTable', () => {
  it('shows loading placeholders, then the first page with fixed params', async () => {
    const { last } = setup();
    expect(screen.getByTestId('list-loader').children).toHaveLength(4);
    expect(await screen.findByText('Row 1')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(11); // header + 10 rows (default page size)
    expect(last().get('store')).toBe('3');
    expect(last().get('page')).toBe('1');
    expect(last().get('itemsPerPage')).toBe('10');
    expect(screen.getByText('Page 1 of 5')).toBeInTheDocument();
  });

  it('requires a column before searching, then sends the dotted filter', async () => {
    const { user, last } = setup();
    await screen.findByText('Row 1');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'acme');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Please select a column to search in.');
    const select = screen.getByRole('combobox', { name: 'Search column' });
    // Only filterable columns are offered.
    expect(within(select).queryByRole('option', { name: 'Actions' })).toBeNull();
    await user.selectOptions(select, 'supplier.name');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(last().get('supplier.name')).toBe('acme'));
    expect(last().get('page')).toBe('1');
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    await waitFor(() => expect(last().has('supplier.name')).toBe(false));
  });

  it('sorts one column at a time: asc, desc, none', async () => {
    const { user, last } = setup();
    await screen.findByText('Row 1');
    const sortName = screen.getByRole('button', { name: /^Name/ });
    await user.click(sortName);
    await waitFor(() => expect(last().get('order[name]')).toBe('asc'));
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await user.click(sortName);
    await waitFor(() => expect(last().get('order[name]')).toBe('desc'));
    await user.click(screen.getByRole('button', { name: /^Supplier/ }));
    await waitFor(() => expect(last().get('order[supplier.name]')).toBe('asc'));
    expect(last().has('order[name]')).toBe(false);
    // Actions cannot be sorted.
    expect(screen.queryByRole('button', { name: /^Actions/ })).toBeNull();
  });

  it('navigates pages, goes to a page and changes the page size', async () => {
    const { user, last } = setup(42);
    await screen.findByText('Row 1');
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Row 11')).toBeInTheDocument();
    expect(last().get('page')).toBe('2');
    await user.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('Row 41')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Go to page' }), '3');
    expect(await screen.findByText('Row 21')).toBeInTheDocument();
    const sizes = screen.getByRole('combobox', { name: 'Show' });
    expect(within(sizes).getAllByRole('option').map((o) => o.textContent)).toEqual(['10', '20', '25', '50', '100']);
    await user.selectOptions(sizes, '25');
    await waitFor(() => expect(last().get('itemsPerPage')).toBe('25'));
    expect(last().get('page')).toBe('1');
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'First page' }));
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();
  });

  it('refreshes and hides columns', async () => {
    const { user, fetcher } = setup();
    await screen.findByText('Row 1');
    const before = fetcher.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(fetcher.mock.calls.length).toBe(before + 1));
    await user.click(screen.getByRole('button', { name: 'Columns' }));
    await user.click(screen.getByRole('checkbox', { name: 'Supplier' }));
    expect(screen.queryByRole('columnheader', { name: /Supplier/ })).toBeNull();
    expect(screen.getByRole('columnheader', { name: /Name/ })).toBeInTheDocument();
  });

  it('reads other envelopes (sale history: list / total)', async () => {
    const fetcher = vi.fn<ListFetcher>(async () => ({ list: [{ id: 1, name: 'Only', supplier: { name: 'x' } }], total: 1 }));
    renderWithProviders(<ListTable<Row> url="/x" queryKey={['x']} columns={columns} itemsKey="list" totalKey="total" fetcher={fetcher} />);
    expect(await screen.findByText('Only')).toBeInTheDocument();
    expect(screen.getByText('1 record')).toBeInTheDocument();
  });

  it('says so when the list is empty or fails', async () => {
    renderWithProviders(<ListTable<Row> url="/e" queryKey={['e']} columns={columns} fetcher={async () => ({ 'hydra:member': [], 'hydra:totalItems': 0 })} />);
    expect(await screen.findByText('No records found')).toBeInTheDocument();
  });
});
