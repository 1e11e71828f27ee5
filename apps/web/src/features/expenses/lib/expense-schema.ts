import { z } from 'zod';
import { messages } from '@pos/domain/validation';
import { isValidMoneyInput } from '@pos/domain/money';

/** Spec 5: Expense: description, amount. */
export const expenseSchema = z.object({
  description: z.string().trim().min(1, { error: messages.required }),
  amount: z
    .string()
    .trim()
    .min(1, { error: messages.required })
    .refine((v) => isValidMoneyInput(v, { allowNegative: false }), { error: messages.number })
    .refine((v) => !isValidMoneyInput(v) || Number(v) > 0, { error: messages.positive }),
});
export type ExpenseForm = z.input<typeof expenseSchema>;
