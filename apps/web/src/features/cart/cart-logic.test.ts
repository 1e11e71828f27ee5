import { describe, expect, it } from 'vitest';
import type { Order, Product } from '@/features/catalogue-cache/types';
import { QUANTITY_BELOW_ONE, addToCart, checkState, duplicateTargets, emptyCart, moveActiveField, moveActiveLine, parseQuantityInput, removeLine, removeTargets, setLineDiscount, setLineQuantity, setTargetsDiscount, setTargetsQuantity, toggleAllChecked, toggleChecked, toggleTargetsTax, unitPriceOf, wrapIndex } from './cart-logic';
import { loadOrder } from './load-order';
import { computeCartTotals } from './cart-totals';
import type { CartState } from './cart-types';

const vat = { id: 1, name: 'VAT', rate: 16 };
const milk: Product = { id: 1, name: 'Milk', barcode: '100', basePrice: 2.5, taxes: [] };
const soap: Product = { id: 2, name: 'Soap', barcode: '200', basePrice: 10, taxes: [vat], manageInventory: true };
const shirt: Product = {
  id: 3, name: 'Shirt', barcode: '300', basePrice: 20, taxes: [vat],
  variants: [{ id: 31, attributeValue: 'S-Black', barcode: '3001', price: null }, { id: 32, attributeValue: 'M-Black', barcode: '3002', price: 22 }],
};

function add(state: CartState, product: Product, qty = 1000, variant = null as Product['variants'] extends (infer V)[] | undefined ? V | null : never): CartState {
  const r = addToCart(state, { product, qtyMilli: qty, variant });
  expect(r.error).toBeUndefined();
  return r.state;
}

describe('adding to the cart', () => {
  it('appends a new line with discount 0 and the product taxes, and makes it active', () => {
    const s = add(add(emptyCart(), milk), soap);
    expect(s.added).toHaveLength(2);
    expect(s.added[1]).toMatchObject({ price: 1000, quantity: 1000, discount: 0, taxIncluded: true, checked: false });
    expect(s.added[1].taxes).toEqual([vat]);
    expect(s.selected).toBe(1);
  });

  it('raises the quantity of the same item instead of adding a line', () => {
    const s = add(add(add(emptyCart(), milk, 2000), soap), milk, 1500);
    expect(s.added).toHaveLength(2);
    expect(s.added[0].quantity).toBe(3500);
    expect(s.selected).toBe(0);
  });

  it('keeps variants of one item apart and prices them (own price, else the item price)', () => {
    let s = add(emptyCart(), shirt, 1000, shirt.variants![0]);
    s = add(s, shirt, 1000, shirt.variants![1]);
    s = add(s, shirt, 1000, shirt.variants![0]);
    expect(s.added.map((l) => [l.variant?.attributeValue, l.quantity, l.price])).toEqual([['S-Black', 2000, 2000], ['M-Black', 1000, 2200]]);
  });

  it('takes an explicit (weighed barcode) price', () => {
    const r = addToCart(emptyCart(), { product: milk, qtyMilli: 500, priceCents: 250 });
    expect(r.state.added[0]).toMatchObject({ price: 250, quantity: 500 });
  });

  it('refuses a quantity of zero or less', () => {
    const r = addToCart(emptyCart(), { product: milk, qtyMilli: 0 });
    expect(r.error).toBe(QUANTITY_BELOW_ONE);
    expect(r.state.added).toHaveLength(0);
  });

  it('applies a price rule in force', () => {
    const p: Product = { ...milk, prices: [{ month: 12, basePrice: 1.99 }] };
    expect(unitPriceOf(p, null, new Date(2024, 11, 5))).toBe(199);
    expect(unitPriceOf(p, null, new Date(2024, 10, 5))).toBe(250);
  });

  it("applies a time-of-day price rule on the store's clock, not the device's (issue 19)", () => {
    // Happy hour 17:00-19:00; 04:30 UTC is 17:30 in Auckland (NZDT, +13) and 20:30 the day before in Los Angeles.
    const p: Product = { ...milk, prices: [{ time: '17:00', timeTo: '19:00', basePrice: 1.99 }] };
    const now = new Date('2024-03-05T04:30:00Z');
    expect(unitPriceOf(p, null, now, 'Pacific/Auckland')).toBe(199);
    expect(unitPriceOf(p, null, now, 'America/Los_Angeles')).toBe(250);
    expect(addToCart(emptyCart(), { product: p, qtyMilli: 1000, now, timeZone: 'Pacific/Auckland' }).state.added[0].price).toBe(199);
  });

  it('a KWD price rule keeps its fils in the till: 1.275 in force, not 1.28 (issue 19)', () => {
    const kwd = { currency: 'KWD', pricesIncludeTax: false, legacyTaxBase: false };
    const p: Product = { ...milk, basePrice: '2.500', prices: [{ month: 12, basePrice: '1.275' }] };
    const december = addToCart(emptyCart(), { product: p, qtyMilli: 2000, now: new Date(2024, 11, 5) }).state;
    expect(computeCartTotals(december, kwd).minor.lines[0].grossCents).toBe(2550); // 2 x 1.275
    const november = addToCart(emptyCart(), { product: p, qtyMilli: 1000, now: new Date(2024, 10, 5) }).state;
    expect(computeCartTotals(november, kwd).minor.lines[0].grossCents).toBe(2500);
    // A variant with its own price keeps it whatever the rule.
    const withVariant: Product = { ...p, variants: [{ id: 31, attributeValue: 'Large', price: '3.125' }] };
    const large = addToCart(emptyCart(), { product: withVariant, variant: withVariant.variants![0], qtyMilli: 1000, now: new Date(2024, 11, 5) }).state;
    expect(computeCartTotals(large, kwd).minor.lines[0].grossCents).toBe(3125);
  });

  it('parses the quantity box', () => {
    expect(parseQuantityInput('1')).toBe(1000);
    expect(parseQuantityInput('2.5')).toBe(2500);
    expect(parseQuantityInput('0')).toBeNull();
    expect(parseQuantityInput('-1')).toBeNull();
    expect(parseQuantityInput('abc')).toBeNull();
  });
});

