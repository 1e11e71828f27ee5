/**
 * The body of POST /api/admin/order/create (and PUT /api/admin/order/edit/{id}), following
 * reference-client 2.5a without its defects: quantities and money are wire decimals made from
 * exact integers, `taxAmount` is the real order tax, `discountAmount` is what the cashier TYPED
 * for an open discount (a percent when discountRateType is 'percent'; the server recomputes the
 * amount with the same domain maths), `total` excludes the adjustment, and every sale carries
 * the cart's client `uuid` (also sent as Idempotency-Key) so a retried submit is stored once.
 */
import { minorToDecimal, quantityToDecimal, toDecimal } from '@pos/domain/money';
import type { OrderTotals } from '@pos/domain/cart';
import { currencyDigits } from '@pos/domain/currency';
import { lineDiscountMinor, linePriceMinor, type CartTotals } from '../cart/cart-totals'; // relative: the API's till-agreement test loads this file
import type { CartState } from '@/features/cart/cart-types';
import type { SaleBody, SaleStatus, WirePayment } from '../../lib/sale-body';

export interface BuildSaleInput {
  cart: CartState;
  /** The till's totals (cart-totals.ts): their minor figures are sent, exact in any currency; plain hundredths otherwise. */
  totals: OrderTotals | CartTotals;
  payments: WirePayment[];
  storeId: number;
  terminalId: number;
  status: SaleStatus;
  suspend?: boolean;
}

export function buildSaleBody({ cart, totals, payments, storeId, terminalId, status, suspend = false }: BuildSaleInput): SaleBody {
  // The till's figures in the currency's minor units (KWD keeps its fils); hundredths for plain totals.
  const till = 'minor' in totals ? totals : null;
  const digits = till ? currencyDigits(till.currency) : 2;
  const fig = till ? till.minor : totals;
  const wire = (amount: number) => minorToDecimal(amount, digits);
  const typed = cart.discountAmount !== null && cart.discountAmount.trim() !== '' ? Number(cart.discountAmount) : null;
  return {
    uuid: cart.uuid,
    items: cart.added.map((l) => ({
      item: { id: l.item.id, '@id': `/api/products/${l.item.id}`, name: l.item.name },
      variant: l.variant ? { id: l.variant.id, '@id': `/api/product_variants/${l.variant.id}`, attributeValue: l.variant.attributeValue ?? null } : null,
      quantity: quantityToDecimal(l.quantity),
      price: till ? wire(linePriceMinor(l, till.currency)) : toDecimal(l.price),
      discount: till ? wire(lineDiscountMinor(l, till.currency)) : toDecimal(l.discount),
      taxIncluded: l.taxIncluded,
      discountIncluded: l.discountIncluded ?? false,
      taxes: l.taxes.map((t) => ({ id: t.id, '@id': `/api/taxes/${t.id}`, name: t.name, rate: t.rate })),
    })),
    discount: cart.discount
      ? { id: cart.discount.id, '@id': `/api/discounts/${cart.discount.id}`, name: cart.discount.name, rate: cart.discount.rate, rateType: cart.discount.rateType, scope: cart.discount.scope }
      : null,
    tax: cart.tax ? { id: cart.tax.id, '@id': `/api/taxes/${cart.tax.id}`, name: cart.tax.name, rate: cart.tax.rate } : null,
    taxAmount: wire(fig.orderTaxCents),
    discountAmount: typed !== null && Number.isFinite(typed) && typed !== 0 ? Math.abs(typed) : null,
    discountRateType: typed ? cart.discountRateType : null,
    payments: suspend ? [] : payments,
    customerId: cart.customer?.id ?? null,
    customer: cart.customerName.trim() || null,
    refundingFrom: cart.refundingFrom,
    notes: cart.notes.trim() || null,
    store: storeId,
    terminal: terminalId,
    total: wire(fig.totalCents),
    adjustment: wire(fig.adjustmentCents),
    isSuspended: suspend,
    status,
  };
}
