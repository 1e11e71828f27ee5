/**
 * Wall-clock parts of an instant, in the runtime's local zone or an explicit IANA zone.
 * The explicit zone lets the server evaluate price rules and format dates in the shop's
 * zone, so it agrees with the till whatever zone the server process runs in.
 */

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
export type WeekdayName = (typeof WEEKDAY_NAMES)[number];

export interface LocalParts {
  year: number;
  /** 1-12 */
  month: number;
  /** Day of month, 1-31 */
  day: number;
  /** 0 = Sunday ... 6 = Saturday */
  weekday: number;
  /** 0-23 */
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Local calendar parts of `date` (runtime zone when timeZone is omitted). */
export function localParts(date: Date, timeZone?: string): LocalParts {
  if (Number.isNaN(date.getTime())) throw new RangeError('invalid date');
  if (!timeZone) {
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      weekday: date.getDay(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
    };
  }
  const parts: Record<string, number> = {};
  for (const p of formatterFor(timeZone).formatToParts(date)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const year = parts.year ?? 0;
  const month = parts.month ?? 1;
  const day = parts.day ?? 1;
  return {
    year,
    month,
    day,
    weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay(),
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

/** ISO-8601 week number (1-53) of a calendar date. */
export function isoWeek(year: number, month: number, day: number): number {
  const d = new Date(Date.UTC(year, month - 1, day));
  const dayNum = d.getUTCDay() || 7; // Monday 1 ... Sunday 7
  d.setUTCDate(d.getUTCDate() + 4 - dayNum); // the Thursday of this week decides the year
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  return Math.ceil(((d.getTime() - yearStart) / 86_400_000 + 1) / 7);
}

/** Accepts a Date, an ISO string or epoch milliseconds; null for anything unparseable. */
export function toDate(value: Date | string | number): Date | null {
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}
