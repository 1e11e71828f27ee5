/**
 * Client-side validation of the settings dialogs (spec section 5). The texts come from
 * @pos/domain/validation so the forms and the server's 422s say the same thing.
 */
import { PIN_MESSAGE } from '@pos/domain/permissions';
import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput } from '@pos/domain/money';

export const req = () => z.string({ error: messages.required }).trim().min(1, { error: messages.required });
export const optText = () => z.string().trim().optional().or(z.literal(''));
/** A typed decimal: required and numeric. */
export const reqNumber = () =>
  req().refine((v) => isValidMoneyInput(v, { scale: 6 }), { error: messages.number });
/** Optional decimal: blank allowed. */
export const optNumber = () =>
  z.string().trim().refine((v) => v === '' || isValidMoneyInput(v, { scale: 6 }), { error: messages.number });
export const idList = (message: string = messages.required) => z.array(z.string()).min(1, { error: message });

/** A store with its money settings (issue 19); the server checks currency, locale and time zone again. */
export const storeSchema = z.object({
  name: req(),
  location: optText(),
  currency: req(),
  locale: req(),
  timeZone: req(),
  cashRoundingStep: z.string(),
  pricesIncludeTax: z.boolean(),
  legacyTaxBase: z.boolean(),
  /** Stock may go below zero (a transfer sends what the books do not show: issue 25.1). */
  allowNegativeStock: z.boolean(),
});
export type StoreForm = z.input<typeof storeSchema>;

const PIN_OR_EMPTY = /^(\d{4,8})?$/;

export const userSchema = (mode: 'create' | 'update') =>
  z.object({
    displayName: req(),
    username: req(),
    email: req().pipe(z.email({ error: messages.email })),
    password: mode === 'create' ? req() : z.string().optional().or(z.literal('')),
    roles: idList(),
    /** Issue 21: the role (a role id; '' keeps it / follows the roles above) and an approval PIN. */
    role: z.string().optional(),
    pin: z.string().regex(PIN_OR_EMPTY, { error: PIN_MESSAGE }).optional(),
    stores: idList(messages.addSomeStores),
  });
export type UserForm = z.input<ReturnType<typeof userSchema>>;

export const brandSchema = z.object({ name: req(), stores: idList() });
export type BrandForm = z.input<typeof brandSchema>;

export const categorySchema = brandSchema;
export type CategoryForm = BrandForm;

export const PAYMENT_KINDS = ['cash', 'credit card', 'credit'] as const;
export const paymentTypeSchema = z.object({
  name: req(),
  type: z.enum(PAYMENT_KINDS, { error: messages.required }),
  canHaveChangeDue: z.boolean(),
  stores: idList(),
});
export type PaymentTypeForm = z.input<typeof paymentTypeSchema>;

export const discountSchema = z.object({
  name: req(),
  rate: optNumber(),
  rateType: z.enum(['percent', 'fixed'], { error: messages.required }),
  scope: z.enum(['exact', 'open'], { error: messages.required }),
  stores: idList(),
});
export type DiscountForm = z.input<typeof discountSchema>;

export const taxSchema = z.object({ name: req(), rate: reqNumber(), stores: idList() });
export type TaxForm = z.input<typeof taxSchema>;

export const departmentSchema = z.object({ name: req(), description: req(), store: req() });
export type DepartmentForm = z.input<typeof departmentSchema>;

export const terminalSchema = z.object({
  code: req(),
  store: req(),
  description: optText(),
  products: z.array(z.string()),
  excludeProducts: z.array(z.string()),
  categories: z.array(z.string()),
});
export type TerminalForm = z.input<typeof terminalSchema>;

/** Discount payload: an empty rate is removed (spec 5). */
export function discountPayload(values: DiscountForm, storeIri: (id: string) => string) {
  const body: Record<string, unknown> = {
    name: values.name.trim(),
    rateType: values.rateType,
    scope: values.scope,
    stores: values.stores.map(storeIri),
  };
  if (values.rate !== undefined && values.rate.trim() !== '') body.rate = values.rate.trim();
  return body;
}
