import { describe, expect, it } from 'vitest';
import { addScanned, findScanned, lineSchema } from './lines.ts';

const line = (purchasePrice: string) => ({ item: '/api/products/1', name: 'Dates', quantity: '2', quantityRequested: '', purchasePrice, comments: '', unit: '', variants: [] });

describe('purchase line cost (issue 19)', () => {
  it("takes a KWD cost with its fils and the locale's decimal separator; junk is refused", () => {
    expect(lineSchema.safeParse(line('0.455')).success).toBe(true);
    expect(lineSchema.safeParse(line('1,25')).success).toBe(true);
    expect(lineSchema.safeParse(line('١٫٥')).success).toBe(true);
    expect(lineSchema.safeParse(line('0.4555')).success).toBe(false);
    expect(lineSchema.safeParse(line('abc')).success).toBe(false);
  });
});

describe('a barcode scanned into purchase lines (issue 23)', () => {
  const tee = {
    '@id': '/api/products/2', id: 2, name: 'Tee', cost: 10, purchaseUnit: 'pcs',
    variants: [{ '@id': '/api/product_variants/5', id: 5, attributeValue: 'S', price: 20 }, { '@id': '/api/product_variants/6', id: 6, attributeValue: 'M', price: 20 }],
  };

  it('a first scan adds the line; the product barcode again adds one to it; a variant barcode adds one to that variant', () => {
    const once = addScanned([], tee, null);
    expect(once).toHaveLength(1);
    expect(once[0]).toMatchObject({ item: '/api/products/2', quantity: '1', purchasePrice: '10' });
    const twice = addScanned(once, tee, null);
    expect(twice).toHaveLength(1);
    expect(twice[0].quantity).toBe('2');
    const medium = addScanned(twice, tee, '/api/product_variants/6');
    expect(medium[0].variants.map((v) => v.quantity)).toEqual(['1', '2']);
    expect(medium[0].quantity).toBe('2');
  });

  it('counts on from a typed quantity, with the locale separator', () => {
    const typed = [{ ...addScanned([], tee, null)[0], quantity: '1,5' }];
    expect(addScanned(typed, tee, null)[0].quantity).toBe('2.5');
  });

  it('finds the line and the variant a scan names; -1 when not there', () => {
    const lines = addScanned([], tee, null);
    expect(findScanned(lines, tee, '/api/product_variants/6')).toEqual({ line: 0, variant: 1 });
    expect(findScanned(lines, tee, null)).toEqual({ line: 0, variant: -1 });
    expect(findScanned(lines, { id: 3, name: 'Cap' }, null)).toEqual({ line: -1, variant: -1 });
  });
});
