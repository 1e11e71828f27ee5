import { useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { RunningOrdersScreen, matchesRunningOrder } from './running-orders-screen';
import { signIn } from '@/features/list-table/testing/fake-api';
import { resetSession } from '@/lib/session';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const order = (id: number, orderId: number, terminal: string, customer: string | null, total: number): Order => ({
  id, orderId, createdAt: '2024-03-05T14:07:00', status: 'Pending', items: [], payments: [], total, grandTotal: total,
  terminal: { id, code: terminal }, store: { id: 1, name: 'Main Street' }, user: { displayName: 'Cashier' },
  customer: customer ? { id: 1, name: customer } : null,
});
let orders = [order(1, 11, 'T1', 'Aisha Khan', 12.5), order(2, 12, 'T2', null, 40)];
const usdOrders = orders;

const fetchMock = vi.fn<typeof fetch>();
const sizes = ['clientHeight', 'clientWidth'] as const;
beforeAll(() => {
  for (const key of sizes) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => 600 });
});
afterAll(() => {
  for (const key of sizes) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
});
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation((url) => {
    const u = String(url);
    if (u.startsWith('/api/terminals')) return Promise.resolve(jsonResponse({ 'hydra:member': [{ id: 1, code: 'T1' }, { id: 2, code: 'T2' }] }));
    const terminal = new URL(u, 'http://x').searchParams.get('terminal.id');
    return Promise.resolve(jsonResponse({ 'hydra:member': terminal ? orders.filter((o) => String(o.terminal?.id) === terminal) : orders }));
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('RunningOrdersScreen (payment mode)', () => {
  it('lists the pending orders of the store, filters by terminal and text, and selects one', async () => {
    const onSelect = vi.fn();
    function Harness() {
      const [selected, setSelected] = useState<number | null>(null);
      return <RunningOrdersScreen storeId={1} selectedId={selected} onSelect={(o) => { onSelect(o); setSelected(o.id); }} cart={<p>cart slot</p>} payment={<p>payment slot</p>} />;
    }
    renderWithProviders(<Harness />);
    expect(await screen.findByRole('option', { name: /Order# 11 T1 Aisha Khan \$12\.5/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Order# 12 T2/ })).toBeInTheDocument();
    expect(String(fetchMock.mock.calls.find(([u]) => String(u).startsWith('/api/orders'))![0])).toBe('/api/orders?status=Pending&store.id=1&itemsPerPage=100');
    expect(screen.getByText('cart slot')).toBeInTheDocument();
    expect(screen.getByText('payment slot')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByLabelText('Terminal'), 'T2');
    await waitFor(() => expect(screen.queryByRole('option', { name: /Order# 11/ })).toBeNull());
    await userEvent.selectOptions(screen.getByLabelText('Terminal'), 'All terminals');
    await userEvent.type(screen.getByLabelText('Search'), 'aisha');
    await waitFor(() => expect(screen.queryByRole('option', { name: /Order# 12/ })).toBeNull());

    await userEvent.click(screen.getByRole('option', { name: /Order# 11/ }));
    expect(onSelect).toHaveBeenCalledWith(orders[0]);
    const detail = screen.getByRole('region', { name: 'Order details' });
    expect(detail).toHaveTextContent('05-03-2024 02:07 PM');
    expect(detail).toHaveTextContent('Main Street');
    expect(detail).toHaveTextContent('Cashier');
  });

  it("shows the amounts in the store's currency: KWD with its fils, JPY in whole yen (issue 19)", async () => {
    onTestFinished(() => { resetSession(); orders = usdOrders; });
    signIn({ currency: 'KWD', locale: 'en-US' });
    orders = [order(1, 11, 'T1', 'Aisha Khan', 1.275), order(2, 12, 'T2', null, 2.5)];
    const { unmount } = renderWithProviders(<RunningOrdersScreen storeId={1} selectedId={null} onSelect={() => {}} cart={null} payment={null} />);
    expect(await screen.findByRole('option', { name: /Order# 11 T1 Aisha Khan KWD\s1\.275$/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: /Order# 12 T2 KWD\s2\.500$/ })).toBeInTheDocument();
    expect(matchesRunningOrder(orders[0], '1.275', 3)).toBe(true);
    unmount();
    signIn({ currency: 'JPY', locale: 'en-US' });
    orders = [order(3, 13, 'T1', null, 1075)];
    renderWithProviders(<RunningOrdersScreen storeId={1} selectedId={null} onSelect={() => {}} cart={null} payment={null} />);
    expect(await screen.findByRole('option', { name: /Order# 13 T1 ¥1,075$/ }, { timeout: 5000 })).toBeInTheDocument();
  });

  it('searches order number, terminal, customer and amount', () => {
    expect(matchesRunningOrder(orders[1], '12')).toBe(true);
    expect(matchesRunningOrder(orders[1], 't2')).toBe(true);
    expect(matchesRunningOrder(orders[1], '40')).toBe(true);
    expect(matchesRunningOrder(orders[1], 'aisha')).toBe(false);
  });
});
