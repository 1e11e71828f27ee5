import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn, unprocessable } from '@/features/list-table/testing/fake-api';
import { startSession } from '@/lib/session';
import type { StockCount, Transfer } from '../lib/types.ts';
import { AdjustmentNewPage } from './adjustment-form.tsx';
import { CountDetailPage } from './count-detail.tsx';
import { CountNewPage } from './count-form.tsx';
import { TransfersList } from './stock-lists.tsx';
import { TransferDetailPage } from './transfer-detail.tsx';
import { TransferNewPage } from './transfer-form.tsx';

vi.setConfig({ testTimeout: 20_000 });

const main = { id: 1, name: 'Main Street', terminals: [], currency: 'USD' };
const mall = { id: 2, name: 'Harbour Mall', terminals: [], currency: 'USD' };

beforeEach(() => {
  const { user } = signIn();
  startSession({ ...user, stores: [main, mall] });
});

const milk = { id: 11, name: 'Fresh Milk', sku: 'MLK', barcode: '5000000000002', variants: [] };
const who = { id: 7, username: 'admin', displayName: 'Admin' };

function transfer(over: Partial<Transfer> = {}): Transfer {
  return {
    id: 5, number: 3, status: 'sent', fromStore: main, toStore: mall, note: null, lossReason: null,
    requestedBy: who, requestedAt: '2026-11-27T08:00:00Z', sentBy: who, sentAt: '2026-11-27T09:00:00Z', receivedAt: null,
    lines: [{ id: 91, product: milk, variant: null, location: 'Aisle 3', requested: 6, sent: 6, received: null, lost: null, inTransit: 6 }],
    totals: { requested: 6, sent: 6, received: 0, lost: 0, inTransit: 6 },
    ...over,
  };
}

