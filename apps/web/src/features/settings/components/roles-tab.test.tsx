import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUILTIN_PERMISSIONS, PERMISSIONS } from '@pos/domain/permissions';
import { renderWithProviders } from '@/test/render';
import { startSession } from '@/lib/session';
import { fakeApi, signIn, unprocessable } from '@/features/list-table/testing/fake-api';
import { PERMISSION_GROUPS, RolesTab } from './roles-tab.tsx';
import { SettingsModal } from './settings-modal.tsx';

vi.setConfig({ testTimeout: 20_000 });

const roles = [
  { '@id': '/api/roles/1', id: 1, name: 'Owner', builtin: 'owner', permissions: [...BUILTIN_PERMISSIONS.owner] },
  { '@id': '/api/roles/3', id: 3, name: 'Cashier', builtin: 'cashier', permissions: [...BUILTIN_PERMISSIONS.cashier] },
  { '@id': '/api/roles/4', id: 4, name: 'Stock keeper', builtin: null, permissions: ['purchasing'] },
];
const list = () => ({ list: roles, total: roles.length, count: roles.length });

beforeEach(() => {
  signIn();
});

describe('Settings > Roles', () => {
  it('every permission is in exactly one group', () => {
    const grouped = PERMISSION_GROUPS.flatMap(([, p]) => p);
    expect([...grouped].sort()).toEqual([...PERMISSIONS].sort());
  });

  it('sits next to Users in Settings; a cashier sees neither', async () => {
    fakeApi({ 'GET /roles': list() });
    const user = userEvent.setup();
    renderWithProviders(<SettingsModal open onClose={() => {}} />);
    const tabs = screen.getAllByRole('tab').map((x) => x.textContent);
    expect(tabs.indexOf('Roles')).toBe(tabs.indexOf('Users') + 1);
    await user.click(screen.getByRole('tab', { name: 'Roles' }));
    expect(await screen.findByRole('cell', { name: 'Stock keeper' })).toBeInTheDocument();

    // A cashier sees neither.
    startSession({ id: 9, username: 'c', displayName: 'C', roles: ['ROLE_USER'], permissions: [...BUILTIN_PERMISSIONS.cashier], stores: [] });
    renderWithProviders(<SettingsModal open onClose={() => {}} />);
    await waitFor(() => expect(screen.getAllByRole('dialog', { name: 'Settings' })).toHaveLength(2));
    const second = screen.getAllByRole('dialog', { name: 'Settings' })[1];
    expect(within(second).queryByRole('tab', { name: 'Roles' })).toBeNull();
    expect(within(second).queryByRole('tab', { name: 'Users' })).toBeNull();
  });

  it('built-in roles are read-only: View shows their permissions ticked and disabled, no Save, no Delete', async () => {
    fakeApi({ 'GET /roles': list() });
    const user = userEvent.setup();
    renderWithProviders(<RolesTab />);
    expect(await screen.findByRole('cell', { name: 'Cashier' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Cashier' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Cashier' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Stock keeper' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'View Cashier' }));
    const dialog = await screen.findByRole('dialog', { name: 'Role Cashier' });
    expect(within(dialog).getByRole('checkbox', { name: 'Refund a sale' })).toBeChecked();
    expect(within(dialog).getByRole('checkbox', { name: 'Refund a sale' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Void or restore a completed sale' })).not.toBeChecked();
    expect(within(dialog).queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('creates "Supervisor" from ticked permissions, named in groups; only what the editor holds can be ticked', async () => {
    // A team lead who may manage users and refund, nothing else.
    startSession({ id: 8, username: 'lead', displayName: 'Lead', roles: ['ROLE_USER'], permissions: ['users', 'sale.refund', 'customer.payments'], stores: [] });
    const api = fakeApi({ 'GET /roles': list(), 'POST /roles': (r: { body: { name: string; permissions: string[] } }) => ({ role: { id: 5, builtin: null, ...r.body } }) });
    const user = userEvent.setup();
    renderWithProviders(<RolesTab />);
    await user.click(await screen.findByRole('button', { name: 'Role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    expect(within(dialog).getByRole('group', { name: 'At the till' })).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Manage products' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Stores, terminals and settings' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This value should not be blank.')).toBeInTheDocument();
    expect(api.find('POST', '/roles')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Supervisor');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Refund a sale' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/roles')).toHaveLength(1));
    expect(api.find('POST', '/roles')[0].body).toEqual({ name: 'Supervisor', permissions: ['sale.refund'] });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create role' })).toBeNull());
  });

  it("the server's refusal of a permission is shown in the dialog, which stays open", async () => {
    fakeApi({
      'GET /roles': list(),
      'PUT /roles/:id': () => unprocessable([{ propertyPath: 'permissions[1]', message: "You cannot grant 'settings': you do not have it." }]),
    });
    const user = userEvent.setup();
    renderWithProviders(<RolesTab />);
    await user.click(await screen.findByRole('button', { name: 'Edit Stock keeper' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update role' });
    expect(within(dialog).getByRole('checkbox', { name: 'Purchasing and suppliers' })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Stores, terminals and settings' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent("You cannot grant 'settings': you do not have it.");
    expect(screen.getByRole('dialog', { name: 'Update role' })).toBeInTheDocument();
  });

  it('deleting a role users still have shows why, after asking', async () => {
    const api = fakeApi({
      'GET /roles': list(),
      'DELETE /roles/4': () => unprocessable([{ propertyPath: 'id', message: '2 user(s) have this role: give them another one first.' }], 'id: 2 user(s) have this role: give them another one first.'),
    });
    const user = userEvent.setup();
    renderWithProviders(<RolesTab />);
    await user.click(await screen.findByRole('button', { name: 'Delete Stock keeper' }));
    const confirmBox = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(confirmBox).toHaveTextContent('A role that users still have cannot be deleted.');
    await user.click(within(confirmBox).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('DELETE', '/roles/4')).toHaveLength(1));
    expect(await screen.findByText(/2 user\(s\) have this role/)).toBeInTheDocument();
  });
});
