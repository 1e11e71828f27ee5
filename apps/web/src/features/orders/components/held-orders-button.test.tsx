import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import type { Order } from '@/features/catalogue-cache/types';
import { cartStore } from '@/features/cart/cart-store';
import { emptyCart } from '@/features/cart/cart-logic';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { HeldOrdersButton } from './held-orders-button';

vi.setConfig({ testTimeout: 20_000 });

const held = (id: number, at: string, total: number, customerName: string | null): Order => ({
  id, orderId: null, status: 'On Hold', createdAt: at, total, grandTotal: total, customerName,
  items: [{ product: { id: 1, name: 'Milk', barcode: '1', basePrice: total }, quantity: 1, price: total }],
  payments: [],
} as unknown as Order);

let orders: Order[];
beforeEach(() => {
  signIn();
  cartStore.set(emptyCart());
  orders = [held(41, '2026-11-27T09:00:00Z', 12.5, 'Wafa'), held(42, '2026-11-27T09:30:00Z', 3, null)];
});
afterEach(() => vi.unstubAllGlobals());

function setup() {
  const api = fakeApi({
    'GET /orders': () => hydra(orders),
    'DELETE /admin/order/:id': (req: { path: string }) => {
      const id = Number(req.path.split('/').pop());
      orders = orders.filter((o) => o.id !== id);
      return { removed: true };
    },
  });
  const onResume = vi.fn();
  renderWithProviders(<HeldOrdersButton storeId={1} terminalId={1} onResume={onResume} />);
  return { api, onResume };
}

describe('Held (n) on the sale screen', () => {
  it("counts this terminal's held sales and resumes one in one tap", async () => {
    const { api, onResume } = setup();
    const button = await screen.findByRole('button', { name: 'Held (2)' });
    expect(api.find('GET', '/orders')[0].query.get('status')).toBe('On Hold');
    expect(api.find('GET', '/orders')[0].query.get('terminal.id')).toBe('1');
    await userEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Held sales' });
    const first = within(dialog).getAllByRole('button', { name: /^Resume the sale held at/ })[0];
    expect(first).toHaveTextContent('Wafa');
    expect(first).toHaveTextContent('$12.50');
    await userEvent.click(first);
    expect(onResume).toHaveBeenCalledWith(expect.objectContaining({ id: 41 }));
    expect(screen.queryByRole('dialog', { name: 'Held sales' })).toBeNull();
    // Resuming is the till's (it deletes with unsuspend: true); the list itself deleted nothing.
    expect(api.find('DELETE', '/admin/order/41')).toHaveLength(0);
  });

  it('deleting a held sale asks first; No keeps it, Yes deletes it (no resume flag) and the count follows', async () => {
    const { api, onResume } = setup();
    await userEvent.click(await screen.findByRole('button', { name: 'Held (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Held sales' });
    await userEvent.click(within(dialog).getAllByRole('button', { name: /^Delete the sale held at/ })[1]);
    const ask = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(ask).toHaveTextContent('$3.00');
    await userEvent.click(within(ask).getByRole('button', { name: 'No, wait' }));
    expect(api.find('DELETE', '/admin/order/42')).toHaveLength(0);
    await userEvent.click(within(dialog).getAllByRole('button', { name: /^Delete the sale held at/ })[1]);
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('DELETE', '/admin/order/42')).toHaveLength(1));
    expect(api.find('DELETE', '/admin/order/42')[0].body).toBeUndefined();
    expect(await screen.findByRole('button', { name: 'Held (1)' })).toBeInTheDocument();
    expect(onResume).not.toHaveBeenCalled();
  });

  it('a cart with lines asks before a held sale replaces it', async () => {
    const { onResume } = setup();
    cartStore.set({ ...emptyCart(), added: [{ id: 'x' } as never] });
    await userEvent.click(await screen.findByRole('button', { name: 'Held (2)' }));
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Held sales' })).getAllByRole('button', { name: /^Resume the sale held at/ })[0]);
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'No, wait' }));
    expect(onResume).not.toHaveBeenCalled();
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Held sales' })).getAllByRole('button', { name: /^Resume the sale held at/ })[0]);
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Confirmation' })).getByRole('button', { name: 'Yes, please' }));
    expect(onResume).toHaveBeenCalledWith(expect.objectContaining({ id: 41 }));
  });
});
