import { beforeEach, describe, expect, it, vi } from 'vitest';

// Typing through user-event in a big form is slow in jsdom.
vi.setConfig({ testTimeout: 30_000 });
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '@/test/render';
import { fakeApi, hydra, signIn, unprocessable } from '@/features/list-table/testing/fake-api';
import { ItemFormDialog } from './item-form-dialog.tsx';
import type { Product } from '../lib/types.ts';
import { storeRowSchema, WHOLE_OR_ZERO } from '../lib/item-schema.ts';

const options = {
  'GET /departments': hydra([{ id: 1, name: 'Grocery' }]),
  'GET /categories': hydra([{ id: 2, name: 'Food' }]),
  'GET /suppliers': hydra([{ id: 3, name: 'Fresh Farms' }]),
  'GET /brands': hydra([{ id: 4, name: 'Acme' }]),
  'GET /taxes': hydra([{ id: 5, name: 'VAT', rate: 16 }]),
  'GET /terminals': hydra([{ id: 6, code: 'T1', name: 'T1' }]),
  'GET /stores': hydra([{ id: 1, name: 'Main Street' }, { id: 2, name: 'Harbour Mall' }]),
};

beforeEach(() => {
  signIn();
});

async function addGroup(user: ReturnType<typeof userEvent.setup>, name: string, values: string[]) {
  await user.clear(screen.getByLabelText('Variant group name'));
  if (name) await user.type(screen.getByLabelText('Variant group name'), name);
  await user.click(screen.getByRole('button', { name: 'Add group' }));
  for (const v of values) {
    await user.type(screen.getByLabelText(`New value of ${name}`), v);
    await user.click(within(screen.getByRole('region', { name: `Variant group ${name}` })).getByRole('button', { name: 'Add value' }));
  }
}

