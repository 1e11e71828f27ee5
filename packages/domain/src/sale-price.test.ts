import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { ORDER_STATUS, saleSchema, type SaleInput } from './schemas/sale.ts';
import type { FactOriginal, FactProduct, SaleFacts } from './sale-facts.ts';
import { priceSale } from './sale-price.ts';

const CASH = { id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true };
const CARD = { id: 2, name: 'Card', type: 'card', canHaveChangeDue: false };
const CREDIT = { id: 3, name: 'Credit', type: 'credit', canHaveChangeDue: false };

function product(id: number, basePrice: string, extra: Partial<FactProduct> = {}): FactProduct {
  return {
    id, name: `P${id}`, basePrice, cost: '1.00', manageInventory: true, isActive: true, stores: [], taxes: [], rules: [], codes: [], variants: [],
    ...extra,
  };
}

function facts(over: Partial<SaleFacts> = {}): SaleFacts {
  return {
    storeId: 1, now: new Date('2026-11-25T10:00:00Z'), digits: 2, timeZone: 'UTC', taxMode: 'exclusive', cashRoundingStep: 0,
    products: [product(10, '4.99'), product(11, '10.00', { taxes: [{ id: 7, rate: '10', isActive: true }] })],
    paymentTypes: [CASH, CARD, CREDIT], orderTax: null, discount: null, customerVisible: true, original: null, mayRefundCashForNonCash: false,
    ...over,
  };
}

const sale = (body: Record<string, unknown>): SaleInput => saleSchema.parse({ store: 1, terminal: 1, status: ORDER_STATUS.COMPLETED, ...body });

function violations(f: () => unknown): string[] {
  try { f(); } catch (e) { if (e instanceof AppError) return e.violations.map((v) => `${v.propertyPath}: ${v.message}`); throw e; }
  throw new Error('no violation');
}

