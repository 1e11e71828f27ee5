/** Asks the cart table to focus the active field of the active row (ctrl+arrows). */
export const CART_FOCUS_EVENT = 'pos:cart-focus';
export function focusActiveCartField(): void {
  window.dispatchEvent(new CustomEvent(CART_FOCUS_EVENT));
}
