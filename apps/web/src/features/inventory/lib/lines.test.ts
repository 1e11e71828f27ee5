import { describe, expect, it } from 'vitest';
import { lineSchema } from './lines.ts';

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
