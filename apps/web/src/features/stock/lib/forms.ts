import { z } from 'zod';
import { formatDateTime } from '@pos/domain/format';
import { OUT_REASONS, ADJUSTMENT_REASONS, type AdjustmentReason } from './types.ts';

/**
 * The stock forms' zod schemas. Messages are i18n keys of the 'stock' namespace (the form shows
 * t(message)); quantities stay the typed text and are sent as strings (the server reads them to
 * milli-units exactly).
 */
const num = (s: string) => Number(s.trim().replace(',', '.'));
const isNumber = (s: string) => /^-?\d+([.,]\d{1,3})?$/.test(s.trim());

export const positiveQty = z.string().refine((s) => isNumber(s) && num(s) > 0, 'errors.quantity');
export const zeroOkQty = z.string().refine((s) => isNumber(s) && num(s) >= 0, 'errors.quantityZeroOk');

const itemLine = {
  product: z.number().int().positive(),
  name: z.string(),
  variant: z.string(),
};

export const transferSchema = z.object({
  fromStore: z.string().min(1, 'errors.store'),
  toStore: z.string().min(1, 'errors.store'),
  note: z.string().max(2000),
  lines: z.array(z.object({ ...itemLine, quantity: positiveQty })).min(1, 'common.noLines'),
}).refine((v) => v.fromStore !== v.toStore, { path: ['toStore'], message: 'transfers.sameStore' });
export type TransferForm = z.infer<typeof transferSchema>;

export const countSchema = z.object({
  store: z.string().min(1, 'errors.store'),
  scope: z.enum(['full', 'category', 'brand', 'supplier', 'location']),
  scopeId: z.string(),
  location: z.string().max(255),
  note: z.string().max(2000),
}).refine((v) => v.scope === 'full' || v.scope === 'location' || v.scopeId !== '', { path: ['scopeId'], message: 'errors.scopeId' })
  .refine((v) => v.scope !== 'location' || v.location.trim() !== '', { path: ['location'], message: 'errors.location' });
export type CountForm = z.infer<typeof countSchema>;

/** The sign a reason allows: out-only reasons take stock out (negative), `found` puts it in, `correction` either. */
export function reasonSignError(reason: AdjustmentReason, quantity: string): 'adjustments.outOnly' | 'adjustments.inOnly' | null {
  if (!isNumber(quantity)) return null;
  const q = num(quantity);
  if (OUT_REASONS.includes(reason) && q > 0) return 'adjustments.outOnly';
  if (reason === 'found' && q < 0) return 'adjustments.inOnly';
  return null;
}

export const adjustmentSchema = z.object({
  store: z.string().min(1, 'errors.store'),
  note: z.string().max(2000),
  lines: z.array(z.object({
    ...itemLine,
    quantity: z.string().refine((s) => isNumber(s) && num(s) !== 0, 'errors.nonZero'),
    reason: z.enum(ADJUSTMENT_REASONS),
    note: z.string().max(2000),
  }).superRefine((l, ctx) => {
    const e = reasonSignError(l.reason, l.quantity);
    if (e) ctx.addIssue({ code: 'custom', path: ['quantity'], message: e });
  })).min(1, 'common.noLines'),
});
export type AdjustmentForm = z.infer<typeof adjustmentSchema>;

/** A wire time in the store's time zone, in the UI language. */
export const when = (iso: string | null | undefined, timeZone?: string | null, lng = 'en') => (iso ? formatDateTime(iso, timeZone ?? undefined, lng) : '');

/** Typed quantity text as the wire's decimal string ("2,5" -> "2.5"). */
export const qtyText = (s: string) => s.trim().replace(',', '.');

/** A form error: our own messages are i18n keys of 'stock', the server's are already words. */
export const errorKey = (t: (k: string) => string, m?: string) => (m && /^(errors|common|transfers|counts|adjustments)\.[\w.]+$/.test(m) ? t(m) : m);
