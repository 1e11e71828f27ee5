import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { startSession } from '@/lib/session';
import type { PickerSlot } from './stock-common.tsx';
import { MovementsPage } from './movements-page.tsx';

vi.setConfig({ testTimeout: 20_000 });

const main = { id: 1, name: 'Main Street', terminals: [], currency: 'USD', timeZone: 'UTC' };
const mall = { id: 2, name: 'Harbour Mall', terminals: [], currency: 'USD', timeZone: 'UTC' };

beforeEach(() => {
  const { user } = signIn();
  startSession({ ...user, stores: [main, mall] });
});

const who = { id: 7, username: 'carla', displayName: 'Carla' };
/** The picker of the back office, as a button: picks Fresh Milk. */
const picker: PickerSlot = (onPick) => (
  <button type="button" onClick={() => onPick({ product: { id: 11, name: 'Fresh Milk', sku: 'MLK' }, variant: null })}>Pick milk</button>
);

describe('stock movements of one product (issue 25.6)', () => {
  it('lists every movement with its reason, document (stock documents linked to their page), who and the balance; filters by store; downloads CSV', async () => {
    const created = vi.fn(() => 'blob:movements');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }); // jsdom has no blob URLs
    const none = { order: null, purchase: null, document: null };
    const api = fakeApi({
      'GET /stock/movements': (r: { query: URLSearchParams }) => (r.query.get('format') === 'csv'
        ? new Response('Time,Store\r\n', { status: 200, headers: { 'content-type': 'text/csv' } })
        : {
          product: { id: 11, name: 'Fresh Milk' }, total: 6,
          list: [
            { id: 6, at: '2026-11-27T12:00:00Z', store: main, reason: 'transfer_out', quantity: -2, balance: 14, cost: 2.5, ...none, document: { kind: 'transfer', id: 31, number: 4 }, user: who },
            { id: 5, at: '2026-11-27T11:00:00Z', store: main, reason: 'count', quantity: 1, balance: 16, cost: 2.5, ...none, document: { kind: 'count', id: 12, number: 2 }, user: who },
            { id: 3, at: '2026-11-27T10:00:00Z', store: main, reason: 'damage', quantity: -1, balance: 15, cost: 2.5, ...none, document: { kind: 'adjustment', id: 8, number: 3 }, user: who },
            { id: 2, at: '2026-11-27T09:00:00Z', store: main, reason: 'sale', quantity: -3, balance: 16, cost: 2.5, ...none, order: { id: 40, number: 1040 }, document: { kind: 'order', id: 40, number: 1040 }, user: who },
            { id: 1, at: '2026-11-26T09:00:00Z', store: main, reason: 'purchase', quantity: 20, balance: 19, cost: 2.5, ...none, purchase: { id: 5, purchaseNumber: 'P-5' }, document: { kind: 'purchase', id: 5, number: 'P-5' }, user: who },
            { id: 0, at: '2026-11-25T09:00:00Z', store: main, reason: 'adjustment', quantity: -1, balance: -1, cost: 2.5, ...none, user: null },
          ],
        }),
    });
    const user = userEvent.setup();
    renderWithProviders(<MovementsPage picker={picker} />, { route: '/admin/stock/movements' });
    expect(screen.getByText('Choose a product to see every movement of its stock.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pick milk' }));
    const table = await screen.findByRole('table', { name: 'Stock movements' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows.map((r) => r.slice(3))).toEqual([
      ['Transfer 4', 'Carla', '-2', '14'],
      ['Count 2', 'Carla', '+1', '16'],
      ['Adjustment 3', 'Carla', '-1', '15'],
      ['Order #1040', 'Carla', '-3', '16'],
      ['Purchase P-5', 'Carla', '+20', '19'],
      ['', '', '-1', '-1'],
    ]);
    expect(rows[2][2]).toBe('Damage');
    expect(within(table).getByRole('link', { name: 'Transfer 4' })).toHaveAttribute('href', '/admin/stock/transfers/31');
    expect(within(table).getByRole('link', { name: 'Count 2' })).toHaveAttribute('href', '/admin/stock/counts/12');
    expect(within(table).getByRole('link', { name: 'Adjustment 3' })).toHaveAttribute('href', '/admin/stock/adjustments/8');
    expect(within(table).queryByRole('link', { name: 'Order #1040' })).not.toBeInTheDocument();
    expect(Object.fromEntries(api.find('GET', '/stock/movements')[0].query)).toMatchObject({ product: '11', page: '1' });
    await user.selectOptions(screen.getByLabelText('Store'), '2');
    await waitFor(() => expect(api.find('GET', '/stock/movements').at(-1)!.query.get('store')).toBe('2'));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(api.find('GET', '/stock/movements').at(-1)!.query)).toEqual({ product: '11', store: '2', format: 'csv' });
  });
});
