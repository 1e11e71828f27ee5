import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import type { Customer } from '@/features/catalogue-cache/types';
import { fakeApi, hydra } from '@/features/list-table/testing/fake-api';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { resetSession, type User } from '@/lib/session';
import { routes } from '../../router';

vi.mock('../pos', () => ({ PosRoute: () => <h1>Till</h1> }));
vi.setConfig({ testTimeout: 25_000 });

const stores = [{ id: 1, name: 'Main Street', currency: 'USD', terminals: [{ id: 1, code: 'T1' }] }];
const owner: User = { id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores };
const aisha: Customer = {
  id: 2, name: 'Aisha Khan', phone: '555-1001', openingBalance: 0, allowCreditSale: true, creditLimit: 500, sale: 120, paid: 20, outstanding: 100,
  payments: [{ id: 1, amount: 20, description: 'cash at the counter', createdAt: '2024-01-03T10:00:00Z' }],
  orders: [],
};

beforeEach(() => {
  clearCookies();
  resetSession();
  writeCookie(COOKIE.token, 'jwt');
});
afterEach(() => vi.unstubAllGlobals());

const open = (route: string) => renderWithProviders(null, { routes, route });

describe('/admin/customers (the till dialog\'s panel as a page)', () => {
  it('lists customers; a new one is created and opened at its own address with its ledger', async () => {
    const created: Customer = { id: 42, name: 'Zainab Ali', phone: '555-2000', openingBalance: 0, outstanding: 0, payments: [], orders: [] };
    const api = fakeApi({
      'GET /auth/info': { user: owner },
      'GET /customers': hydra([aisha]),
      'POST /customers': { customer: created },
      'GET /customers/42': created,
    });
    const { router } = open('/admin/customers');
    expect(await screen.findByRole('heading', { name: 'Customers', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(await screen.findByRole('cell', { name: 'Aisha Khan' }, { timeout: 10_000 })).toBeInTheDocument();
    // The back office picks no customer for a sale: no Select column.
    expect(screen.queryByRole('columnheader', { name: 'Select' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    const form = screen.getByRole('form', { name: 'Create customer' });
    await user.type(within(form).getByLabelText(/^Name/), 'Zainab Ali');
    await user.type(within(form).getByLabelText(/^Phone/), '555-2000');
    await user.click(within(form).getByRole('button', { name: 'Create customer' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/customers/42'));
    expect(api.find('POST', '/customers')[0].body).toMatchObject({ name: 'Zainab Ali', phone: '555-2000' });
    expect(await screen.findByRole('heading', { name: 'Zainab Ali', level: 1 }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Receive payment' })).toBeInTheDocument();
  });

  it('opens a customer by URL: the edit form filled in and the payments ledger', async () => {
    fakeApi({ 'GET /auth/info': { user: owner }, 'GET /customers/2': aisha });
    open('/admin/customers/2');
    expect(await screen.findByRole('heading', { name: 'Aisha Khan', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Update customer' })).getByLabelText(/^Phone/)).toHaveValue('555-1001');
    expect(screen.getByRole('cell', { name: 'cash at the counter' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All customers' })).toHaveAttribute('href', '/admin/customers');
  });

  it('an unknown customer says so', async () => {
    fakeApi({ 'GET /auth/info': { user: owner } });
    open('/admin/customers/999');
    expect(await screen.findByText('This customer does not exist or is not in your stores.', {}, { timeout: 15_000 })).toBeInTheDocument();
  });
});

describe('/admin/settings/:tab and /admin/staff/:tab', () => {
  it('opens Settings › Taxes by its address, and another tab changes the address', async () => {
    const api = fakeApi({
      'GET /auth/info': { user: owner },
      'GET /taxes': hydra([{ id: 1, name: 'VAT', rate: '8.25', isActive: true, stores: [{ id: 1, name: 'Main Street' }] }]),
      'GET /payments': hydra([{ id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true, isActive: true, stores: [] }]),
    });
    const { router } = open('/admin/settings/taxes');
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Taxes' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('cell', { name: '8.25%' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Users' })).not.toBeInTheDocument(); // under Staff
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Payment types' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/settings/payment-types'));
    expect(await screen.findByRole('button', { name: 'Edit Cash' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(api.find('GET', '/payments').length).toBeGreaterThan(0);
  });

  it('edits a tax from the page with the shared form kit (PUT, the list reloaded)', async () => {
    const vat = { id: 1, name: 'VAT', rate: '8.25', isActive: true, stores: [{ id: 1, name: 'Main Street' }] };
    const api = fakeApi({
      'GET /auth/info': { user: owner },
      'GET /taxes': () => hydra([vat]),
      'GET /stores': hydra(stores),
      'PUT /taxes/:id': (r: { body: { rate: string } }) => { vat.rate = r.body.rate; return vat; },
    });
    open('/admin/settings/taxes');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit VAT' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Update tax' }, { timeout: 10_000 });
    const rate = within(dialog).getByLabelText(/^Rate/);
    await user.clear(rate);
    await user.type(rate, '9');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/taxes/1')).toHaveLength(1));
    expect(api.find('PUT', '/taxes/1')[0].body).toEqual({ name: 'VAT', rate: '9', stores: ['/api/stores/1'] });
    expect(await screen.findByRole('cell', { name: '9%' }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('an unknown settings tab shows the first one; Staff keeps users and roles', async () => {
    fakeApi({ 'GET /auth/info': { user: owner }, 'GET /stores': hydra(stores), 'GET /roles': hydra([]), 'GET /users': hydra([]) });
    const { router } = open('/admin/settings/nothing');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/settings/stores'), { timeout: 15_000 });
    expect(await screen.findByRole('tab', { name: 'Stores' }, { timeout: 15_000 })).toHaveAttribute('aria-selected', 'true');
    await router.navigate('/admin/staff/roles');
    expect(await screen.findByRole('heading', { name: 'Staff', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Users', 'Roles']);
    expect(screen.getByRole('tab', { name: 'Roles' })).toHaveAttribute('aria-selected', 'true');
  });
});
