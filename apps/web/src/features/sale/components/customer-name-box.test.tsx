import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import type { Customer } from '@/features/catalogue-cache/types';
import { fakeApi, hydra, unprocessable } from '@/features/list-table/testing/fake-api';
import { CustomerNameBox } from './customer-name-box';

vi.setConfig({ testTimeout: 20_000 });
afterEach(() => vi.unstubAllGlobals());

const aisha: Customer = { id: 2, name: 'Aisha Khan', phone: '0300 555 1001' };
const amir: Customer = { id: 5, name: 'Amir Ali', phone: '0300 555 2002' };
const all = [aisha, amir];

function Harness({ onAttach }: { onAttach: (c: Customer) => void }) {
  const [value, setValue] = useState('');
  return <CustomerNameBox value={value} onChange={setValue} required={false} onAttach={onAttach} />;
}

/** The server's q: name, phone (digits as typed) or the customer number. */
const lookup = ({ query }: { query: URLSearchParams }) => {
  const q = (query.get('q') ?? '').toLowerCase();
  return hydra(all.filter((c) => c.name.toLowerCase().includes(q) || (c.phone ?? '').includes(q) || String(c.id) === q));
};

describe('customer box lookup', () => {
  it('finds customers by phone as you type; arrows + Enter attach one', async () => {
    const api = fakeApi({ 'GET /customers': lookup });
    const onAttach = vi.fn();
    renderWithProviders(<Harness onAttach={onAttach} />);
    const box = screen.getByRole('combobox', { name: 'Customer name' });
    await userEvent.type(box, '555 2');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(1));
    expect(api.find('GET', '/customers').at(-1)?.query.get('q')).toBe('555 2');
    // Asked once the typing paused, not per key.
    expect(api.find('GET', '/customers').length).toBeLessThanOrEqual(2);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    await userEvent.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: /Amir Ali/ }).id);
    await userEvent.keyboard('{Enter}');
    expect(onAttach).toHaveBeenCalledWith(amir);
    expect(box).toHaveValue('Amir Ali');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('a tap attaches one found by name', async () => {
    fakeApi({ 'GET /customers': lookup });
    const onAttach = vi.fn();
    renderWithProviders(<Harness onAttach={onAttach} />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Customer name' }), 'aish');
    await userEvent.click(await screen.findByRole('option', { name: /Aisha Khan/ }));
    expect(onAttach).toHaveBeenCalledWith(aisha);
  });

  it('offers to create one when none matches: name and phone, created on the server and attached', async () => {
    const created: Customer = { id: 9, name: 'Zara Noor', phone: '0311 777' };
    let attempts = 0;
    const api = fakeApi({
      'GET /customers': lookup,
      'POST /customers': () => (++attempts === 1 ? unprocessable([{ propertyPath: 'phone', message: 'This value is too long.' }]) : { customer: created }),
    });
    const onAttach = vi.fn();
    renderWithProviders(<Harness onAttach={onAttach} />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Customer name' }), 'Zara Noor');
    expect(await screen.findByText('No customer matches')).toBeInTheDocument();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Create customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New customer' });
    expect(within(dialog).getByLabelText(/Name/)).toHaveValue('Zara Noor');
    // Phone is required, as on the customer form.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and attach' }));
    expect(await within(dialog).findByText('This value should not be blank.')).toBeInTheDocument();
    expect(api.find('POST', '/customers')).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Phone/), '0311 777');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and attach' }));
    // The server's refusal is shown under its field; the second try succeeds.
    expect(await within(dialog).findByText('This value is too long.')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create and attach' }));
    await waitFor(() => expect(onAttach).toHaveBeenCalledWith(created));
    expect(api.find('POST', '/customers').at(-1)?.body).toMatchObject({ name: 'Zara Noor', phone: '0311 777', allowCredit: false });
    expect(screen.queryByRole('dialog', { name: 'New customer' })).toBeNull();
  });

  it('digits typed fill the phone of the new customer', async () => {
    fakeApi({ 'GET /customers': lookup });
    renderWithProviders(<Harness onAttach={() => undefined} />);
    await userEvent.type(screen.getByRole('combobox', { name: 'Customer name' }), '0322 1');
    await userEvent.click(await screen.findByRole('button', { name: 'Create customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'New customer' });
    expect(within(dialog).getByLabelText(/Phone/)).toHaveValue('0322 1');
    expect(within(dialog).getByLabelText(/Name/)).toHaveValue('');
  });
});
