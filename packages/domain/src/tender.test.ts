import { describe, expect, it } from 'vitest';
import { parseMoney } from './money.ts';
import {
  QUICK_CASH_DENOMINATIONS,
  QUICK_CASH_DENOMINATIONS_CENTS,
  allocatePayments,
  canSettle,
  changeDue,
  isPaymentTypeAvailable,
  roundingAdjustment,
  validatePaymentAdd,
} from './tender.ts';
import type { AllocatedPayment, CanSettleInput, PaymentAddInput, PaymentTypeAvailabilityInput, TenderedPayment } from './tender.ts';

describe('roundingAdjustment (nearest 10 units, 5 rounds up)', () => {
  const cases: Array<[number, number, number]> = [
    // total cents, adjustment, rounded total
    [12340, -340, 12000], // 123.40 -> 120
    [12500, 500, 13000], // 125 -> 130
    [13000, 0, 13000], // 130 stays
    [12499, -499, 12000],
    [12999, 1, 13000],
    [500, 500, 1000],
    [499, -499, 0],
    [0, 0, 0],
    [6697, 303, 7000],
    [-12340, 340, -12000], // refunds mirror
    [-12500, -500, -13000],
    [-13000, 0, -13000],
  ];
  it.each(cases)('%i -> %i', (total, adjustment, rounded) => {
    expect(roundingAdjustment(total)).toBe(adjustment);
    expect(total + roundingAdjustment(total)).toBe(rounded);
  });
});

describe('changeDue', () => {
  const cases: Array<[string, number, number[], number]> = [
    ['exact', 10000, [10000], 0],
    ['change', 10000, [5000, 6000], 1000],
    ['receivable', 10000, [5000], -5000],
    ['nothing paid', 10000, [], -10000],
    ['refund paid out', -5000, [-5000], 0],
    ['0.1 + 0.2 paid for 0.30', 30, [parseMoney(0.1), parseMoney(0.2)], 0],
    ['with adjustment in the grand total', 12000, [12000], 0],
  ];
  it.each(cases)('%s', (_name, total, received, expected) => {
    expect(changeDue(total, received.map((receivedCents) => ({ receivedCents })))).toBe(expected);
  });
});

describe('validatePaymentAdd', () => {
  const card = { name: 'Card', canHaveChangeDue: false };
  const cash = { name: 'Cash', canHaveChangeDue: true };
  const cases: Array<[string, PaymentAddInput, string | null]> = [
    ['zero', { amountCents: 0, paymentType: cash, alreadyReceivedCents: 0, totalCents: 10000 }, 'Amount cannot be zero'],
    ['zero by card', { amountCents: 0, paymentType: card, alreadyReceivedCents: 0, totalCents: 10000 }, 'Amount cannot be zero'],
    ['card over total', { amountCents: 10001, paymentType: card, alreadyReceivedCents: 0, totalCents: 10000 }, 'Please add exact amount for Card'],
    ['card exact', { amountCents: 10000, paymentType: card, alreadyReceivedCents: 0, totalCents: 10000 }, null],
    ['card after cash goes over', { amountCents: 5000, paymentType: card, alreadyReceivedCents: 6000, totalCents: 10000 }, 'Please add exact amount for Card'],
    ['card completes the rest', { amountCents: 4000, paymentType: card, alreadyReceivedCents: 6000, totalCents: 10000 }, null],
    ['cash over total gives change', { amountCents: 20000, paymentType: cash, alreadyReceivedCents: 0, totalCents: 10000 }, null],
    ['flag missing means no change', { amountCents: 10001, paymentType: { name: 'Voucher' }, alreadyReceivedCents: 0, totalCents: 10000 }, 'Please add exact amount for Voucher'],
    ['refund by card exact', { amountCents: -5000, paymentType: card, alreadyReceivedCents: 0, totalCents: -5000 }, null],
    ['refund by card too much', { amountCents: -6000, paymentType: card, alreadyReceivedCents: 0, totalCents: -5000 }, 'Please add exact amount for Card'],
    ['refund in cash', { amountCents: -6000, paymentType: cash, alreadyReceivedCents: 0, totalCents: -5000 }, null],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(validatePaymentAdd(input)).toBe(expected);
  });
});

describe('canSettle', () => {
  const cases: Array<[CanSettleInput, boolean]> = [
    [{ lineCount: 2, saving: false, changeDueCents: 0 }, true],
    [{ lineCount: 2, saving: false, changeDueCents: 500 }, true],
    [{ lineCount: 0, saving: false, changeDueCents: 0 }, false],
    [{ lineCount: 2, saving: true, changeDueCents: 0 }, false],
    [{ lineCount: 2, saving: false, changeDueCents: -1 }, false],
  ];
  it.each(cases)('%j -> %s', (input, expected) => {
    expect(canSettle(input)).toBe(expected);
  });
});

