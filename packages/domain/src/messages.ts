/**
 * User-facing validation and error texts (spec sections 5 and 8), in one place so the
 * server's 422 violations and the forms show the same words. Templates use ':name'
 * placeholders; fill them with fillMessage. The generic ones mirror the reference client's
 * ValidationMessage list (Symfony wording); its 'This valud should be less then :max' typo is
 * corrected to 'value', its 'then' is kept as the spec quotes it.
 *
 * Kept apart from the zod building blocks (validation.ts) so the till's entry can read them
 * without downloading zod (issue 24).
 */

export const messages = {
  // generic
  required: 'This value should not be blank.',
  notNull: 'This value should not be null.',
  number: 'This value should be a valid number.',
  email: 'This value is not a valid email address.',
  positive: 'This value should be positive.',
  positiveOrZero: 'This value should be either positive or zero.',
  negative: 'This value should be negative.',
  negativeOrZero: 'This value should be either negative or zero.',
  isFalse: 'This value should be false.',
  isTrue: 'This value should be true.',
  validChoice: 'The value you selected is not a valid choice.',
  between: 'This value should be between :min and :max.',
  min: 'This value should be greater then :min',
  max: 'This value should be less then :max',
  // forms
  addSomeItems: 'Please add some items',
  addValidVariants: 'Please add valid variants',
  addSomeStores: 'Please add some stores',
  quantityBelowOne: 'Quantity cannot be less then 1',
  addCustomerName: 'Add customer name',
  amountZero: 'Amount cannot be zero',
  exactAmountFor: 'Please add exact amount for :name',
  // errors and toasts
  orderNotFound: 'Order not found',
  codeNotFound: ':code not found',
  fetchListFailed: 'There was some error while fetching the :list',
  initFailed: 'An error occurred while initializing application',
  patternTooLong: 'Pattern length exceeds max of 32.',
  pageNotFound: "The page you are looking for doesn't exist.",
} as const;

export type MessageKey = keyof typeof messages;

/** Replaces ':key' placeholders: fillMessage(messages.between, {min: 1, max: 5}). */
export function fillMessage(template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/:([A-Za-z_]\w*)/g, (match, key: string) =>
    Object.prototype.hasOwnProperty.call(params, key) ? String(params[key]) : match,
  );
}
