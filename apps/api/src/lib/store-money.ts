/**
 * Amounts a client sends for one store, in that store's currency (issue 19): how many minor-unit
 * digits it has, and the check that refuses an amount with more decimals than it allows (422
 * naming the field, nothing written) while taking the old client's float noise by the rule of
 * docs/api.md "Currency amounts" (`parseWireAmount`). What is stored is the exact text with the
 * currency's digits, never the client's unrounded figure.
 */
import { eq } from 'drizzle-orm';
import { currencyDigits, isCurrencyCode } from '@pos/domain/currency';
import { validationError } from '@pos/domain/errors';
import { minorToString, parseWireAmount, PrecisionError } from '@pos/domain/money';
import type { Db, Tx } from '../db/client.ts';
import { store } from '../db/schema/index.ts';

/** Minor-unit digits of a store's currency (USD 2, JPY 0, KWD 3); USD when the store is unknown. */
export async function storeDigits(db: Db | Tx, storeId: number): Promise<number> {
  const [s] = await (db as Db).select({ currency: store.currency }).from(store).where(eq(store.id, storeId));
  return currencyDigits(s && isCurrencyCode(s.currency) ? s.currency : 'USD');
}

/**
 * Decimal texts (already checked as numbers) in the currency's exact form: "10.5" -> "10.50" in USD.
 * null/undefined pass through. Every field with more decimals than the currency allows is named in
 * one 422.
 */
export function exactAmounts<K extends string>(values: Partial<Record<K, string | null | undefined>>, digits: number): Partial<Record<K, string | null | undefined>> {
  const out: Partial<Record<K, string | null | undefined>> = {};
  const violations: Array<{ propertyPath: string; message: string }> = [];
  for (const key of Object.keys(values) as K[]) {
    const v = values[key];
    if (v === null || v === undefined) { out[key] = v; continue; }
    try {
      out[key] = minorToString(parseWireAmount(v, digits), digits);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      violations.push({ propertyPath: key, message: e instanceof PrecisionError ? e.message : 'This value should be a valid number.' });
    }
  }
  if (violations.length) throw validationError(violations);
  return out;
}
