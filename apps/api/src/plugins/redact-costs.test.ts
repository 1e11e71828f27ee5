/** Cost prices leave the server only for 'cost.view': what redactCosts gives a caller without it. */
import { describe, expect, it } from 'vitest';
import { redactCosts } from './auth.ts';

describe('redactCosts', () => {
  it('nulls cost, purchasePrice, margin and profit at any depth, and leaves the answer it was given untouched', () => {
    const answer = {
      order: { id: 7, total: '12.50', items: [{ item: { id: 1, name: 'Tea', cost: '3.10', variants: [{ id: 2, purchasePrice: '1.00', price: '2.00' }] }, margin: '1.2' }] },
      totals: [{ day: '2026-11-27', profit: '40.00', sales: '100.00' }],
      at: new Date(0),
    };
    const before = structuredClone(answer);
    const out = redactCosts(answer) as typeof answer;
    expect(out.order.items[0].item.cost).toBeNull();
    expect(out.order.items[0].item.variants[0].purchasePrice).toBeNull();
    expect(out.order.items[0].item.variants[0].price).toBe('2.00');
    expect((out.order.items[0] as Record<string, unknown>).margin).toBeNull();
    expect(out.totals[0]).toEqual({ day: '2026-11-27', profit: null, sales: '100.00' });
    expect(out.at).toBe(answer.at);
    expect(answer).toEqual(before);
  });

  it('copies only what changes: an answer without costs comes back as the same object (no copy of every object per sale)', () => {
    const plain = { id: 1, lines: [{ name: 'Tea', price: '2.00', cost: null }], store: { id: 3 } };
    expect(redactCosts(plain)).toBe(plain);
    const mixed = { a: { cost: '1.00' }, b: { name: 'kept' } };
    const out = redactCosts(mixed) as typeof mixed;
    expect(out).not.toBe(mixed);
    expect(out.b).toBe(mixed.b);
    expect(out.a).toEqual({ cost: null });
  });
});
