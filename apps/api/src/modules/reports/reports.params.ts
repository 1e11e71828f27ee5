/**
 * The query of a report (issue 25.6): a date range of local dates (inclusive, at most 366 days),
 * an optional store (else every store of the caller), and the stores' one currency. Bad input is
 * a 422 naming the field; a store that is not the caller's is a 404 (no existence leak).
 */
import { inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { AppError, validationError } from '@pos/domain/errors';
import type { Db } from '../../db/client.ts';
import { store } from '../../db/schema/index.ts';
import type { AuthInfo } from '../../plugins/auth.ts';
import { parseBody } from '../../resources/engine.ts';

export const SALES_GROUPS = ['day', 'hour', 'product', 'variant', 'category', 'brand', 'cashier', 'store', 'payment', 'tax'] as const;
export type SalesGroup = (typeof SALES_GROUPS)[number];
export const MAX_RANGE_DAYS = 366;

const DAY_MS = 86_400_000;
const isDate = (s: string) => {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
};
const localDate = z.string({ error: 'This value should be a date (YYYY-MM-DD).' }).refine(isDate, 'This value should be a date (YYYY-MM-DD).');
const storeId = z.string().regex(/^(\/api\/stores\/)?\d{1,9}$/, 'This value is not a valid store.').transform((s) => Number(s.replace(/^\/api\/stores\//, '')));

const rangeSchema = z.object({
  from: localDate,
  to: localDate,
  store: storeId.optional(),
  format: z.enum(['json', 'csv']).optional(),
}).superRefine((q, ctx) => {
  const days = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;
  if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: 'This value should be on or after "from".' });
  else if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: `A report covers at most ${MAX_RANGE_DAYS} days.` });
});

/** The first value of each query parameter ('' is absent). */
export function flatQuery(raw: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    const x = Array.isArray(v) ? v[0] : v;
    if (x !== undefined && x !== null && x !== '') out[k] = String(x);
  }
  return out;
}

export interface ReportScope {
  from: string;
  to: string;
  storeIds: number[];
  currency: string;
  digits: number;
  /** The stores' one time zone, or null when they differ (each order is then read in its own store's zone). */
  timeZone: string | null;
  /** Per store, the instants its local `from` 00:00 and the day after `to` begin (half-open). */
  bounds: Array<{ id: number; lo: string; hi: string }>;
  csv: boolean;
}

/**
 * The stores a report covers and their currency. Rule (never sum different currencies): the
 * stores chosen must share one currency; without `store` and with stores of several currencies
 * the caller must choose one (422 `store`).
 */
export async function storesOf(db: Db, auth: AuthInfo, wanted: number | undefined, range = { from: '2000-01-01', to: '2000-01-01' }) {
  if (wanted !== undefined && !auth.storeIds.includes(wanted)) throw new AppError(404, 'NOT_FOUND', 'Store not found');
  const ids = wanted !== undefined ? [wanted] : auth.storeIds;
  const rows = ids.length ? await db.select({
    id: store.id, currency: store.currency, timeZone: store.timeZone,
    lo: sql<string>`to_char((${range.from}::date::timestamp at time zone ${store.timeZone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    hi: sql<string>`to_char(((${range.to}::date + 1)::timestamp at time zone ${store.timeZone}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
  }).from(store).where(inArray(store.id, ids)) : [];
  if (!rows.length) throw new AppError(404, 'NOT_FOUND', 'Store not found');
  const currencies = [...new Set(rows.map((r) => r.currency))];
  if (currencies.length > 1) {
    throw validationError([{ propertyPath: 'store', message: `Your stores use different currencies (${currencies.sort().join(', ')}): choose a store.` }]);
  }
  const zones = [...new Set(rows.map((r) => r.timeZone))];
  const currency = currencies[0];
  return {
    storeIds: rows.map((r) => r.id).sort((a, b) => a - b),
    bounds: rows.map((r) => ({ id: r.id, lo: r.lo, hi: r.hi })),
    currency,
    digits: currencyDigits(isCurrencyCode(currency) ? currency : 'USD'),
    timeZone: zones.length === 1 ? zones[0] : null,
  };
}

/** Reads from/to/store/format (422 naming the field) and resolves the stores. */
export async function reportScope(db: Db, auth: AuthInfo, q: Record<string, string>): Promise<ReportScope> {
  const p = parseBody(rangeSchema, { from: q.from, to: q.to, store: q.store, format: q.format });
  const s = await storesOf(db, auth, p.store, p);
  return { from: p.from, to: p.to, ...s, csv: p.format === 'csv' };
}

export function oneOf<T extends string>(values: readonly T[], raw: string | undefined, field: string, fallback?: T): T {
  if (raw === undefined && fallback !== undefined) return fallback;
  if (raw !== undefined && (values as readonly string[]).includes(raw)) return raw as T;
  throw validationError([{ propertyPath: field, message: `This value should be one of: ${values.join(', ')}.` }]);
}

export function limitOf(raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) throw validationError([{ propertyPath: 'limit', message: `This value should be a whole number from 1 to ${max}.` }]);
  return n;
}
