import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { ClosingDialog, closingState } from './closing-dialog.tsx';
import { closingFigures } from '../lib/closing-figures.ts';

// The browser's print dialog is outside the product: capture what would be printed.
const printed = vi.hoisted(() => [] as HTMLElement[]);
vi.mock('@/features/receipt/print-receipt', () => ({ printReceipt: (node: HTMLElement | null) => { if (node) printed.push(node); } }));

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
  printed.length = 0;
});

/** Closing the day asks first (issue 23.4): answer "Close day" in the confirmation. */
async function confirmClose(user: ReturnType<typeof userEvent.setup>) {
  const ask = await screen.findByRole('dialog', { name: 'Close day' });
  await user.click(within(ask).getByRole('button', { name: 'Close day' }));
}

const hoursAgo = (h: number) => ({ datetime: new Date(Date.now() - h * 3600_000).toISOString() });

describe('closingState', () => {
  it('is start without an opening balance, stale after 24 hours', () => {
    expect(closingState({ openingBalance: null, createdAt: hoursAgo(1) })).toBe('start');
    expect(closingState({ openingBalance: 0, createdAt: hoursAgo(25) })).toBe('stale');
    expect(closingState({ openingBalance: '10', createdAt: hoursAgo(23) })).toBe('normal');
  });
});

describe('closingFigures', () => {
  it('cash in hand = opening + added - withdrawn - expenses + cash sales; profit = sales - cost - expenses', () => {
    const f = closingFigures({
      openingBalance: '100',
      cashAdded: '20',
      cashWithdrawn: '5.5',
      expenses: [10, '2.25'],
      payments: { cash: 50, 'credit card': 30 },
      orders: [
        { id: 1, status: 'Completed', items: [{ quantity: 2, cost: 5, product: { cost: 99 } }] },
        { id: 2, status: 'Deleted', items: [{ quantity: 1, product: { cost: 1000 } }] },
        { id: 3, status: 'Completed', items: [{ quantity: -1, product: { cost: 3 } }] },
      ],
      counts: { '100': '1', '50': '1', '1': '2', '20': 'x' },
    });
    expect(f.expenses).toBe(1225);
    expect(f.cashInHand).toBe(15225); // 100 + 20 - 5.5 - 12.25 + 50
    expect(f.cost).toBe(700); // 2 x 5 - 1 x 3
    expect(f.profit).toEqual({ amountCents: 6075, isLoss: false }); // 80 - 7 - 12.25
    expect(f.counted).toBe(15200);
  });

  it('calls 0 or less a loss', () => {
    const f = closingFigures({ openingBalance: '', cashAdded: '', cashWithdrawn: '', expenses: [], payments: {}, orders: [], counts: {} });
    expect(f.profit).toEqual({ amountCents: 0, isLoss: true });
    expect(f.sales).toEqual({ cash: 0 });
  });
});

