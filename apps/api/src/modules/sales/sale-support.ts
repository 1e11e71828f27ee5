import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { order } from '../../db/schema/index.ts';
import { pgArray } from '../../db/raw.ts';

export type OrderRow = typeof order.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Small infrastructure: errors from either driver, retries, idempotency hash
// ---------------------------------------------------------------------------------------------

/**
 * The body with its keys sorted, as JSON, in one pass (the hash of orders already stored must not
 * change: equal to the former JSON.stringify of a sorted copy, see sales.records.test.ts) (no intermediate objects): keys sorted,
 * undefined members left out, undefined array items as null. Bodies are parsed JSON, so only
 * plain objects, arrays, strings, numbers, booleans and null occur.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i) out += ',';
      const v = value[i];
      out += v === undefined || typeof v === 'function' || typeof v === 'symbol' ? 'null' : canonicalJson(v);
    }
    return out + ']';
  }
  const o = value as Record<string, unknown>;
  const keys = sortInPlace(Object.keys(o));
  let out = '{';
  let first = true;
  for (const k of keys) {
    const v = o[k];
    if (v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    if (!first) out += ',';
    first = false;
    out += (PLAIN_KEY.test(k) ? `"${k}":` : `${JSON.stringify(k)}:`) + canonicalJson(v);
  }
  return out + '}';
}

/** A key JSON.stringify writes as is between quotes. */
const PLAIN_KEY = /^[\w@$.-]*$/;

/**
 * Array.prototype.sort's order (UTF-16 code units) by insertion, in place: an object's keys are a
 * few dozen, and the built-in sort allocates a work copy for every object of every sale body.
 */
function sortInPlace(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) { keys[j + 1] = keys[j]; j--; }
    keys[j + 1] = k;
  }
  return keys;
}

/** sha256 of the body with its keys sorted: the same submission always hashes the same. */
export function requestHash(body: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(body ?? null)).digest('hex');
}

/**
 * Linked to this store, or to no store at all (shared). Written out here because Drizzle's exists()
 * around raw SQL renders without parentheses.
 */
export function linkedToStore(link: { ownerId: any; storeId: any } & object, ownerCol: any, storeId: number) {
  return sql`(exists (select 1 from ${link} where ${link.ownerId} = ${ownerCol} and ${link.storeId} = ${storeId})
    or not exists (select 1 from ${link} where ${link.ownerId} = ${ownerCol}))`;
}

/** Violations named by field, shared with the domain's pricing. */
export { fail, notFoundRef } from '@pos/domain/sale-facts';

/** Both drivers parse json; a string is parsed here just in case. */
export const parseJson = <T>(v: T | string): T => (typeof v === 'string' ? JSON.parse(v) : v);

export const pgIntArray = (ids: number[]) => {
  if (!ids.every((n) => Number.isInteger(n))) throw new Error('pgIntArray: not an integer');
  return pgArray(ids);
};

/** A fraction of an amount, rounded once half away from zero (pro-rata discounts of a partial return). */
export { proRata } from '@pos/domain/refund';

