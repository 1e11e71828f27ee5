/**
 * What the search box does with Enter (spec 2.5, reference 4.1): an exact hit in the cached
 * lookup (product barcode, variant barcode or name) among the products visible at this till,
 * else the barcodes endpoint (weighed / price-embedded codes), else '{code} not found'.
 */
import { tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { Product, Variant } from '@/features/catalogue-cache/types';
import type { ScanHit } from '@/features/catalogue-cache/product-index';
import type { BarcodeRecord } from './api/find-barcode';

export type ScanOutcome =
  | { kind: 'add'; product: Product; variant: Variant | null; qtyMilli: number; priceCents: number | null }
  | { kind: 'choose-variant'; product: Product; qtyMilli: number }
  | { kind: 'not-found'; code: string };

/** An outcome that changes the cart (a line, or the variant chooser). */
export type FoundOutcome = Exclude<ScanOutcome, { kind: 'not-found' }>;

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
  const { code, qtyMilli, byId, findBarcode } = input;
  const text = code.trim();
  const record = await findBarcode(text);
  if (!record?.item) return { kind: 'not-found', code: text };
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
  };
}