describe('ClosingDialog', () => {
  it('opens by itself, not closable, as "Start day" and starts the day', async () => {
    let closing: Record<string, unknown> = { id: 3, openingBalance: null, createdAt: hoursAgo(0), dateFrom: hoursAgo(0) };
    const api = fakeApi({
      'GET /admin/closing/opened': () => ({ closing }),
      'POST /admin/closing/3': (r: { body: { openingBalance: string } }) => {
        closing = { ...closing, openingBalance: Number(r.body.openingBalance) };
        return { closing };
      },
      'GET /admin/expense/list': { list: [] },
      'GET /admin/order/list': { list: [], total: 0, payments: { cash: 0 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open={false} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Start day' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Start day' })).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Opening balance'), '150');
    await user.click(within(dialog).getByRole('button', { name: 'Start day' }));
    await waitFor(() => expect(api.find('POST', '/admin/closing/3')).toHaveLength(1));
    expect(api.find('POST', '/admin/closing/3')[0].body).toMatchObject({ id: 3, openingBalance: '150', updateOnly: true, terminal: 1 });
    expect(api.find('POST', '/admin/closing/3')[0].body.closedAt).toBeUndefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.find('GET', '/admin/closing/opened')[0].query.get('store')).toBe('1');
    expect(api.find('GET', '/admin/closing/opened')[0].query.get('terminal')).toBe('1');
  });

  it('forces "Close previous day first" for a stale day, and closes it with the cash in hand', async () => {
    const closing = { id: 4, openingBalance: 100, cashAdded: 0, cashWithdrawn: 0, createdAt: hoursAgo(30), dateFrom: hoursAgo(30) };
    const api = fakeApi({
      'GET /admin/closing/opened': () => ({ closing }),
      'POST /admin/closing/4': { closing: { ...closing, closedAt: hoursAgo(0) } },
      'GET /admin/expense/list': { list: [{ amount: 12 }] },
      'GET /admin/order/list': { list: [{ id: 1, status: 'Completed', items: [{ quantity: 1, cost: 20 }] }], total: 1, payments: { cash: 40, credit: 10 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open={false} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Close previous day first' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await waitFor(() => expect(within(dialog).getByTestId('cash-in-hand')).toHaveTextContent('$128')); // 100 - 12 + 40
    expect(within(dialog).getByText('Cash sale')).toBeInTheDocument();
    expect(within(dialog).getByText('Credit sale')).toBeInTheDocument();
    expect(within(dialog).getByTestId('profit-or-loss')).toHaveTextContent('$18'); // 50 - 20 - 12
    expect(api.find('GET', '/admin/expense/list')[0].query.get('dateTimeFrom')).toBe(closing.dateFrom.datetime);
    expect(api.find('GET', '/admin/order/list')[0].query.get('terminal')).toBe('1');
    await user.type(within(dialog).getByLabelText('Count of $100.00'), '1');
    expect(within(dialog).getByTestId('counted-cash')).toHaveTextContent('$100');
    await user.click(within(dialog).getByRole('button', { name: 'Close day' }));
    await confirmClose(user);
    await waitFor(() => expect(api.find('POST', '/admin/closing/4')).toHaveLength(1));
    const body = api.find('POST', '/admin/closing/4')[0].body;
    expect(body).toMatchObject({ closingBalance: '128.00', closedBy: 7, expenses: 12, data: { cash: '40.00', credit: '10.00' }, denominations: { '100': 1 } });
    expect(body.closedAt.datetime).toEqual(expect.any(String));
    expect(body.updateOnly).toBeUndefined();
    // No network printer on this till: the Z report goes to the browser's print, with the day's figures.
    await waitFor(() => expect(printed).toHaveLength(1));
    expect(printed[0].querySelector('h1')).toHaveTextContent('Z report');
    expect(printed[0]).toHaveTextContent('$128');
  });

  it('in a KWD store: figures keep the fils and the drawer is counted in Kuwaiti notes and coins (issue 19)', async () => {
    signIn({ currency: 'KWD', locale: 'en-US' });
    const closing = { id: 6, openingBalance: 10.5, cashAdded: 0, cashWithdrawn: 0, createdAt: hoursAgo(2), dateFrom: hoursAgo(2) };
    const api = fakeApi({
      'GET /admin/closing/opened': () => ({ closing }),
      'POST /admin/closing/6': { closing: { ...closing, closedAt: hoursAgo(0) } },
      'GET /admin/expense/list': { list: [{ amount: 1.275 }] },
      'GET /admin/order/list': { list: [{ id: 1, status: 'Completed', items: [{ quantity: 2, cost: 0.455 }] }], total: 1, payments: { cash: 2.76, 'credit card': 1.38 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Day closing' });
    await waitFor(() => expect(within(dialog).getByTestId('cash-in-hand')).toHaveTextContent('KWD 11.985')); // 10.500 - 1.275 + 2.760
    expect(within(dialog).getByTestId('closing-expenses')).toHaveTextContent('KWD 1.275');
    expect(within(dialog).getByTestId('profit-or-loss')).toHaveTextContent('KWD 1.955'); // 4.140 - 0.910 - 1.275
    expect(within(dialog).getByRole('row', { name: /Opening balance/ })).toHaveTextContent('KWD 10.500');
    // Kuwaiti notes down to a quarter dinar, coins down to 5 fils; no US-dollar 50 or 2.
    const notes = within(dialog).getAllByRole('rowheader').map((h) => h.textContent?.replace(/\s/g, ' ')).filter((x) => x?.startsWith('KWD'));
    expect(notes).toEqual(['KWD 20.000', 'KWD 10.000', 'KWD 5.000', 'KWD 1.000', 'KWD 0.500', 'KWD 0.250', 'KWD 0.100', 'KWD 0.050', 'KWD 0.020', 'KWD 0.010', 'KWD 0.005']);
    await user.type(within(dialog).getByLabelText('Count of KWD 0.250'), '3');
    await user.type(within(dialog).getByLabelText('Count of KWD 0.005'), '3');
    expect(within(dialog).getByTestId('counted-cash')).toHaveTextContent('KWD 0.765');
    await user.click(within(dialog).getByRole('button', { name: 'Close day' }));
    await confirmClose(user);
    await waitFor(() => expect(api.find('POST', '/admin/closing/6')).toHaveLength(1));
    expect(api.find('POST', '/admin/closing/6')[0].body).toMatchObject({
      closingBalance: '11.985', expenses: 1.275, data: { cash: '2.760', 'credit card': '1.380' }, denominations: { '0.25': 3, '0.005': 3 },
    });
  });

  it('in a JPY store: whole yen, yen notes and coins, and the opening balance takes no decimals (issue 19)', async () => {
    signIn({ currency: 'JPY', locale: 'ja-JP' });
    const closing = { id: 8, openingBalance: 10000, cashAdded: 0, cashWithdrawn: 0, createdAt: hoursAgo(2), dateFrom: hoursAgo(2) };
    const api = fakeApi({
      'GET /admin/closing/opened': () => ({ closing }),
      'POST /admin/closing/8': { closing },
      'GET /admin/expense/list': { list: [{ amount: 500 }] },
      'GET /admin/order/list': { list: [], total: 0, payments: { cash: 1075 } },
    });
    const user = userEvent.setup();
    renderWithProviders(<ClosingDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Day closing' });
    await waitFor(() => expect(within(dialog).getByTestId('cash-in-hand').textContent).toMatch(/^[¥￥]10,575$/));
    const notes = within(dialog).getAllByRole('rowheader').map((h) => h.textContent?.replace('￥', '¥')).filter((x) => x?.startsWith('¥'));
    expect(notes).toEqual(['¥10,000', '¥5,000', '¥2,000', '¥1,000', '¥500', '¥100', '¥50', '¥10', '¥5', '¥1']);
    await user.type(within(dialog).getByLabelText(/^Count of .10,000$/), '1');
    expect(within(dialog).getByTestId('counted-cash').textContent).toMatch(/^[¥￥]10,000$/);
    // A decimal is refused in a currency without minor units.
    const opening = within(dialog).getByLabelText('Opening balance');
    await user.clear(opening);
    await user.type(opening, '12.');
    expect(within(dialog).getByText('JPY amounts have no decimals')).toBeInTheDocument();
    await user.keyboard('5');
    expect(opening).toHaveValue('125');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.find('POST', '/admin/closing/8')).toHaveLength(1));
    expect(api.find('POST', '/admin/closing/8')[0].body).toMatchObject({ openingBalance: '125', denominations: { '10000': 1 } });
  });

  it('shows nothing for a normal day until the toolbar opens it', async () => {
    fakeApi({
      'GET /admin/closing/opened': { closing: { id: 5, openingBalance: 0, createdAt: hoursAgo(1), dateFrom: hoursAgo(1) } },
      'GET /admin/expense/list': { list: [] },
      'GET /admin/order/list': { list: [], total: 0, payments: { cash: 0 } },
    });
    const { router } = renderWithProviders(<ClosingDialog open={false} onClose={() => {}} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    void router;
  });
});
