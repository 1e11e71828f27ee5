import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { ExpensesDialog } from './expenses-dialog.tsx';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
});

describe('ExpensesDialog', () => {
  it('lists today by default with the total and relative times, and adds an expense', async () => {
    const now = Date.now();
    let list = [{ id: 1, description: 'Tea', amount: 2.5, createdAt: new Date(now - 5 * 60_000).toISOString() }];
    const api = fakeApi({
      'GET /admin/expense/list': () => ({ list }),
      'POST /admin/expense/create': (r: { body: { description: string; amount: string } }) => {
        list = [{ id: 2, description: r.body.description, amount: Number(r.body.amount), createdAt: new Date().toISOString() }, ...list];
        return { expense: list[0] };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<ExpensesDialog open onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Expenses' });
    expect(await within(dialog).findByText('5 minutes ago')).toBeInTheDocument();
    expect(within(dialog).getByTestId('expenses-total')).toHaveTextContent('$2.5');
    const q = api.find('GET', '/admin/expense/list')[0].query;
    expect(q.get('dateTimeFrom')).toMatch(/T00:00$/);
    expect(q.get('dateTimeTo')).toMatch(/T23:59$/);
    expect(q.get('orderBy')).toBe('id');
    expect(q.get('orderMode')).toBe('DESC');
    expect(q.get('store')).toBe('1');

    await user.click(within(dialog).getByRole('button', { name: 'Expense' }));
    expect(within(dialog).getByLabelText(/^Description/)).toHaveAccessibleDescription('This value should not be blank.');
    expect(within(dialog).getByLabelText(/^Amount/)).toHaveAccessibleDescription('This value should not be blank.');
    await user.type(within(dialog).getByLabelText(/^Description/), 'Cleaning');
    await user.type(within(dialog).getByLabelText(/^Amount/), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Expense' }));
    await waitFor(() => expect(api.find('POST', '/admin/expense/create')).toHaveLength(1));
    expect(api.find('POST', '/admin/expense/create')[0].body).toMatchObject({ description: 'Cleaning', amount: '10', store: 1 });
    expect(typeof api.find('POST', '/admin/expense/create')[0].body.dateTime).toBe('string');
    await waitFor(() => expect(within(dialog).getByTestId('expenses-total')).toHaveTextContent('$12.5'));
  });
});
