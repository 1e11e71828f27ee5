import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { ClosingDialog } from './closing-dialog.tsx';

// The browser's print dialog is outside the product: capture what would be printed.
const printed = vi.hoisted(() => [] as HTMLElement[]);
vi.mock('@/features/receipt/print-receipt', () => ({ printReceipt: (node: HTMLElement | null) => { if (node) printed.push(node); } }));

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
  printed.length = 0;
});

const hoursAgo = (h: number) => ({ datetime: new Date(Date.now() - h * 3600_000).toISOString() });

/** A day open since two hours: 100 float + 40 cash sales - 12 expenses = 128 expected. */
function openDay(extra: Record<string, unknown> = {}) {
  const closing = { id: 4, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, createdAt: hoursAgo(2), dateFrom: hoursAgo(2) };
  return fakeApi({
    'GET /admin/closing/opened': () => ({ closing }),
    'POST /admin/closing/4': { closing },
    'GET /admin/expense/list': { list: [{ amount: 12 }] },
    'GET /admin/order/list': { list: [], total: 0, payments: { cash: 40 } },
    ...extra,
  });
}

describe('day closing: over/short, confirmation, Enter, past closings (issue 23.4, 29.1)', () => {
  it('Enter in the opening balance starts the day', async () => {
    let closing: Record<string, unknown> = { id: 3, openingBalance: null, createdAt: hoursAgo(0), dateFrom: hoursAgo(0) };
    const api = fakeApi({
      'GET /admin/closing/opened': () => ({ closing }),
      'POST /admin/closing/3': (r: { body: { openingBalance: string } }) => {
        closing = { ...closing, openingBalance: Number(r.body.openingBalance) };
        return { closing };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open={false} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Start day' });
    await user.type(within(dialog).getByLabelText('Opening balance'), '150{Enter}');
    await waitFor(() => expect(api.find('POST', '/admin/closing/3')).toHaveLength(1));
    expect(api.find('POST', '/admin/closing/3')[0].body).toMatchObject({ openingBalance: '150', updateOnly: true });
  });

  it('shows the drawer short against the expected cash and asks before closing; "No" writes nothing', async () => {
    const api = openDay();
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Day closing' });
    await waitFor(() => expect(within(dialog).getByTestId('cash-in-hand')).toHaveTextContent('$128.00'));
    expect(within(dialog).getByRole('row', { name: /Expected cash/ })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Count of $100.00'), '1');
    await user.type(within(dialog).getByLabelText('Count of $20.00'), '1');
    expect(within(dialog).getByTestId('over-short')).toHaveTextContent('Short by $8.00');
    // Enter in a count saves ('Update'), never closes the day.
    await user.type(within(dialog).getByLabelText('Count of $5.00'), '1{Enter}');
    await waitFor(() => expect(api.find('POST', '/admin/closing/4')).toHaveLength(1));
    expect(api.find('POST', '/admin/closing/4')[0].body).toMatchObject({ updateOnly: true, denominations: { '100': 1, '20': 1, '5': 1 } });
    expect(within(dialog).getByTestId('over-short')).toHaveTextContent('Short by $3.00');

    await user.click(within(dialog).getByRole('button', { name: 'Close day' }));
    const ask = await screen.findByRole('dialog', { name: 'Close day' });
    expect(ask).toHaveTextContent('Expected cash $128.00, counted $125.00: Short by $3.00');
    await user.click(within(ask).getByRole('button', { name: 'No, wait' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Close day' })).toBeNull());
    expect(api.find('POST', '/admin/closing/4')).toHaveLength(1);
    expect(printed).toHaveLength(0);
  });

  it('a balanced drawer says so', async () => {
    openDay();
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Day closing' });
    await waitFor(() => expect(within(dialog).getByTestId('cash-in-hand')).toHaveTextContent('$128.00'));
    await user.type(within(dialog).getByLabelText('Count of $100.00'), '1');
    await user.type(within(dialog).getByLabelText('Count of $20.00'), '1');
    await user.type(within(dialog).getByLabelText('Count of $5.00'), '1');
    await user.type(within(dialog).getByLabelText('Count of $1.00'), '3');
    expect(within(dialog).getByTestId('over-short')).toHaveTextContent('Balanced');
  });

  it('lists past closings with the server\'s figures and reprints a Z report through the browser', async () => {
    const api = openDay({
      'GET /admin/closing/list': {
        total: 1,
        list: [{
          id: 2, openingBalance: 50, closedAt: hoursAgo(20), closedBy: { displayName: 'Carla Cashier' },
          sales: { cash: 30, 'credit card': 12.5 }, expenses: 5, expectedCash: 75, countedCash: 76.5, overShort: 1.5,
        }],
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Day closing' });
    await user.click(await within(dialog).findByRole('button', { name: 'Past closings' }));
    expect(within(dialog).getByRole('button', { name: 'Back to today' })).toHaveFocus();
    const row = await within(dialog).findByRole('row', { name: /Carla Cashier/ });
    expect(row).toHaveTextContent('$75.00');
    expect(row).toHaveTextContent('$76.50');
    expect(row).toHaveTextContent('Over by $1.50');
    expect(api.find('GET', '/admin/closing/list')[0].query.get('terminal')).toBe('1');
    await user.click(within(row).getByRole('button', { name: /Print the Z report of/ }));
    expect(printed).toHaveLength(1);
    expect(printed[0].querySelector('h1')).toHaveTextContent('Z report');
    expect(printed[0]).toHaveTextContent('Credit Card sale$12.50');
    expect(printed[0]).toHaveTextContent('Over/short$1.50');
    await user.click(within(dialog).getByRole('button', { name: 'Back to today' }));
    expect(await within(dialog).findByTestId('cash-in-hand')).toHaveTextContent('$128.00');
    expect(within(dialog).getByRole('button', { name: 'Past closings' })).toHaveFocus();
  });
});
