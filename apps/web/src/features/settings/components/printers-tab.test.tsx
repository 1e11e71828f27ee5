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