describe('the toolbar acts on the checked lines, or the last line', () => {
  const base = () => add(add(add(emptyCart(), milk), soap), shirt, 1000, shirt.variants![0]);

  it('removes the last line when none is checked, else the checked ones', () => {
    expect(removeTargets(base()).added.map((l) => l.item.name)).toEqual(['Milk', 'Soap']);
    const checked = toggleChecked(toggleChecked(base(), 0), 2);
    expect(removeTargets(checked).added.map((l) => l.item.name)).toEqual(['Soap']);
  });

  it('resets the adjustment when the cart empties', () => {
    let s = { ...add(emptyCart(), milk), adjustment: 50 };
    s = removeLine(s, 0);
    expect(s.added).toHaveLength(0);
    expect(s.adjustment).toBe(0);
  });

  it('duplicates as new unchecked lines', () => {
    const s = duplicateTargets(toggleChecked(base(), 0));
    expect(s.added.map((l) => l.item.name)).toEqual(['Milk', 'Soap', 'Shirt', 'Milk']);
    expect(s.added.every((l) => !l.checked)).toBe(true);
    expect(new Set(s.added.map((l) => l.key)).size).toBe(4);
  });

  it('sets a quantity then unchecks, and refuses zero', () => {
    const s = setTargetsQuantity(toggleChecked(toggleChecked(base(), 0), 1), 3000);
    expect(s.error).toBeUndefined();
    expect(s.state.added.map((l) => l.quantity)).toEqual([3000, 3000, 1000]);
    expect(s.state.added.every((l) => !l.checked)).toBe(true);
    const refused = setTargetsQuantity(base(), 0);
    expect(refused.error).toBe('Quantity cannot be less then 1');
    expect(refused.state.added.map((l) => l.quantity)).toEqual([1000, 1000, 1000]);
  });

  it('gives a fixed discount capped to price x quantity, or a percent of price x quantity', () => {
    let s = setTargetsDiscount(base(), 'fixed', 5000);
    expect(s.added[2].discount).toBe(2000); // capped to the 20.00 line
    s = setTargetsQuantity(s, 2000).state;
    s = setTargetsDiscount(s, 'percent', 1000); // 10 % of 2 x 20.00
    expect(s.added[2].discount).toBe(400);
    s = setLineQuantity(s, 2, 3000).state; // the percent follows the quantity
    expect(s.added[2].discount).toBe(600);
  });

  it('caps an inline discount', () => {
    const s = setLineDiscount(base(), 0, 9999);
    expect(s.added[0].discount).toBe(250);
  });

  it('keeps a typed KWD line discount to the fils: 1.275 less 0.125 is 1.150 before tax (issue 19)', () => {
    const kwd = { currency: 'KWD', pricesIncludeTax: false, legacyTaxBase: false };
    const item: Product = { id: 9, name: 'Tea', barcode: '900', basePrice: '1.275', taxes: [{ id: 2, name: 'Sales tax', rate: '8.25' }] };
    const rung = add(emptyCart(), item);
    // Typed inline (the cents 13 are what hundredths can hold; the text keeps the third digit).
    const inline = setLineDiscount(rung, 0, 13, '0.125');
    const line = computeCartTotals(inline, kwd).minor.lines[0];
    expect([line.grossCents, line.discountCents, line.exclusiveCents]).toEqual([1275, 125, 1150]);
    // 8.25 % of 1.150 = 0.094875 -> 0.095; hundredths would have taxed 1.145.
    expect([computeCartTotals(inline, kwd).minor.itemTaxesCents, computeCartTotals(inline, kwd).minor.totalCents]).toEqual([95, 1245]);
    // The same amount from the discount dialog.
    const dialog = setTargetsDiscount(rung, 'fixed', 13, '0.125');
    expect(computeCartTotals(dialog, kwd).minor.lines[0].exclusiveCents).toBe(1150);
    // A percent discount replaces it (10 % of 1.275 = 0.1275 -> 0.13 in the cart's hundredths).
    const percent = setTargetsDiscount(inline, 'percent', 1000);
    expect(percent.added[0].discountExact).toBeUndefined();
    expect(computeCartTotals(percent, kwd).minor.lines[0].discountCents).toBe(130);
    // A USD till is unchanged: its typed text is its cents (0.13).
    const usd = setLineDiscount(add(emptyCart(), { ...item, basePrice: '1.27' }), 0, 13, '0.13');
    expect(computeCartTotals(usd).minor.lines[0].exclusiveCents).toBe(114);
  });

  it('toggles tax', () => {
    const s = toggleTargetsTax(base());
    expect(s.added.map((l) => l.taxIncluded)).toEqual([true, true, false]);
  });

  it('refuses an inline quantity below one and keeps the old one', () => {
    const r = setLineQuantity(base(), 0, -1000);
    expect(r.error).toBe(QUANTITY_BELOW_ONE);
    expect(r.state.added[0].quantity).toBe(1000);
  });
});

