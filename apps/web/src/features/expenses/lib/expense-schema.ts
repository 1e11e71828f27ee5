import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput } from '@pos/domain/money';
import { normaliseNumberText } from '@/components/ui/number-input';

/** Spec 5: Expense: description, amount. */
export const expenseSchema = z.object({
  description: z.string().trim().min(1, { error: messages.required }),
  amount: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    // The money input's text in the wire's form: Arabic-Indic digits and the locale's separator read as 0-9 and '.'.
    .transform((v) => normaliseNumberText(v))
    .refine((v) => isValidMoneyInput(v, { allowNegative: false, scale: 3 }), { error: messages.number })
    .refine((v) => !isValidMoneyInput(v) || Number(v) > 0, { error: messages.positive }),
});
export type ExpenseForm = z.input<typeof expenseSchema>;
