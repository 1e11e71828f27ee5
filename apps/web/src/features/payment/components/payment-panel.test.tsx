import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, renderWithProviders } from '@/test/render';
import type { PaymentType, Product } from '@/features/catalogue-cache/types';
import { addToCart, emptyCart } from '@/features/cart/cart-logic';
import { cartStore } from '@/features/cart/cart-store';
import { endSession, startSession, type Store } from '@/lib/session';
import { PaymentPanel, type PaymentPanelHandle, type PaymentPanelProps } from './payment-panel';

// userEvent typing in jsdom is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const cash: PaymentType = { id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true };
const card: PaymentType = { id: 2, name: 'Credit Card', type: 'credit card', canHaveChangeDue: false };
const credit: PaymentType = { id: 3, name: 'Credit', type: 'credit', canHaveChangeDue: false };
const soap: Product = { id: 2, name: 'Soap', basePrice: 12.34 };

const fetchMock = vi.fn<typeof fetch>();

function renderPanel(props: Partial<PaymentPanelProps> = {}) {
  const ref = createRef<PaymentPanelHandle>();
  const onCompleted = vi.fn();
  const onSaved = vi.fn();
  const view = renderWithProviders(
    <PaymentPanel
      ref={ref}
      paymentTypes={[cash, card, credit]}
      mode="pos"
      storeId={1}
      terminalId={7}
      defaults={{ tax: null, discount: null, paymentType: null }}
      requireCustomerName={false}
      onCompleted={onCompleted}
      onSaved={onSaved}
      {...props}
    />,
  );
  return { ...view, ref, onCompleted, onSaved };
}

const fillCart = (qty = 1000) => cartStore.set(addToCart(emptyCart(), { product: soap, qtyMilli: qty }).state);
const received = () => screen.getByLabelText('Received amount');
const done = () => screen.getByRole('button', { name: 'Done' });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  cartStore.set(emptyCart());
});
afterEach(() => vi.unstubAllGlobals());

