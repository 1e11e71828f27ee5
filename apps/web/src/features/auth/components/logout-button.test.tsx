import { beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, readCookie, writeCookie } from '@/lib/cookies';
import { saveTokens } from '@/lib/session';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { LogoutButton } from './logout-button.tsx';

beforeEach(() => {
  clearCookies();
  signIn();
});

describe('Logout (issue 21.5)', () => {
  it('the refresh token is never kept by script (the server sets it HttpOnly)', () => {
    saveTokens({ token: 'jwt-1', refresh_token: 'refresh-1' });
    expect(readCookie(COOKIE.token)).toBe('jwt-1');
    expect(readCookie(COOKIE.refreshToken)).toBeUndefined();
  });

  it('POSTs the logout (the server revokes the refresh token it finds), also one an older release left readable, and clears the token cookies', async () => {
    saveTokens({ token: 'jwt-1' });
    writeCookie(COOKIE.refreshToken, 'refresh-1'); // written by script before this release
    const api = fakeApi({ 'POST /auth/logout': { message: 'Logged out' } });
    const user = userEvent.setup();
    renderWithProviders(<LogoutButton />);
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(api.find('POST', '/auth/logout')).toHaveLength(1));
    expect(api.find('POST', '/auth/logout')[0].body).toEqual({ refresh_token: 'refresh-1' });
    expect(api.find('GET', '/auth/logout')).toHaveLength(0);
    expect(readCookie(COOKIE.token)).toBeUndefined();
    expect(readCookie(COOKIE.refreshToken)).toBeUndefined();
  });
});
