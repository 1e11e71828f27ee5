import { describe, expect, it } from 'vitest';
import { buildFacets, buildScanLookup, isVisibleAt, matchesFacets, NO_FACETS } from './product-index';
import type { Product } from './types';

const products: Product[] = [
  { id: 1, name: 'Milk', barcode: '100', basePrice: 1, brands: [{ id: 1, name: 'Acme' }], categories: [{ id: 1, name: 'Food' }], department: { id: 1, name: 'Grocery' }, stores: [{ store: { id: 1 } }] },
  { id: 2, name: '100', barcode: '200', basePrice: 1, brands: [{ id: 2, name: 'Contoso' }], categories: [], department: null, terminals: [{ id: 5 }] },
  { id: 3, name: 'Shirt', barcode: '300', basePrice: 1, variants: [{ id: 31, barcode: '3001', attributeValue: 'S' }], brands: [{ id: 1, name: 'Acme' }], categories: [{ id: 2, name: 'Apparel' }], department: { id: 2, name: 'Clothing' } },
];

describe('scan lookup', () => {
  const map = buildScanLookup(products);
  it('finds product barcodes, variant barcodes and names; a barcode wins over a name', () => {
    expect(map.get('100')?.product.id).toBe(1);
    expect(map.get('3001')).toMatchObject({ product: { id: 3 }, variant: { id: 31 } });
    expect(map.get('Shirt')?.product.id).toBe(3);
    expect(map.get('nope')).toBeUndefined();
  });
});

describe('visibility and facets', () => {
  it('keeps products of this store and terminal (or of none)', () => {
    expect(isVisibleAt(products[0], 1, 9)).toBe(true);
    expect(isVisibleAt(products[0], 2, 9)).toBe(false);
    expect(isVisibleAt(products[1], 2, 5)).toBe(true);
    expect(isVisibleAt(products[1], 2, 6)).toBe(false);
  });

  it('counts brands, categories and departments', () => {
    const f = buildFacets(products);
    expect(f.brands).toEqual([{ id: 1, name: 'Acme', count: 2 }, { id: 2, name: 'Contoso', count: 1 }]);
    expect(f.departments.map((d) => d.count)).toEqual([2 - 1, 1]);
    expect(f.categories).toHaveLength(2);
  });

  it('filters by chips; no category is kept, no department is hidden', () => {
    expect(products.filter((p) => matchesFacets(p, NO_FACETS))).toHaveLength(3);
    expect(products.filter((p) => matchesFacets(p, { ...NO_FACETS, categories: [2] })).map((p) => p.id)).toEqual([2, 3]);
    expect(products.filter((p) => matchesFacets(p, { ...NO_FACETS, departments: [1] })).map((p) => p.id)).toEqual([1]);
    expect(products.filter((p) => matchesFacets(p, { ...NO_FACETS, brands: [1] })).map((p) => p.id)).toEqual([1, 3]);
  });
});
