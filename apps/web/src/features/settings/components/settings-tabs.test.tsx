import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { StoresTab } from './stores-tab.tsx';
import { UsersTab } from './users-tab.tsx';
import { DepartmentsTab } from './departments-tab.tsx';
import { DiscountsTab } from './discounts-tab.tsx';
import { TerminalsTab } from './terminals-tab.tsx';
import { discountPayload } from '../lib/schemas.ts';

vi.setConfig({ testTimeout: 20_000 });

const stores = [
  { '@id': '/api/stores/1', id: 1, name: 'Main Street', location: '12 Main Street', isActive: true },
  { '@id': '/api/stores/2', id: 2, name: 'Harbour Mall', location: 'Unit 4', isActive: false },
];

beforeEach(() => {
  signIn();
});

describe('settings lists', () => {
  it('Stores: activation toggle asks the spec question, then PUTs only isActive', async () => {
    const api = fakeApi({ 'GET /stores': hydra(stores), 'PUT /stores/:id': (r: { body: unknown }) => r.body });
    const user = userEvent.setup();
    renderWithProviders(<StoresTab />);
    expect(await screen.findByRole('cell', { name: 'Main Street' })).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Active: Main Street' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(dialog).toHaveTextContent('Are you sure to de-activate this store?');
    await user.click(within(dialog).getByRole('button', { name: 'No, wait' }));
    expect(api.find('PUT', '/stores/1')).toHaveLength(0);

    await user.click(screen.getByRole('switch', { name: 'Active: Harbour Mall' }));
    expect(await screen.findByRole('dialog', { name: 'Confirmation' })).toHaveTextContent('Are you sure to activate this store?');
    await user.click(screen.getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('PUT', '/stores/2')).toHaveLength(1));
    expect(api.find('PUT', '/stores/2')[0].body).toEqual({ isActive: true });
  });

  it('Stores: the create dialog requires a name and posts name + location', async () => {
    const api = fakeApi({ 'GET /stores': hydra(stores), 'POST /stores': { id: 3 } });
    const user = userEvent.setup();
    renderWithProviders(<StoresTab />);
    await user.click(await screen.findByRole('button', { name: 'Store' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create store' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This value should not be blank.')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Name/), 'Airport');
    await user.type(within(dialog).getByLabelText('Location'), 'Gate 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/stores')).toHaveLength(1));
    // A new store's money settings are the old behaviour, explicit (issue 19).
    expect(api.find('POST', '/stores')[0].body).toEqual({
      name: 'Airport', location: 'Gate 2', currency: 'USD', locale: 'en-US', timeZone: 'UTC', cashRoundingStep: 0, pricesIncludeTax: false, legacyTaxBase: false, allowNegativeStock: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create store' })).toBeNull());
  });

  it("Stores: the money settings are edited in the back office; the rounding steps are written in the chosen currency (issue 19)", async () => {
    const withMoney = stores.map((x) => ({ ...x, currency: 'USD', locale: 'en-US', timeZone: 'UTC', cashRoundingStep: 0, pricesIncludeTax: false, legacyTaxBase: false }));
    const api = fakeApi({ 'GET /stores': hydra(withMoney), 'PUT /stores/:id': (r: { body: unknown }) => r.body });
    const user = userEvent.setup();
    renderWithProviders(<StoresTab />);
    await user.click(await screen.findByRole('button', { name: 'Edit Main Street' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update store' });
    const rounding = within(dialog).getByLabelText('Cash rounding');
    expect(within(rounding).getAllByRole('option').map((o) => o.textContent)).toEqual(['None', '$0.01', '$0.05', '$0.10', '$0.25', '$0.50', '$1.00', '$5.00', '$10.00']);
    await user.selectOptions(within(dialog).getByLabelText(/^Currency/), 'KWD');
    expect(within(rounding).getAllByRole('option').map((o) => o.textContent?.replace(/\s/g, ' '))).toContain('KWD 0.005');
    await user.selectOptions(rounding, '5'); // 5 fils
    const locale = within(dialog).getByLabelText(/^Locale/);
    await user.clear(locale);
    await user.type(locale, 'ar-KW');
    await user.selectOptions(within(dialog).getByLabelText(/^Time zone/), 'Asia/Kuwait');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Shelf prices include tax' }));
    await user.click(within(dialog).getByRole('checkbox', { name: /Stock may go below zero/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/stores/1')).toHaveLength(1));
    expect(api.find('PUT', '/stores/1')[0].body).toEqual({
      name: 'Main Street', location: '12 Main Street', currency: 'KWD', locale: 'ar-KW', timeZone: 'Asia/Kuwait', cashRoundingStep: 5, pricesIncludeTax: true, legacyTaxBase: false, allowNegativeStock: true,
    });
  });

  it('Users: password required on create only, at least one store, stores sent as text ids', async () => {
    const users = [{ id: 5, displayName: 'Cashier', username: 'cashier', email: 'c@example.com', roles: ['ROLE_USER'], stores: [stores[0]], isActive: true }];
    const api = fakeApi({ 'GET /users': hydra(users), 'GET /stores': hydra(stores), 'POST /admin/user/create': {}, 'PUT /admin/user/:id': {} });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    // People read the access in words, never "ROLE_USER" (issue 23.6).
    const row = await screen.findByRole('row', { name: /c@example\.com/ });
    expect(row).toHaveTextContent('Till');
    expect(row).not.toHaveTextContent('ROLE_');
    await user.click(await screen.findByRole('button', { name: 'User' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create user' });
    await within(dialog).findByRole('checkbox', { name: 'Harbour Mall' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please add some stores')).toBeInTheDocument();
    expect(within(dialog).getByText('This value is not a valid email address.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Password/)).toHaveAccessibleDescription('This value should not be blank.');

    // Update: no password needed.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Edit Cashier' }));
    dialog = await screen.findByRole('dialog', { name: 'Update user' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Back office' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/admin/user/5')).toHaveLength(1));
    expect(api.find('PUT', '/admin/user/5')[0].body).toEqual({
      displayName: 'Cashier', username: 'cashier', email: 'c@example.com', roles: ['ROLE_USER', 'ROLE_ADMIN'], stores: ['1'],
    });
  });

  it('Users: a role from the roles list and an approval PIN (4-8 digits) are sent; a bad PIN is refused in the form', async () => {
    const users = [{ id: 5, displayName: 'Cashier', username: 'cashier', email: 'c@example.com', roles: ['ROLE_USER'], role: { id: 3, name: 'Cashier', key: 'cashier' }, stores: [stores[0]], isActive: true }];
    const roles = { list: [{ id: 1, name: 'Owner' }, { id: 2, name: 'Manager' }, { id: 3, name: 'Cashier' }, { id: 101, name: 'Stock clerk' }] };
    const api = fakeApi({ 'GET /users': hydra(users), 'GET /stores': hydra(stores), 'GET /roles': roles, 'PUT /admin/user/:id': {} });
    const user = userEvent.setup();
    renderWithProviders(<UsersTab />);
    await user.click(await screen.findByRole('button', { name: 'Edit Cashier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update user' });
    const role = within(dialog).getByLabelText('Role');
    await within(dialog).findByRole('option', { name: 'Stock clerk' });
    expect(role).toHaveValue('3');
    await user.selectOptions(role, 'Manager');
    await user.type(within(dialog).getByLabelText('Approval PIN'), '12a');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A PIN is 4 to 8 digits.')).toBeInTheDocument();
    expect(api.find('PUT', '/admin/user/5')).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Approval PIN'));
    await user.type(within(dialog).getByLabelText('Approval PIN'), '4321');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/admin/user/5')).toHaveLength(1));
    expect(api.find('PUT', '/admin/user/5')[0].body).toMatchObject({ role: '2', pin: '4321', roles: ['ROLE_USER'] });
  });

  it('Departments: delete instead of a toggle, behind its confirmation', async () => {
    const api = fakeApi({
      'GET /departments': hydra([{ id: 4, name: 'Grocery', description: 'Food', store: stores[0] }]),
      'DELETE /departments/:id': { deleted: true },
    });
    const user = userEvent.setup();
    renderWithProviders(<DepartmentsTab />);
    expect(await screen.findByRole('cell', { name: 'Grocery' })).toBeInTheDocument();
    expect(screen.queryByRole('switch')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Delete Grocery' }));
    expect(await screen.findByRole('dialog', { name: 'Confirmation' })).toHaveTextContent('Are you sure to delete this department?');
    await user.click(screen.getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('DELETE', '/departments/4')).toHaveLength(1));
    expect(api.find('GET', '/departments')[0].query.get('store')).toBe('1');
  });

  it('Discounts: columns and the discount-type question', async () => {
    fakeApi({ 'GET /discounts': hydra([{ id: 1, name: 'Open', rate: null, rateType: 'fixed', scope: 'open', stores, isActive: true }]) });
    const user = userEvent.setup();
    renderWithProviders(<DiscountsTab />);
    for (const h of ['Name', 'Rate', 'Rate Type', 'Discount type', 'Stores', 'Actions']) expect(await screen.findByRole('columnheader', { name: new RegExp(`^${h}( [▲▼⇅])?$`) })).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Active: Open' }));
    expect(await screen.findByRole('dialog', { name: 'Confirmation' })).toHaveTextContent('Are you sure to de-activate this discount type?');
  });

  it('Terminals: 7 product names and a filterable "+N more" list', async () => {
    const products = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, name: `Product ${i + 1}` }));
    fakeApi({ 'GET /terminals': hydra([{ id: 1, code: 'T1', store: stores[0], products, isActive: true }]) });
    const user = userEvent.setup();
    renderWithProviders(<TerminalsTab />);
    const cell = await screen.findByText(/Product 1, Product 2/);
    expect(cell).toHaveTextContent('Product 7');
    expect(cell).not.toHaveTextContent('Product 8');
    await user.click(screen.getByRole('button', { name: '+3 more' }));
    const dialog = await screen.findByRole('dialog', { name: 'Products of T1' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(10);
    await user.type(within(dialog).getByRole('searchbox', { name: 'Filter' }), 'Product 1');
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Product 1', 'Product 10']);
  });
});

describe('discountPayload', () => {
  it('drops an empty rate (spec 5)', () => {
    const iri = (id: string) => `/api/stores/${id}`;
    expect(discountPayload({ name: ' Open ', rate: '', rateType: 'fixed', scope: 'open', stores: ['1'] }, iri)).toEqual({
      name: 'Open', rateType: 'fixed', scope: 'open', stores: ['/api/stores/1'],
    });
    expect(discountPayload({ name: 'Five', rate: '5', rateType: 'percent', scope: 'exact', stores: [] }, iri).rate).toBe('5');
  });
});