describe('priceSale: one pure call prices a whole sale from its facts', () => {
  it('prices lines from the catalogue, taxes on what is charged, and settles cash with change', () => {
    const input = sale({ items: [{ item: 10, quantity: '2' }, { item: 11, quantity: '1' }], payments: [{ type: 1, received: '25.00' }] });
    const p = priceSale(input, facts(), { status: ORDER_STATUS.COMPLETED });
    expect(p.lines.map((l) => [l.productId, l.priceCents, l.qtyMilli])).toEqual([[10, 499, 2000], [11, 1000, 1000]]);
    // 2 × 4.99 + 10.00 = 19.98, tax 10% on the 10.00 line = 1.00
    expect(p.totals.totalCents).toBe(2098);
    expect(p.payments).toEqual([{ typeId: 1, totalCents: 2098, receivedCents: 2500, dueCents: 402 }]);
    expect(p.creditCents).toBe(0);
  });

  it('uses the price rule in force on the store clock, and a weighed barcode price only when the product carries it', () => {
    const rules = [{ productVariantId: null, date: null, time: '09:00', timeTo: '11:00', day: null, week: null, month: null, quarter: null, basePrice: '3.00' }];
    const f = facts({ products: [product(10, '4.99', { rules, codes: [{ variantId: null, price: '2.50' }] })] });
    const ruled = priceSale(sale({ items: [{ item: 10, quantity: '1' }], payments: [{ type: 2, received: '3.00' }] }), f, { status: ORDER_STATUS.COMPLETED });
    expect(ruled.lines[0].priceCents).toBe(300);
    const weighed = priceSale(sale({ items: [{ item: 10, quantity: '1', price: '2.50' }], payments: [{ type: 2, received: '2.50' }] }), f, { status: ORDER_STATUS.COMPLETED });
    expect(weighed.lines[0].priceCents).toBe(250);
    // A price the product's barcodes do not carry is ignored: the catalogue wins.
    const made = priceSale(sale({ items: [{ item: 10, quantity: '1', price: '0.01' }], payments: [{ type: 2, received: '3.00' }] }), f, { status: ORDER_STATUS.COMPLETED });
    expect(made.lines[0].priceCents).toBe(300);
  });

  it('applies the chosen order discount and order tax from the facts', () => {
    const f = facts({ discount: { id: 4, rateType: 'percent', scope: 'all', rate: '10' }, orderTax: { id: 5, rate: '5' } });
    const p = priceSale(sale({ items: [{ item: 10, quantity: '1' }], discount: 4, tax: 5, payments: [{ type: 1, received: '10.00' }] }), f, { status: ORDER_STATUS.COMPLETED });
    expect(p.discount).toEqual({ typeId: 4, rateType: 'percent', rate: 1000 });
    expect(p.orderTax).toEqual({ typeId: 5, rate: 500 });
    // 4.99 − 10% (0.50) = 4.49, + 5% order tax on what is charged (0.22) = 4.71
    expect(p.totals.discountTotalCents).toBe(50);
    expect(p.totals.totalCents).toBe(471);
    expect(p.payments[0]).toMatchObject({ totalCents: 471, dueCents: 529 });
  });

  it('names every faulty field: an unknown product, a discount the store lacks, the client total that does not match', () => {
    expect(violations(() => priceSale(sale({ items: [{ item: 99, quantity: '1' }, { item: 10, variant: 77, quantity: '1' }], payments: [] }), facts(), { status: ORDER_STATUS.COMPLETED })))
      .toEqual(["items[0].item: 'Product' with ID '99' not found", "items[1].variant: 'Product variant' with ID '77' not found"]);
    expect(violations(() => priceSale(sale({ items: [{ item: 10, quantity: '1' }], discount: 4, payments: [] }), facts({ discount: 'missing' }), { status: ORDER_STATUS.COMPLETED })))
      .toEqual(["discount: 'Discount' with ID '4' not found"]);
    expect(violations(() => priceSale(sale({ items: [{ item: 10, quantity: '1' }], total: '1.00', payments: [{ type: 1, received: '5' }] }), facts(), { status: ORDER_STATUS.COMPLETED }))[0])
      .toMatch(/^total: Total mismatch: the order comes to 4\.99, not 1\.00/);
  });

  it('refuses credit without a customer and reports what goes on the account with one', () => {
    expect(violations(() => priceSale(sale({ items: [{ item: 10, quantity: '1' }], payments: [{ type: 3, received: '4.99' }] }), facts(), { status: ORDER_STATUS.COMPLETED })))
      .toEqual(['payments[0].type: A customer is required for credit payments']);
    const p = priceSale(sale({ items: [{ item: 10, quantity: '1' }], customerId: 8, payments: [{ type: 3, received: '4.99' }] }), facts(), { status: ORDER_STATUS.COMPLETED });
    expect(p.creditCents).toBe(499);
    expect(violations(() => priceSale(sale({ items: [{ item: 10, quantity: '1' }], customerId: 8, payments: [] }), facts({ customerVisible: false }), { status: ORDER_STATUS.COMPLETED })))
      .toEqual(["customerId: 'Customer' with ID '8' not found"]);
  });

  it('prices a return from the original and sends the money back to its card, in cash only with the permission', () => {
    const original: FactOriginal = {
      row: { id: 50, orderId: 12, customerId: null, customerName: null, taxMode: 'exclusive', adjustment: '0' },
      lines: [{ id: 500, productId: 10, variantId: null, quantity: '2', returnedQuantity: '0', price: '4.99', cost: '1.00', discount: '0', orderDiscount: '0', taxable: '9.98', taxesTotal: '0', taxes: [] }],
      discount: null, tax: null, payments: [{ typeId: 2, total: '9.98' }], returnedPayments: [],
    };
    const f = facts({ original });
    const back = priceSale(sale({ items: [{ item: 10, quantity: '-1' }], refundingFrom: 50, payments: [] }), f, { status: ORDER_STATUS.COMPLETED });
    expect(back.totals.totalCents).toBe(-499);
    expect(back.returned).toEqual({ lines: new Map([[500, 1000]]), complete: false });
    expect(back.payments).toEqual([{ typeId: 2, totalCents: -499, receivedCents: -499, dueCents: 0 }]);
    const inCash = sale({ items: [{ item: 10, quantity: '-1' }], refundingFrom: 50, payments: [{ type: 1, received: '-4.99' }] });
    expect(() => priceSale(inCash, f, { status: ORDER_STATUS.COMPLETED })).toThrow(/refund\.cashForNonCash/);
    expect(priceSale(inCash, facts({ original, mayRefundCashForNonCash: true }), { status: ORDER_STATUS.COMPLETED }).payments[0].typeId).toBe(1);
    expect(violations(() => priceSale(sale({ items: [{ item: 10, quantity: '-3' }], refundingFrom: 50, payments: [] }), f, { status: ORDER_STATUS.COMPLETED })))
      .toEqual(["items[0].quantity: Cannot return more than 2 of 'P10'"]);
  });
});