describe('PaymentPanel', () => {
  it('Done is disabled with an empty cart; credit needs a customer and a cart', async () => {
    renderPanel();
    expect(done()).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Credit' })).toBeDisabled();
    act(() => fillCart());
    expect(screen.getByRole('radio', { name: 'Credit' })).toBeDisabled();
    act(() => cartStore.set({ ...cartStore.get(), customer: { id: 9, name: 'Aisha', allowCreditSale: true } }));
    expect(screen.getByRole('radio', { name: 'Credit' })).toBeEnabled();
  });

  it('defaults the received amount to the total; underpaid is Receivable and blocks Done; overpaid shows the Change, large and positive', async () => {
    fillCart();
    renderPanel();
    expect(received()).toHaveValue('12.34');
    expect(screen.getByTestId('change-due')).toHaveTextContent('Change$0.00');
    expect(done()).toBeEnabled();
    await userEvent.clear(received());
    await userEvent.type(received(), '10');
    expect(screen.getByTestId('change-due')).toHaveTextContent('Receivable');
    expect(screen.getByTestId('change-due')).toHaveTextContent('$2.34');
    expect(done()).toBeDisabled();
    await userEvent.clear(received());
    await userEvent.type(received(), '20');
    expect(screen.getByTestId('change-due')).toHaveTextContent('Change$7.66');
    expect(screen.getByTestId('change-amount')).toHaveTextContent('$7.66');
    expect(done()).toBeEnabled();
  });

  it('quick cash: the first note replaces the amount, then notes add (with a count) or subtract; Exact fills the rest', async () => {
    fillCart();
    renderPanel();
    // US dollar notes: 5, 10, 20, 50, 100.
    expect(screen.getAllByRole('button', { name: /^\$\d+\.00/ }).map((b) => b.textContent)).toEqual(['$5.00', '$10.00', '$20.00', '$50.00', '$100.00']);
    await userEvent.click(screen.getByRole('button', { name: '$10.00' }));
    expect(received()).toHaveValue('10.00');
    await userEvent.click(screen.getByRole('button', { name: '$5.00' }));
    await userEvent.click(screen.getByRole('button', { name: '$5.00 ×1' })); // badge counts it
    expect(received()).toHaveValue('20.00');
    await userEvent.click(screen.getByRole('radio', { name: 'Subtract' }));
    await userEvent.click(screen.getByRole('button', { name: '$5.00 ×2' }));
    expect(received()).toHaveValue('15.00');
    await userEvent.click(screen.getByRole('button', { name: 'Exact' }));
    expect(received()).toHaveValue('12.34');
  });

  it('split payments: Enter adds a row, the field resets to the rest; zero and over-paying a card are refused', async () => {
    fillCart();
    renderPanel();
    await userEvent.click(screen.getByRole('radio', { name: 'Credit Card' }));
    await userEvent.clear(received());
    await userEvent.type(received(), '0{Enter}');
    expect(await screen.findByText('Amount cannot be zero')).toBeInTheDocument();
    await userEvent.clear(received());
    await userEvent.type(received(), '20{Enter}');
    expect(await screen.findByText('Credit Card cannot pay more than the amount due ($12.34): take the rest in cash to give change.')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Payments' })).toBeNull();
    await userEvent.clear(received());
    await userEvent.type(received(), '5{Enter}');
    const list = screen.getByRole('list', { name: 'Payments' });
    expect(list).toHaveTextContent('Credit Card');
    expect(received()).toHaveValue('7.34');
    await userEvent.click(within(list).getByLabelText('Remove Credit Card payment'));
    expect(screen.queryByRole('list', { name: 'Payments' })).toBeNull();
    expect(received()).toHaveValue('12.34');
  });

  it("requires a customer name when asked: 'Add customer name'", async () => {
    fillCart();
    renderPanel({ requireCustomerName: true });
    await userEvent.click(done());
    expect(await screen.findByText('Add customer name')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('settles: posts the sale with its uuid as Idempotency-Key, clears the cart and hands the completed order over', async () => {
    fillCart(2000);
    const uuid = cartStore.get().uuid;
    const order = { id: 5, orderId: 12, status: 'Completed', createdAt: '2024-01-01T10:00:00Z', items: [], payments: [] };
    fetchMock.mockResolvedValue(jsonResponse({ order }, 201));
    const { onCompleted, onSaved, ref } = renderPanel();
    await userEvent.clear(received());
    await userEvent.type(received(), '30');
    act(() => ref.current!.settle()); // ctrl+s
    await waitFor(() => expect(onCompleted).toHaveBeenCalledWith(order));
    expect(onSaved).toHaveBeenCalledWith(order);
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toBe('/api/admin/order/create');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['Idempotency-Key']).toBe(uuid);
    const body = JSON.parse(String(init?.body));
    expect(body).toMatchObject({ uuid, store: 1, terminal: 7, total: 24.68, status: 'Completed', isSuspended: false });
    expect(body.payments).toEqual([{ received: 30, total: 24.68, due: 5.32, tendered: 30, change: 5.32, type: { id: 1, name: 'Cash', type: 'cash' } }]);
    expect(cartStore.get().added).toHaveLength(0);
    expect(cartStore.get().uuid).not.toBe(uuid);
  });

  it('joins the violations of a refused sale into one toast and keeps the cart', async () => {
    fillCart();
    fetchMock.mockResolvedValue(jsonResponse({ code: 'VALIDATION_FAILED', message: 'x', violations: [{ propertyPath: 'total', message: 'Total mismatch' }, { propertyPath: 'payments', message: 'Bad payment' }] }, 422));
    renderPanel();
    await userEvent.click(done());
    expect(await screen.findByText('Total mismatch, Bad payment')).toBeInTheDocument();
    expect(cartStore.get().added).toHaveLength(1);
  });

  it('suspends without payments; order mode sends Pending without taking payment', async () => {
    fillCart();
    fetchMock.mockResolvedValue(jsonResponse({ order: { id: 6, orderId: null, status: 'On Hold', createdAt: '', items: [], payments: [] } }, 201));
    const { onCompleted, unmount } = renderPanel();
    await userEvent.click(screen.getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(JSON.parse(String(fetchMock.mock.calls[0][1]?.body))).toMatchObject({ isSuspended: true, payments: [] });
    await waitFor(() => expect(cartStore.get().added).toHaveLength(0));
    expect(onCompleted).not.toHaveBeenCalled();
    unmount();

    fillCart();
    fetchMock.mockResolvedValue(jsonResponse({ order: { id: 7, orderId: 3, status: 'Pending', createdAt: '', items: [], payments: [] } }, 201));
    renderPanel({ mode: 'order' });
    expect(screen.queryByLabelText('Received amount')).toBeNull();
    await userEvent.click(done());
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(JSON.parse(String(fetchMock.mock.calls[1][1]?.body))).toMatchObject({ status: 'Pending', payments: [] });
  });

  it('exact cash (ctrl+shift+s, issue 29.3) pays what is due in cash whatever type and amount were chosen, and completes', async () => {
    fillCart(2000);
    const order = { id: 6, orderId: 13, status: 'Completed', createdAt: '2024-01-01T10:00:00Z', items: [], payments: [] };
    fetchMock.mockResolvedValue(jsonResponse({ order }, 201));
    const { onCompleted, ref } = renderPanel();
    act(() => ref.current!.selectType(1)); // Credit Card chosen
    await userEvent.clear(received());
    await userEvent.type(received(), '5');
    act(() => ref.current!.exactCash());
    await waitFor(() => expect(onCompleted).toHaveBeenCalledWith(order));
    const body = JSON.parse(String(fetchMock.mock.calls[0][1]?.body));
    expect(body.payments).toEqual([{ received: 24.68, total: 24.68, due: 0, tendered: 24.68, change: 0, type: { id: 1, name: 'Cash', type: 'cash' } }]);
  });

  it('settling a running order is an update of that order', async () => {
    fillCart();
    cartStore.set({ ...cartStore.get(), orderId: 44 });
    fetchMock.mockResolvedValue(jsonResponse({ order: { id: 44, orderId: 9, status: 'Completed', createdAt: '', items: [], payments: [] } }));
    renderPanel({ mode: 'payment' });
    await userEvent.click(done());
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(fetchMock.mock.calls[0][0]).toBe('/api/admin/order/edit/44');
    expect(fetchMock.mock.calls[0][1]?.method).toBe('PUT');
  });

  it('picks payment types by index (alt+p+index) and clears the cart (ctrl+x)', async () => {
    fillCart();
    const { ref } = renderPanel();
    act(() => ref.current!.selectType(1));
    expect(screen.getByRole('radio', { name: 'Credit Card' })).toHaveAttribute('aria-checked', 'true');
    act(() => ref.current!.selectType(2)); // credit: no customer, ignored
    expect(screen.getByRole('radio', { name: 'Credit Card' })).toHaveAttribute('aria-checked', 'true');
    // ctrl+x asks first (issue 23.3): "No, wait" keeps the cart, "Clear" empties it.
    let cleared: Promise<void> = Promise.resolve();
    act(() => { cleared = ref.current!.clear(); });
    await userEvent.click(await screen.findByRole('button', { name: 'No, wait' }));
    await act(async () => { await cleared; });
    expect(cartStore.get().added).toHaveLength(1);
    act(() => { cleared = ref.current!.clear(); });
    const ask = await screen.findByRole('dialog', { name: 'Clear' });
    expect(ask).toHaveTextContent('Clear this sale?');
    await userEvent.click(within(ask).getByRole('button', { name: 'Clear' }));
    await act(async () => { await cleared; });
    expect(cartStore.get().added).toHaveLength(0);
  });

  describe('in the store\'s currency', () => {
    const inStore = (settings: Partial<Store>) => {
      const store: Store = { id: 1, name: 'Shop', terminals: [{ id: 7, code: 'T1' }], ...settings };
      act(() => startSession({ id: 1, username: 'c', displayName: 'C', roles: ['ROLE_USER'], stores: [store] }, { restore: false }));
    };
    afterEach(() => act(() => endSession()));

    it('JPY: no decimals anywhere, yen notes, a decimal refused at the keystroke', async () => {
      inStore({ currency: 'JPY', locale: 'ja-JP' });
      cartStore.set(addToCart(emptyCart(), { product: { id: 4, name: 'Tea', basePrice: 1075 }, qtyMilli: 1000 }).state);
      renderPanel();
      expect(screen.getByTestId('payment-total')).toHaveTextContent('￥1,075');
      expect(received()).toHaveValue('1075');
      expect(screen.getAllByRole('button', { name: /^￥/ }).map((b) => b.textContent)).toEqual(['￥1,000', '￥2,000', '￥5,000', '￥10,000']);
      await userEvent.clear(received());
      await userEvent.type(received(), '2000.5');
      expect(received()).toHaveValue('20005'); // the separator is refused: yen have no minor digits
      await userEvent.clear(received());
      await userEvent.type(received(), '2000');
      expect(screen.getByTestId('change-amount')).toHaveTextContent('￥925');
    });

    it('KWD: three decimals from the catalogue price to the wire; 1.275 + 8.25 % tax is 1.380, never 1.386', async () => {
      inStore({ currency: 'KWD', locale: 'en-US' });
      const dates = { id: 5, name: 'Dates', basePrice: '1.275', taxes: [{ id: 3, name: 'Sales tax', rate: '8.25' }] } as Product;
      cartStore.set(addToCart(emptyCart(), { product: dates, qtyMilli: 1000 }).state);
      fetchMock.mockResolvedValue(jsonResponse({ order: { id: 8, orderId: 4, status: 'Completed', createdAt: '', items: [], payments: [] } }, 201));
      const { onCompleted } = renderPanel();
      // 8.25 % of 1.275 = 0.1051875 -> 0.105; 1.275 + 0.105 = 1.380 (hundredths would give 1.28 + 0.106 = 1.386).
      expect(screen.getByTestId('payment-total')).toHaveTextContent(/KWD\s1\.380$/);
      expect(received()).toHaveValue('1.380');
      expect(screen.getAllByRole('button', { name: /^KWD/ }).map((b) => b.textContent?.replace(/\s/g, ' '))).toEqual(['KWD 0.250', 'KWD 0.500', 'KWD 1.000', 'KWD 5.000', 'KWD 10.000', 'KWD 20.000']);
      await userEvent.clear(received());
      await userEvent.type(received(), '1.5');
      expect(screen.getByTestId('change-amount')).toHaveTextContent(/KWD\s0\.120$/);
      await userEvent.click(done());
      await waitFor(() => expect(onCompleted).toHaveBeenCalled());
      const body = JSON.parse(String(fetchMock.mock.calls[0][1]?.body));
      expect(body.items[0].price).toBe(1.275);
      expect(body.total).toBe(1.38);
      expect(body.payments).toEqual([{ received: 1.5, total: 1.38, due: 0.12, tendered: 1.5, change: 0.12, type: { id: 1, name: 'Cash', type: 'cash' } }]);
    });

    it('EUR in de-DE: the comma is the separator, two decimals at most', async () => {
      inStore({ currency: 'EUR', locale: 'de-DE' });
      fillCart();
      renderPanel();
      expect(screen.getByTestId('payment-total')).toHaveTextContent('12,34 €');
      expect(received()).toHaveValue('12,34');
      await userEvent.clear(received());
      await userEvent.type(received(), '20.505');
      expect(received()).toHaveValue('20,50');
      expect(screen.getByTestId('change-amount')).toHaveTextContent('8,16 €');
    });

    it('cash rounding is the store\'s: its own line on the cash part only, no one-tap rounding', async () => {
      inStore({ currency: 'USD', locale: 'en-US', cashRoundingStep: 5 });
      fillCart(); // 12.34
      renderPanel();
      expect(screen.queryByRole('button', { name: /Round to/ })).toBeNull();
      // Cash (the default type): 12.34 rounds to 12.35, shown as its own line.
      expect(screen.getByTestId('payment-rounding')).toHaveTextContent('Cash rounding$0.01');
      expect(screen.getByTestId('payment-due')).toHaveTextContent('$12.35');
      expect(received()).toHaveValue('12.35');
      await userEvent.clear(received());
      await userEvent.type(received(), '20');
      expect(screen.getByTestId('change-amount')).toHaveTextContent('$7.65');
      // A card pays the exact amount: no rounding.
      await userEvent.click(screen.getByRole('radio', { name: 'Credit Card' }));
      expect(received()).toHaveValue('12.34');
      expect(screen.queryByTestId('payment-rounding')).toBeNull();
      // Card 10.00 + cash: only the cash part 2.34 is rounded (to 2.35).
      await userEvent.clear(received());
      await userEvent.type(received(), '10{Enter}');
      await userEvent.click(screen.getByRole('radio', { name: 'Cash' }));
      expect(received()).toHaveValue('2.35');
      expect(screen.getByTestId('payment-due')).toHaveTextContent('$12.35');
    });

    it('a store that does not round shows no rounding line', () => {
      inStore({ currency: 'USD', locale: 'en-US', cashRoundingStep: 0 });
      fillCart();
      renderPanel();
      expect(screen.queryByTestId('payment-rounding')).toBeNull();
      expect(screen.queryByRole('button', { name: /Round to/ })).toBeNull();
      expect(received()).toHaveValue('12.34');
    });
  });

  it('a refund goes back to the original card by default; a cashier cannot swap the card row for cash', async () => {
    const sold = { id: 9, orderId: 3, createdAt: '', status: 'Completed', items: [{ product: soap, quantity: 1, price: 12.34, discount: 0, taxesTotal: 0, taxes: [] }], payments: [{ total: 12.34, received: 12.34, due: 0, type: card }] };
    const { loadOrder } = await import('@/features/cart/load-order');
    cartStore.set(loadOrder(sold, 'refund'));
    renderPanel();
    const list = screen.getByRole('list', { name: 'Payments' });
    expect(list).toHaveTextContent('Credit Card-$12.34');
    expect(received()).toHaveValue('0.00');
    expect(within(list).getByLabelText('Remove Credit Card payment')).toBeDisabled();
    expect(done()).toBeEnabled();
  });
});

