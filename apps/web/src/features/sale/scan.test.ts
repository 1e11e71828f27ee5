import { describe, expect, it, vi } from 'vitest';
import { buildScanLookup } from '@/features/catalogue-cache/product-index';
import type { Product } from '@/features/catalogue-cache/types';
import { resolveScan } from './scan';

const milk: Product = { id: 1, name: 'Milk', barcode: '100', basePrice: 2.5 };
const shirt: Product = { id: 3, name: 'Shirt', barcode: '300', basePrice: 20, variants: [{ id: 31, barcode: '3001', attributeValue: 'S' }] };
const hidden: Product = { id: 4, name: 'Hidden', barcode: '400', basePrice: 1 };
const products = [milk, shirt, hidden];
const base = {
  qtyMilli: 2000,
  lookup: buildScanLookup(products),
  byId: new Map(products.map((p) => [p.id, p])),
  visible: (p: Product) => p.id !== 4,
};

describe('resolveScan', () => {
  it('adds a product barcode or name at the quantity box, a variant barcode as that variant', async () => {
    const findBarcode = vi.fn();
    expect(await resolveScan({ ...base, code: ' 100 ', findBarcode })).toMatchObject({ kind: 'add', product: milk, variant: null, qtyMilli: 2000, priceCents: null });
    expect(await resolveScan({ ...base, code: 'Milk', findBarcode })).toMatchObject({ kind: 'add', product: milk });
    expect(await resolveScan({ ...base, code: '3001', findBarcode })).toMatchObject({ kind: 'add', product: shirt, variant: { id: 31 } });
    expect(findBarcode).not.toHaveBeenCalled();
  });

  it('opens the variant chooser for an item with variants', async () => {
    expect(await resolveScan({ ...base, code: '300', findBarcode: vi.fn() })).toEqual({ kind: 'choose-variant', product: shirt, qtyMilli: 2000 });
  });

  it('falls back to the barcodes endpoint: a weighed code adds its measurement at its price', async () => {
    const findBarcode = vi.fn().mockResolvedValue({ id: 1, barcode: '2100001005005', item: { id: 1, name: 'Milk', basePrice: 2.5 }, measurement: '0.5', price: '2.50' });
    expect(await resolveScan({ ...base, code: '2100001005005', findBarcode })).toMatchObject({ kind: 'add', product: milk, qtyMilli: 500, priceCents: 250 });
  });

  it("reports '{code} not found' (products not sold here are not found either)", async () => {
    const findBarcode = vi.fn().mockResolvedValue(null);
    expect(await resolveScan({ ...base, code: '999', findBarcode })).toEqual({ kind: 'not-found', code: '999' });
    expect(await resolveScan({ ...base, code: '400', findBarcode })).toEqual({ kind: 'not-found', code: '400' });
  });
});