describe('stock transfers', () => {
  it('lists transfers with their status and filters by store (limit/offset paging)', async () => {
    const api = fakeApi({ 'GET /admin/stock/transfer/list': { list: [transfer()], total: 1 } });
    const user = userEvent.setup();
    renderWithProviders(<TransfersList />);
    expect(await screen.findByRole('link', { name: 'Transfer 3' }, { timeout: 10_000 })).toHaveAttribute('href', '/admin/stock/transfers/5');
    expect(screen.getByText('In transit', { selector: '.badge' })).toBeInTheDocument();
    expect(api.find('GET', '/admin/stock/transfer/list')[0].query.get('limit')).toBe('10');
    await user.selectOptions(screen.getByLabelText('Store'), '2');
    await waitFor(() => expect(api.find('GET', '/admin/stock/transfer/list').at(-1)!.query.get('store')).toBe('2'));
  });

  it('a new transfer: lines by scanning (a second scan adds one), two different stores, posted as the server reads it', async () => {
    const api = fakeApi({
      'GET /products': (req: { query: URLSearchParams }) => hydra(req.query.get('barcode') === milk.barcode ? [milk] : []),
      'POST /admin/stock/transfer/create': { transfer: transfer({ id: 8, number: 4, status: 'requested' }) },
    });
    const user = userEvent.setup();
    const { router } = renderWithProviders(<TransferNewPage />, { route: '/admin/stock/transfers/new' });
    const scan = await screen.findByLabelText('Scan or type a barcode', { selector: 'input' });
    await user.type(scan, '999{Enter}');
    expect(await screen.findByText('No product has the barcode 999.')).toBeInTheDocument();
    await user.type(scan, `${milk.barcode}{Enter}`);
    const qty = await screen.findByLabelText('Quantity of Fresh Milk');
    await user.type(scan, `${milk.barcode}{Enter}`);
    await waitFor(() => expect(qty).toHaveValue('2'));

    await user.selectOptions(screen.getByLabelText(/^To store/), '1');
    await user.click(screen.getByRole('button', { name: 'Request transfer' }));
    expect(await screen.findByText('The receiving store should differ from the sending store.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/stock/transfer/create')).toHaveLength(0);

    await user.selectOptions(screen.getByLabelText(/^To store/), '2');
    await user.clear(qty);
    await user.type(qty, '2.5');
    await user.click(screen.getByRole('button', { name: 'Request transfer' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/transfer/create')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/transfer/create')[0].body).toEqual({ fromStore: 1, toStore: 2, lines: [{ product: 11, variant: null, quantity: '2.5' }] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/stock/transfers/8'));
  });

  it('sending: what is packed per line, asked first; the server\'s refusal shows under the line', async () => {
    const requested = transfer({ status: 'requested', sentAt: null, sentBy: null, lines: [{ ...transfer().lines![0], sent: null, inTransit: 0 }] });
    let refuse = true;
    const api = fakeApi({
      'GET /admin/stock/transfer/5': { transfer: requested },
      'POST /admin/stock/transfer/5/send': () => (refuse
        ? unprocessable([{ propertyPath: 'lines[0].quantity', message: 'Only 4 in stock at the sending store.' }])
        : { transfer: transfer() }),
    });
    const user = userEvent.setup();
    renderWithProviders(<TransferDetailPage id={5} browserPrint={vi.fn()} />);
    const packed = await screen.findByLabelText('Quantity to send: Fresh Milk');
    expect(packed).toHaveValue('6');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, please' }));
    expect(await screen.findByText('Only 4 in stock at the sending store.', { selector: '.field-error' })).toBeInTheDocument();
    expect(api.find('POST', '/admin/stock/transfer/5/send')[0].body).toEqual({ lines: [{ id: 91, quantity: '6' }] });
    refuse = false;
    await user.clear(packed);
    await user.type(packed, '4');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/transfer/5/send')).toHaveLength(2));
    expect(api.find('POST', '/admin/stock/transfer/5/send')[1].body).toEqual({ lines: [{ id: 91, quantity: '4' }] });
    expect(await screen.findByText('In transit', { selector: '.badge' })).toBeInTheDocument();
  });

  it('receiving less than was sent asks for the reason, then posts the received quantity and the reason', async () => {
    const api = fakeApi({
      'GET /admin/stock/transfer/5': { transfer: transfer() },
      'POST /admin/stock/transfer/5/receive': { transfer: transfer({ status: 'received', lossReason: 'crushed', receivedAt: '2026-11-27T10:00:00Z' }) },
    });
    const user = userEvent.setup();
    renderWithProviders(<TransferDetailPage id={5} browserPrint={vi.fn()} />);
    const got = await screen.findByLabelText('Received quantity: Fresh Milk');
    expect(got).toHaveValue('6');
    await user.clear(got);
    await user.type(got, '5');
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    expect(await screen.findByLabelText(/^Reason for what is missing/)).toHaveAccessibleDescription(/Required when less arrived than was sent/);
    expect(api.find('POST', '/admin/stock/transfer/5/receive')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^Reason for what is missing/), 'crushed');
    await user.click(screen.getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/transfer/5/receive')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/transfer/5/receive')[0].body).toEqual({ lines: [{ id: 91, quantity: '5' }], lossReason: 'crushed' });
    expect(await screen.findByText('Received', { selector: '.badge' })).toBeInTheDocument();
  });

  it('prints the packing list on the network printer, or through the browser without one', async () => {
    const api = fakeApi({
      'GET /admin/stock/transfer/5': { transfer: transfer({ status: 'requested', sent: null } as Partial<Transfer>) },
      'POST /print/transfer/5': { id: 1, status: 'printed', attempts: 1, lastError: null, opensDrawer: false, kind: 'packing-list' },
    });
    const user = userEvent.setup();
    const browserPrint = vi.fn();
    const { unmount } = renderWithProviders(<TransferDetailPage id={5} browserPrint={browserPrint} />);
    await user.click(await screen.findByRole('button', { name: 'Print packing list' }));
    expect(browserPrint).toHaveBeenCalledTimes(1);
    const node = browserPrint.mock.calls[0][0] as HTMLElement;
    expect(node.textContent).toContain('Packing list · Transfer 3');
    expect(node.textContent).toContain('Main Street → Harbour Mall');
    expect(node.textContent).toContain('Fresh Milk');
    expect(api.find('POST', '/print/transfer/5')).toHaveLength(0);
    unmount();

    renderWithProviders(<TransferDetailPage id={5} printer={{ id: 4, name: 'Back room' }} browserPrint={browserPrint} />);
    await user.click(await screen.findByRole('button', { name: 'Print packing list' }));
    await waitFor(() => expect(api.find('POST', '/print/transfer/5')).toHaveLength(1));
    expect(api.find('POST', '/print/transfer/5')[0].body).toEqual({ device: 4 });
    expect(await screen.findByText('Packing list sent to Back room')).toBeInTheDocument();
    expect(browserPrint).toHaveBeenCalledTimes(1);
  });
});

describe('stock counts', () => {
  it('a partial count names its category; without one it says what to choose', async () => {
    const api = fakeApi({
      'GET /categories': hydra([{ id: 3, name: 'Dairy' }, { id: 4, name: 'Bakery' }]),
      'POST /admin/stock/count/create': { count: { id: 9, number: 5, status: 'open', store: mall, scope: 'category', scopeId: 4 } },
    });
    const user = userEvent.setup();
    const { router } = renderWithProviders(<CountNewPage />, { route: '/admin/stock/counts/new' });
    await user.selectOptions(await screen.findByLabelText(/^Store/), '2');
    await user.selectOptions(screen.getByLabelText(/^What to count/), 'category');
    await user.click(screen.getByRole('button', { name: 'Start count' }));
    expect(await screen.findByText('Please choose what to count.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/stock/count/create')).toHaveLength(0);
    await screen.findByRole('option', { name: 'Bakery' });
    await user.selectOptions(screen.getByLabelText(/^Which one/), '4');
    await user.click(screen.getByRole('button', { name: 'Start count' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/count/create')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/count/create')[0].body).toEqual({ store: 2, scope: 'category', scopeId: 4 });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/stock/counts/9'));
  });

  it('a location count asks for the shelf location and sends it (issue 25.2)', async () => {
    const api = fakeApi({
      'POST /admin/stock/count/create': { count: { id: 10, number: 6, status: 'open', store: mall, scope: 'location', scopeId: null, location: 'A3' } },
    });
    const user = userEvent.setup();
    const { router } = renderWithProviders(<CountNewPage />, { route: '/admin/stock/counts/new' });
    await user.selectOptions(await screen.findByLabelText(/^Store/), '2');
    await user.selectOptions(screen.getByLabelText(/^What to count/), 'location');
    await user.click(screen.getByRole('button', { name: 'Start count' }));
    expect(await screen.findByText('Please give the shelf location to count.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/stock/count/create')).toHaveLength(0);
    await user.type(screen.getByLabelText(/^Shelf location/), ' A3 ');
    await user.click(screen.getByRole('button', { name: 'Start count' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/count/create')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/count/create')[0].body).toEqual({ store: 2, scope: 'location', scopeId: null, location: 'A3' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/stock/counts/10'));
  });

  const line = (counted: number) => ({ id: 1, product: milk, expected: 8, counted, variance: counted - 8, cost: 2.5, varianceValue: (counted - 8) * 2.5, scans: 1, movedSinceFirstCount: -1 });
  const count = (over: Partial<StockCount> = {}): StockCount => ({
    id: 4, number: 2, status: 'open', store: main, scope: 'full', scopeId: null, createdBy: who, createdAt: '2026-11-27T08:00:00Z',
    lines: [line(6)], totals: { lines: 1, variance: -2, varianceValue: -5, uncounted: 12 }, ...over,
  });

  it('a scan adds the quantity box to its product; the variance is shown at cost; approving asks first', async () => {
    let current = count();
    const api = fakeApi({
      'GET /admin/stock/count/4': () => ({ count: current }),
      'POST /admin/stock/count/4/lines': (req: { body: { lines: { quantity: string }[] } }) => {
        current = count({ lines: [line(6 + Number(req.body.lines[0].quantity))], totals: { lines: 1, variance: 1, varianceValue: 2.5, uncounted: 12 } });
        return { count: current };
      },
      'POST /admin/stock/count/4/approve': () => ({ count: (current = { ...current, status: 'approved' }) }),
    });
    const user = userEvent.setup();
    renderWithProviders(<CountDetailPage id={4} />);
    expect(await screen.findByTestId('count-variance-value')).toHaveTextContent('-$5.00');
    // One sold while counting: shown beside the line, not counted as a variance.
    expect(screen.getByTitle(/Sales during the count/)).toHaveTextContent('-1');
    const qty = screen.getByLabelText('Quantity');
    await user.clear(qty);
    await user.type(qty, '3');
    await user.type(screen.getByLabelText('Barcode', { selector: 'input' }), `${milk.barcode}{Enter}`);
    await waitFor(() => expect(api.find('POST', '/admin/stock/count/4/lines')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/count/4/lines')[0].body).toEqual({ lines: [{ barcode: milk.barcode, quantity: '3' }] });
    expect(await screen.findByText('Fresh Milk: 9 counted')).toBeInTheDocument();
    expect(screen.getByTestId('count-variance-value')).toHaveTextContent('$2.50');
    expect(qty).toHaveValue('1');
    // The scan box sits on a tablet: big enough to hit.
    expect(screen.getByRole('button', { name: 'Count +1' })).toHaveClass('stock-touch');

    await user.click(screen.getByRole('button', { name: 'Approve count' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Approve count 2? The stock of 1 products becomes the counted quantity (variance $2.50 at cost).');
    await user.click(within(dialog).getByRole('button', { name: 'No, wait' }));
    expect(api.find('POST', '/admin/stock/count/4/approve')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Approve count' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/count/4/approve')).toHaveLength(1));
    expect(await screen.findByText('Approved', { selector: '.badge' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Barcode', { selector: 'input' })).not.toBeInTheDocument();
  });
});

describe('stock adjustments', () => {
  it('a reason that takes stock out refuses a positive quantity; the booked lines carry reason and note', async () => {
    const api = fakeApi({
      'GET /products': hydra([milk]),
      'POST /admin/stock/adjustment/create': (req: { body: { lines: unknown[] } }) => (req.body.lines.length ? { adjustment: { id: 3, number: 1, store: main } } : unprocessable([])),
    });
    const user = userEvent.setup();
    renderWithProviders(<AdjustmentNewPage />);
    await user.type(await screen.findByLabelText('Scan or type a barcode', { selector: 'input' }), `${milk.barcode}{Enter}`);
    const qty = await screen.findByLabelText('Quantity of Fresh Milk');
    await user.clear(qty);
    await user.type(qty, '2');
    await user.selectOptions(screen.getByLabelText('Reason: Fresh Milk'), 'theft');
    await user.click(screen.getByRole('button', { name: 'Book adjustment' }));
    expect(await screen.findByText('Theft takes stock out: enter a negative quantity.')).toBeInTheDocument();
    expect(api.find('POST', '/admin/stock/adjustment/create')).toHaveLength(0);
    await user.clear(qty);
    await user.type(qty, '-2');
    await user.type(screen.getByLabelText('Line note: Fresh Milk'), 'shelf 3');
    await user.click(screen.getByRole('button', { name: 'Book adjustment' }));
    await waitFor(() => expect(api.find('POST', '/admin/stock/adjustment/create')).toHaveLength(1));
    expect(api.find('POST', '/admin/stock/adjustment/create')[0].body).toEqual({
      store: 1, lines: [{ product: 11, variant: null, quantity: '-2', reason: 'theft', note: 'shelf 3' }],
    });
  });
});
