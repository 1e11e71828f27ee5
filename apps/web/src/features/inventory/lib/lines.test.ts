import { describe, expect, it } from 'vitest';
import { lineTotals, linesFromOrder, newLine, rowTotal } from './lines.ts';
import { purchaseOrderPayload, purchasePayload } from './forms.ts';

const product = {
  '@id': '/api/products/3',
  id: 3,
  name: 'Tee',
  cost: 10,
  purchaseUnit: 'box',
  variants: [
    { '@id': '/api/product_variants/8', id: 8, attributeValue: 'S', price: 20 },
    { '@id': '/api/product_variants/9', id: 9, attributeValue: 'M', price: null, purchasePrice: 7.5 },
  ],
};

describe('purchase lines', () => {
  it('starts a line at quantity 1 and the product cost, variants at 1 and their price', () => {
    const l = newLine(product);
    expect(l).toMatchObject({ item: '/api/products/3', quantity: '1', purchasePrice: '10', unit: 'box' });
    expect(l.variants.map((v) => [v.label, v.quantity, v.purchasePrice])).toEqual([['S', '1', '20'], ['M', '1', '7.5']]);
  });

  it('totals every item and every variant (not only the last item)', () => {
    const a = { ...newLine(product), quantity: '2', purchasePrice: '1.10' };
    const b = { ...newLine(product), quantity: '3', purchasePrice: '0.5' };
    const t = lineTotals([a, b]);
    // items 2 x 1.10 + 3 x 0.5 = 3.70; variants (20 + 7.5) x 2 = 55
    expect(t).toEqual({ count: 2, quantity: 9000, cost: 5870, requested: 0 });
    expect(rowTotal('1.5', '0.99')).toBe(149);
    expect(rowTotal('x', '1')).toBe(0);
  });

  it('in a 3-decimal currency (KWD) totals keep the fils: 3 x 1.275 = 3.825 (issue 19)', () => {
    expect(rowTotal('3', '1.275', 3)).toBe(3825);
    const a = { ...newLine(product), quantity: '3', purchasePrice: '1.275', variants: [] };
    expect(lineTotals([a], 3).cost).toBe(3825);
    // In cents the same row would be 3 x 1.28 = 3.84.
    expect(rowTotal('3', '1.275')).toBe(384);
  });

  it('turns PO lines into requested quantities for a purchase', () => {
    const lines = linesFromOrder(
      [{ id: 1, item: product, quantity: '5', price: '9', unit: 'box', comments: 'rush', variants: [{ '@id': '/api/purchase_order_item_variants/2', id: 2, variant: product.variants[0], quantity: '4', purchasePrice: '8' }] }],
      true,
    );
    expect(lines[0]).toMatchObject({ quantity: '5', quantityRequested: '5', purchasePrice: '9', comments: 'rush' });
    expect(lines[0].variants[0]).toMatchObject({ variant: '/api/product_variants/8', quantity: '4', quantityRequested: '4', id: undefined });
    expect(lineTotals(lines).requested).toBe(9000);
  });

  it('builds the purchase and PO bodies', () => {
    const line = { ...newLine({ ...product, variants: [] }), quantity: '5.', purchasePrice: '.5' };
    const p = purchasePayload(
      { createdAt: '2024-03-05T10:00', purchaseNumber: ' P-1 ', purchaseMode: 'Items list', purchaseOrder: '/api/purchase_orders/1', supplier: '', paymentType: '/api/payments/1', updateStocks: true, updatePrice: false, items: [line] },
      { storeId: 1, userId: 7 },
    );
    expect(p).toMatchObject({
      purchaseNumber: 'P-1', purchaseOrder: null, supplier: null, store: '/api/stores/1', purchasedBy: '/api/users/7', updatePrice: false,
      items: [{ item: '/api/products/3', quantity: '5', purchasePrice: '0.5', quantityRequested: null, purchaseUnit: 'box', variants: [] }],
    });
    const po = purchaseOrderPayload({ createdAt: '2024-03-05T10:00', poNumber: 'PO-1', supplier: '/api/suppliers/2', items: [line] }, 1);
    expect(po.items[0]).toEqual({ item: '/api/products/3', quantity: '5', price: '0.5', comments: '', unit: 'box', variants: [] });
    expect(po.store).toBe('/api/stores/1');
  });
});
