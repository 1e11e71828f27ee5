import { describe, expect, it, vi } from 'vitest';
import { buildScanLookup } from '@/features/catalogue-cache/product-index';
import type { Product } from '@/features/catalogue-cache/types';
import { resolveScan, scaleRuleFor } from './scan';

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

describe('scale barcodes and misreads (issue 26)', () => {
  const cheese: Product = { id: 5, name: 'Cheese by weight', barcode: '12345', basePrice: 18 };
  const all = [...products, cheese];
  const input = { ...base, lookup: buildScanLookup(all), byId: new Map(all.map((p) => [p.id, p])), findBarcode: vi.fn().mockResolvedValue(null) };
  // EAN-13: 21 | 12345 | 01250 | check digit (by hand: weights 1,3,... from the left: 2+3+1+6+3+12+5+0+1+6+5+0 = 44 -> 6).
  const priced = '2112345012506';

  it("a price-embedded label adds the item at the label's price, in the store's currency", async () => {
    const rule = scaleRuleFor([{ id: 1, name: 'scale_barcode', value: '{"prefixes":["21"],"itemDigits":5,"embeds":"price"}' }], 1);
    expect(await resolveScan({ ...input, code: priced, scaleRule: rule, currency: 'USD' })).toMatchObject({ kind: 'add', product: cheese, qtyMilli: 2000, priceCents: 1250 });
    // The same digits in a JPY store are 1,250 yen (hundredths: 125000).
    expect(await resolveScan({ ...input, code: priced, scaleRule: rule, currency: 'JPY' })).toMatchObject({ priceCents: 125000 });
    // In a KWD store 01275 is 1.275 dinars: the exact text goes with the cents (issue 19).
    // (Check digit by hand: 2+3+1+6+3+12+5+0+1+6+7+15 = 61 -> 9.)
    expect(await resolveScan({ ...input, code: '2112345012759', scaleRule: rule, currency: 'KWD' }))
      .toMatchObject({ priceCents: 128, priceExact: '1.275' });
  });

  it('a weight-embedded label adds the weight as the quantity (grams -> kg)', async () => {
    const rule = scaleRuleFor([{ id: 1, name: 'scale_barcode', value: '{"prefixes":["21"],"itemDigits":5,"embeds":"weight","store":1}' }], 1);
    expect(await resolveScan({ ...input, code: priced, scaleRule: rule })).toMatchObject({ kind: 'add', product: cheese, qtyMilli: 1250, priceCents: null });
  });

  it("the store's own rule wins over the general one; a malformed rule is none", () => {
    const general = { id: 1, name: 'scale_barcode', value: '{"prefixes":["21"],"itemDigits":5,"embeds":"price"}' };
    const mine = { id: 2, name: 'scale_barcode', value: '{"prefixes":["23"],"itemDigits":5,"embeds":"weight","store":2}' };
    expect(scaleRuleFor([general, mine], 2)).toEqual({ prefixes: ['23'], itemDigits: 5, embeds: 'weight' });
    expect(scaleRuleFor([general, mine], 1)).toEqual({ prefixes: ['21'], itemDigits: 5, embeds: 'price' });
    expect(scaleRuleFor([{ id: 3, name: 'scale_barcode', value: '{"prefixes":["99"]}' }], 1)).toBeNull();
    // Each field checked: digits out of 4..6, an unknown embed, a prefix not 2x, a store that is no integer.
    for (const value of ['{"prefixes":["21"],"itemDigits":7,"embeds":"price"}', '{"prefixes":["21"],"itemDigits":5,"embeds":"volume"}',
      '{"prefixes":["31"],"itemDigits":5,"embeds":"price"}', '{"prefixes":[],"itemDigits":5,"embeds":"price"}',
      '{"prefixes":["21"],"itemDigits":5,"embeds":"price","store":"1"}', 'null', 'not json']) {
      expect(scaleRuleFor([{ id: 4, name: 'scale_barcode', value }], 1)).toBeNull();
    }
  });

  it('an EAN with a wrong check digit that nobody knows is a misread (scan again), not "not found"', async () => {
    expect(await resolveScan({ ...input, code: '4006381333932' })).toEqual({ kind: 'misread', code: '4006381333932' });
    expect(await resolveScan({ ...input, code: '4006381333931' })).toEqual({ kind: 'not-found', code: '4006381333931' });
    // Without a rule a scale label with a bad check digit is a misread too.
    expect(await resolveScan({ ...input, code: '2112345012507' })).toEqual({ kind: 'misread', code: '2112345012507' });
  });
});
