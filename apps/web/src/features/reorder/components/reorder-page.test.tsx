import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { ReorderPage } from './reorder-page.tsx';
import { LowStockTile } from './low-stock-tile.tsx';

vi.setConfig({ testTimeout: 20_000 });

const line = (id: number, name: string, stock: number, level: number, suggested: number, cost: number, value: number) => ({
  product: { id, name, sku: null, barcode: null }, stock, level, reorderQuantity: null, suggested, cost, value,
});
const list = {
  store: 1, count: 3,
  suppliers: [
    { supplier: { id: 4, name: 'Fresh Farms' }, value: 144, lines: [line(11, 'Milk 1L', 50, 50, 24, 6, 144)] },
    { supplier: { id: 9, name: 'Bakery Co' }, value: 12.5, lines: [line(12, 'Bread', 20, 25, 5, 2.5, 12.5)] },
    { supplier: null, value: 3, lines: [line(13, 'Local honey', 0, 1, 1, 3, 3)] },
  ],
};

beforeEach(() => {
  clearCookies();
  signIn({ currency: 'USD' });
  writeCookie(COOKIE.token, 'jwt-owner');
});

describe('the "to order" page and the low-stock tile (issue 25.4)', () => {
  it('shows the list grouped by supplier with quantities and values in the store currency; one click makes the draft orders', async () => {
    let ordered = false;
    const api = fakeApi({
      'GET /stock/reorder': () => (ordered ? { store: 1, count: 0, suppliers: [] } : list),
      'POST /stock/reorder/purchase-orders': () => { ordered = true; return { purchaseOrders: [{ '@id': '/api/purchase_orders/31', id: 31 }, { '@id': '/api/purchase_orders/32', id: 32 }] }; },
    });
    const user = userEvent.setup();
    renderWithProviders(<ReorderPage />);
    const groups = await screen.findAllByTestId('reorder-group');
    expect(groups.map((g) => within(g).getByRole('heading').textContent)).toEqual(['Fresh Farms $144.00', 'Bakery Co $12.50', expect.stringContaining('No supplier')]);
    const bread = within(groups[1]).getByRole('row', { name: /Bread/ });
    expect(within(bread).getAllByRole('cell').map((c) => c.textContent)).toEqual(['Bread', '20', '25', '5', '$2.50', '$12.50']);
    expect(Object.fromEntries(api.find('GET', '/stock/reorder')[0].query)).toEqual({ store: '1' });

    await user.click(screen.getByRole('button', { name: 'Create draft purchase orders' }));
    await waitFor(() => expect(api.find('POST', '/stock/reorder/purchase-orders')).toHaveLength(1));
    expect(api.find('POST', '/stock/reorder/purchase-orders')[0].body).toEqual({ store: 1 });
    expect(await screen.findByText('2 draft purchase orders created')).toBeInTheDocument();
    expect(await screen.findByText('Nothing is at or below its re-order level.')).toBeInTheDocument();
  });

  it('the dashboard tile counts the low products of the store and names the first few', async () => {
    const api = fakeApi({ 'GET /stock/low': () => ({ store: 1, count: 7, products: [{ id: 11, name: 'Milk 1L', stock: 2, level: 5, supplier: null }] }) });
    renderWithProviders(<LowStockTile />);
    const tile = await screen.findByTestId('low-stock-tile');
    expect(within(tile).getByRole('heading')).toHaveTextContent('7 products low in stock at Main Street');
    expect(tile).toHaveTextContent('Milk 1L: 2 (level 5)');
    expect(within(tile).getByRole('link', { name: 'To order' })).toHaveAttribute('href', '/admin/stock/reorder');
    expect(Object.fromEntries(api.find('GET', '/stock/low')[0].query)).toEqual({ store: '1', limit: '5' });
  });
});
