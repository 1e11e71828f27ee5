/**
 * What the search box does with Enter (spec 2.5, reference 4.1): an exact hit in the cached
 * lookup (product barcode, variant barcode or name) among the products visible at this till,
 * else a scale barcode by the store's rule (prefix 2x: item code + embedded price or weight, issue
 * 26), else the barcodes endpoint (weighed / price-embedded codes registered one by one), else
 * 'misread' for an EAN/UPC whose check digit is wrong (scan it again), else '{code} not found'.
 */
import { decodeScaleBarcode, gs1Problem, gs1Shape, type ScaleBarcodeRule } from '@pos/domain/barcode';
import { minorToCents } from '@pos/domain/format';
import { currencyDigits } from '@pos/domain/currency';
import { minorToString, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { Product, Setting, Variant } from '@/features/catalogue-cache/types';
import type { ScanHit } from '@/features/catalogue-cache/product-index';
import type { BarcodeRecord } from './api/find-barcode';

export type ScanOutcome =
  /** priceExact: the embedded or registered price as decimal text, exact in a 3-decimal currency (issue 19). */
  | { kind: 'add'; product: Product; variant: Variant | null; qtyMilli: number; priceCents: number | null; priceExact?: string | null }
  | { kind: 'choose-variant'; product: Product; qtyMilli: number }
  | { kind: 'not-found'; code: string }
  | { kind: 'misread'; code: string };

/** An outcome that changes the cart (a line, or the variant chooser). */
export type FoundOutcome = Exclude<ScanOutcome, { kind: 'not-found' } | { kind: 'misread' }>;

export interface ScanInput {
  code: string;
  qtyMilli: number;
  /** The cached exact lookup (the catalogue table's scan, or a Map). */
  lookup: Pick<ReadonlyMap<string, ScanHit>, 'get'>;
  /** Visible at this till and through the chip filters. */
  visible: (p: Product) => boolean;
  /** The catalogue's full product (a barcode record may embed a thinner one). */
  byId: Pick<ReadonlyMap<number, Product>, 'get'>;
  findBarcode: (code: string) => Promise<BarcodeRecord | null>;
  /** The store's scale barcode rule (settings 'scale_barcode'), and its currency for an embedded price. */
  scaleRule?: ScaleBarcodeRule | null;
  currency?: string;
}

type StoredRule = ScaleBarcodeRule & { store?: number };

/** The setting's JSON checked field by field (no zod here: the till's entry stays without it). */
function parseRule(value: unknown): StoredRule | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const { prefixes, itemDigits, embeds, store } = v;
  if (!Array.isArray(prefixes) || prefixes.length < 1 || !prefixes.every((p) => typeof p === 'string' && /^2\d$/.test(p))) return null;
  if (!Number.isInteger(itemDigits) || (itemDigits as number) < 4 || (itemDigits as number) > 6) return null;
  if (embeds !== 'price' && embeds !== 'weight') return null;
  if (store !== undefined && !Number.isInteger(store)) return null;
  return { prefixes: prefixes as string[], itemDigits: itemDigits as number, embeds, ...(store !== undefined ? { store: store as number } : {}) };
}

/**
 * The scale barcode rule of a store: a setting named 'scale_barcode' whose value is JSON
 * `{prefixes: ["21", "22"], itemDigits: 5, embeds: "price" | "weight", store?: id}`; a rule naming
 * the store wins over one naming none. A malformed value is no rule.
 */
export function scaleRuleFor(settings: readonly Setting[], storeId: number | null | undefined): ScaleBarcodeRule | null {
  let general: ScaleBarcodeRule | null = null;
  for (const s of settings) {
    if (s.name !== 'scale_barcode' || !s.value) continue;
    let parsed: StoredRule | null = null;
    try { parsed = parseRule(JSON.parse(s.value)); } catch { continue; }
    if (!parsed) continue;
    const { store, ...rule } = parsed;
    if (store != null && store === storeId) return rule;
    if (store == null) general ??= rule;
  }
  return general;
}

/**
 * The cached lookup alone, synchronously: the usual scan is answered here, in the keydown, with
 * no network and no waiting (issue 10: scan to line within 50 ms). null = ask the server.
 */
export function resolveLocalScan({ code, qtyMilli, lookup, visible }: Pick<ScanInput, 'code' | 'qtyMilli' | 'lookup' | 'visible'>): FoundOutcome | null {
  const hit = lookup.get(code.trim());
  if (!hit || !visible(hit.product)) return null;
  if (hit.variant) return { kind: 'add', product: hit.product, variant: hit.variant, qtyMilli, priceCents: null };
  if (hit.product.variants?.length) return { kind: 'choose-variant', product: hit.product, qtyMilli };
  return { kind: 'add', product: hit.product, variant: null, qtyMilli, priceCents: null };
}

export async function resolveScan(input: ScanInput): Promise<ScanOutcome> {
  const local = resolveLocalScan(input);
  if (local) return local;
  const { code, qtyMilli, byId, findBarcode, lookup, visible } = input;
  const text = code.trim();
  const scale = decodeScaleBarcode(text, input.scaleRule);
  const hit = scale ? lookup.get(scale.itemCode) : undefined;
  if (scale && hit && visible(hit.product)) {
    return {
      kind: 'add', product: hit.product, variant: hit.variant ?? null,
      // Weight: grams are thousandths of a kilogram; price: the package's price, one of it.
      qtyMilli: scale.grams !== undefined ? scale.grams : qtyMilli,
      priceCents: scale.price !== undefined ? minorToCents(scale.price, input.currency) : null,
      priceExact: scale.price !== undefined ? minorToString(scale.price, currencyDigits(input.currency ?? 'USD')) : null,
    };
  }
  const record = await findBarcode(text);
  if (!record?.item) {
    const shape = gs1Shape(text);
    return shape && gs1Problem(text, shape)?.problem === 'checkDigit' ? { kind: 'misread', code: text } : { kind: 'not-found', code: text };
  }
  const product = byId.get(record.item.id) ?? record.item;
  const measured = record.measurement === null || record.measurement === undefined || record.measurement === '' ? null : tryParseScaled(record.measurement, 3);
  const price = record.price === null || record.price === undefined || record.price === '' ? null : tryParseMoney(record.price);
  const variant = record.variant ? (product.variants ?? []).find((v) => v.id === record.variant!.id) ?? record.variant : null;
  if (!variant && product.variants?.length && measured === null) return { kind: 'choose-variant', product, qtyMilli };
  return {
    kind: 'add',
    product,
    variant,
    // The measurement is the quantity (0.5 kg); the price is the unit price, when given and not zero.
    qtyMilli: measured !== null && measured > 0 ? measured : qtyMilli,
    priceCents: price !== null && price > 0 ? price : null,
    priceExact: price !== null && price > 0 ? String(record.price).trim() : null,
  };
}
