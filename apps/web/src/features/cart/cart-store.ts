/**
 * The sale being rung up: one store, persisted in localStorage 'pos-state' (spec 3
 * "Persisted working state"), so a reload or a crash keeps the cart.
 */
import { createStore, useStore } from '@/features/catalogue-cache/create-store';
import { emptyCart } from './cart-logic';
import type { CartResult, CartState } from './cart-types';

export const CART_STORAGE_KEY = 'pos-state';

function revive(stored: unknown, defaults: CartState): CartState {
  if (!stored || typeof stored !== 'object') return defaults;
  const s = { ...defaults, ...(stored as Partial<CartState>) };
  // Lines from an older version without a shape we understand are dropped, not crashed on.
  s.added = Array.isArray(s.added) ? s.added.filter((l) => l && typeof l.price === 'number' && typeof l.quantity === 'number' && l.item) : [];
  if (typeof s.uuid !== 'string' || !s.uuid) s.uuid = defaults.uuid;
  return s;
}

export const cartStore = createStore<CartState>(emptyCart(), { key: CART_STORAGE_KEY, revive });

export function useCart<S>(selector: (state: CartState) => S): S {
  return useStore(cartStore, selector);
}

/** Applies a pure transition. */
export function updateCart(fn: (state: CartState) => CartState): void {
  cartStore.set(fn);
}

/** Applies a transition that may be refused; returns the refusal message, if any. */
export function tryUpdateCart(fn: (state: CartState) => CartResult): string | undefined {
  const result = fn(cartStore.get());
  cartStore.set(result.state);
  return result.error;
}
