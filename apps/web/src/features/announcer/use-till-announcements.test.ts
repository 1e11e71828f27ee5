import { describe, expect, it } from 'vitest';
import { emptyCart } from '@/features/cart/cart-logic';
import type { CartLine, CartState } from '@/features/cart/cart-types';
import { cartChange } from './use-till-announcements';

/** What a screen reader hears when the cart changes (issue 29.4): one sentence with the new total. */
const line = (key: string, name: string, quantity = 1000, variant?: string): CartLine => ({
  key, item: { id: 1, name } as CartLine['item'], variant: variant ? { id: 2, attributeValue: variant } as CartLine['variant'] : null,
  checked: false, quantity, discount: 0, price: 1075, taxIncluded: false, taxes: [],
});
const cart = (added: CartLine[], uuid = 'u1'): CartState => ({ ...emptyCart(), uuid, added });
const say = (key: string, values?: Record<string, string>) => `${key} ${JSON.stringify(values ?? {})}`;
const total = (s: CartState) => `$${s.added.reduce((n, l) => n + l.quantity / 1000 * l.price, 0) / 100}`;

describe('cartChange', () => {
  it('says the item added, its quantity and the new total', () => {
    expect(cartChange(cart([]), cart([line('a', 'Milk')]), say, total)).toBe('announce.added {"item":"Milk","qty":"1","total":"$10.75"}');
    expect(cartChange(cart([]), cart([line('a', 'T-Shirt', 1000, 'M-Black')]), say, total)).toContain('"item":"T-Shirt (M-Black)"');
  });

  it('says a changed quantity and a removed line with the total', () => {
    const one = cart([line('a', 'Milk'), line('b', 'Bread')]);
    expect(cartChange(one, cart([line('a', 'Milk', 3000), line('b', 'Bread')]), say, total)).toBe('announce.quantity {"item":"Milk","qty":"3","total":"$43"}');
    expect(cartChange(one, cart([line('a', 'Milk')]), say, total)).toBe('announce.removed {"item":"Bread","total":"$10.75"}');
    expect(cartChange(cart([line('a', 'Milk')]), cart([]), say, total)).toBe('announce.emptied {}');
  });

  it('stays quiet for a new sale and for changes a cashier does not hear', () => {
    expect(cartChange(cart([line('a', 'Milk')]), cart([], 'u2'), say, total)).toBe('');
    const same = cart([line('a', 'Milk')]);
    expect(cartChange(same, { ...same, q: 'typing' }, say, total)).toBe('');
  });
});
