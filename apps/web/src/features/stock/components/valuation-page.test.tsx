import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { startSession } from '@/lib/session';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { endOfLocalDay, todayIn } from '../lib/valuation.ts';
import { StockTabs } from './stock-lists.tsx';
import { ValuationPage } from './valuation-page.tsx';

vi.setConfig({ testTimeout: 20_000 });

const main = { id: 1, name: 'Main Street', terminals: [], currency: 'KWD', timeZone: 'Asia/Kuwait' };
const mall = { id: 2, name: 'Harbour Mall', terminals: [], currency: 'KWD', timeZone: 'Asia/Kuwait' };
const byStore = {
  at: '2026-11-27T09:00:00.000Z', group: 'store', store: null,
  rows: [
    { store: { id: 2, name: 'Harbour Mall' }, currency: 'KWD', products: 1, quantity: 2, value: 4.5 },
    { store: { id: 1, name: 'Main Street' }, currency: 'KWD', products: 3, quantity: 12.5, value: 123.456 },
  ],
  totals: [{ currency: 'KWD', quantity: 14.5, value: 127.956 }],
};
const byCategory = {
  at: '2026-11-26T20:59:59.999Z', group: 'category', store: 1,
  rows: [{ category: { id: 4, name: 'Dairy' }, currency: 'KWD', products: 2, quantity: 10, value: 20.25 }, { category: null, currency: 'KWD', products: 1, quantity: 3, value: 1 }],
  totals: [{ currency: 'KWD', quantity: 13, value: 21.25 }],
};
const cells = (row: HTMLElement) => [within(row).getByRole('rowheader'), ...within(row).queryAllByRole('cell')].map((c) => c.textContent);

beforeEach(() => {
  clearCookies();
  const { user } = signIn(main);
  startSession({ ...user, stores: [main, mall] });
  writeCookie(COOKIE.token, 'jwt-owner');
});
afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('stock valuation (issue 25.5)', () => {
  it('asks for now by store, shows quantity and value at cost in the currency\'s decimals with a total; a past day by category of one store; the CSV', async () => {
    const api = fakeApi({
      'GET /stock/valuation': (r: { query: URLSearchParams }) => {
        if (r.query.get('format') === 'csv') return new Response('Store,ID\n', { status: 200, headers: { 'content-type': 'text/csv' } });
        return r.query.get('group') === 'category' ? byCategory : byStore;
      },
    });
    const created = vi.fn(() => 'blob:valuation');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }); // jsdom has no blob URLs
    const user = userEvent.setup();
    renderWithProviders(<ValuationPage />, { route: '/admin/stock/valuation' });
    expect(screen.getByRole('heading', { name: 'Stock valuation' })).toBeInTheDocument();
    expect(screen.getByLabelText('As of')).toHaveValue(todayIn('Asia/Kuwait'));
    await waitFor(() => expect(api.find('GET', '/stock/valuation')).toHaveLength(1));
    expect(Object.fromEntries(api.find('GET', '/stock/valuation')[0].query)).toEqual({ group: 'store' }); // today: now, every store

    const table = await screen.findByRole('table', { name: 'Stock valuation' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['Store', 'Products', 'Quantity', 'Value at cost']);
    const rows = within(table).getAllByTestId('valuation-row').map(cells);
    expect(rows[0].slice(0, 3)).toEqual(['Harbour Mall', '1', '2']);
    expect(rows[0][3]).toMatch(/^KWD\s*4\.500$/);
    expect(rows[1].slice(0, 3)).toEqual(['Main Street', '3', '12.5']);
    expect(rows[1][3]).toMatch(/^KWD\s*123\.456$/);
    const total = cells(screen.getByTestId('valuation-total'));
    expect(total.slice(0, 3)).toEqual(['Total', '', '14.5']);
    expect(total[3]).toMatch(/^KWD\s*127\.956$/);

    const day = '2026-11-26';
    await user.clear(screen.getByLabelText('As of'));
    await user.type(screen.getByLabelText('As of'), day);
    await user.selectOptions(screen.getByLabelText('Store'), '1');
    await user.selectOptions(screen.getByLabelText('Group by'), 'category');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(api.find('GET', '/stock/valuation')).toHaveLength(2));
    // The end of the 26th in Kuwait (UTC+3) is 20:59:59.999 UTC.
    expect(endOfLocalDay(day, 'Asia/Kuwait')).toBe('2026-11-26T20:59:59.999Z');
    expect(Object.fromEntries(api.find('GET', '/stock/valuation')[1].query)).toEqual({ group: 'category', store: '1', at: '2026-11-26T20:59:59.999Z' });
    await waitFor(() => expect(screen.getByRole('columnheader', { name: 'Category' })).toBeInTheDocument());
    const catRows = screen.getAllByTestId('valuation-row').map(cells);
    expect(catRows.map((r) => r[0])).toEqual(['Dairy', 'No category']);
    expect(catRows[0][3]).toMatch(/^KWD\s*20\.250$/);
    expect(cells(screen.getByTestId('valuation-total'))[3]).toMatch(/^KWD\s*21\.250$/);

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(api.find('GET', '/stock/valuation')[2].query)).toEqual({ group: 'category', store: '1', at: '2026-11-26T20:59:59.999Z', format: 'csv' });
    const [, init] = api.fetchMock.mock.calls[2];
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer jwt-owner');
  });

  it('in Arabic, right to left; the Valuation tab only for users who may see cost', async () => {
    fakeApi({ 'GET /stock/valuation': byStore });
    await act(() => setLanguage('ar'));
    const view = renderWithProviders(<ValuationPage />, { route: '/admin/stock/valuation' });
    expect(await screen.findByRole('heading', { name: 'تقييم المخزون' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    expect(await screen.findByRole('columnheader', { name: 'القيمة بالتكلفة' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'التقييم' })).toHaveAttribute('href', '/admin/stock/valuation');
    view.unmount();
    await act(() => setLanguage('en'));

    startSession({ id: 8, username: 'clerk', displayName: 'Clerk', roles: ['ROLE_USER'], permissions: ['purchasing'], stores: [main] });
    renderWithProviders(<StockTabs />, { route: '/admin/stock/transfers' });
    expect(screen.getByRole('link', { name: 'Movements' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Valuation' })).not.toBeInTheDocument();
  });
});
