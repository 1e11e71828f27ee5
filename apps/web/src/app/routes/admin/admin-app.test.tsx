import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, jsonResponse, renderWithProviders } from '@/test/render';
import { COOKIE, readToken, writeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { resetSession, type User } from '@/lib/session';
import { routes } from '../../router';

vi.mock('../pos', () => ({ PosRoute: () => <h1>Till</h1> }));

const admin: User = { id: 1, username: 'admin', displayName: 'Admin', email: 'admin@example.com', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores: [] };
const cashier: User = { id: 2, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'], stores: [] };

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  clearCookies();
  resetSession();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => setLanguage('en'));
  localStorage.clear();
});

const calls = () => fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
const bodyOf = (i: number) => JSON.parse(String(fetchMock.mock.calls[i][1]!.body));
const renderAdmin = (route: string) => renderWithProviders(null, { routes, route });

describe('admin shell', () => {
  it('/admin without a token is the admin login, and asks nothing', async () => {
    renderAdmin('/admin');
    // The admin pages are loaded lazily: the first import can take seconds on a busy machine.
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('POS Administration')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/admin/forgot-password');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses a cashier with the server message (login_check?role=ROLE_ADMIN, body role ROLE_USER)', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'FORBIDDEN', message: 'Cannot login in this portal' }, 401));
    renderAdmin('/admin');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'cashier');
    await user.type(screen.getByLabelText('Password'), 'cashier');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Cannot login in this portal');
    expect(calls()).toEqual(['POST /api/auth/login_check?role=ROLE_ADMIN']);
    expect(bodyOf(0)).toEqual({ username: 'cashier', password: 'cashier', role: 'ROLE_USER' });
    expect(readToken()).toBeUndefined();
  });

  it('signs an administrator in (auth/info?role=ROLE_ADMIN) and shows the dashboard, header and sidebar', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ token: 'jwt', refresh_token: 'r' })).mockResolvedValueOnce(jsonResponse({ user: admin }))
      .mockImplementation(async () => jsonResponse({ list: [], count: 0, backups: [], last: null }));
    const { router } = renderAdmin('/admin');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/dashboard');
    expect(calls().slice(0, 2)).toEqual(['POST /api/auth/login_check?role=ROLE_ADMIN', 'GET /api/auth/info?role=ROLE_ADMIN']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument(); // no store chooser here
    const sidebar = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(sidebar).getAllByRole('link').map((a) => a.textContent)).toEqual(['Dashboard', 'Catalogue', 'Stock', 'To order', 'Purchasing', 'Customers', 'Staff', 'Reports', 'Settings', 'Audit log', 'Backups']); // the Owner holds every permission; Stock and Customers: every administrator
    expect(screen.getByRole('link', { name: /Profile/ })).toHaveAttribute('href', '/admin/profile');
    expect(screen.getByRole('link', { name: 'Till' })).toHaveAttribute('href', '/pos');
    expect(await screen.findByRole('heading', { name: '0 open tills' })).toBeInTheDocument();
    expect(await screen.findByText('No backup yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Sign Out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(readToken()).toBeUndefined();
  });

  it('updates the profile: server errors under their fields, the saved name in the header', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock.mockResolvedValueOnce(jsonResponse({ user: admin }));
    renderAdmin('/admin/profile');
    const user = userEvent.setup();
    const username = await screen.findByLabelText(/Username/);
    expect(screen.getByLabelText(/Display name/)).toHaveValue('Admin');

    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'VALIDATION_FAILED', violations: [{ propertyPath: 'username', message: 'This value is already used.' }] }, 422));
    await user.clear(username);
    await user.type(username, 'cashier');
    await user.click(screen.getByRole('button', { name: 'Update profile' }));
    expect(await screen.findByText('This value is already used.')).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
    expect(calls()[1]).toBe('POST /api/admin/profile/update');
    expect(bodyOf(1)).toEqual({ displayName: 'Admin', email: 'admin@example.com', username: 'cashier' });

    fetchMock.mockResolvedValueOnce(jsonResponse({ user: { ...admin, displayName: 'Head Office' } }));
    await user.clear(username);
    await user.type(username, 'admin');
    const name = screen.getByLabelText(/Display name/);
    await user.clear(name);
    await user.type(name, 'Head Office');
    await user.click(screen.getByRole('button', { name: 'Update profile' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Profile updated.');
    expect(screen.getByRole('link', { name: /Profile/ })).toHaveTextContent('Head Office');
  });

  it('the old users addresses lead to Staff › Users', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock.mockResolvedValueOnce(jsonResponse({ user: admin })).mockImplementation(async () => jsonResponse({ 'hydra:member': [], 'hydra:totalItems': 0 }));
    const { router } = renderAdmin('/admin/users/edit/7');
    expect(await screen.findByRole('heading', { name: 'Staff', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/staff/users');
    expect(screen.getByRole('tab', { name: 'Users' })).toHaveAttribute('aria-selected', 'true');
  });

  it('a logged-out visit to a page goes to the login and back there after it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse({ token: 'jwt' })).mockResolvedValueOnce(jsonResponse({ user: admin }))
      .mockImplementation(async () => jsonResponse({ 'hydra:member': [], 'hydra:totalItems': 0 }));
    const { router } = renderAdmin('/admin/staff/roles');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'admin');
    await user.type(screen.getByLabelText('Password'), 'admin');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('heading', { name: 'Staff', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/staff/roles');
  });

  it('a till user token: the admin login says so, and the till session is kept', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock
      .mockResolvedValueOnce(jsonResponse({ code: 'FORBIDDEN', message: 'Cannot login in this portal' }, 403))
      .mockResolvedValueOnce(jsonResponse({ user: cashier }));
    renderAdmin('/admin/dashboard');
    expect(await screen.findByText(/Cashier is signed in at the till but is not an administrator/)).toBeInTheDocument();
    expect(calls()).toEqual(['GET /api/auth/info?role=ROLE_ADMIN', 'GET /api/auth/info?role=ROLE_USER']);
    expect(readToken()).toBe('jwt');
  });

  it('switches to Arabic from the header user menu: right-to-left, translated, sent to POST /api/locale', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock.mockResolvedValueOnce(jsonResponse({ user: admin })).mockResolvedValue(jsonResponse({ locale: 'ar' }));
    renderAdmin('/admin/dashboard');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /Account/ }, { timeout: 15_000 }));
    await user.click(screen.getByRole('button', { name: 'العربية' }));
    expect(await screen.findByRole('heading', { name: 'لوحة المعلومات', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(localStorage.getItem('locale')).toBe('ar');
    expect(calls()).toContain('POST /api/locale');
    expect(bodyOf(calls().indexOf('POST /api/locale'))).toEqual({ locale: 'ar' });
    expect(screen.getByRole('button', { name: 'تسجيل الخروج' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'نقطة البيع' })).toHaveAttribute('href', '/pos');
  });
});
