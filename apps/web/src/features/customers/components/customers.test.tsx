import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { Customer } from '@/features/catalogue-cache/types';
import { CustomerPaymentsDialog } from './customer-payments-dialog';
import { CustomersDialog } from './customers-dialog';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const aisha: Customer = {
  id: 2, name: 'Aisha Khan', phone: '555-1001', cnic: '35202', openingBalance: 0, allowCreditSale: true, creditLimit: 500,
  sale: 120, paid: 20, outstanding: 100,
  payments: [{ id: 1, amount: 20, description: 'cash at the counter', createdAt: '2024-01-03T10:00:00Z' }],
  orders: [{ id: 9, orderId: 4, createdAt: '2024-01-02T10:00:00Z', status: 'Completed', items: [], payments: [{ total: 120, received: 120, due: 0, type: { id: 3, name: 'Credit', type: 'credit' } }] }],
};
const bilal: Customer = { id: 3, name: 'Bilal Ahmed', phone: '555-1002', openingBalance: 25, outstanding: 0, creditLimit: null };

const fetchMock = vi.fn<typeof fetch>();
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

describe('CustomersDialog (ctrl+shift+c)', () => {
  it('lists, searches, selects with the keyboard, and validates the form', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(jsonResponse({ 'hydra:member': String(url).includes('q=bil') ? [bilal] : [aisha, bilal], 'hydra:totalItems': 2 })));
    const onSelect = vi.fn();
    renderWithProviders(<CustomersDialog open onClose={() => {}} selectedId={null} onSelect={onSelect} onHistory={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Customers' });
    expect(await within(dialog).findByText('Aisha Khan')).toBeInTheDocument();
    expect(within(dialog).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(expect.arrayContaining(['Select', 'Actions', 'National ID']));
    expect(String(fetchMock.mock.calls[0][0])).toContain('order%5Bname%5D=asc');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    expect(within(dialog).getAllByText('This value should not be blank.')).toHaveLength(2);
    await userEvent.clear(within(dialog).getByLabelText(/Opening balance/));
    // A money input: letters are refused at the keystroke, so the balance stays blank.
    await userEvent.type(within(dialog).getByLabelText(/Opening balance/), 'abc');
    expect(within(dialog).getByLabelText(/Opening balance/)).toHaveValue('');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    expect(within(dialog).getAllByText('This value should not be blank.')).toHaveLength(3);

    const search = within(dialog).getByLabelText('Search customers');
    await userEvent.type(search, 'bil');
    await waitFor(() => expect(within(dialog).queryByText('Aisha Khan')).toBeNull());
    await userEvent.type(search, '{ArrowDown}{Enter}');
    expect(onSelect).toHaveBeenCalledWith(bilal);
  });

  it("shows each balance in the store's currency: KWD with its fils, JPY in whole yen (issue 19)", async () => {
    const { startSession, selectStoreTerminal, resetSession } = await import('@/lib/session');
    onTestFinished(() => resetSession());
    const inStore = (currency: string) => {
      const store = { id: 1, name: 'Main Street', currency, locale: 'en-US', terminals: [{ id: 1, code: 'T1' }] };
      startSession({ id: 7, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'], stores: [store] });
      selectStoreTerminal(store, store.terminals[0]);
    };
    inStore('KWD');
    const kwd = [{ ...aisha, outstanding: 1.275, openingBalance: 0.125 }, { ...bilal, outstanding: 0, openingBalance: 0.005 }];
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({ 'hydra:member': kwd, 'hydra:totalItems': 2 })));
    const { unmount } = renderWithProviders(<CustomersDialog open onClose={() => {}} selectedId={null} onSelect={() => {}} onHistory={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Customers' });
    const rowOf = async (name: string) => (await within(dialog).findByText(name)).closest('tr')!;
    expect((await rowOf('Aisha Khan')).textContent?.replace(/\s/g, ' ')).toContain('KWD 1.400');
    expect((await rowOf('Bilal Ahmed')).textContent?.replace(/\s/g, ' ')).toContain('KWD 0.005');
    unmount();
    inStore('JPY');
    fetchMock.mockImplementation(() => Promise.resolve(jsonResponse({ 'hydra:member': [{ ...aisha, outstanding: 1075, openingBalance: 0 }], 'hydra:totalItems': 1 })));
    renderWithProviders(<CustomersDialog open onClose={() => {}} selectedId={null} onSelect={() => {}} onHistory={() => {}} />);
    const jpy = screen.getByRole('dialog', { name: 'Customers' });
    expect((await within(jpy).findByText('Aisha Khan')).closest('tr')).toHaveTextContent('¥1,075');
  });

  it("takes the opening balance and credit limit in the store's currency: three decimals in KWD, a fourth refused (issue 19)", async () => {
    const { startSession, selectStoreTerminal, resetSession } = await import('@/lib/session');
    onTestFinished(() => resetSession());
    const store = { id: 1, name: 'Kuwait City', currency: 'KWD', locale: 'en-US', terminals: [{ id: 1, code: 'T1' }] };
    startSession({ id: 7, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'], stores: [store] });
    selectStoreTerminal(store, store.terminals[0]);
    const created = { ...bilal, id: 12, name: 'Fils Person' };
    fetchMock.mockImplementation((_url, init) => Promise.resolve(init?.method === 'POST' ? jsonResponse({ customer: created }, 201) : jsonResponse({ 'hydra:member': [], 'hydra:totalItems': 0 })));
    renderWithProviders(<CustomersDialog open onClose={() => {}} selectedId={null} onSelect={() => {}} onHistory={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Customers' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'Fils Person');
    await userEvent.type(within(dialog).getByLabelText(/^Phone/), '555');
    const opening = within(dialog).getByLabelText(/Opening balance/);
    await userEvent.clear(opening);
    await userEvent.type(opening, '1.2755');
    expect(opening).toHaveValue('1.275');
    expect(within(dialog).getByText('KWD amounts have at most 3 decimals')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText(/Credit limit/), '50.125');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(true));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(JSON.parse(String(post[1]?.body))).toMatchObject({ openingBalance: '1.275', creditLimit: '50.125' });
  });

  it('creates a customer and hands it back to the till', async () => {
    const created = { ...bilal, id: 11, name: 'New Person' };
    fetchMock.mockImplementation((_url, init) => Promise.resolve(init?.method === 'POST' ? jsonResponse({ customer: created }, 201) : jsonResponse({ 'hydra:member': [], 'hydra:totalItems': 0 })));
    const onSelect = vi.fn();
    renderWithProviders(<CustomersDialog open onClose={() => {}} selectedId={null} onSelect={onSelect} onHistory={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Customers' });
    await userEvent.type(within(dialog).getByLabelText(/^Name/), 'New Person');
    await userEvent.type(within(dialog).getByLabelText(/^Phone/), '555');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create customer' }));
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith(created));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/customers');
    expect(JSON.parse(String(post[1]?.body))).toMatchObject({ name: 'New Person', phone: '555', openingBalance: '0', allowCredit: false, creditLimit: null });
  });
});

describe('CustomerPaymentsDialog', () => {
  it("'Payment history of {name}': the five cards, the ledger newest first and the receive-payment form", async () => {
    fetchMock.mockImplementation((_url, init) => Promise.resolve(init?.method === 'POST' ? jsonResponse({ id: 5, amount: 10, description: 'x', createdAt: '2024-01-04T10:00:00Z' }, 201) : jsonResponse(aisha)));
    renderWithProviders(<CustomerPaymentsDialog customer={aisha} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment history of Aisha Khan' });
    expect(dialog).toHaveTextContent('Opening balance$0.0');
    expect(dialog).toHaveTextContent('Total credit sale$120.0');
    expect(dialog).toHaveTextContent('Total payments$20.0');
    expect(dialog).toHaveTextContent('Outstanding$100.0');
    expect(dialog).toHaveTextContent('Credit limit$500.0');
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('cash at the counter');
    expect(rows[1]).toHaveTextContent('Order# 4');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive payment' }));
    expect(within(dialog).getAllByText('This value should not be blank.')).toHaveLength(2);
    await userEvent.type(within(dialog).getByLabelText(/^Amount/), '10');
    await userEvent.type(within(dialog).getByLabelText(/^Description/), 'paid in cash');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Receive payment' }));
    expect(await screen.findByText('Payment received')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST')!;
    expect(post[0]).toBe('/api/customer_payments');
    expect(JSON.parse(String(post[1]?.body))).toEqual({ amount: '10', description: 'paid in cash', customer: '/api/customers/2' });
  });

  it('in a KWD store the ledger keeps the fils: 1.275 of credit sales less 0.125 paid is 1.150 outstanding (issue 19)', async () => {
    const { startSession, selectStoreTerminal, resetSession } = await import('@/lib/session');
    onTestFinished(() => resetSession());
    const store = { id: 1, name: 'Kuwait City', currency: 'KWD', locale: 'en-US', terminals: [{ id: 1, code: 'T1' }] };
    startSession({ id: 7, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN'], stores: [store] });
    selectStoreTerminal(store, store.terminals[0]);
    const kwd: Customer = {
      ...aisha, sale: 1.275, paid: 0.125, outstanding: 1.15, creditLimit: 2.5,
      payments: [{ id: 1, amount: 0.125, description: 'cash at the counter', createdAt: '2024-01-03T10:00:00Z' }],
      orders: [{ id: 9, orderId: 4, createdAt: '2024-01-02T10:00:00Z', status: 'Completed', items: [], payments: [{ total: 1.275, received: 1.275, due: 0, type: { id: 3, name: 'Credit', type: 'credit' } }] }],
    };
    fetchMock.mockResolvedValue(jsonResponse(kwd));
    renderWithProviders(<CustomerPaymentsDialog customer={kwd} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Payment history of Aisha Khan' });
    expect(dialog).toHaveTextContent('Total credit saleKWD 1.275');
    expect(dialog).toHaveTextContent('Total paymentsKWD 0.125');
    expect(dialog).toHaveTextContent('OutstandingKWD 1.150');
    const rows = within(dialog).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('KWD 0.125');
    expect(rows[1]).toHaveTextContent('KWD 1.275');
  });

  it("shows 'no limit' without a credit limit", () => {
    fetchMock.mockResolvedValue(jsonResponse(bilal));
    renderWithProviders(<CustomerPaymentsDialog customer={bilal} onClose={() => {}} />);
    expect(screen.getByRole('dialog')).toHaveTextContent('Credit limitno limit');
    expect(screen.getByRole('dialog')).toHaveTextContent('Outstanding$25.0');
  });
});
