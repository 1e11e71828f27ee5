import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { clearCookies, renderWithProviders } from '@/test/render';
import { COOKIE, writeCookie } from '@/lib/cookies';
import { setLanguage } from '@/lib/i18n';
import { resetSession, type User } from '@/lib/session';
import { fakeApi, hydra } from '@/features/list-table/testing/fake-api';
import { routes } from '../../router';

vi.mock('../pos', () => ({ PosRoute: () => <h1>Till</h1> }));
vi.setConfig({ testTimeout: 30_000 });

const main = { id: 1, name: 'Main Street', terminals: [] };
const mall = { id: 2, name: 'Harbour Mall', terminals: [] };
const owner: User = { id: 1, username: 'admin', displayName: 'Admin', roles: ['ROLE_ADMIN', 'ROLE_USER'], stores: [main, mall] };

const tee = {
  '@id': '/api/products/5', id: 5, name: 'Tee', barcode: '2000000000015', basePrice: 20, cost: 10, saleUnit: 'pcs', purchaseUnit: 'pcs',
  isActive: true, manageInventory: true, department: { id: 1, name: 'Clothes' },
  variants: [{ '@id': '/api/product_variants/51', id: 51, attributeName: 'Size', attributeValue: 'S', barcode: '2000000000022', price: 20, quantity: 3 }],
  stores: [{ '@id': '/api/product_stores/9', store: { id: 1, name: 'Main Street' }, quantity: 3, location: '', reOrderLevel: null }],
};

const options = {
  'GET /departments': hydra([{ id: 1, name: 'Clothes' }]),
  'GET /categories': hydra([]),
  'GET /suppliers': hydra([]),
  'GET /brands': hydra([]),
  'GET /taxes': hydra([]),
  'GET /terminals': hydra([]),
  'GET /stores': hydra([main, mall]),
};

beforeEach(() => {
  clearCookies();
  resetSession();
  sessionStorage.clear();
  writeCookie(COOKIE.token, 'jwt');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await act(() => setLanguage('en'));
});

const renderAdmin = (route: string) => renderWithProviders(null, { routes, route });

describe('back office: catalogue (issue 23.1)', () => {
  it('lists the products; Edit leads to /admin/catalogue/5, the product form as a page with the product as the server has it; Cancel goes back', async () => {
    const api = fakeApi({ 'GET /auth/info': { user: owner }, 'GET /products': hydra([tee]), 'GET /products/5': tee, ...options });
    const user = userEvent.setup();
    const { router } = renderAdmin('/admin/catalogue');
    expect(await screen.findByRole('heading', { name: 'Catalogue', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Catalogue' })).toHaveAttribute('aria-current', 'page');
    // The list keeps its import, export and labels buttons.
    expect(screen.getByRole('button', { name: /Upload Items/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Export items/ })).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Edit Tee' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/catalogue/5'));
    expect(await screen.findByRole('heading', { name: 'Update item', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Tee');
    expect(screen.getByLabelText('Variant 1')).toHaveValue('S');
    expect(api.find('GET', '/products/5')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/catalogue'));
    expect(await screen.findByRole('button', { name: 'Edit Tee' })).toBeInTheDocument();
  });

  it('a product opened straight from its URL; one the server does not have says so and links back to the list', async () => {
    fakeApi({
      'GET /auth/info': { user: owner }, 'GET /products/5': tee, ...options,
      'GET /products/404': () => new Response(JSON.stringify({ code: 'NOT_FOUND', message: 'Product not found' }), { status: 404, headers: { 'content-type': 'application/json' } }),
    });
    const first = renderAdmin('/admin/catalogue/5');
    expect(await screen.findByRole('heading', { name: 'Update item', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveValue('Tee');
    first.unmount();

    renderAdmin('/admin/catalogue/404');
    const alert = await screen.findByRole('alert', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent('Product not found');
    expect(within(alert).getByRole('link', { name: 'Back to the list' })).toHaveAttribute('href', '/admin/catalogue');
  });

  it('Add opens /admin/catalogue/new, whose first stock row is the store chosen on the list', async () => {
    const api = fakeApi({ 'GET /auth/info': { user: owner }, 'GET /products': hydra([tee]), ...options });
    const user = userEvent.setup();
    const { router } = renderAdmin('/admin/catalogue');
    await screen.findByRole('heading', { name: 'Catalogue', level: 1 }, { timeout: 15_000 });
    await user.selectOptions(screen.getByLabelText('Store'), '2');
    await user.click(screen.getByRole('button', { name: 'Item' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/catalogue/new'));
    expect(await screen.findByRole('heading', { name: 'Create item', level: 1 })).toBeInTheDocument();
    await screen.findByRole('option', { name: 'Harbour Mall' });
    expect(screen.getByLabelText('Store of row 1')).toHaveValue('2');
    expect(api.find('GET', '/products/new')).toHaveLength(0);
  });

  it('without products.manage: no Catalogue in the menu, and its URL leads to the dashboard', async () => {
    const buyer: User = { id: 3, username: 'buyer', displayName: 'Buyer', roles: ['ROLE_USER'], permissions: ['purchasing'], stores: [main] };
    fakeApi({ 'GET /auth/info': { user: buyer } });
    const { router } = renderAdmin('/admin/catalogue');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/dashboard'), { timeout: 15_000 });
    const menu = screen.getByRole('navigation', { name: 'Main menu' });
    expect(within(menu).queryByRole('link', { name: 'Catalogue' })).toBeNull();
    expect(within(menu).getByRole('link', { name: 'Purchasing' })).toHaveAttribute('href', '/admin/purchasing');
  });

  it('in Arabic the page is right to left with a translated menu', async () => {
    fakeApi({ 'GET /auth/info': { user: owner }, 'GET /products': hydra([tee]), ...options });
    await act(() => setLanguage('ar'));
    renderAdmin('/admin/catalogue');
    expect(await screen.findByRole('heading', { name: 'الكتالوج', level: 1 }, { timeout: 15_000 })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(within(screen.getByRole('navigation', { name: 'القائمة الرئيسية' })).getByRole('link', { name: 'المشتريات' })).toBeInTheDocument();
  });
});
