/** Date helpers of the back office: datetime-local values, day ranges and relative times. */
import { localParts } from '@pos/domain/calendar';

const pad = (n: number) => String(n).padStart(2, '0');

/** Local 'yyyy-MM-ddTHH:mm' (the value of an <input type="datetime-local">, the form format the API accepts). */
export function toDateTimeLocal(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function startOfDay(d: Date, offsetDays = 0): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + offsetDays, 0, 0, 0, 0);
}

export function endOfDay(d: Date, offsetDays = 0): Date {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + offsetDays, 23, 59, 59, 999);
}

/**
 * 'yyyy-MM-dd' of the day `offsetDays` from today on the clock of `timeZone` (a store's IANA zone:
 * issue 19, the server reads the range's wall times on the store's clock).
 */
export function storeDay(now: Date, timeZone: string, offsetDays: number): string {
  const p = localParts(now, timeZone);
  const d = new Date(Date.UTC(p.year, p.month - 1, p.day + offsetDays));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** Today as a datetime-local range: 00:00 to 23:59 (of the store's day when `timeZone` is given). */
export function todayRange(now = new Date(), timeZone?: string): { from: string; to: string } {
  if (timeZone) return { from: `${storeDay(now, timeZone, 0)}T00:00`, to: `${storeDay(now, timeZone, 0)}T23:59` };
  return { from: toDateTimeLocal(startOfDay(now)), to: toDateTimeLocal(endOfDay(now)) };
}

/** Sale history default: start of yesterday to end of today (the store's days when `timeZone` is given). */
export function yesterdayTodayRange(now = new Date(), timeZone?: string): { from: string; to: string } {
  if (timeZone) return { from: `${storeDay(now, timeZone, -1)}T00:00`, to: `${storeDay(now, timeZone, 0)}T23:59` };
  return { from: toDateTimeLocal(startOfDay(now, -1)), to: toDateTimeLocal(endOfDay(now)) };
}

/** A datetime-local value (local time) as an ISO instant; '' stays ''. */
export function localToIso(value: string): string {
  if (!value) return '';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : d.toISOString();
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "5 minutes ago", "in 2 hours" in the given locale. */
export function relativeTime(value: string | Date | null | undefined, now = new Date(), locale = 'en'): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return '';
  const seconds = Math.round((d.getTime() - now.getTime()) / 1000);
  const fmt = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size || unit === 'second') return fmt.format(Math.trunc(seconds / size), unit);
  }
  return '';
}

/** Date of a wire value: ISO string or the {datetime} wrapper of the custom DTOs. */
export function wireDate(value: unknown): string | null {
  if (!value) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && typeof (value as { datetime?: unknown }).datetime === 'string') return (value as { datetime: string }).datetime;
  return null;
}