describe('ItemFormDialog (Create item)', () => {
  it('builds variant groups: an empty group name does nothing, a duplicate value is not added twice', async () => {
    fakeApi(options);
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={() => {}} product={null} />);
    expect(await screen.findByRole('dialog', { name: 'Create item' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add group' }));
    expect(screen.queryByRole('region', { name: /^Variant group/ })).toBeNull();

    await addGroup(user, 'Size', ['S', 'M', 'S']);
    expect(within(screen.getByRole('list', { name: 'Values of Size' })).getAllByRole('listitem').map((li) => li.firstChild?.textContent)).toEqual(['S', 'M']);
    await addGroup(user, 'Colour', ['Red', 'Blue']);

    await user.type(screen.getByLabelText(/^Sale Price/), '20');
    const barcode = (screen.getByLabelText(/^Barcode( \*)?$/) as HTMLInputElement).value;
    expect(barcode).toMatch(/^\d+$/);
    const preview = screen.getByRole('table', { name: 'Variants to create' });
    const rows = within(preview).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual(['S-Red', 'M-Red', 'S-Blue', 'M-Blue']);
    expect(within(rows[0]).getAllByRole('cell')[2]).toHaveTextContent('20');

    // Removing a value regenerates the rows.
    await user.click(screen.getByRole('button', { name: 'Remove Blue' }));
    expect(within(screen.getByRole('table', { name: 'Variants to create' })).getAllByRole('row')).toHaveLength(3);
  });

  it('shows spec 5 messages and posts the reference body', async () => {
    const api = fakeApi({ ...options, 'POST /products': (req: { body: unknown }) => ({ id: 99, ...(req.body as object) }) });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={onClose} product={null} />);
    await screen.findByRole('dialog', { name: 'Create item' });
    await screen.findByRole('option', { name: 'Grocery' });

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByLabelText(/^Name/);
    await waitFor(() => expect(name).toHaveAccessibleDescription('This value should not be blank.'));
    expect(screen.getByRole('group', { name: /Categories/ })).toHaveTextContent('This value should not be blank.');
    expect(api.find('POST', '/products')).toHaveLength(0);

    await user.type(name, 'Linen Shirt');
    await user.selectOptions(screen.getByLabelText(/^Department/), '1');
    await user.type(screen.getByLabelText(/^Sale Price/), '25.5');
    await user.type(screen.getByLabelText(/^Purchase Price/), 'x12');
    await user.click(within(screen.getByRole('group', { name: /Categories/ })).getByRole('checkbox', { name: 'Food' }));
    await user.click(within(screen.getByRole('group', { name: /Suppliers/ })).getByRole('checkbox', { name: 'Fresh Farms' }));
    await user.click(within(screen.getByRole('group', { name: /Brands/ })).getByRole('checkbox', { name: 'Acme' }));
    await user.click(within(screen.getByRole('group', { name: /^Taxes/ })).getByRole('checkbox', { name: 'VAT 16%' }));
    await user.clear(screen.getByLabelText('Stock of row 1'));
    await user.type(screen.getByLabelText('Stock of row 1'), '7');
    await user.type(screen.getByLabelText('Location of row 1'), 'Aisle 3');
    await user.type(screen.getByLabelText('Re-order level of row 1'), '2');
    await addGroup(user, 'Size', ['S', 'M']);
    await user.click(screen.getByRole('button', { name: 'Add price rule' }));
    await user.type(screen.getByLabelText('Price of rule 1'), '20');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Weekday' }), 'Friday');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.find('POST', '/products')).toHaveLength(1));
    const body = api.find('POST', '/products')[0].body;
    expect(body).toMatchObject({
      name: 'Linen Shirt',
      basePrice: '25.5',
      cost: '12',
      department: '/api/departments/1',
      categories: ['/api/categories/2'],
      suppliers: ['/api/suppliers/3'],
      brands: ['/api/brands/4'],
      taxes: ['/api/taxes/5'],
      saleUnit: 'pcs',
      baseQuantity: 1,
      isAvailable: true,
      isActive: true,
      stores: [{ store: '/api/stores/1', quantity: '7', location: 'Aisle 3', reOrderLevel: '2', product: null }],
      groups: [{ groupName: 'Size', variants: [{ label: 'S', value: 'S' }, { label: 'M', value: 'M' }] }],
      prices: [{ basePrice: '20', day: 'Friday', date: null, week: null, month: null, quarter: null, time: null, timeTo: null }],
    });
    expect(typeof body.barcode).toBe('string');
    expect(body.variants.map((v: { attributeValue: string }) => v.attributeValue)).toEqual(['S', 'M']);
    expect(body.variants[0]).toMatchObject({ attributeName: 'Size', price: '25.5', quantity: '10' });
    expect(onClose).toHaveBeenCalled();
  });

  it('an EAN-13 with a wrong check digit is refused in the form, saying what it should end in (issue 26)', async () => {
    const api = fakeApi({ ...options, 'POST /products': (req: { body: unknown }) => ({ id: 98, ...(req.body as object) }) });
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={() => {}} product={null} />);
    await screen.findByRole('option', { name: 'Grocery' });
    const barcode = screen.getByRole('textbox', { name: /^Barcode/ });
    await user.clear(barcode);
    await user.type(barcode, '4006381333932');
    await user.selectOptions(screen.getByLabelText('Barcode type'), 'ean13');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(barcode).toHaveAccessibleDescription('The check digit of this EAN-13 is wrong (it should end in 1).'));
    expect(api.find('POST', '/products')).toHaveLength(0);
    await user.clear(barcode);
    await user.type(barcode, '4006381333931');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(barcode).not.toHaveAccessibleDescription(/check digit/));
  });

  it('keeps the form open and marks fields on a 422', async () => {
    fakeApi({ ...options, 'POST /products': () => unprocessable([{ propertyPath: 'barcode', message: 'This barcode is already used.' }], 'barcode: This barcode is already used.') });
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={onClose} product={null} />);
    await screen.findByRole('option', { name: 'Grocery' });
    await user.type(screen.getByLabelText(/^Name/), 'X');
    await user.selectOptions(screen.getByLabelText(/^Department/), '1');
    await user.type(screen.getByLabelText(/^Sale Price/), '1');
    await user.type(screen.getByLabelText(/^Purchase Price/), '1');
    for (const [group, option] of [['Categories', 'Food'], ['Suppliers', 'Fresh Farms'], ['Brands', 'Acme']]) {
      await user.click(within(screen.getByRole('group', { name: new RegExp(group) })).getByRole('checkbox', { name: option }));
    }
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText(/^Barcode( \*)?$/)).toHaveAccessibleDescription('This barcode is already used.'));
    expect(await screen.findByText('Validation Error')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('ItemFormDialog (Update item)', () => {
  it('locks the barcode, keeps existing variants and adds new ones with a random barcode', async () => {
    const api = fakeApi({ ...options, 'PUT /products/:id': (req: { body: unknown }) => req.body });
    const product: Product = {
      '@id': '/api/products/10',
      id: 10,
      name: 'Tee',
      barcode: '123',
      basePrice: 20,
      cost: 10,
      saleUnit: 'pcs',
      purchaseUnit: 'pcs',
      manageInventory: true,
      isActive: true,
      department: { id: 1, name: 'Grocery' },
      categories: [{ id: 2 }],
      suppliers: [{ id: 3 }],
      brands: [{ id: 4 }],
      taxes: [],
      terminals: [],
      stores: [{ '@id': '/api/product_stores/5', store: { id: 1, name: 'Main Street' }, quantity: '4', location: 'A1', reOrderLevel: '1' }],
      variants: [{ '@id': '/api/product_variants/8', id: 8, attributeName: 'Size', attributeValue: 'S', barcode: '1231', price: null, quantity: '3' }],
    };
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={() => {}} product={product} />);
    expect(await screen.findByRole('dialog', { name: 'Update item' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Barcode( \*)?$/)).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Add Variant' }));
    // An unnamed new variant is not valid.
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please add valid variants')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Variant 2'), 'M');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/products/10')).toHaveLength(1));
    const body = api.find('PUT', '/products/10')[0].body;
    expect(body.barcode).toBe('123');
    expect(body.stores[0]).toMatchObject({ '@id': '/api/product_stores/5', store: '/api/stores/1', quantity: '4', product: '/api/products/10' });
    expect(body.variants[0]).toMatchObject({ '@id': '/api/product_variants/8', id: 8, attributeValue: 'S', price: null });
    expect(body.variants[1]).toMatchObject({ attributeValue: 'M', price: null });
    expect(body.variants[1].barcode).toMatch(/^\d+$/);
    expect(body.groups).toBeUndefined();
  });

  it('shows each variant\'s stock per store under its total (issue 25), and never sends it', async () => {
    const api = fakeApi({ ...options, 'PUT /products/:id': (req: { body: unknown }) => req.body });
    const product: Product = {
      '@id': '/api/products/11', id: 11, name: 'Tee', barcode: '124', basePrice: 20, cost: 10, saleUnit: 'pcs', purchaseUnit: 'pcs',
      manageInventory: true, isActive: true, department: { id: 1, name: 'Grocery' }, categories: [{ id: 2 }], suppliers: [{ id: 3 }], brands: [{ id: 4 }],
      taxes: [], terminals: [],
      stores: [{ '@id': '/api/product_stores/5', store: { id: 1, name: 'Main Street' }, quantity: '9', location: '', reOrderLevel: null }],
      variants: [{ '@id': '/api/product_variants/8', id: 8, attributeName: 'Size', attributeValue: 'S', barcode: '1241', price: null, quantity: '8.000',
        stock: [{ store: { id: 1, name: 'Main Street' }, quantity: '5.000' }, { store: { id: 2, name: 'Harbour Mall' }, quantity: '3.000' }] },
      { '@id': '/api/product_variants/9', id: 9, attributeName: 'Size', attributeValue: 'M', barcode: '1242', price: null, quantity: '2.000',
        stock: [{ store: { id: 1, name: 'Main Street' }, quantity: '2.000' }] }],
    };
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={() => {}} product={product} />);
    const total = await screen.findByLabelText('Stock of variant 1');
    expect(total).toHaveAccessibleDescription('By store: Main Street 5 · Harbour Mall 3. Move stock between stores with a transfer.');
    expect(screen.getByLabelText('Stock of variant 2')).toHaveAccessibleDescription('By store: Main Street 2. Move stock between stores with a transfer.');
    // The advice is said once under the table, not on every variant's row.
    expect(screen.getAllByText('Move stock between stores with a transfer.')).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/products/11')).toHaveLength(1));
    const body = api.find('PUT', '/products/11')[0].body;
    expect(body.variants[0]).not.toHaveProperty('byStore');
    expect(body.variants[0]).not.toHaveProperty('stock');
  });

  it('loads and sends the re-order quantity of each store row (issue 25.4): a whole number, zero or more, or empty', async () => {
    const api = fakeApi({ ...options, 'PUT /products/:id': (req: { body: unknown }) => req.body });
    const product: Product = {
      '@id': '/api/products/11', id: 11, name: 'Rice 5kg', barcode: '456', basePrice: 9, cost: 6, saleUnit: 'pcs', purchaseUnit: 'pcs',
      manageInventory: true, isActive: true, department: { id: 1, name: 'Grocery' }, categories: [{ id: 2 }], suppliers: [{ id: 3 }], brands: [{ id: 4 }],
      taxes: [], terminals: [], variants: [],
      stores: [
        { '@id': '/api/product_stores/7', store: { id: 1, name: 'Main Street' }, quantity: '4', location: '', reOrderLevel: '5', reOrderQuantity: '12' },
        { '@id': '/api/product_stores/8', store: { id: 2, name: 'Harbour Mall' }, quantity: '1', location: '', reOrderLevel: null, reOrderQuantity: null },
      ],
    };
    const user = userEvent.setup();
    renderWithProviders(<ItemFormDialog open onClose={() => {}} product={product} />);
    expect(await screen.findByRole('columnheader', { name: 'Re-order quantity' })).toBeInTheDocument();
    const first = screen.getByLabelText('Re-order quantity of row 1');
    expect(first).toHaveValue('12');
    expect(screen.getByLabelText('Re-order quantity of row 2')).toHaveValue('');
    // A decimal point is refused at the keystroke.
    await user.clear(first);
    await user.type(first, '2.5');
    expect(first).toHaveValue('25');
    await user.clear(first);
    await user.type(first, '30');
    await user.type(screen.getByLabelText('Re-order quantity of row 2'), '0');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.find('PUT', '/products/11')).toHaveLength(1));
    const body = api.find('PUT', '/products/11')[0].body;
    expect(body.stores.map((s: { reOrderLevel: string; reOrderQuantity: string }) => [s.reOrderLevel, s.reOrderQuantity])).toEqual([['5', '30'], ['', '0']]);
  });

  it('refuses a re-order quantity that is not a whole number of zero or more', () => {
    const row = { store: '1', quantity: '0', location: '', reOrderLevel: '' };
    const issues = (q: string) => {
      const r = storeRowSchema.safeParse({ ...row, reOrderQuantity: q });
      return r.success ? [] : r.error.issues.map((i) => i.message);
    };
    expect(issues('')).toEqual([]);
    expect(issues('0')).toEqual([]);
    expect(issues('٢٤')).toEqual([]); // Arabic-Indic digits
    for (const bad of ['2.5', '-1', 'x']) expect(issues(bad)).toEqual([WHOLE_OR_ZERO]);
  });
});
