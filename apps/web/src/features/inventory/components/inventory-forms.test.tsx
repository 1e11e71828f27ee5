import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn } from '@/features/list-table/testing/fake-api';
import { PurchaseOrderDialog } from './purchase-order-dialog.tsx';
import { SupplierFormDialog } from './supplier-form-dialog.tsx';
import { SupplierLedgerDialog } from './supplier-ledger-dialog.tsx';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  signIn();
});

const milk = { '@id': '/api/products/1', id: 1, name: 'Fresh Milk', cost: 2.5, purchaseUnit: 'pcs', variants: [] };
const tee = {
  '@id': '/api/products/2',
  id: 2,
  name: 'Tee',
  cost: 10,
  purchaseUnit: 'pcs',
  variants: [{ '@id': '/api/product_variants/5', id: 5, attributeValue: 'S', price: 20 }],
};

describe('PurchaseOrderDialog', () => {
  it('needs items, shows the line grid with its totals row and posts the PO', async () => {
    const api = fakeApi({
      'GET /suppliers': hydra([{ id: 3, name: 'Fresh Farms' }]),
      'GET /admin/product/keywords': { list: [milk, tee].map(({ id, name }) => ({ id, name, '@id': `/api/products/${id}` })) },
      'GET /products/1': milk,
      'GET /products/2': tee,
      'POST /purchase_orders': { id: 9 },
    });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<PurchaseOrderDialog open onClose={onClose} order={null} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create purchase order' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Please add some items')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^PO Number/)).toHaveAccessibleDescription('This value should not be blank.');

    await user.type(within(dialog).getByLabelText(/^PO Number/), 'PO-77');
    await within(dialog).findByRole('option', { name: 'Fresh Farms' });
    await user.selectOptions(within(dialog).getByLabelText(/^Supplier/), '/api/suppliers/3');
    await within(dialog).findByRole('option', { name: 'Fresh Milk' });
    await user.selectOptions(within(dialog).getByLabelText(/^Item/), '1');
    expect(await within(dialog).findByRole('rowheader', { name: 'Fresh Milk' })).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText(/^Item/), '2');
    expect(await within(dialog).findByRole('table', { name: 'Variants of Tee' })).toBeInTheDocument();

    const qty = within(dialog).getByLabelText('Quantity of Fresh Milk');
    await user.clear(qty);
    await user.type(qty, '4');
    // Totals row: 3 rows of quantity (4 + 1 + 1) and cost 4 x 2.5 + 10 + 20 = 40.
    expect(within(dialog).getByText('2 items')).toBeInTheDocument();
    expect(within(dialog).getByTestId('total-quantity')).toHaveTextContent('6');
    expect(within(dialog).getByTestId('total-cost')).toHaveTextContent('$40');

    await user.click(within(dialog).getByRole('button', { name: 'Remove Tee' }));
    expect(within(dialog).getByTestId('total-cost')).toHaveTextContent('$10');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/purchase_orders')).toHaveLength(1));
    expect(api.find('POST', '/purchase_orders')[0].body).toMatchObject({
      poNumber: 'PO-77',
      supplier: '/api/suppliers/3',
      store: '/api/stores/1',
      items: [{ item: '/api/products/1', quantity: '4', price: '2.5', unit: 'pcs', comments: '', variants: [] }],
    });
    expect(onClose).toHaveBeenCalled();
  });
});

