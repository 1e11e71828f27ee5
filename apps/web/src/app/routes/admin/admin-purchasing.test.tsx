import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { resetSession, type User } from '@/lib/session';
import { fakeApi, hydra, type FakeRequest } from '@/features/list-table/testing/fake-api';
import { routes } from '../../router';

vi.mock('../pos', () => ({ PosRoute: () => <h1>Till</h1> }));
vi.setConfig({ testTimeout: 30_000 });

const main = { id: 1, name: 'Main Street', terminals: [] };
const mall = { id: 2, name: 'Harbour Mall', terminals: [] };
const owner: User = { id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores: [main, mall] };

const milk = { '@id': '/api/products/1', id: 1, name: 'Fresh Milk', barcode: '5000000000002', cost: 2.5, purchaseUnit: 'pcs', variants: [] };
const tee = {
  '@id': '/api/products/2', id: 2, name: 'Tee', barcode: '2000000000015', cost: 10, purchaseUnit: 'pcs',
  variants: [{ '@id': '/api/product_variants/5', id: 5, attributeValue: 'S', barcode: '2000000000022', price: 20 }],
};
const cap = { '@id': '/api/products/3', id: 3, name: 'Cap', barcode: '3000000000014', cost: 4, purchaseUnit: 'pcs', variants: [] };
const farms = { '@id': '/api/suppliers/3', id: 3, name: 'Fresh Farms' };
const order = {
  '@id': '/api/purchase_orders/7', id: 7, poNumber: 'PO-7', isUsed: false, supplier: farms, store: main, createdAt: '2026-11-20T09:00:00Z',
  items: [{ id: 71, item: milk, quantity: 6, price: 2.5, unit: 'pcs', comments: '', variants: [] }],
};

/** GET /products?barcode=: the product whose barcode, or whose variant's barcode, it is. */
const byBarcode = (req: FakeRequest) => hydra([milk, tee, cap].filter((p) => p.barcode === req.query.get('barcode') || p.variants.some((v) => v.barcode === req.query.get('barcode'))));
const api = () => fakeApi({
  'GET /auth/info': { user: owner },
  'GET /purchase_orders': hydra([order]),
  'GET /purchase_orders/7': order,
  'GET /purchases': hydra([]),
  'GET /suppliers': hydra([farms]),
  'GET /payments': hydra([{ id: 1, name: 'Cash' }]),
  'GET /admin/product/keywords': { list: [] },
  'GET /products': byBarcode,
  'GET /products/1': milk,
  'GET /products/2': tee,
  'GET /products/3': cap,
  'POST /purchases': { id: 12 },
});