describe('isPaymentTypeAvailable', () => {
  const cases: Array<[PaymentTypeAvailabilityInput, boolean]> = [
    [{ type: 'credit', hasCustomer: true, lineCount: 1 }, true],
    [{ type: 'credit', hasCustomer: false, lineCount: 1 }, false],
    [{ type: 'credit', hasCustomer: true, lineCount: 0 }, false],
    [{ type: 'cash', hasCustomer: false, lineCount: 0 }, true],
    [{ type: 'credit card', hasCustomer: false, lineCount: 1 }, true],
  ];
  it.each(cases)('%j -> %s', (input, expected) => {
    expect(isPaymentTypeAvailable(input)).toBe(expected);
  });
});

describe('quick cash', () => {
  it('has the spec notes', () => {
    expect(QUICK_CASH_DENOMINATIONS).toEqual([5000, 1000, 500, 100, 50, 20, 10, 5, 2, 1]);
    expect(QUICK_CASH_DENOMINATIONS_CENTS).toEqual([500000, 100000, 50000, 10000, 5000, 2000, 1000, 500, 200, 100]);
  });
});

describe('allocatePayments', () => {
  type Row = [received: number, cashLike: boolean];
  const cases: Array<[string, number, Row[], Array<[total: number, due: number]>]> = [
    ['single cash exact', 10000, [[10000, true]], [[10000, 0]]],
    ['single cash with change', 10000, [[20000, true]], [[10000, 10000]]],
    ['card then cash: change from cash', 10000, [[6000, false], [5000, true]], [[6000, 0], [4000, 1000]]],
    ['cash then card: change still from cash', 10000, [[5000, true], [6000, false]], [[4000, 1000], [6000, 0]]],
    ['change from the last cash row', 10000, [[5000, true], [3000, false], [5000, true]], [[5000, 0], [3000, 0], [2000, 3000]]],
    ['change larger than the last cash row', 200, [[1000, true], [1500, true]], [[200, 800], [0, 1500]]],
    ['under-paid', 10000, [[4000, false]], [[4000, 0]]],
    ['over-paid with no cash row (fallback: last row)', 10000, [[12000, false]], [[10000, 2000]]],
    ['refund paid out in cash with change back', -10000, [[-12000, true]], [[-10000, -2000]]],
    ['refund split', -10000, [[-4000, false], [-6000, true]], [[-4000, 0], [-6000, 0]]],
    ['nothing tendered', 10000, [], []],
    ['zero total', 0, [[0, true]], [[0, 0]]],
  ];
  it.each(cases)('%s', (_name, grandTotal, rows, expected) => {
    const payments: TenderedPayment[] = rows.map(([receivedCents, canHaveChangeDue]) => ({ receivedCents, canHaveChangeDue }));
    const result = allocatePayments(grandTotal, payments);
    expect(result.map((r: AllocatedPayment) => [r.totalCents, r.dueCents])).toEqual(expected);
    result.forEach((r, i) => {
      expect(r.receivedCents).toBe(payments[i]?.receivedCents);
      expect(r.totalCents + r.dueCents).toBe(r.receivedCents);
    });
    const received = payments.reduce((s, p) => s + p.receivedCents, 0);
    const stored = result.reduce((s, r) => s + r.totalCents, 0);
    const paid = grandTotal >= 0 ? received >= grandTotal : received <= grandTotal;
    // the stored totals add up to the grand total once the order is paid
    expect(stored).toBe(paid ? grandTotal : received);
  });

  it('keeps the caller fields', () => {
    const [row] = allocatePayments(1000, [{ receivedCents: 1500, canHaveChangeDue: true, type: 'cash' }]);
    expect(row).toEqual({ receivedCents: 1500, canHaveChangeDue: true, type: 'cash', totalCents: 1000, dueCents: 500 });
  });
});

describe('cash rounding, quick cash and refund split (issue 19)', () => {
  it('rounds the cash part to the store step, mirrored for refunds', async () => {
    const { cashRounding, quickCashMinor, splitRefund } = await import('./tender.ts');
    expect(cashRounding(1047, 5)).toBe(-2); // 10.47 -> 10.45
    expect(cashRounding(1048, 5)).toBe(2); // 10.48 -> 10.50
    expect(cashRounding(-1048, 5)).toBe(-2);
    expect(cashRounding(1047, 0)).toBe(0);
    expect(cashRounding(1234, 10)).toBe(-4); // JPY 1234 -> 1230
    expect(quickCashMinor(0)[0]).toBe(5000);
    expect(quickCashMinor(3)[0]).toBe(5_000_000);
    expect(splitRefund(1000, [3000, 1000])).toEqual([750, 250]);
    expect(splitRefund(1001, [3000, 1000])).toEqual([751, 250]);
    expect(splitRefund(5000, [3000, 1000])).toEqual([3000, 1000]);
    expect(splitRefund(1, [1, 1])).toEqual([1, 0]);
  });
});