describe('SupplierFormDialog', () => {
  it('validates name, phone, email, opening balance and stores', async () => {
    const api = fakeApi({ 'GET /stores': hydra([{ id: 1, name: 'Main Street' }]), 'POST /suppliers': { id: 4, name: 'X' } });
    const user = userEvent.setup();
    renderWithProviders(<SupplierFormDialog open onClose={() => {}} supplier={null} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create Supplier' });
    await within(dialog).findByRole('checkbox', { name: 'Main Street' });
    await user.type(within(dialog).getByLabelText(/^Email/), 'nope');
    await user.clear(within(dialog).getByLabelText(/^Opening balance/));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByLabelText(/^Name/)).toHaveAccessibleDescription('This value should not be blank.');
    expect(within(dialog).getByLabelText(/^Phone/)).toHaveAccessibleDescription('This value should not be blank.');
    expect(within(dialog).getByLabelText(/^Email/)).toHaveAccessibleDescription('This value is not a valid email address.');
    expect(within(dialog).getByLabelText(/^Opening balance/)).toHaveAccessibleDescription('This value should not be blank.');
    await user.type(within(dialog).getByLabelText(/^Name/), '  Dairy Co  ');
    await user.type(within(dialog).getByLabelText(/^Phone/), '555');
    await user.clear(within(dialog).getByLabelText(/^Email/));
    await user.type(within(dialog).getByLabelText(/^Email/), 'a@b.co');
    await user.type(within(dialog).getByLabelText(/^Opening balance/), '12.5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('POST', '/suppliers')).toHaveLength(1));
    expect(api.find('POST', '/suppliers')[0].body).toEqual({ name: 'Dairy Co', phone: '555', email: 'a@b.co', openingBalance: '12.5', stores: ['/api/stores/1'] });
  });
});

describe('SupplierLedgerDialog', () => {
  it('shows the four boxes and the merged history, and records a payment', async () => {
    const purchases = [
      { '@id': '/api/purchases/1', id: 1, purchaseNumber: 'P-1', total: 100, paymentType: { id: 3, name: 'Credit', type: 'credit' }, createdAt: '2024-03-01T10:00:00Z', items: [] },
      { '@id': '/api/purchases/2', id: 2, purchaseNumber: 'P-2', total: 40, paymentType: { id: 1, name: 'Cash', type: 'cash' }, createdAt: '2024-03-02T10:00:00Z', items: [] },
    ];
    let payments = [{ id: 1, amount: 30, description: 'first', createdAt: '2024-03-03T10:00:00Z', purchase: { id: 1, purchaseNumber: 'P-1' } }];
    const api = fakeApi({
      'GET /suppliers/4/purchases': () => hydra(purchases),
      'GET /suppliers/4/payments': () => hydra(payments),
      'POST /supplier_payments': (r: { body: { amount: string; description: string } }) => {
        payments = [...payments, { id: 2, amount: Number(r.body.amount), description: r.body.description, createdAt: new Date().toISOString(), purchase: { id: 1, purchaseNumber: 'P-1' } }];
        return { id: 2 };
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<SupplierLedgerDialog supplier={{ '@id': '/api/suppliers/4', id: 4, name: 'Dairy Co', openingBalance: 20 }} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: "Dairy Co's Ledger" });
    // outstanding = credit purchases 100 - payments 30 + opening 20 = 90
    await waitFor(() => expect(within(dialog).getByTestId('ledger-outstanding')).toHaveTextContent('$90'));
    expect(within(dialog).getByTestId('ledger-opening')).toHaveTextContent('$20');
    expect(within(dialog).getByTestId('ledger-purchases')).toHaveTextContent('$100');
    expect(within(dialog).getByTestId('ledger-payments')).toHaveTextContent('$30');
    const rows = within(within(dialog).getByRole('table', { name: 'Ledger history' })).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[3].textContent)).toEqual(['P-1', 'P-2', 'P-1']);

    await user.click(within(dialog).getByRole('button', { name: 'Add payment' }));
    expect(within(dialog).getByLabelText(/^Description/)).toHaveAccessibleDescription('This value should not be blank.');
    await user.type(within(dialog).getByLabelText(/^Amount/), '90');
    await user.type(within(dialog).getByLabelText(/^Description/), 'settle');
    await user.selectOptions(within(dialog).getByLabelText('Purchase'), '/api/purchases/1');
    await user.click(within(dialog).getByRole('button', { name: 'Add payment' }));
    await waitFor(() => expect(api.find('POST', '/supplier_payments')).toHaveLength(1));
    expect(api.find('POST', '/supplier_payments')[0].body).toEqual({ amount: '90', description: 'settle', purchase: '/api/purchases/1', supplier: '/api/suppliers/4' });
    await waitFor(() => expect(within(dialog).getByTestId('ledger-outstanding')).toHaveTextContent('$0'));
  });

  it('in a KWD store a payment of 1.275 is taken with its fils (issue 19)', async () => {
    signIn({ currency: 'KWD', locale: 'en-US' });
    const api = fakeApi({
      'GET /suppliers/4/purchases': () => hydra([]),
      'GET /suppliers/4/payments': () => hydra([]),
      'POST /supplier_payments': { id: 3 },
    });
    const user = userEvent.setup();
    renderWithProviders(<SupplierLedgerDialog supplier={{ '@id': '/api/suppliers/4', id: 4, name: 'Dairy Co', openingBalance: 2.5 }} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: "Dairy Co's Ledger" });
    await waitFor(() => expect(within(dialog).getByTestId('ledger-opening').textContent?.replace(/\s/g, ' ')).toBe('KWD 2.500'));
    await user.type(within(dialog).getByLabelText(/^Amount/), '1.275');
    await user.type(within(dialog).getByLabelText(/^Description/), 'fils');
    await user.click(within(dialog).getByRole('button', { name: 'Add payment' }));
    await waitFor(() => expect(api.find('POST', '/supplier_payments')).toHaveLength(1));
    expect(api.find('POST', '/supplier_payments')[0].body).toMatchObject({ amount: '1.275', description: 'fils' });
  });
});
