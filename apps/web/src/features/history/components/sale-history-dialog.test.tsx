import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { SaleHistoryDialog } from './sale-history-dialog.tsx';
import { actionsFor, type HistoryOrder } from '../lib/types.ts';
import { historySummary } from '../lib/summary.ts';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
});

const order = (id: number, status: string, extra: Partial<HistoryOrder> = {}): HistoryOrder => ({
  id,
  orderId: 1000 + id,
  createdAt: '2024-03-05T10:00:00Z',
  status,
  items: [{ id: 1, product: { id: 1, name: 'Milk', cost: 1 }, quantity: 2, price: 3, cost: 1.5 }],
  payments: [{ total: 6, received: 10, type: { id: 1, name: 'Cash', type: 'cash' } }],
  store: { id: 1, name: 'Main Street' },
  terminal: { id: 1, code: 'T1' },
  ...extra,
});

describe('history rules', () => {
  it('offers the actions of each status', () => {
    expect(actionsFor(order(1, 'Completed'))).toEqual(['refund', 'delete']);
    expect(actionsFor(order(1, 'Completed', { returnedFrom: { id: 9 } }))).toEqual(['delete']);
    expect(actionsFor(order(1, 'Dispatched'))).toEqual(['delete']);
    expect(actionsFor(order(1, 'On Hold'))).toEqual(['unsuspend', 'delete']);
    expect(actionsFor(order(1, 'Deleted'))).toEqual(['restore']);
    expect(actionsFor(order(1, 'Returned'))).toEqual([]);
    expect(actionsFor(order(1, 'Partially Returned'))).toEqual(['refund']);
    expect(actionsFor(order(1, 'Pending'))).toEqual([]);
  });

  it('sums the tiles over settled sales only: what they charged (not the cash handed over), cost times quantity', () => {
    // Each order charges 6 (received 10, change 4) and costs 2 x 1.50. Held and deleted orders sold nothing.
    const s = historySummary([order(1, 'Completed'), order(2, 'Deleted'), order(3, 'On Hold'), order(4, 'Pending')], [1, '0.5']);
    expect(s).toEqual({ bills: 4, amount: 600, cost: 300, expenses: 150, profit: { amountCents: 150, isLoss: false } });
    const held = historySummary([order(3, 'On Hold')], []);
    expect(held.profit).toEqual({ amountCents: 0, isLoss: false }); // zero is not a loss
    expect(historySummary([order(1, 'Completed')], [4]).profit).toEqual({ amountCents: -100, isLoss: true });
    expect(held.cost).toBe(0);
    expect(historySummary([order(1, 'Returned'), order(2, 'Partially Returned'), order(3, 'Dispatched')], []).amount).toBe(1800);
  });
});

