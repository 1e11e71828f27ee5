import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, jsonResponse, renderWithProviders } from '@/test/render';
import { COOKIE, readCookie, writeCookie } from '@/lib/cookies';
import { resetSession, type User } from '@/lib/session';
import { routes } from './router';

// The till is its own feature with its own tests; here /pos only has to be reachable.
vi.mock('./routes/pos', () => ({ PosRoute: () => <h1>Till</h1> }));

const admin: User = {
  id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'],
  stores: [
    { id: 1, name: 'Main Street', terminals: [{ id: 1, code: 'T1' }] },
    { id: 2, name: 'Harbour Mall', terminals: [{ id: 2, code: 'M1' }, { id: 3, code: 'M2' }] },
  ],
};

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  clearCookies();
  resetSession();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const renderApp = (route: string) => renderWithProviders(null, { routes, route });

describe('app start and routes', () => {
  it('without a token shows the login and only asks whether the first-run setup is open', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ needed: false }));
    renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/setup']);
    expect(screen.getByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
  });

  it('an install with no user opens the first-run setup instead of the login', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ needed: true }));
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { name: 'Set up your shop' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup');
    expect(screen.getByLabelText('Currency')).toHaveValue('USD');
  });

  it('the setup page goes back to the login once the shop exists', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ needed: false }));
    const { router } = renderApp('/setup');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
  });

  it('restores store and terminal from cookies and opens /pos', async () => {
    writeCookie(COOKIE.token, 'jwt');
    writeCookie(COOKIE.store, JSON.stringify({ ...admin.stores[1], terminals: [] }));
    writeCookie(COOKIE.terminal, JSON.stringify(admin.stores[1].terminals[1]));
    fetchMock.mockResolvedValue(jsonResponse({ user: admin }));
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pos'));
    expect(await screen.findByRole('heading', { name: 'Till' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the chooser again when the store/terminal cookies are missing', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock.mockResolvedValue(jsonResponse({ user: admin }));
    const { router } = renderApp('/pos');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Harbour Mall' }));
    await user.click(screen.getByRole('button', { name: 'M1' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/pos');
    expect(JSON.parse(readCookie(COOKIE.store)!)).toEqual({ id: 2, name: 'Harbour Mall', terminals: [] });
    expect(JSON.parse(readCookie(COOKIE.terminal)!)).toEqual({ id: 2, code: 'M1' });
  });

  it('treats a 401 at start as logged out and keeps the origin for after login', async () => {
    writeCookie(COOKIE.token, 'expired');
    fetchMock.mockResolvedValueOnce(jsonResponse({ code: 'TOKEN_EXPIRED', message: 'Expired JWT Token' }, 401));
    const { router } = renderApp('/pos/dashboard');
    expect(await screen.findByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/pos/dashboard' });
    expect(readCookie(COOKIE.token)).toBeUndefined();
  });

  it('shows the fatal start screen when /auth/info fails otherwise', async () => {
    writeCookie(COOKIE.token, 'jwt');
    fetchMock.mockResolvedValue(jsonResponse({ code: 'INTERNAL', message: 'boom' }, 500));
    renderApp('/pos');
    expect(await screen.findByRole('heading', { name: 'An error occurred while initializing application' })).toBeInTheDocument();
  });

  it('sends /settings to the till with the settings modal flag', async () => {
    writeCookie(COOKIE.token, 'jwt');
    writeCookie(COOKIE.store, JSON.stringify({ id: 1, name: 'Main Street', terminals: [] }));
    writeCookie(COOKIE.terminal, JSON.stringify({ id: 1, code: 'T1' }));
    fetchMock.mockResolvedValue(jsonResponse({ user: admin }));
    const { router } = renderApp('/settings');
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/pos?settings=1'));
  });
});
