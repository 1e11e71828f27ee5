import { describe, expect, it } from 'vitest';
import type { PaymentType } from '@/features/catalogue-cache/types';
import { computeCartTotals } from '@/features/cart/cart-totals';
import { addToCart, emptyCart } from '@/features/cart/cart-logic';
import { applyNote, changeDueOf, parseReceived, refundTenders, remaining, tendered, validateAdd, wirePayments, type TenderRow } from './payment-logic';
import { buildSaleBody } from './build-sale';

const cash: PaymentType = { id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true };
const card: PaymentType = { id: 2, name: 'Credit Card', type: 'credit card', canHaveChangeDue: false };
const row = (type: PaymentType, receivedCents: number): TenderRow => ({ key: String(Math.random()), type, receivedCents });

describe('tendering', () => {
  it('counts the field as a pending payment of the selected type', () => {
    expect(tendered([], 1000, cash)).toHaveLength(1);
    expect(tendered([row(card, 500)], 0, cash)).toHaveLength(1);
    expect(tendered([row(card, 500)], null, cash)).toHaveLength(1);
  });

  it('computes change due and receivable', () => {
    expect(changeDueOf(1250, tendered([], 2000, cash))).toBe(750);
    expect(changeDueOf(1250, tendered([], 1000, cash))).toBe(-250);
    expect(remaining(1250, [row(card, 1000)])).toBe(250);
  });

  it('refuses zero and over-paying a type without change', () => {
    expect(validateAdd(0, cash, [], 1000)).toBe('Amount cannot be zero');
    expect(validateAdd(1500, card, [], 1000)).toBe('Please add exact amount for Credit Card');
    expect(validateAdd(600, card, [row(cash, 500)], 1000)).toBe('Please add exact amount for Credit Card');
    expect(validateAdd(500, card, [row(cash, 500)], 1000)).toBeNull();
    expect(validateAdd(5000, cash, [], 1000)).toBeNull();
  });

  it('quick cash: the first note replaces the default, then notes add or subtract', () => {
    expect(applyNote(1250, false, 2000, 'add')).toBe(2000);
    expect(applyNote(2000, true, 500, 'add')).toBe(2500);
    expect(applyNote(2500, true, 500, 'subtract')).toBe(2000);
  });

  it('parses the field', () => {
    expect(parseReceived('12.5')).toBe(1250);
    expect(parseReceived('')).toBe(0);
    expect(parseReceived('abc')).toBeNull();
  });

  it('stores split payments so their totals add up to the grand total and change comes from cash', () => {
    const rows = wirePayments(1250, [row(card, 1000), row(cash, 2000)]);
    expect(rows.map((r) => [r.type.name, r.received, r.total, r.due])).toEqual([['Credit Card', 10, 10, 0], ['Cash', 20, 2.5, 17.5]]);
  });
});

describe('the sale body', () => {
  it('carries uuid, wire decimals, the typed open discount and the real order tax', () => {
    let cart = addToCart(emptyCart(), { product: { id: 1, name: 'Soap', basePrice: 10, taxes: [{ id: 1, name: 'VAT', rate: 16 }] }, qtyMilli: 1500 }).state;
    cart = { ...cart, tax: { id: 2, name: 'GST', rate: 5 }, discountAmount: '10', discountRateType: 'percent', customerName: ' Ali ', notes: '' };
    // A store on the legacy tax base (the old client's order of operations).
    const totals = computeCartTotals(cart, { currency: 'USD', pricesIncludeTax: false, legacyTaxBase: true });
    const body = buildSaleBody({ cart, totals, payments: wirePayments(totals.grandTotalCents, [row(cash, 2000)]), storeId: 1, terminalId: 3, status: 'Completed' });
    expect(body.uuid).toBe(cart.uuid);
    expect(body.items[0]).toMatchObject({ quantity: 1.5, price: 10, discount: 0, taxIncluded: true });
    expect(body.taxAmount).toBe(0.75);
    expect(body.discountAmount).toBe(10);
    expect(body.discountRateType).toBe('percent');
    // 15.00 + 2.40 item tax + 0.75 order tax = 18.15; 10 % = 1.82 (rounded once); total 16.33
    expect(body.total).toBe(16.33);
    expect(body.customer).toBe('Ali');
    expect(body.notes).toBeNull();
    expect(body.payments[0]).toMatchObject({ received: 20, total: 16.33, due: 3.67 });
    expect(body).toMatchObject({ store: 1, terminal: 3, isSuspended: false, status: 'Completed', adjustment: 0 });

    // A store taxing what is charged (the default): the 10 % comes off the 15.00 before tax (1.50),
    // VAT 16 % of 13.50 = 2.16, GST 5 % of 13.50 = 0.675 -> 0.68; total 13.50 + 2.16 + 0.68 = 16.34.
    const charged = buildSaleBody({ cart, totals: computeCartTotals(cart), payments: [], storeId: 1, terminalId: 3, status: 'Completed' });
    expect(charged.taxAmount).toBe(0.68);
    expect(charged.total).toBe(16.34);
  });

  it('a held sale has no payments', () => {
    const cart = addToCart(emptyCart(), { product: { id: 1, name: 'Soap', basePrice: 10 }, qtyMilli: 1000 }).state;
    const body = buildSaleBody({ cart, totals: computeCartTotals(cart), payments: [], storeId: 1, terminalId: 1, status: 'Completed', suspend: true });
    expect(body.isSuspended).toBe(true);
    expect(body.payments).toEqual([]);
  });
});

describe('refund to the original tenders (issue 19)', () => {
  const cashT: PaymentType = { id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true };
  const cardT: PaymentType = { id: 2, name: 'Card', type: 'credit card', canHaveChangeDue: false };
  it('card to card', () => {
    const rows = refundTenders(-1075, [{ total: 20, received: 20, due: 0, type: cardT }], [cashT, cardT]);
    expect(rows.map((r) => [r.type.name, r.receivedCents])).toEqual([['Card', -1075]]);
  });
  it('a split sale in proportion of what each tender settled (change excluded), adding up exactly', () => {
    // Sale 30.00: card 10.00, cash 20.00 settled (25.00 handed over, 5.00 change). Refund 10.01.
    const rows = refundTenders(-1001, [
      { total: 10, received: 10, due: 0, type: cardT },
      { total: 20, received: 25, due: 5, tendered: 25, change: 5, type: cashT },
    ], [cashT, cardT]);
    expect(rows.map((r) => [r.type.name, r.receivedCents])).toEqual([['Card', -334], ['Cash', -667]]);
    expect(rows.reduce((a, r) => a + r.receivedCents, 0)).toBe(-1001);
  });
  it('nothing without original payments', () => {
    expect(refundTenders(-500, [], [cashT])).toEqual([]);
  });
});

describe('wire payments carry tendered and change for cash (issue 19)', () => {
  it('cash: tendered = received, change = due; card: neither', () => {
    const cashT: PaymentType = { id: 1, name: 'Cash', type: 'cash', canHaveChangeDue: true };
    const rows = wirePayments(1550, [{ key: 'a', type: cashT, receivedCents: 2000 }]);
    expect(rows[0]).toMatchObject({ received: 20, total: 15.5, due: 4.5, tendered: 20, change: 4.5 });
  });
});

