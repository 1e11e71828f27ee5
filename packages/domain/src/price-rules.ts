/**
 * Price rules (reference client 4.8, `getRealProductPrice`, corrected).
 *
 * Rules are walked in order; rules without a basePrice are skipped; the first rule whose
 * given conditions ALL match wins (a rule with no condition always matches). Conditions,
 * evaluated on the local wall clock (or in `timeZone` when given):
 * - date: the rule date's day of month equals today's (as the spec says; the month is ignored);
 * - day: full English weekday name ("Monday"), case-insensitive;
 * - week: ISO week number; month: 1-12; quarter: 1-4;
 * - time / timeTo (HH:mm): time <= now <= timeTo, inclusive, at minute resolution; a window
 *   with time > timeTo crosses midnight (22:00-02:00). Either bound alone is open-ended.
 *   The reference compared the bounds the wrong way round.
 * Empty strings and null count as "not given".
 */
import { isoWeek, localParts, WEEKDAY_NAMES } from './calendar.ts';

export interface PriceRuleInput {
  basePriceCents?: number | null;
  /** A date (ISO 'yyyy-MM-dd...' string or Date); only its day of month is used. */
  date?: string | Date | null;
  /** 'HH:mm' (or 'HH:mm:ss', or an ISO date-time whose time part is used). */
  time?: string | null;
  timeTo?: string | null;
  day?: string | null;
  week?: number | string | null;
  month?: number | string | null;
  quarter?: number | string | null;
}

const given = <T>(v: T | null | undefined | ''): v is T => v !== null && v !== undefined && v !== '';

/** Normalises '9:05', '09:05:30', '1970-01-01T09:05:00+00:00' to '09:05'; null if unreadable. */
export function normalizeTime(value: string): string | null {
  const text = value.includes('T') ? value.slice(value.indexOf('T') + 1) : value.trim();
  const m = /^(\d{1,2}):(\d{2})/.exec(text);
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (h > 23 || min > 59) return null;
  return `${String(h).padStart(2, '0')}:${m[2]}`;
}

function dayOfMonth(date: string | Date): number | null {
  if (date instanceof Date) return Number.isNaN(date.getTime()) ? null : date.getDate();
  // Read the calendar day from the text itself: parsing would shift it across zones.
  const m = /^\s*\d{4}-\d{2}-(\d{2})/.exec(date);
  if (m) return Number(m[1]);
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? null : d.getDate();
}

function inTimeWindow(nowHHmm: string, from: string | null | undefined, to: string | null | undefined): boolean {
  const start = given(from) ? normalizeTime(from) : null;
  const end = given(to) ? normalizeTime(to) : null;
  if (given(from) && start === null) return false;
  if (given(to) && end === null) return false;
  if (start !== null && end !== null) {
    return start <= end ? start <= nowHHmm && nowHHmm <= end : nowHHmm >= start || nowHHmm <= end;
  }
  if (start !== null) return nowHHmm >= start;
  if (end !== null) return nowHHmm <= end;
  return true;
}

/** True when every condition the rule gives matches `now`. */
export function ruleMatches(rule: PriceRuleInput, now: Date, timeZone?: string): boolean {
  const p = localParts(now, timeZone);
  if (given(rule.date) && dayOfMonth(rule.date) !== p.day) return false;
  if (given(rule.day) && rule.day.trim().toLowerCase() !== (WEEKDAY_NAMES[p.weekday] ?? '').toLowerCase()) return false;
  if (given(rule.week) && Number(rule.week) !== isoWeek(p.year, p.month, p.day)) return false;
  if (given(rule.month) && Number(rule.month) !== p.month) return false;
  if (given(rule.quarter) && Number(rule.quarter) !== Math.ceil(p.month / 3)) return false;
  const nowHHmm = `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
  return inTimeWindow(nowHHmm, rule.time, rule.timeTo);
}

/** The price in force at `now`: the first matching rule's basePrice, else the base price. */
export function effectivePrice(
  basePriceCents: number,
  rules: readonly PriceRuleInput[] | null | undefined,
  now: Date,
  timeZone?: string,
): number {
  for (const rule of rules ?? []) {
    if (rule.basePriceCents === null || rule.basePriceCents === undefined) continue;
    if (ruleMatches(rule, now, timeZone)) return rule.basePriceCents;
  }
  return basePriceCents;
}

/** A variant's own price when set (null means "use the product's"), else the product's effective price. */
export function variantPrice(
  variantPriceCents: number | null | undefined,
  productBasePriceCents: number,
  rules: readonly PriceRuleInput[] | null | undefined,
  now: Date,
  timeZone?: string,
): number {
  if (variantPriceCents !== null && variantPriceCents !== undefined) return variantPriceCents;
  return effectivePrice(productBasePriceCents, rules, now, timeZone);
}
