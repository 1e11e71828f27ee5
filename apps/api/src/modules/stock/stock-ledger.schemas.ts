import { z } from 'zod';
import { parseQuantity } from '@pos/domain/money';
import { NOT_CHOICE, NOT_NUMBER, NOT_POSITIVE, NOT_POSITIVE_OR_ZERO, decimal, optionalRef, ref } from '@pos/domain/wire-fields';

/**
 * Queries and bodies of the ledger's readings (issue 25.4-25.6): the "to order" list and its
 * purchase orders, re-order levels, the low-stock tile, valuation and one product's movements.
 * Query values arrive as strings; every bad one is a 422 naming its parameter.
 */

export const NOT_DATETIME = 'This value is not a valid date and time (ISO 8601 with a time zone, e.g. 2026-11-27T09:00:00Z).';

/** An ISO 8601 date and time with `Z` or an offset (a bare date or local time is ambiguous across store time zones). */
const dateTime = () => z.iso.datetime({ offset: true, error: NOT_DATETIME }).transform((s) => new Date(s));

/** A quantity in milli-units, at least zero (positive when `positive`); null/'' clears. */
const quantity = (positive = false) => z.union([decimal(), z.null()]).transform((s, ctx) => {
  if (s == null) return null;
  const milli = parseQuantity(s);
  if (Math.abs(milli) > 1e12) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
  if (positive ? milli <= 0 : milli < 0) { ctx.addIssue({ code: 'custom', message: positive ? NOT_POSITIVE : NOT_POSITIVE_OR_ZERO }); return z.NEVER; }
  return milli;
});

const page = z.coerce.number({ error: NOT_NUMBER }).int(NOT_NUMBER).min(1, NOT_POSITIVE).max(100_000, NOT_NUMBER).default(1);

export const storeQuery = z.object({ store: ref() });

export const lowStockQuery = z.object({
  store: ref(),
  limit: z.coerce.number({ error: NOT_NUMBER }).int(NOT_NUMBER).min(1, NOT_POSITIVE).max(50, 'This value should be 50 or less.').default(5),
});

/** Re-order level and quantity of products in one store (only products stocked there). */
export const reorderLevelsBody = z.object({
  store: ref(),
  lines: z.array(z.object({ product: ref(), level: quantity(), quantity: quantity(true).optional() }), { error: 'This value should be of type array.' })
    .min(1, 'Please add at least one line.').max(10_000),
});
export type ReorderLevelsBody = z.infer<typeof reorderLevelsBody>;

/** Draft purchase orders from the "to order" list: all of it, or the lines given (quantities may be changed). */
export const reorderPoBody = z.object({
  store: ref(),
  lines: z.array(z.object({ product: ref(), quantity: quantity(true).optional() }), { error: 'This value should be of type array.' })
    .min(1, 'Please add at least one line.').max(10_000).optional(),
});
export type ReorderPoBody = z.infer<typeof reorderPoBody>;

export const VALUATION_GROUPS = ['store', 'category', 'supplier'] as const;
export const valuationQuery = z.object({
  at: dateTime().optional(),
  store: optionalRef(),
  group: z.enum(VALUATION_GROUPS, { error: NOT_CHOICE }).default('store'),
  /** csv: the same rows as a CSV file (valuation.csv.ts). */
  format: z.enum(['json', 'csv'], { error: NOT_CHOICE }).default('json'),
});
export type ValuationQuery = z.infer<typeof valuationQuery>;

export const movementsQuery = z.object({
  product: ref(),
  store: optionalRef(),
  from: dateTime().optional(),
  to: dateTime().optional(),
  page,
  itemsPerPage: z.coerce.number({ error: NOT_NUMBER }).int(NOT_NUMBER).min(1, NOT_POSITIVE).max(200, 'This value should be 200 or less.').default(50),
  /** `csv`: every row of the range as a CSV file (page and itemsPerPage ignored). */
  format: z.enum(['json', 'csv'], { error: NOT_CHOICE }).default('json'),
});
export type MovementsQuery = z.infer<typeof movementsQuery>;
