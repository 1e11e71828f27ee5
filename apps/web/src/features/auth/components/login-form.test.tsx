import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, jsonResponse, renderWithProviders } from '@/test/render';
import { getSession, resetSession } from '@/lib/session';
import { readToken } from '@/lib/cookies';
import { LoginForm } from './login-form';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  clearCookies();
  resetSession();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

async function fillAndSubmit(username = 'cashier', password = 'cashier') {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username'), username);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Login' }));
}

describe('LoginForm', () => {
  it('renders the title, focused username, password and the forgot link', () => {
    renderWithProviders(<LoginForm />);
    expect(screen.getByRole('heading', { name: 'Login to Your Account' })).toBeInTheDocument();
    expect(screen.getByLabelText('Username')).toHaveFocus();
    expect(screen.getByLabelText('Password')).toHaveAttribute('type', 'password');
    expect(screen.getByRole('link', { name: 'Forgot Password?' })).toHaveAttribute('href', '/forgot-password');
  });

  it('shows the 401 body message in the banner above the form', async () => {
    fetchMock.mockResolvedValue(jsonResponse({ code: 'INVALID_CREDENTIALS', message: 'Invalid credentials.' }, 401));
    renderWithProviders(<LoginForm />);
    await fillAndSubmit('cashier', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid credentials.');
    expect(readToken()).toBeUndefined();
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/auth/login_check?role=ROLE_USER');
    expect(JSON.parse(String(init!.body))).toEqual({ username: 'cashier', password: 'wrong', role: 'ROLE_USER' });
  });

  it('disables the Login button while the request runs', async () => {
    let answer!: (r: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<LoginForm />);
    await fillAndSubmit();
    const button = screen.getByRole('button', { name: 'Login' });
    await waitFor(() => expect(button).toBeDisabled());
    fetchMock.mockResolvedValueOnce(jsonResponse({ user: { id: 1, username: 'cashier', displayName: 'C', roles: ['ROLE_USER'], stores: [] } }));
    answer(jsonResponse({ token: 'jwt-1', refresh_token: 'r-1' }));
    await waitFor(() => expect(button).toBeEnabled());
    expect(readToken()).toBe('jwt-1');
    expect(getSession()).toMatchObject({ status: 'authenticated', store: null, terminal: null });
    expect(fetchMock.mock.calls[1][0]).toBe('/api/auth/info?role=ROLE_USER');
  });

  it('puts server violations under their fields', async () => {
    fetchMock.mockResolvedValue(
      jsonResponse({ code: 'VALIDATION_FAILED', message: 'x', errorMessage: 'x', violations: [{ propertyPath: 'password', message: 'Too long.' }] }, 422),
    );
    renderWithProviders(<LoginForm />);
    await fillAndSubmit();
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveAccessibleDescription('Too long.'));
    expect(password).toHaveAttribute('aria-invalid', 'true');
  });

  it('asks for both fields before calling the server', async () => {
    renderWithProviders(<LoginForm />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findAllByText('This value should not be blank.')).toHaveLength(2);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