beforeEach(() => {
  clearCookies();
  resetSession();
  sessionStorage.clear();
  writeCookie(COOKIE.token, 'jwt');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const renderAdmin = (route: string) => renderWithProviders(null, { routes, route });

describe('back office: purchasing (issue 23.1)', () => {
  it('/admin/purchasing opens the orders of the chosen store; tabs lead to suppliers and receipts; an order opens by its URL', async () => {
    const fake = api();
    const user = userEvent.setup();
    const { router } = renderAdmin('/admin/purchasing');
    expect(await screen.findByRole('heading', { name: 'Purchasing', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/purchasing/orders');
    expect(await screen.findByRole('cell', { name: 'PO-7' })).toBeInTheDocument();
    expect(fake.find('GET', '/purchase_orders')[0].query.get('store')).toBe('1');
    await user.selectOptions(screen.getByLabelText('Store'), '2');
    await waitFor(() => expect(fake.find('GET', '/purchase_orders').at(-1)!.query.get('store')).toBe('2'));

    const tabs = screen.getByRole('navigation', { name: 'Purchasing pages' });
    await user.click(within(tabs).getByRole('link', { name: 'Suppliers' }));
    expect(await screen.findByRole('cell', { name: 'Fresh Farms' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/purchasing/suppliers');
    await user.click(within(tabs).getByRole('link', { name: 'Purchase orders' }));
    await user.click(await screen.findByRole('button', { name: 'Edit PO-7' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/purchasing/orders/7'));
    expect(await screen.findByRole('heading', { name: 'Update purchase order', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText(/^PO Number/)).toHaveValue('PO-7');
    expect(screen.getByRole('rowheader', { name: 'Fresh Milk' })).toBeInTheDocument();
    // Orders take lines by barcode too.
    await user.type(screen.getByLabelText('Scan or type a barcode'), `${cap.barcode}{Enter}`);
    expect(await screen.findByRole('rowheader', { name: 'Cap' })).toBeInTheDocument();
  });

  it('a receipt from an items list: a scan adds the line, again adds one, a variant barcode counts its variant; an unknown code says so', async () => {
    api();
    const user = userEvent.setup();
    renderAdmin('/admin/purchasing/receipts/new');
    expect(await screen.findByRole('heading', { name: 'Create new purchase', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    const scan = screen.getByLabelText('Scan or type a barcode');
    await user.type(scan, `${milk.barcode}{Enter}`);
    expect(await screen.findByRole('rowheader', { name: 'Fresh Milk' })).toBeInTheDocument();
    await user.type(scan, `${milk.barcode}{Enter}`);
    await waitFor(() => expect(screen.getByLabelText('Quantity of Fresh Milk')).toHaveValue('2'));
    await user.type(scan, `${tee.variants[0].barcode}{Enter}`);
    expect(await screen.findByRole('table', { name: 'Variants of Tee' })).toBeInTheDocument();
    await user.type(scan, `${tee.variants[0].barcode}{Enter}`);
    await waitFor(() => expect(screen.getByLabelText('Quantity of Tee S')).toHaveValue('2'));
    expect(screen.getByLabelText('Quantity of Tee')).toHaveValue('1');
    await user.type(scan, '999{Enter}');
    expect(await screen.findByText('No product has the barcode 999')).toBeInTheDocument();
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual(['Fresh Milk', 'Tee', 'S', '2 items']);
  });

  it('a receipt against an order: a scan selects its line\'s received quantity; a product not on the order is refused; saved, back to the receipts', async () => {
    const fake = api();
    const user = userEvent.setup();
    const { router } = renderAdmin('/admin/purchasing/receipts/new');
    await screen.findByRole('heading', { name: 'Create new purchase', level: 1 }, { timeout: 15_000 });
    await user.type(screen.getByLabelText(/^Purchase number/), 'R-1');
    await user.selectOptions(screen.getByLabelText(/^Purchase mode/), 'Purchase order');
    await screen.findByRole('option', { name: 'PO-7 — Fresh Farms' });
    await user.selectOptions(screen.getByLabelText(/^Purchase order/), '/api/purchase_orders/7');
    expect(await screen.findByRole('rowheader', { name: 'Fresh Milk' })).toBeInTheDocument();
    expect(screen.queryByLabelText(/^Item/)).toBeNull(); // the order's lines only

    await user.type(screen.getByLabelText('Scan or type a barcode'), `${cap.barcode}{Enter}`);
    expect(await screen.findByText('Cap is not on this purchase order')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Scan or type a barcode'), `${milk.barcode}{Enter}`);
    await waitFor(() => expect(screen.getByLabelText('Quantity of Fresh Milk')).toHaveFocus());
    await user.keyboard('5');
    await screen.findByRole('option', { name: 'Cash' });
    await user.selectOptions(screen.getByLabelText(/^Payment type/), '/api/payments/1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fake.find('POST', '/purchases')).toHaveLength(1));
    expect(fake.find('POST', '/purchases')[0].body).toMatchObject({ purchaseOrder: '/api/purchase_orders/7', store: '/api/stores/1', items: [{ item: '/api/products/1', quantity: '5' }] });
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/purchasing/receipts'));
  });
});
