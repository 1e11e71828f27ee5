import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { HttpError, NetworkError } from '@/lib/api-client';
import { endSession, startSession } from '@/lib/session';
import { OutboxDb, type OutboxSale } from '@/features/outbox/outbox-db';
import { Outbox } from '@/features/outbox/outbox';
import { setOutbox } from '@/features/outbox/outbox-app';
import { type SendSale } from '@/features/outbox/outbox-rules';
import { OutboxIndicator } from './outbox-indicator';

vi.setConfig({ testTimeout: 20_000 });

let n = 0;
let send: ReturnType<typeof vi.fn<SendSale>>;
let box: Outbox;

beforeEach(() => {
  send = vi.fn<SendSale>(async () => {
    throw new NetworkError(new TypeError('Failed to fetch'));
  });
  box = new Outbox({ db: new OutboxDb(`indicator-${++n}`), send, locks: null });
  setOutbox(box);
});
afterEach(() => {
  setOutbox(null);
  endSession();
});

async function seed(uuid: string, patch: Partial<OutboxSale> = {}) {
  await box.enqueue({ uuid, terminal: 1 }, { terminalCode: 'T1', summary: { total: 12.5, lines: 1, customer: null, held: false } });
  if (Object.keys(patch).length) await box.db.update(uuid, patch);
}

const manager = { id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores: [] };
const cashier = { id: 2, username: 'cashier', displayName: 'Cashier', roles: ['ROLE_USER'], stores: [] };

describe('OutboxIndicator', () => {
  it('counts unsent sales (pending and rejected) and lists the server\'s reason; a cashier cannot discard', async () => {
    startSession(cashier);
    await seed('a');
    await seed('b', { status: 'rejected', lastError: 'payments: Credit limit of 100.00 exceeded', lastStatus: 422 });
    await seed('c', { status: 'sent', orderId: 9, sentAt: new Date().toISOString() });
    renderWithProviders(<OutboxIndicator />);
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('2'));
    expect(screen.getByText('(1 rejected)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '2 unsent sales: show the list' }));
    const dialog = screen.getByRole('dialog', { name: 'Unsent sales' });
    const rows = within(dialog).getAllByTestId('outbox-row');
    expect(rows).toHaveLength(2);
    expect(rows[1]).toHaveTextContent('Rejected');
    expect(rows[1]).toHaveTextContent('payments: Credit limit of 100.00 exceeded');
    expect(within(rows[1]).getByRole('button', { name: 'Discard' })).toBeDisabled();
    expect(dialog).toHaveTextContent(/T1-\d{8}-003 → Order# 9/);
  });

  it('discarding a rejected sale needs a manager and a confirmation', async () => {
    startSession(manager);
    await seed('r', { status: 'rejected', lastError: 'This Idempotency-Key was already used for a different sale', lastStatus: 409 });
    renderWithProviders(<OutboxIndicator />);
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('1'));
    await userEvent.click(screen.getByRole('button', { name: '1 unsent sale: show the list' }));
    const dialog = screen.getByRole('dialog', { name: 'Unsent sales' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await userEvent.click(await screen.findByRole('button', { name: 'No, wait' }));
    expect(await box.db.sale('r')).toBeDefined();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Discard' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Yes, please' }));
    await waitFor(async () => expect(await box.db.sale('r')).toBeUndefined());
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('0'));
  });

  it('Retry sends what is waiting; a rejection is kept', async () => {
    startSession(cashier);
    await seed('ok');
    await seed('bad');
    renderWithProviders(<OutboxIndicator />);
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('2'));
    await waitFor(() => expect(screen.getByTestId('outbox-offline')).toBeInTheDocument());
    send.mockImplementation(async (body) => {
      if (body.uuid === 'bad') throw new HttpError({ status: 422, message: 'Validation failed', violations: [{ propertyPath: 'store', message: 'Store not found' }] });
      return { order: { id: 50, orderId: 5 } };
    });
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await box.db.sale('bad'))?.status).toBe('rejected'));
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('1'));
    expect(screen.getByText('(1 rejected)')).toBeInTheDocument();
    expect(screen.queryByTestId('outbox-offline')).not.toBeInTheDocument();
    expect((await box.db.sale('bad'))?.lastError).toBe('store: Store not found');
    expect((await box.db.sale('ok'))?.orderId).toBe(5);
  });

  it('a server shedding load says "busy, sales kept" instead of "Offline", until it takes them', async () => {
    startSession(cashier);
    await seed('rush');
    send.mockImplementation(async () => { throw new HttpError({ status: 503, code: 'BUSY', message: 'The server is busy' }); });
    renderWithProviders(<OutboxIndicator />);
    await userEvent.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('outbox-busy')).toHaveTextContent('Server busy: the sales are kept on this till'));
    expect(screen.queryByTestId('outbox-offline')).not.toBeInTheDocument();
    expect(screen.getByTestId('outbox-count')).toHaveTextContent('1');
    send.mockImplementation(async () => ({ order: { id: 51, orderId: 6 } }));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('0'));
    expect(screen.queryByTestId('outbox-busy')).not.toBeInTheDocument();
  });

  it('follows sales queued and sent by another tab of the till', async () => {
    startSession(cashier);
    renderWithProviders(<OutboxIndicator />);
    await box.uploadPending(); // this tab's first pass (on mount) is over: the other tab uploads
    // The other tab has its own connection to the same database; only its broadcast tells this one.
    const otherTab = new Outbox({ db: new OutboxDb(box.db.name), send: async () => ({ order: { id: 60, orderId: 8 } }), locks: null });
    await otherTab.enqueue({ uuid: 'elsewhere', terminal: 1 }, { terminalCode: 'T1' });
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('1'));
    expect((await otherTab.uploadPending({ force: true })).sent).toEqual(['elsewhere']);
    await waitFor(() => expect(screen.getByTestId('outbox-count')).toHaveTextContent('0'));
  });
});
