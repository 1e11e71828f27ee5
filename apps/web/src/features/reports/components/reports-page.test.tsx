import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { fakeApi, signIn } from '@/features/list-table/testing/fake-api';
import { localDate, ReportsPage } from './reports-page.tsx';

vi.setConfig({ testTimeout: 20_000 });

const figures = { orders: 0, quantity: 0, net: 0, tax: 0, gross: 0, discount: 0, refunds: 0 };
const hours = Array.from({ length: 24 }, (_, h) => ({ key: String(h), label: `${String(h).padStart(2, '0')}:00`, ...figures }));
hours[9] = { key: '9', label: '09:00', discount: 0, orders: 2, quantity: 3, net: 1_100, tax: 138, gross: 1_238, refunds: -500 };
const byHour = { currency: 'KWD', digits: 3, timeZone: 'Asia/Kuwait', rows: hours, totals: { ...hours[9], key: null, label: '' } };

beforeEach(() => {
  clearCookies();
  signIn({ currency: 'KWD', locale: 'en-US', timeZone: 'Asia/Kuwait' });
  writeCookie(COOKIE.token, 'jwt-owner');
});
afterEach(async () => {
  await act(() => setLanguage('en'));
});

describe('the reports page (issue 25.6)', () => {
  it('asks for yesterday by day, then sales by hour: a chart and the rows in the store currency; downloads the same report as CSV', async () => {
    const api = fakeApi({
      'GET /reports/sales': (r: { query: URLSearchParams }) => {
        if (r.query.get('format') === 'csv') return new Response('Key,Label\n', { status: 200, headers: { 'content-type': 'text/csv' } });
        return r.query.get('group') === 'hour' ? byHour : { ...byHour, rows: [{ ...hours[9], key: '2026-11-26', label: '2026-11-26' }] };
      },
    });
    const created = vi.fn(() => 'blob:report');
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }); // jsdom has no blob URLs
    const user = userEvent.setup();
    renderWithProviders(<ReportsPage />);
    const yesterday = localDate('Asia/Kuwait', -1);
    await waitFor(() => expect(api.find('GET', '/reports/sales')).toHaveLength(1));
    expect(Object.fromEntries(api.find('GET', '/reports/sales')[0].query)).toEqual({ from: yesterday, to: yesterday, group: 'day' });
    expect(await screen.findByTestId('report-chart')).toHaveTextContent('Sales by day');

    await user.selectOptions(screen.getByLabelText('Sales by'), 'hour');
    await user.selectOptions(screen.getByLabelText('Store'), '1');
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(api.find('GET', '/reports/sales')).toHaveLength(2));
    expect(Object.fromEntries(api.find('GET', '/reports/sales')[1].query)).toEqual({ from: yesterday, to: yesterday, group: 'hour', store: '1' });
    expect(await screen.findByRole('img', { name: 'Sales by hour' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('report-row');
    expect(rows).toHaveLength(24);
    // 09:00: 2 orders, gross KWD 1.238, a refund of 0.500 (three decimals: the store's currency).
    expect(within(rows[9]).getByRole('rowheader')).toHaveTextContent('09:00');
    expect(rows[9]).toHaveTextContent(/KWD\s*1\.238/);
    expect(rows[9]).toHaveTextContent(/-KWD\s*0\.500|KWD\s*-0\.500/);
    expect(screen.getByTestId('report-total')).toHaveTextContent(/KWD\s*1\.100/);
    expect(screen.queryByRole('columnheader', { name: 'Cost' })).not.toBeInTheDocument(); // the answer carries no cost

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(created).toHaveBeenCalledTimes(1));
    expect(Object.fromEntries(api.find('GET', '/reports/sales')[2].query)).toEqual({ from: yesterday, to: yesterday, group: 'hour', store: '1', format: 'csv' });
    const [, init] = api.fetchMock.mock.calls[2];
    expect(new Headers(init?.headers).get('authorization')).toBe('Bearer jwt-owner');
  });

  it('customer balances in Arabic, right to left: ageing columns, no dates asked', async () => {
    const api = fakeApi({
      'GET /reports/sales': byHour,
      'GET /reports/customers': { currency: 'KWD', digits: 3, timeZone: 'Asia/Kuwait', buckets: [], rows: [
        { key: '5', label: 'عائشة', phone: '555', balance: 55_000, current: 5_000, days1to30: 10_000, days31to60: 20_000, days61to90: 20_000, over90: 0 },
      ], totals: { balance: 55_000, current: 5_000, days1to30: 10_000, days31to60: 20_000, days61to90: 20_000, over90: 0 } },
    });
    await act(() => setLanguage('ar'));
    const user = userEvent.setup();
    renderWithProviders(<ReportsPage />);
    expect(await screen.findByRole('heading', { name: 'التقارير' })).toBeInTheDocument();
    expect(document.documentElement.dir).toBe('rtl');
    await user.selectOptions(screen.getByLabelText('التقرير'), 'customers');
    expect(screen.queryByLabelText('من')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'عرض' }));
    const row = await screen.findByTestId('report-row');
    expect(within(row).getByRole('rowheader')).toHaveTextContent('عائشة');
    expect(screen.getByRole('columnheader', { name: '31–60 يوماً' })).toBeInTheDocument();
    expect(Object.fromEntries(api.find('GET', '/reports/customers')[0].query)).toEqual({});
  });
});
