import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { ScaleBarcodesTab } from './scale-barcodes-tab.tsx';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
});

const STORES = hydra([{ id: 1, name: 'Main Street', isActive: true, currency: 'USD' }, { id: 2, name: 'Harbour', isActive: true, currency: 'EUR' }]);

describe('Settings > Scale barcodes (issue 26)', () => {
  it('lists the rules by store; adds one with a live example decoded by the domain rule', async () => {
    const api = fakeApi({
      'GET /stores': STORES,
      'GET /settings': hydra([{ id: 5, name: 'scale_barcode', value: '{"prefixes":["21","22"],"itemDigits":5,"embeds":"price"}' }]),
      'POST /settings': { id: 6 },
    });
    const user = userEvent.setup();
    renderWithProviders(<ScaleBarcodesTab />);
    expect(await screen.findByRole('cell', { name: '21, 22' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Every store without its own rule' })).toBeInTheDocument();
    expect(api.find('GET', '/settings')[0].query.get('name')).toBe('scale_barcode');

    await user.click(screen.getByRole('button', { name: 'Scale rule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add scale barcode rule' });
    // The default rule: 21/22, five-digit item code, weight.
    expect(within(dialog).getByRole('status', { name: 'Example' })).toHaveTextContent('2112345006253 → Item 12345, 0.625 kg');

    const prefixes = within(dialog).getByLabelText(/^Prefixes/);
    await user.clear(prefixes);
    await user.type(prefixes, '31');
    expect(within(dialog).getByRole('status', { name: 'Example' })).toHaveTextContent('Fill in the rule');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/two-digit codes from 20 to 29/)).toBeInTheDocument();
    expect(api.find('POST', '/settings')).toHaveLength(0);

    await user.clear(prefixes);
    await user.type(prefixes, '20');
    await user.selectOptions(within(dialog).getByLabelText('Store'), '2');
    await user.selectOptions(within(dialog).getByLabelText('The barcode carries'), 'price');
    await user.selectOptions(within(dialog).getByLabelText('Item code'), '4');
    expect(within(dialog).getByRole('status', { name: 'Example' })).toHaveTextContent(/^2012340006251 → Item 1234, price €6\.25$/);
    await user.type(within(dialog).getByLabelText(/^Try a barcode/), '2099990012344');
    expect(within(dialog).getByText(/^Item 9999, price €12\.34$/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/settings')).toHaveLength(1));
    const body = api.find('POST', '/settings')[0].body;
    expect(body).toMatchObject({ name: 'scale_barcode', type: 'scale_barcode' });
    expect(JSON.parse(body.value)).toEqual({ prefixes: ['20'], itemDigits: 4, embeds: 'price', store: 2 });
  });
});
