import { describe, expect, it } from 'vitest';
import {
  CREDIT_NOT_ALLOWED_MESSAGE,
  creditCheck,
  customerBalance,
  customerFigures,
  mergeLedger,
  purchaseQuantity,
  purchaseTotal,
  supplierOutstanding,
} from './ledger.ts';
import type { CreditCheckInput, CustomerFigures, PurchaseLineInput } from './ledger.ts';

describe('customerBalance', () => {
  it.each([
    [0, 0, 0],
    [15000, 5000, 20000],
    [-2500, 10000, 7500],
    [10, 20, 30],
  ])('outstanding %i + opening %i = %i', (outstandingCents, openingBalanceCents, expected) => {
    expect(customerBalance({ outstandingCents, openingBalanceCents })).toBe(expected);
  });
});

describe('customerFigures', () => {
  it.each([
    [[], [], { sale: 0, paid: 0, outstanding: 0 }],
    [[10000, 2550], [5000], { sale: 12550, paid: 5000, outstanding: 7550 }],
    [[1000], [1000, 500], { sale: 1000, paid: 1500, outstanding: -500 }],
    [[10, 20], [30], { sale: 30, paid: 30, outstanding: 0 }],
  ] as Array<[number[], number[], CustomerFigures]>)('sales %j, payments %j', (creditSalesCents, paymentsCents, expected) => {
    expect(customerFigures({ creditSalesCents, paymentsCents })).toEqual(expected);
  });
});

describe('supplierOutstanding', () => {
  it.each([
    [[], [], 0, 0],
    [[100000, 25000], [50000], 10000, 85000],
    [[10000], [15000], 0, -5000],
    [[], [], -2000, -2000],
  ])('credit %j - payments %j + opening %i = %i', (creditPurchaseTotals, payments, openingBalance, expected) => {
    expect(supplierOutstanding({ creditPurchaseTotals, payments, openingBalance })).toBe(expected);
  });
});

describe('purchaseTotal and purchaseQuantity', () => {
  const several: PurchaseLineInput[] = [
    // 2 x 3.50 = 7.00, variants 1 x 2.00 + 3 x 1.25 = 5.75
    { qtyMilli: 2000, costCents: 350, variants: [{ qtyMilli: 1000, costCents: 200 }, { qtyMilli: 3000, costCents: 125 }] },
    // 1.5 x 9.99 = 14.985 -> 14.99, variant 2 x 4.00
    { qtyMilli: 1500, costCents: 999, variants: [{ qtyMilli: 2000, costCents: 400 }] },
    // 4 x 0.10, no variants
    { qtyMilli: 4000, costCents: 10, variants: [] },
  ];
  const cases: Array<[string, PurchaseLineInput[], number, number]> = [
    ['nothing', [], 0, 0],
    ['one item', [{ qtyMilli: 3000, costCents: 1999 }], 5997, 3000],
    // the reference counted only the last item's variants: 22.39 instead of 36.14
    ['several items, all variants counted', several, 3614, 13500],
    ['variants only on the first item', [several[0] as PurchaseLineInput, { qtyMilli: 1000, costCents: 100, variants: null }], 1375, 7000],
  ];
  it.each(cases)('%s', (_name, items, total, qty) => {
    expect(purchaseTotal(items)).toBe(total);
    expect(purchaseQuantity(items)).toBe(qty);
  });
});

describe('mergeLedger', () => {
  it('sorts newest first across payments and orders, ties keep input order', () => {
    type Entry = { kind: 'payment' | 'order'; id: number; createdAt: string | Date };
    const payments: Entry[] = [
      { kind: 'payment', id: 1, createdAt: '2024-03-10T10:00:00Z' },
      { kind: 'payment', id: 2, createdAt: '2024-03-12T10:00:00+00:00' },
    ];
    const orders: Entry[] = [
      { kind: 'order', id: 3, createdAt: new Date('2024-03-11T10:00:00Z') },
      { kind: 'order', id: 4, createdAt: '2024-03-12T10:00:00Z' },
      { kind: 'order', id: 5, createdAt: 'not a date' },
      { kind: 'order', id: 6, createdAt: '2024-03-12T12:00:00+02:00' }, // 10:00Z, same instant as 2 and 4
    ];
    const input = [...payments, ...orders];
    expect(mergeLedger(input).map((e) => e.id)).toEqual([2, 4, 6, 3, 1, 5]);
    expect(input.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6]); // not mutated
  });

  it('handles an empty list', () => {
    expect(mergeLedger([])).toEqual([]);
  });
});

describe('creditCheck', () => {
  const cases: Array<[string, CreditCheckInput, string | null]> = [
    ['no limit', { limitCents: null, balanceCents: 900000, newCreditCents: 100000 }, null],
    ['within the limit', { limitCents: 50000, balanceCents: 30000, newCreditCents: 10000 }, null],
    ['exactly at the limit', { limitCents: 50000, balanceCents: 40000, newCreditCents: 10000 }, null],
    ['over the limit', { limitCents: 50000, balanceCents: 40000, newCreditCents: 10001 }, 'Credit limit of 500.00 exceeded: balance would be 500.01'],
    ['zero limit', { limitCents: 0, balanceCents: 0, newCreditCents: 1 }, 'Credit limit of 0.00 exceeded: balance would be 0.01'],
    ['no new credit', { limitCents: 0, balanceCents: 90000, newCreditCents: 0 }, null],
    ['a credit refund is always allowed', { limitCents: 100, balanceCents: 90000, newCreditCents: -5000 }, null],
    ['credit not allowed', { limitCents: null, balanceCents: 0, newCreditCents: 100, allowCredit: false }, CREDIT_NOT_ALLOWED_MESSAGE],
    ['allowed flag unset', { limitCents: null, balanceCents: 0, newCreditCents: 100, allowCredit: null }, null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(creditCheck(input)).toBe(expected);
  });
});