describe('selection and navigation', () => {
  it('select-all is checked, partial or clear', () => {
    let s = add(add(emptyCart(), milk), soap);
    expect(checkState(s.added)).toBe('none');
    s = toggleChecked(s, 0);
    expect(checkState(s.added)).toBe('some');
    s = toggleAllChecked(s);
    expect(checkState(s.added)).toBe('all');
    s = toggleAllChecked(s);
    expect(checkState(s.added)).toBe('none');
  });

  it('wraps the active row and switches the active field', () => {
    let s = add(add(add(emptyCart(), milk), soap), shirt, 1000, shirt.variants![0]);
    s = moveActiveLine(s, 1);
    expect(s.selected).toBe(0);
    s = moveActiveLine(s, -1);
    expect(s.selected).toBe(2);
    expect(moveActiveField(s, 1).cartItemType).toBe('discount');
    expect(moveActiveField(moveActiveField(s, 1), 1).cartItemType).toBe('quantity');
    expect(wrapIndex(0, -1, 0)).toBe(0);
  });
});

describe('loading a past order', () => {
  const order: Order = {
    id: 42, orderId: 7, createdAt: '2024-01-01T10:00:00Z', status: 'Completed',
    items: [
      { product: soap, quantity: 2, price: 10, discount: 1, taxesTotal: 3.2, taxes: [vat] },
      { product: milk, quantity: 1, price: 2.5, discount: 0, taxesTotal: 0, taxes: [] },
    ],
    discount: { rate: 5, rateType: 'percent', amount: 1.14, type: { id: 1, name: 'Discount 5%', rate: 5, rateType: 'percent', scope: 'exact' } },
    tax: { rate: 5, amount: 1.08, type: { id: 2, name: 'GST', rate: 5 } },
    payments: [],
    customer: { id: 9, name: 'Aisha Khan' },
  };

  it('a resumed KWD order keeps its stored line discount to the fils (0.125), and a refund mirrors it exactly', () => {
    const kwd = { currency: 'KWD', pricesIncludeTax: false, legacyTaxBase: false };
    const held: Order = { ...order, discount: null, tax: null, items: [{ product: soap, quantity: 1, price: 1.275, discount: 0.125, taxesTotal: 0, taxes: [] }] };
    expect(computeCartTotals(loadOrder(held, 'unsuspend'), kwd).minor.lines[0].exclusiveCents).toBe(1150);
    expect(computeCartTotals(loadOrder(held, 'refund'), kwd).minor.lines[0].exclusiveCents).toBe(-1150);
    expect(computeCartTotals(loadOrder(held, 'reorder'), kwd).minor.lines[0].exclusiveCents).toBe(1275);
  });

  it('refund negates quantities, mirrors the discount and records refundingFrom', () => {
    const s = loadOrder(order, 'refund');
    expect(s.added.map((l) => [l.quantity, l.price, l.discount])).toEqual([[-2000, 1000, -100], [-1000, 250, 0]]);
    expect(s.refundingFrom).toBe(42);
    expect(s.orderId).toBeNull();
    expect(s.customer?.name).toBe('Aisha Khan');
    expect(s.discount?.name).toBe('Discount 5%');
    expect(s.tax?.name).toBe('GST');
    const sale = computeCartTotals(loadOrder(order, 'reorder'));
    const refund = computeCartTotals(loadOrder({ ...order, items: order.items.map((i) => ({ ...i, discount: 0 })) }, 'refund'));
    expect(refund.totalCents).toBe(-sale.totalCents);
  });

  it('re-order keeps quantities without the line discount', () => {
    const s = loadOrder(order, 'reorder');
    expect(s.added.map((l) => [l.quantity, l.discount])).toEqual([[2000, 0], [1000, 0]]);
    expect(s.refundingFrom).toBeNull();
  });

  it('settling a running order keeps its id and line discounts', () => {
    const s = loadOrder({ ...order, notes: 'table 4' }, 'settle');
    expect(s.orderId).toBe(42);
    expect(s.added[0].discount).toBe(100);
    expect(s.notes).toBe('table 4');
  });

  it('keeps a tax that was toggled off off', () => {
    const s = loadOrder({ ...order, items: [{ ...order.items[0], taxesTotal: 0 }] }, 'unsuspend');
    expect(s.added[0].taxIncluded).toBe(false);
  });

  it('takes an open discount as typed, and a name-only customer as the name box', () => {
    const s = loadOrder({ ...order, discount: { rate: 10, rateType: 'percent', amount: 2, type: { id: 3, name: 'Open', scope: 'open', rateType: 'fixed' } }, customer: { id: null as unknown as number, name: 'Walk in' } }, 'refund');
    expect(s.discountAmount).toBe('10');
    expect(s.discountRateType).toBe('percent');
    expect(s.customer).toBeNull();
    expect(s.customerName).toBe('Walk in');
  });
});
