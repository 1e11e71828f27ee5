import { z } from 'zod';

/**
 * Building blocks of the wire schemas. They accept what the reference client sends
 * (numbers as strings or numbers, IRIs or ids) and report spec section 5 messages.
 */
export const BLANK = 'This value should not be blank.';
export const NOT_NUMBER = 'This value should be a valid number.';
export const NOT_EMAIL = 'This value is not a valid email address.';
export const NOT_POSITIVE = 'This value should be positive.';
export const NOT_POSITIVE_OR_ZERO = 'This value should be either positive or zero.';
export const NOT_CHOICE = 'The value you selected is not a valid choice.';
export const TOO_LONG = 'This value is too long.';
export const TOO_LARGE = 'This value should be less than 1000000000000.';

// At most 12 integer digits: every amount and quantity stays exact in the money maths (cents and
// thousandths as safe integers) and within the numeric columns.
const DECIMAL = /^-?\d{1,12}(\.\d{1,6})?$/;

/** Required non-blank text, trimmed. */
export const text = (max = 255) =>
  z.string({ error: BLANK }).trim().min(1, BLANK).max(max, TOO_LONG);

/** Optional text: null/undefined allowed, trimmed. */
export const optionalText = (max = 255) =>
  z.string({ error: 'This value should be of type string.' }).trim().max(max, TOO_LONG).nullable().optional();

/** A decimal as number or numeric string, normalised to a plain decimal string ("12.5"). */
export const decimal = (opts: { min?: number; positive?: boolean } = {}) =>
  z.union([z.number(), z.string()], { error: NOT_NUMBER })
    .transform((v, ctx) => {
      const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : v.trim();
      if (s === '') { ctx.addIssue({ code: 'custom', message: typeof v === 'string' ? BLANK : NOT_NUMBER }); return z.NEVER; }
      if (!DECIMAL.test(s)) {
        // A well-formed number with too many integer digits is out of range, not malformed.
        const tooLarge = /^-?\d{13,}(\.\d+)?$/.test(s);
        ctx.addIssue({ code: 'custom', message: tooLarge ? TOO_LARGE : NOT_NUMBER });
        return z.NEVER;
      }
      const n = Number(s);
      if (opts.positive && !(n > 0)) { ctx.addIssue({ code: 'custom', message: NOT_POSITIVE }); return z.NEVER; }
      if (opts.min !== undefined && n < opts.min) { ctx.addIssue({ code: 'custom', message: NOT_POSITIVE_OR_ZERO }); return z.NEVER; }
      return s;
    });

/** Like decimal(), but null, undefined and '' mean "no value" (null); errors keep the spec message. */
export const optionalDecimal = (opts: { min?: number; positive?: boolean } = {}) =>
  z.unknown().optional().transform((v, ctx): string | null => {
    if (v === null || v === undefined || v === '') return null;
    const r = decimal(opts).safeParse(v);
    if (!r.success) { ctx.addIssue({ code: 'custom', message: r.error.issues[0]?.message ?? NOT_NUMBER }); return z.NEVER; }
    return r.data;
  });

/** A reference: 5, "5", "/api/stores/5", {id}, {"@id"}, {value}. */
export const ref = () =>
  z.unknown().transform((v, ctx) => {
    const id = parseRef(v);
    if (id == null) { ctx.addIssue({ code: 'custom', message: id === null ? BLANK : 'This value is not a valid reference.' }); return z.NEVER; }
    return id;
  });

export const optionalRef = () =>
  z.unknown().optional().transform((v, ctx) => {
    const id = parseRef(v);
    if (id === undefined) { ctx.addIssue({ code: 'custom', message: 'This value is not a valid reference.' }); return z.NEVER; }
    return id;
  });

export const refList = (minMessage?: string) =>
  z.array(ref(), { error: 'This value should be of type array.' }).max(10_000).superRefine((a, ctx) => {
    if (minMessage && a.length === 0) ctx.addIssue({ code: 'custom', message: minMessage });
  });

export const flag = () => z.union([z.boolean(), z.literal(0), z.literal(1), z.literal('true'), z.literal('false'), z.literal('1'), z.literal('0')])
  .transform((v) => v === true || v === 1 || v === 'true' || v === '1');

export function parseRef(value: unknown): number | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isInteger(value) && value > 0 && value <= 2147483647 ? value : undefined;
  if (typeof value === 'string') {
    const m = /^(?:\/api\/[a-z_]+\/)?(\d{1,10})$/.exec(value.trim());
    if (!m) return undefined;
    const n = Number(m[1]);
    return n > 0 && n <= 2147483647 ? n : undefined;
  }
  if (typeof value === 'object' && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    if (o['@id'] !== undefined) return parseRef(o['@id']);
    if (o.id !== undefined) return parseRef(o.id);
    if (o.value !== undefined) return parseRef(o.value);
  }
  return undefined;
}

export const email = () => z.string({ error: BLANK }).trim().min(1, BLANK).email(NOT_EMAIL).max(255, TOO_LONG);
