/**
 * Tendering at the till: the received field, split payment rows, quick cash, change due and
 * the payment rows sent with the sale. The maths is @pos/domain/tender's, the server's too.
 *
 * The received field always counts as a pending payment of the selected type (so a cashier who
 * takes one exact payment just presses Done); split rows are added with ctrl+enter or "+", and
 * after each add or remove the field resets to what is still to be paid.
 */
import { allocatePayments, changeDue, validatePaymentAdd } from '@pos/domain/tender';
import { divRoundHalfAway, minorToDecimal, sumCents, toDecimalString, tryParseMoney, tryParseScaled } from '@pos/domain/money';
import type { OrderPayment, PaymentType } from '@/features/catalogue-cache/types';
import type { WirePayment } from '@/lib/sale-body';

export interface TenderRow {
  key: string;
  type: PaymentType;
  receivedCents: number;
}

export type QuickCashMode = 'add' | 'subtract';


/** Parses the received field; null when it is not a valid amount. `parse` reads the store's currency (lib/money). */
export function parseReceived(text: string, parse: (text: string) => number | null = tryParseMoney): number | null {
  if (text.trim() === '') return 0;
  return parse(text);
}

export const receivedSum = (rows: readonly TenderRow[]): number => sumCents(rows.map((r) => r.receivedCents));

/** What is still to be paid after the rows: the field's default value. */
export function remaining(grandTotalCents: number, rows: readonly TenderRow[]): number {
  return grandTotalCents - receivedSum(rows);
}

/** The field's text for an amount (two decimals, as the reference showed it). */
export const amountText = (cents: number): string => toDecimalString(cents);

/** Everything tendered: the rows plus the field as a pending payment of the selected type. */
export function tendered(rows: readonly TenderRow[], fieldCents: number | null, selected: PaymentType | null): TenderRow[] {
  if (!selected || fieldCents === null || fieldCents === 0) return [...rows];
  return [...rows, { key: 'field', type: selected, receivedCents: fieldCents }];
}

/** Positive: change to hand back; negative: still receivable. */
export function changeDueOf(grandTotalCents: number, all: readonly TenderRow[]): number {
  return changeDue(grandTotalCents, all);
}

/** Validates adding the field's amount as a row (null = fine, else the message). */
export function validateAdd(amountCents: number, type: PaymentType, rows: readonly TenderRow[], grandTotalCents: number): string | null {
  return validatePaymentAdd({
    amountCents,
    paymentType: { name: type.name, canHaveChangeDue: type.canHaveChangeDue },
    alreadyReceivedCents: receivedSum(rows),
    totalCents: grandTotalCents,
  });
}

/** A quick-cash note applied to the field: the first note replaces the default, later ones add or subtract. */
export function applyNote(fieldCents: number, touched: boolean, noteCents: number, mode: QuickCashMode): number {
  const base = touched ? fieldCents : 0;
  return mode === 'add' ? base + noteCents : base - noteCents;
}

/**
 * The payment rows stored with the sale: received, the part of the total each settles, and its change.
 * `digits`: the amounts are minor units of a currency with these digits (the till passes its
 * currency's, so a KWD row keeps its fils); 2 = hundredths.
 */
export function wirePayments(grandTotalCents: number, all: readonly TenderRow[], digits = 2): WirePayment[] {
  const toDecimal = (amount: number) => minorToDecimal(amount, digits);
  const rows = allocatePayments(
    grandTotalCents,
    all.map((r) => ({ ...r, canHaveChangeDue: r.type.canHaveChangeDue ?? false })),
  );
  return rows.map((r) => ({
    received: toDecimal(r.receivedCents),
    total: toDecimal(r.totalCents),
    due: toDecimal(r.dueCents),
    ...(r.type.canHaveChangeDue ? { tendered: toDecimal(r.receivedCents), change: toDecimal(r.dueCents) } : {}),
    type: { id: r.type.id, '@id': r.type['@id'], name: r.type.name, type: r.type.type },
  }));
}

/**
 * A refund goes back to the original tenders (issue 19): each original payment gets the refund in
 * proportion to the part of the sale it settled (`total`, change excluded), the last one takes the
 * rounding remainder, so the rows add up to the refund exactly (card to card, cash to cash). The
 * type is the till's own payment type with that id, else the one stored on the payment. Amounts
 * in minor units of a currency with `digits` digits (2 = hundredths).
 */
export function refundTenders(refundCents: number, original: readonly OrderPayment[], types: readonly PaymentType[], digits = 2): TenderRow[] {
  const paid = original
    .map((p) => ({ p, settled: Math.abs(tryParseScaled(p.total ?? 0, digits) ?? 0) }))
    .filter((x) => x.settled > 0 && x.p.type);
  const whole = sumCents(paid.map((x) => x.settled));
  if (!whole || !refundCents) return [];
  let left = refundCents;
  return paid.map((x, i) => {
    const share = i === paid.length - 1 ? left : Number(divRoundHalfAway(BigInt(refundCents) * BigInt(x.settled), BigInt(whole)));
    left -= share;
    const stored = x.p.type!;
    const type = types.find((t) => t.id === stored.id) ?? stored;
    return { key: `refund-${i}`, type, receivedCents: share };
  }).filter((r) => r.receivedCents !== 0);
}
