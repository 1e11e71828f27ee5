import { apiFetch } from '@/lib/api-client';
import type { HydraCollection, Product, Variant } from '@/features/catalogue-cache/types';

/** A barcode record: a weighed or price-embedded code with its measurement (quantity) and price. */
export interface BarcodeRecord {
  id: number;
  barcode: string;
  item: Product | null;
  variant?: Variant | null;
  measurement?: string | number | null;
  unit?: string | null;
  price?: string | number | null;
}

/** GET /api/barcodes?barcode=<typed text> -> the first member, or null. */
export async function findBarcode(code: string, signal?: AbortSignal): Promise<BarcodeRecord | null> {
  const page = await apiFetch<HydraCollection<BarcodeRecord>>('/barcodes', { query: { barcode: code }, signal });
  return page['hydra:member']?.[0] ?? null;
}
