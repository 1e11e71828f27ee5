/**
 * A product's (or variant's) price in force now, in MINOR units of the store's currency (issue 19:
 * `digits` USD 2, JPY 0, KWD 3; a KWD 1.275 keeps its third decimal), price rules evaluated on the
 * store's clock (`timeZone`), as the server prices a sale.
 */
import { parseScaled } from '@pos/domain/money';
import { effectivePrice, variantPrice, type PriceRuleInput } from '@pos/domain/price-rules';
import type { PriceRule, Product, Variant } from '@/features/catalogue-cache/types';

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** The rules with their prices in minor units. */
export function rulesInMinor(rules: readonly PriceRule[] | null | undefined, digits: number): PriceRuleInput[] {
  return (rules ?? []).map((r) => ({
    basePriceCents: blank(r.basePrice) ? null : parseScaled(r.basePrice, digits),
    date: r.date === null || r.date === undefined ? null : String(r.date),
    time: r.time ?? null,
    timeTo: r.timeTo ?? null,
    day: r.day ?? null,
    week: r.week ?? null,
    month: r.month ?? null,
    quarter: r.quarter ?? null,
  }));
}

export interface PriceOptions {
  digits: number;
  timeZone?: string;
  now?: Date;
}

/** Base price and the price in force now (they differ when a price rule applies). */
export function pricesOf(product: Product, opts: PriceOptions): { base: number; effective: number } {
  const base = parseScaled(product.basePrice ?? 0, opts.digits);
  return { base, effective: effectivePrice(base, rulesInMinor(product.prices, opts.digits), opts.now ?? new Date(), opts.timeZone) };
}

/** The price in force now of a variant: its own price, else its (or the product's) rules on the product's base. */
export function variantPriceOf(product: Product, variant: Variant, opts: PriceOptions): number {
  const base = parseScaled(product.basePrice ?? 0, opts.digits);
  const own = blank(variant.price) ? null : parseScaled(variant.price, opts.digits);
  const rules = variant.prices?.length ? variant.prices : product.prices;
  return variantPrice(own, base, rulesInMinor(rules, opts.digits), opts.now ?? new Date(), opts.timeZone);
}
