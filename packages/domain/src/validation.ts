/**
 * User-facing validation and error texts (spec sections 5 and 8), in one place so the
 * server's 422 violations and the forms show the same words. Templates use ':name'
 * placeholders; fill them with fillMessage. The generic ones mirror the reference client's
 * ValidationMessage list (Symfony wording); its 'This valud should be less then :max' typo is
 * corrected to 'value', its 'then' is kept as the spec quotes it.
 */
import { z } from 'zod';
import { messages } from './messages.ts';
import { isValidMoneyInput } from './money.ts';

export { fillMessage, messages, type MessageKey } from './messages.ts';

// Small zod building blocks that carry the texts above, for wire and form schemas.

/** A non-blank string (trimmed). */
export const requiredString = z.string({ error: messages.required }).trim().min(1, { error: messages.required });

/** A decimal amount as typed or sent (string or number) with at most 2 decimals, kept as given. */
export const moneyInput = z.union([z.string(), z.number()], { error: messages.number }).refine(
  (v) => (typeof v === 'number' ? Number.isFinite(v) && isValidMoneyInput(String(v)) : v.trim() !== '' && isValidMoneyInput(v)),
  { error: messages.number },
);

/** A valid e-mail address. */
export const emailString = z.string({ error: messages.required }).trim().min(1, { error: messages.required }).pipe(
  z.email({ error: messages.email }),
);
