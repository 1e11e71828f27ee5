import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import type { User } from '@/lib/session';
import { StoreTerminalChooser } from './store-terminal-chooser';

const cashier: User = {
  id: 2, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'],
  stores: [{ id: 1, name: 'Main Street', terminals: [{ id: 1, code: 'T1' }] }],
};
const admin: User = {
  id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'],
  stores: [
    { id: 1, name: 'Main Street', terminals: [{ id: 1, code: 'T1' }] },
    { id: 2, name: 'Harbour Mall', terminals: [{ id: 2, code: 'M1' }, { id: 3, code: 'M2' }] },
  ],
};

afterEach(() => vi.useRealTimers());

describe('StoreTerminalChooser', () => {
  it('picks the only store and terminal by itself after 300 ms', () => {
    vi.useFakeTimers();
    const onSelect = vi.fn();
    renderWithProviders(<StoreTerminalChooser user={cashier} onSelect={onSelect} />);
    expect(screen.getByRole('dialog', { name: 'Choose a Terminal' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(299));
    expect(onSelect).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSelect).toHaveBeenCalledWith(cashier.stores[0], cashier.stores[0].terminals[0]);
  });

  it('cannot be closed: no close button, Escape and overlay clicks do nothing', () => {
    const onSelect = vi.fn();
    renderWithProviders(<StoreTerminalChooser user={admin} onSelect={onSelect} />);
    const dialog = screen.getByRole('dialog', { name: 'Choose a store' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    fireEvent.mouseDown(dialog.parentElement!);
    expect(screen.getByRole('dialog', { name: 'Choose a store' })).toBeInTheDocument();
    expect(onSelect).not.toHaveBeenCalled();
  });

  it('asks for a store, then a terminal of that store', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    renderWithProviders(<StoreTerminalChooser user={admin} onSelect={onSelect} />);
    expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['Main Street', 'Harbour Mall']);
    await user.click(screen.getByRole('button', { name: 'Harbour Mall' }));
    expect(screen.getByRole('dialog', { name: 'Choose a Terminal' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'M2' }));
    expect(onSelect).toHaveBeenCalledWith(admin.stores[1], admin.stores[1].terminals[1]);
  });

  it('preselects the only store when it has several terminals', () => {
    vi.useFakeTimers();
    const onSelect = vi.fn();
    const user: User = { ...admin, stores: [admin.stores[1]] };
    renderWithProviders(<StoreTerminalChooser user={user} onSelect={onSelect} />);
    expect(screen.getByRole('dialog', { name: 'Choose a Terminal' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'M1' })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1000));
    expect(onSelect).not.toHaveBeenCalled();
  });
});
