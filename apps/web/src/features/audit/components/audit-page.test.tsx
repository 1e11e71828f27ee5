import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { AuditPage } from './audit-page.tsx';

vi.setConfig({ testTimeout: 20_000 });

const entry = {
  id: 41, at: '2026-11-20T10:00:00Z', action: 'sale.voided', actor: { id: 5, name: 'Sam Supervisor' }, approver: { id: 3, name: 'Mona Manager' },
  store: 1, entity: 'order', entityId: '77', before: { status: 'Completed' }, after: { status: 'Deleted' }, details: null, address: null,
};

beforeEach(() => {
  clearCookies();
  signIn();
  writeCookie(COOKIE.token, 'jwt-owner');
});

describe('the audit page (issue 21.4)', () => {
  it('lists who, the approver and what changed; filters by who, what, store and date; exports what the filters select as CSV', async () => {
    const api = fakeApi({
      'GET /audit_log': (r: { query: URLSearchParams }) => (r.query.get('format') === 'csv'
        ? new Response('id,action\n41,sale.voided\n', { status: 200, headers: { 'content-type': 'text/csv' } })
        : { list: [entry], total: 1, count: 1 }),
    });
    const created = vi.fn(() => 'blob:audit');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }); // jsdom has no blob URLs
    const user = userEvent.setup();
    renderWithProviders(<AuditPage />);
    const row = await screen.findByTestId('audit-row');
    expect(within(row).getByText('Sam Supervisor')).toBeInTheDocument();
    expect(within(row).getByText('Mona Manager')).toBeInTheDocument();
    expect(row).toHaveTextContent('status: "Completed" → "Deleted"');

    await user.type(screen.getByLabelText('Who'), 'Sam');
    await user.type(screen.getByLabelText('What (action)'), 'sale.');
    await user.type(screen.getByLabelText('Store ID'), '1');
    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-30');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(api.find('GET', '/audit_log')).toHaveLength(2));
    const q = api.find('GET', '/audit_log')[1].query;
    expect(Object.fromEntries(q)).toEqual({ who: 'Sam', action: 'sale.', store: '1', from: '2026-11-01', to: '2026-11-30', limit: '50', offset: '0' });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    const csv = api.find('GET', '/audit_log')[2];
    expect(Object.fromEntries(csv.query)).toEqual({ who: 'Sam', action: 'sale.', store: '1', from: '2026-11-01', to: '2026-11-30', format: 'csv' });
    const [, init] = api.fetchMock.mock.calls[2];
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer jwt-owner');
  });
});
