import { z } from 'zod';
import { NOT_CHOICE, NOT_NUMBER, NOT_POSITIVE, decimal, optionalRef, optionalText, ref } from '@pos/domain/wire-fields';
import { parseQuantity } from '@pos/domain/money';

/**
 * Request bodies of the stock operations (transfers, counts, adjustments). References are ids, id
 * strings, IRIs or {id}/{@id}/{value} objects; quantities numbers or numeric strings, read to
 * milli-units (3 decimals, as stored).
 */

/** Optional text without NUL characters (PostgreSQL text cannot hold them). */
const note = (max: number) => optionalText(max).refine((v) => v == null || !v.includes('\u0000'), 'This value contains invalid characters.');

export const NOT_ZERO = 'This value should not be zero.';
export const NO_LINES = 'Please add at least one line.';

/** A quantity in milli-units; `positive` refuses zero and negatives, `nonZero` only zero. */
const quantity = (opts: { positive?: boolean; nonZero?: boolean; zeroOk?: boolean }) =>
  decimal().transform((s, ctx) => {
    const milli = parseQuantity(s);
    if (Math.abs(milli) > 1e12) { ctx.addIssue({ code: 'custom', message: NOT_NUMBER }); return z.NEVER; }
    if (opts.positive && milli <= 0) { ctx.addIssue({ code: 'custom', message: NOT_POSITIVE }); return z.NEVER; }
    if (opts.zeroOk && milli < 0) { ctx.addIssue({ code: 'custom', message: 'This value should be either positive or zero.' }); return z.NEVER; }
    if (opts.nonZero && milli === 0) { ctx.addIssue({ code: 'custom', message: NOT_ZERO }); return z.NEVER; }
    return milli;
  });

const lines = <T extends z.ZodType>(line: T, max = 10_000) =>
  z.array(line, { error: 'This value should be of type array.' }).max(max).superRefine((a, ctx) => {
    if (a.length === 0) ctx.addIssue({ code: 'custom', message: NO_LINES });
  });

export const transferCreateBody = z.object({
  fromStore: ref(),
  toStore: ref(),
  note: note(2000),
  lines: lines(z.object({ product: ref(), variant: optionalRef(), quantity: quantity({ positive: true }) })),
});
export type TransferCreateBody = z.infer<typeof transferCreateBody>;

/** Send / receive: optional per-line quantities (by line id); lines not named keep the default (requested / sent). */
const stepLines = (opts: { positive?: boolean; zeroOk?: boolean }) =>
  z.array(z.object({ id: ref(), quantity: quantity(opts) }), { error: 'This value should be of type array.' }).max(10_000).optional();

export const transferSendBody = z.object({ lines: stepLines({ positive: true }) });
export type TransferSendBody = z.infer<typeof transferSendBody>;

export const transferReceiveBody = z.object({ lines: stepLines({ zeroOk: true }), lossReason: note(255) });
export type TransferReceiveBody = z.infer<typeof transferReceiveBody>;

export const COUNT_SCOPES = ['full', 'category', 'brand', 'supplier', 'location'] as const;
export const countCreateBody = z.object({
  store: ref(),
  scope: z.enum(COUNT_SCOPES, { error: NOT_CHOICE }).default('full'),
  /** The category, brand or supplier of a partial count. */
  scopeId: optionalRef(),
  /** A location count: the start of the shelf locations to count (issue 25.2). */
  location: note(255),
  note: note(2000),
});
export type CountCreateBody = z.infer<typeof countCreateBody>;

/** Scanned lines: a barcode (product, variant or extra barcode) or a product (and variant); counted quantities add up. */
export const countLinesBody = z.object({
  lines: lines(z.object({
    barcode: note(255),
    product: optionalRef(),
    /** With `product`: count that variant of it (issue 25: variants are counted per store too). */
    variant: optionalRef(),
    quantity: quantity({ zeroOk: true }),
  })),
});
export type CountLinesBody = z.infer<typeof countLinesBody>;

export const ADJUSTMENT_REASONS = ['damage', 'theft', 'expiry', 'own_use', 'correction', 'found'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];
/** Reasons that can only take stock out / only put it in; `correction` goes either way. */
export const OUT_REASONS: readonly AdjustmentReason[] = ['damage', 'theft', 'expiry', 'own_use'];
export const IN_REASONS: readonly AdjustmentReason[] = ['found'];

export const adjustmentCreateBody = z.object({
  store: ref(),
  note: note(2000),
  lines: lines(z.object({
    product: ref(),
    variant: optionalRef(),
    quantity: quantity({ nonZero: true }),
    reason: z.enum(ADJUSTMENT_REASONS, { error: NOT_CHOICE }),
    note: note(2000),
  })),
});
export type AdjustmentCreateBody = z.infer<typeof adjustmentCreateBody>;
