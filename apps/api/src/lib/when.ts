/**
 * Date-time filters in the store's time zone (issue 19). A wall-clock value the till sends
 * ('yyyy-MM-dd', 'yyyy-MM-ddTHH:mm[:ss]') is a time on the shop's clock: it is compared in SQL
 * with each row's store time zone (`timestamp AT TIME ZONE store.time_zone`), so "today" in the
 * history, the expense list and the day's figures follow the shop's midnight, whatever zone the
 * server runs in, and a list over several stores uses each store's own midnight. A value with an
 * explicit zone (ISO with Z or an offset) is an instant and compared as is.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { validationError } from '@pos/domain/errors';
import { store } from '../db/schema/index.ts';

export type When = { kind: 'instant'; at: Date } | { kind: 'wall'; text: string };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * Reads a filter value: null when absent (junk decided by the caller), 422 naming the field when
 * unreadable. An end bound given to the day (or minute) includes that whole day (or minute).
 */
export function parseWhen(raw: unknown, name: string, end: boolean): When | null {
  if (raw === undefined || raw === null) return null;
  const s = String(raw).trim().replace(' ', 'T');
  const bad = () => validationError([{ propertyPath: name, message: 'This value is not a valid datetime.' }]);
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(s))) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const hasTime = m[4] !== undefined;
    const check = new Date(Date.UTC(y, mo - 1, d, Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)));
    if (Number.isNaN(check.getTime()) || check.getUTCDate() !== d || Number(m[4] ?? 0) > 23 || Number(m[5] ?? 0) > 59) throw bad();
    const frac = !end ? '.000' : '.999';
    const time = hasTime ? `${m[4]}:${m[5]}:${m[6] ?? (end ? '59' : '00')}` : end ? '23:59:59' : '00:00:00';
    return { kind: 'wall', text: `${pad(y, 4)}-${m[2]}-${m[3]} ${time}${frac}` };
  }
  const at = new Date(s);
  if (Number.isNaN(at.getTime())) throw bad();
  return { kind: 'instant', at };
}

/** `column op when`, a wall-clock value read in the zone of the row's store (`storeIdColumn`). */
export function whenCondition(column: PgColumn, storeIdColumn: PgColumn, op: '>=' | '<=', when: When): SQL {
  if (when.kind === 'instant') {
    const at = sql`${when.at.toISOString()}::timestamptz`;
    return op === '>=' ? sql`${column} >= ${at}` : sql`${column} <= ${at}`;
  }
  const bound = sql`(${when.text}::timestamp at time zone (select ${store.timeZone} from ${store} where ${store.id} = ${storeIdColumn}))`;
  // The per-row bound (each row's store zone) is no constant: no index can range over it, and the
  // history's "yesterday and today" read every order of the stores (4 s at 1,000,000 orders). Every
  // zone is within UTC-12..UTC+14, so the instant is within that of the wall clock read as UTC: a
  // constant bound the created_at indexes range over, the exact per-store test on what they find.
  const wallAsUtc = sql`(${when.text}::timestamp at time zone 'UTC')`;
  return op === '>='
    ? sql`(${column} >= ${wallAsUtc} - interval '14 hours' and ${column} >= ${bound})`
    : sql`(${column} <= ${wallAsUtc} + interval '12 hours' and ${column} <= ${bound})`;
}
