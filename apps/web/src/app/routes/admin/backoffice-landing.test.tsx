import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { AdminShell } from '@/features/admin/components/admin-shell';
import { fakeApi } from '@/features/list-table/testing/fake-api';
import { setLanguage } from '@/lib/i18n';
import { resetSession, startSession, type User } from '@/lib/session';
import { routes } from '../../router';
import { TillUserMenu } from '../till-user-menu';

vi.mock('../pos', () => ({ PosRoute: () => <h1>Till</h1> }));
vi.setConfig({ testTimeout: 20_000 });

const stores = [
  { id: 1, name: 'Main Street', currency: 'USD', terminals: [{ id: 1, code: 'T1' }] },
  { id: 2, name: 'Harbour Mall', currency: 'USD', terminals: [{ id: 2, code: 'M1' }] },
];
const owner: User = { id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores };
const cashier: User = { id: 2, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'], permissions: ['customer.payments', 'sale.refund'], stores };
const manager = (permissions: string[]): User => ({ id: 3, username: 'sam', displayName: 'Sam', roles: ['ROLE_USER'], permissions, stores });

beforeEach(() => {
  clearCookies();
  resetSession();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => setLanguage('en'));
  localStorage.clear();
});

function dashboardApi(user: User) {
  return fakeApi({
    'GET /setup': { needed: false },
    'POST /auth/login_check': { token: 'jwt' },
    'GET /auth/info': { user },
    'GET /admin/closing/open': {
      list: [{ closing: 5, store: { id: 1, name: 'Main Street' }, terminal: { id: 1, code: 'T1' }, openedAt: '2026-11-27T08:00:00Z', openedBy: 'Cashier' }], count: 1,
    },
    'GET /admin/backups': { backups: [], last: { name: 'b.sql.gz', size: 10, createdAt: '2026-11-26T23:00:00Z', kind: 'daily' }, directory: '/x', daily: true, retention: { daily: 7, weekly: 4 } },
    'GET /reports/sales': (req: { query: URLSearchParams }) => ({
      currency: 'USD', digits: 2, timeZone: 'UTC', rows: [], totals: req.query.get('store') === '1' ? { gross: 1234, orders: 3 } : { gross: 0, orders: 0 },
    }),
  });
}

async function signInAt(route: string, username: string) {
  const rendered = renderWithProviders(null, { routes, route });
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), username);
  await user.click(screen.getByRole('button', { name: 'Login' }));
  return { ...rendered, user };
}

describe('where each role lands (issue 23)', () => {
  it('an owner signing in at / lands on the back-office dashboard: sales today, open tills, last backup', async () => {
    const api = dashboardApi(owner);
    const { router } = await signInAt('/', 'admin');
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument(); // no store chooser on the way
    const sales = await screen.findByTestId('today-sales-tile');
    await waitFor(() => expect(within(sales).getByText('$12.34')).toBeInTheDocument());
    expect(within(sales).getByText('3 orders')).toBeInTheDocument();
    // One report per store, for today.
    expect(api.find('GET', '/reports/sales').map((r) => r.query.get('store')).sort()).toEqual(['1', '2']);
    expect(api.find('GET', '/reports/sales')[0].query.get('from')).toBe(api.find('GET', '/reports/sales')[0].query.get('to'));
    expect(await screen.findByRole('heading', { name: '1 open till' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByText('Main Street · T1')).toBeInTheDocument();
    expect(within(screen.getByTestId('last-backup-tile')).getByText(/27-11-2026|26-11-2026/)).toBeInTheDocument();
  });

  it('a cashier signing in at / gets the till (its store/terminal chooser), not the back office', async () => {
    dashboardApi(cashier);
    const { router, user } = await signInAt('/', 'cashier');
    await user.click(await screen.findByRole('button', { name: 'Main Street' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'T1' }));
    expect(await screen.findByRole('heading', { name: 'Till' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pos');
  });

  it('an owner sent to the login from a till page goes back there, not to the back office', async () => {
    dashboardApi(owner);
    const { router, user } = await signInAt('/pos', 'admin');
    await user.click(await screen.findByRole('button', { name: 'Main Street' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'T1' }));
    expect(await screen.findByRole('heading', { name: 'Till' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pos');
  });
});

describe('switching between the till and the back office', () => {
  it('the till offers "Back office" only to a user allowed there', () => {
    startSession(owner);
    const { unmount } = renderWithProviders(<TillUserMenu />);
    expect(screen.getByRole('link', { name: 'Back office' })).toHaveAttribute('href', '/admin/dashboard');
    unmount();
    startSession(cashier);
    renderWithProviders(<TillUserMenu />);
    expect(screen.queryByRole('link', { name: 'Back office' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Account/ })).toBeInTheDocument();
  });

  it('the user menu holds the language switch and closes on Escape', async () => {
    startSession(cashier);
    renderWithProviders(<TillUserMenu />);
    const user = userEvent.setup();
    const menu = screen.getByRole('button', { name: /Account/ });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    await user.click(menu);
    const panel = screen.getByRole('group', { name: 'Menu of Cashier' });
    expect(within(panel).getByRole('button', { name: 'العربية' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Menu of Cashier' })).not.toBeInTheDocument();
    expect(menu).toHaveFocus();
  });
});

describe('the back-office navigation follows the permissions', () => {
  const links = (user: User) => {
    const { unmount } = renderWithProviders(<AdminShell user={user} signOut={null}><p>page</p></AdminShell>);
    const names = within(screen.getByRole('navigation', { name: 'Main menu' })).getAllByRole('link').map((a) => a.textContent);
    const till = screen.getByRole('link', { name: 'Till' }).getAttribute('href');
    unmount();
    return { names, till };
  };

  it('shows each page only to a role that may use it, in the issue order', () => {
    expect(links(owner).names).toEqual(['Dashboard', 'Catalogue', 'Stock', 'To order', 'Purchasing', 'Customers', 'Staff', 'Reports', 'Settings', 'Audit log', 'Backups']);
    expect(links(manager(['reports.view'])).names).toEqual(['Dashboard', 'Stock', 'Customers', 'Reports']);
    expect(links(manager(['users', 'products.manage'])).names).toEqual(['Dashboard', 'Catalogue', 'Stock', 'Customers', 'Staff', 'Settings']);
    expect(links(manager(['settings'])).names).toEqual(['Dashboard', 'Stock', 'Customers', 'Settings', 'Backups']);
    expect(links(owner).till).toBe('/pos');
  });
});
