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
  it('lists every movement with its reason, document, who and the balance; filters by store', async () => {
    const api = fakeApi({
      'GET /stock/movements': {
        product: { id: 11, name: 'Fresh Milk' }, total: 3,
        list: [
          { id: 3, at: '2026-11-27T10:00:00Z', store: main, reason: 'damage', quantity: -1, balance: 16, cost: 2.5, order: null, purchase: null, user: who },
          { id: 2, at: '2026-11-27T09:00:00Z', store: main, reason: 'sale', quantity: -3, balance: 17, cost: 2.5, order: { id: 40, number: 1040 }, purchase: null, user: who },
          { id: 1, at: '2026-11-26T09:00:00Z', store: main, reason: 'purchase', quantity: 20, balance: 20, cost: 2.5, order: null, purchase: { id: 5, purchaseNumber: 'P-5' }, user: who },
        ],
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<MovementsPage picker={picker} />, { route: '/admin/stock/movements' });
    expect(screen.getByText('Choose a product to see every movement of its stock.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pick milk' }));
    const table = await screen.findByRole('table', { name: 'Stock movements' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows.map((r) => r.slice(2))).toEqual([
      ['Damage', '', 'Carla', '-1', '16'],
      ['Sale', 'Order #1040', 'Carla', '-3', '17'],
      ['Purchase received', 'Purchase P-5', 'Carla', '+20', '20'],
    ]);
    expect(Object.fromEntries(api.find('GET', '/stock/movements')[0].query)).toMatchObject({ product: '11', page: '1' });
    await user.selectOptions(screen.getByLabelText('Store'), '2');
    await waitFor(() => expect(api.find('GET', '/stock/movements').at(-1)!.query.get('store')).toBe('2'));
  });
});
