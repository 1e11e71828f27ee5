import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { PrintersTab } from './printers-tab.tsx';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
});

describe('Settings > Printers (issue 26)', () => {
  it('lists the printers with address, paper and who sends to them; adds one with a checked address', async () => {
    const api = fakeApi({
      'GET /devices': hydra([{ id: 1, name: 'Counter', ipAddress: '192.168.1.50', port: 9100, prints: 1, paperWidth: 80, deliveredBy: 'agent', isActive: true }]),
      'POST /devices': { id: 2 },
    });
    const user = userEvent.setup();
    renderWithProviders(<PrintersTab />);
    expect(await screen.findByRole('cell', { name: 'Counter' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '192.168.1.50:9100' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'a print agent' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Printer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add printer' });
    await user.type(within(dialog).getByLabelText(/^Name/), 'Back office');
    await user.type(within(dialog).getByLabelText(/^Address/), 'http://printer');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This value is not a valid IP address or host name.')).toBeInTheDocument();
    expect(api.find('POST', '/devices')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(/^Address/));
    await user.type(within(dialog).getByLabelText(/^Address/), '192.168.1.51');
    await user.selectOptions(within(dialog).getByLabelText('Paper'), '58');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/devices')).toHaveLength(1));
    expect(api.find('POST', '/devices')[0].body).toEqual({ name: 'Back office', ipAddress: '192.168.1.51', port: 9100, prints: 1, paperWidth: 58 });
  });
});

describe('Settings > Printers: print agent keys (issue 26)', () => {
  it('makes a key shown once with the command to run and a copy button, then withdraws it', async () => {
    const rows = [
      { id: 1, name: 'Counter', ipAddress: '192.168.1.50', port: 9100, prints: 1, paperWidth: 80, deliveredBy: 'server', isActive: true },
      { id: 2, name: 'Kitchen', ipAddress: '192.168.1.60', port: 9100, prints: 1, paperWidth: 58, deliveredBy: 'agent', isActive: true },
    ];
    const api = fakeApi({
      'GET /devices': () => hydra(rows),
      'POST /devices/1/agent-key': () => { rows[0].deliveredBy = 'agent'; return { key: 'k3y-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', device: 1 }; },
      'DELETE /devices/2/agent-key': () => { rows[1].deliveredBy = 'server'; return new Response(null, { status: 204 }); },
    });
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderWithProviders(<PrintersTab />);
    await user.click(await screen.findByRole('button', { name: 'Make a print agent key for Counter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Print agent key for Counter' });
    expect(api.find('POST', '/devices/1/agent-key')).toHaveLength(1);
    const command = `npm run print-agent -- --server ${window.location.origin} --key k3y-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345`;
    expect(within(dialog).getByTestId('agent-command')).toHaveTextContent(command);
    expect(within(dialog).getByText(/shown only now/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Copy the command' }));
    expect(writeText).toHaveBeenCalledWith(command);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list is read again: Counter now goes through its agent.
    expect(await screen.findByRole('button', { name: 'Withdraw the print agent key of Counter' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Withdraw the print agent key of Kitchen' }));
    const question = await screen.findByRole('dialog', { name: 'Confirmation' });
    expect(within(question).getByText(/server sends to the printer itself again/)).toBeInTheDocument();
    await user.click(within(question).getByRole('button', { name: 'Yes, please' }));
    await waitFor(() => expect(api.find('DELETE', '/devices/2/agent-key')).toHaveLength(1));
    expect(await screen.findByRole('button', { name: 'Make a print agent key for Kitchen' })).toBeInTheDocument();
  });
});