describe('SaleHistoryDialog', () => {
  it('loads yesterday to today, shows tiles, refunds after confirmation and hands the order to the till', async () => {
    let orders = [order(1, 'Completed'), order(2, 'On Hold'), order(3, 'Deleted')];
    const api = fakeApi({
      'GET /admin/order/list': () => ({ list: orders, total: orders.length, payments: { cash: 12 } }),
      'GET /admin/expense/list': { list: [{ amount: 2 }] },
      'POST /admin/order/refund/1': () => {
        orders = [order(4, 'Completed', { returnedFrom: { id: 1, orderId: 1001 } }), { ...orders[0], isReturned: true }, ...orders.slice(1)];
        return { order: orders[0] };
      },
      'DELETE /admin/order/2': { removed: true },
    });
    const onRefund = vi.fn();
    const onUnsuspend = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} onRefund={onRefund} onUnsuspend={onUnsuspend} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    expect(await within(dialog).findByRole('cell', { name: '1001' })).toBeInTheDocument();
    const q = api.find('GET', '/admin/order/list')[0].query;
    expect(q.get('dateTimeFrom')).toMatch(/T00:00$/);
    expect(q.get('dateTimeTo')).toMatch(/T23:59$/);
    expect(new Date(q.get('dateTimeTo')!).getDate() - new Date(q.get('dateTimeFrom')!).getDate()).not.toBe(0);
    expect(q.get('order[orderId]')).toBe('desc');
    expect(q.has('store')).toBe(false);

    expect(within(dialog).getByTestId('tile-bills')).toHaveTextContent('3');
    expect(within(dialog).getByTestId('tile-amount')).toHaveTextContent('$6.00'); // the one completed sale charged 6 (10 handed over)
    expect(within(dialog).getByTestId('tile-cost')).toHaveTextContent('$3.00');
    await waitFor(() => expect(within(dialog).getByTestId('tile-expenses')).toHaveTextContent('$2'));
    expect(within(dialog).getByTestId('tile-profit')).toHaveTextContent('$1.00');

    expect(within(dialog).getByRole('button', { name: 'Restore order 1003' })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Refund order 1002' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Refund order 1001' }));
    const confirmBox = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(confirmBox).toHaveTextContent('Refund order?');
    await user.click(within(confirmBox).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(onRefund).toHaveBeenCalledTimes(1));
    expect(onRefund.mock.calls[0][0]).toMatchObject({ id: 1 });
    expect(onRefund.mock.calls[0][1]).toMatchObject({ id: 4 });
    // Reloaded: the original cannot be refunded twice.
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: 'Refund order 1001' })).toBeNull());

    await user.click(within(dialog).getByRole('button', { name: 'Unsuspend order 1002' }));
    expect(await screen.findByRole('dialog', { name: 'Confirmation' })).toHaveTextContent('Unsuspend order?');
    await user.click(screen.getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(onUnsuspend).toHaveBeenCalledWith(expect.objectContaining({ id: 2 })));
    expect(api.find('DELETE', '/admin/order/2')).toHaveLength(1);
    // Taken back into the cart, not thrown away: the audit log says so (issue 23.3).
    expect(api.find('DELETE', '/admin/order/2')[0].body).toEqual({ unsuspend: true });
  });

  it('with a refund dialog at hand, Refund hands the order over: nothing is refunded, no question asked', async () => {
    const orders = [order(1, 'Completed'), order(5, 'Partially Returned')];
    const api = fakeApi({
      'GET /admin/order/list': () => ({ list: orders, total: orders.length, payments: {} }),
      'GET /admin/expense/list': { list: [] },
    });
    const onRefundLines = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} onRefundLines={onRefundLines} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    await user.click(await within(dialog).findByRole('button', { name: 'Refund order 1005' }));
    expect(onRefundLines).toHaveBeenCalledWith(expect.objectContaining({ id: 5 }));
    expect(screen.queryByRole('dialog', { name: 'Confirmation' })).toBeNull();
    expect(api.find('POST', '/admin/order/refund/5')).toHaveLength(0);
    expect(within(dialog).getAllByTestId('order-status').map((x) => x.textContent)).toEqual(['Completed', 'Partially Returned']);
  });

  it("a void refused for 'sale.void' asks a manager on this till; the PIN's token goes with that one DELETE", async () => {
    let orders = [order(1, 'Completed')];
    const forbidden = new Response(JSON.stringify({ code: 'FORBIDDEN', message: "Deleting a completed order needs the 'sale.void' permission or a manager's approval." }), {
      status: 403, headers: { 'content-type': 'application/json' },
    });
    const api = fakeApi({
      'GET /admin/order/list': () => ({ list: orders, total: orders.length, payments: {} }),
      'GET /admin/expense/list': { list: [] },
      'DELETE /admin/order/1': (r: { body?: { approval?: string } }) => {
        if (r.body?.approval !== 'tok-1') return forbidden.clone();
        orders = [order(1, 'Deleted')];
        return { removed: false };
      },
      'POST /approvals': (r: { body: { pin: string } }) => (r.body.pin === '4321'
        ? { approval: 'tok-1', expiresAt: '2030-01-01T00:00:00Z', approvedBy: { id: 3, name: 'Mona Manager' } }
        : new Response(JSON.stringify({ code: 'FORBIDDEN', message: 'Not approved' }), { status: 403, headers: { 'content-type': 'application/json' } })),
    });
    const user = userEvent.setup();
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    await user.click(await within(dialog).findByRole('button', { name: 'Delete order 1001' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));

    const approval = await screen.findByRole('dialog', { name: 'Manager approval' });
    expect(approval).toHaveTextContent("Delete order 1001: Deleting a completed order needs the 'sale.void' permission");
    await user.type(within(approval).getByLabelText("Manager's user name"), 'mona');
    await user.type(within(approval).getByLabelText('PIN'), '1111');
    await user.click(within(approval).getByRole('button', { name: 'Approve' }));
    expect(await within(approval).findByText(/^Not approved/)).toBeInTheDocument();
    expect(api.find('DELETE', '/admin/order/1')).toHaveLength(1);
    await user.type(within(approval).getByLabelText('PIN'), '4321');
    await user.click(within(approval).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(api.find('DELETE', '/admin/order/1')).toHaveLength(2));
    expect(api.find('DELETE', '/admin/order/1')[1].body).toEqual({ approval: 'tok-1' });
    expect(api.find('POST', '/approvals').at(-1)!.body).toMatchObject({ permission: 'sale.void', username: 'mona', pin: '4321', store: 1 });
    expect(await screen.findByText('Order deleted')).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).getAllByTestId('order-status').map((x) => x.textContent)).toEqual(['Deleted']));
  });

  it('a refund refused for sale.refund asks a manager; cancelling sends nothing more', async () => {
    const orders = [order(1, 'Completed')];
    const api = fakeApi({
      'GET /admin/order/list': () => ({ list: orders, total: orders.length, payments: {} }),
      'GET /admin/expense/list': { list: [] },
      'POST /admin/order/refund/1': () => new Response(JSON.stringify({ code: 'FORBIDDEN', message: "A refund needs the 'sale.refund' permission or a manager's approval." }), {
        status: 403, headers: { 'content-type': 'application/json' },
      }),
    });
    const onRefund = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} onRefund={onRefund} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    await user.click(await within(dialog).findByRole('button', { name: 'Refund order 1001' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));
    const approval = await screen.findByRole('dialog', { name: 'Manager approval' });
    expect(approval).toHaveTextContent('Refund order 1001');
    await user.click(within(approval).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Manager approval' })).toBeNull());
    expect(api.find('POST', '/admin/order/refund/1')).toHaveLength(1);
    expect(api.find('POST', '/approvals')).toHaveLength(0);
    expect(onRefund).not.toHaveBeenCalled();
  });

  it('in a KWD store every figure keeps the fils: rows and tiles (issue 19)', async () => {
    signIn({ currency: 'KWD', locale: 'en-US' });
    const kwd = order(1, 'Completed', {
      items: [{ id: 1, product: { id: 1, name: 'Milk', cost: 0.455 }, quantity: 2, price: 1.275, cost: 0.455 }],
      payments: [{ total: 2.55, received: 3, type: { id: 1, name: 'Cash', type: 'cash' } }],
      tax: { amount: 0.105 },
      itemTaxes: 0.21,
      discount: { amount: 0.125 },
    });
    fakeApi({
      'GET /admin/order/list': () => ({ list: [kwd], total: 1, payments: { cash: 2.55 } }),
      'GET /admin/expense/list': { list: [{ amount: 1.275 }] },
    });
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    const row = (await within(dialog).findByRole('cell', { name: '1001' })).closest('tr')!;
    const cells = within(row).getAllByRole('cell').map((c) => c.textContent?.replace(/\s/g, ' '));
    // rate 2 x 1.275, cost 2 x 0.455, discount, tax, item taxes, total
    expect(cells).toEqual(expect.arrayContaining(['KWD 2.550', 'KWD 0.910', 'KWD 0.125', 'KWD 0.105', 'KWD 0.210']));
    expect(within(dialog).getByTestId('tile-amount')).toHaveTextContent(/^KWD\s2\.550$/);
    expect(within(dialog).getByTestId('tile-cost')).toHaveTextContent(/^KWD\s0\.910$/);
    await waitFor(() => expect(within(dialog).getByTestId('tile-expenses')).toHaveTextContent(/^KWD\s1\.275$/));
    expect(within(dialog).getByTestId('tile-profit')).toHaveTextContent(/^KWD\s0\.365$/); // 2.550 - 0.910 - 1.275
  });

  it('in a JPY store the figures are whole yen (issue 19)', async () => {
    signIn({ currency: 'JPY', locale: 'en-US' });
    const jpy = order(1, 'Completed', {
      items: [{ id: 1, product: { id: 1, name: 'Tea', cost: 480 }, quantity: 3, price: 1075, cost: 480 }],
      payments: [{ total: 3225, received: 5000, type: { id: 1, name: 'Cash', type: 'cash' } }],
    });
    fakeApi({
      'GET /admin/order/list': () => ({ list: [jpy], total: 1, payments: { cash: 3225 } }),
      'GET /admin/expense/list': { list: [{ amount: 500 }] },
    });
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    const row = (await within(dialog).findByRole('cell', { name: '1001' })).closest('tr')!;
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual(expect.arrayContaining(['¥3,225', '¥1,440']));
    expect(within(dialog).getByTestId('tile-amount')).toHaveTextContent(/^¥3,225$/);
    await waitFor(() => expect(within(dialog).getByTestId('tile-expenses')).toHaveTextContent(/^¥500$/));
    expect(within(dialog).getByTestId('tile-profit')).toHaveTextContent(/^¥1,285$/); // 3,225 - 1,440 - 500
  });

  it('a cashier with only a held sale sees Break-even $0.00, not a loss from its cost; a real loss shows its size under Loss', async () => {
    let orders = [order(2, 'On Hold')];
    let expenses: Array<{ amount: number }> = [];
    fakeApi({
      'GET /admin/order/list': () => ({ list: orders, total: orders.length, payments: {} }),
      'GET /admin/expense/list': () => ({ list: expenses }),
    });
    const view = renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    let dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    expect(await within(dialog).findByRole('cell', { name: '1002' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('tile-cost')).toHaveTextContent('$0.00');
    expect(within(dialog).getByTestId('tile-profit-label')).toHaveTextContent(/^Break-even$/);
    expect(within(dialog).getByTestId('tile-profit')).toHaveTextContent(/^\$0\.00$/);
    view.unmount();
    // Charged 6, cost 3, expenses 4: a loss of 1.00, written as its size.
    orders = [order(1, 'Completed')];
    expenses = [{ amount: 4 }];
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    await waitFor(() => expect(within(dialog).getByTestId('tile-expenses')).toHaveTextContent('$4.00'));
    expect(within(dialog).getByTestId('tile-profit-label')).toHaveTextContent(/^Loss$/);
    expect(within(dialog).getByTestId('tile-profit')).toHaveTextContent(/^\$1\.00$/);
  });

  it('searches with q and a new range', async () => {
    const api = fakeApi({ 'GET /admin/order/list': { list: [], total: 0, payments: {} }, 'GET /admin/expense/list': { list: [] } });
    const user = userEvent.setup();
    renderWithProviders(<SaleHistoryDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Sale history' });
    await within(dialog).findByText('No records found');
    await user.type(within(dialog).getByRole('searchbox', { name: 'Search' }), 'Aisha');
    const from = within(dialog).getByLabelText('From');
    await user.clear(from);
    await user.type(from, '2024-01-01T08:00');
    await user.click(within(dialog).getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(api.find('GET', '/admin/order/list').at(-1)!.query.get('q')).toBe('Aisha'));
    expect(api.find('GET', '/admin/order/list').at(-1)!.query.get('dateTimeFrom')).toBe('2024-01-01T08:00');
  });
});
