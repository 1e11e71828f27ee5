/**
 * Tender: rounding adjustment, change due, payment-add rules and how payments are stored.
 * All amounts are integer cents. "Grand total" means total + adjustment (what is paid).
 * Negative totals (refunds) mirror positive ones exactly.
 */
import { sumCents } from './money.ts';

/** Quick-cash notes in currency units (spec section 9). */
export const QUICK_CASH_DENOMINATIONS = [5000, 1000, 500, 100, 50, 20, 10, 5, 2, 1] as const;
/** The same notes in cents, for adding as payments. */
export const QUICK_CASH_DENOMINATIONS_CENTS: readonly number[] = QUICK_CASH_DENOMINATIONS.map((u) => u * 100);

/** Rounding step: 10 currency units, in cents. */
export const ROUNDING_STEP_CENTS = 1000;

const negate = (x: number): number => (x === 0 ? 0 : -x);

/**
 * The adjustment that moves a total to the nearest multiple of 10 currency units:
 * r = |total| mod 10 units; r < 5 units -> -r, else 10 units - r (so 5 rounds up); 0 when
 * already a multiple. Computed on the magnitude so a refund total gets the mirrored
 * adjustment: 123.40 -> -3.40, 125 -> +5, 130 -> 0, -125 -> -5.
 */
export function roundingAdjustment(totalCents: number, step: number = ROUNDING_STEP_CENTS): number {
  if (!Number.isSafeInteger(step) || step <= 0) return 0;
  const r = Math.abs(totalCents) % step;
  if (r === 0) return 0;
  const adjustment = r * 2 < step ? -r : step - r;
  return totalCents < 0 ? negate(adjustment) : adjustment;
}

/**
 * Cash rounding of a store (issue 19, store setting `cashRoundingStep` in minor units; 0 = none):
 * the signed amount that moves the CASH part of a payment to the nearest multiple of the step
 * (half away from zero, mirrored for a refund). Card and other exact tenders are never rounded,
 * so the cash part is the amount due minus what exact tenders settle.
 */
export function cashRounding(cashPartMinor: number, step: number): number {
  if (!step || cashPartMinor === 0) return 0;
  return roundingAdjustment(cashPartMinor, step);
}

/** Quick-cash notes for a currency with `digits` minor digits, in minor units (the same face values as major units). */
export function quickCashMinor(digits: number): number[] {
  return QUICK_CASH_DENOMINATIONS.map((u) => u * 10 ** digits);
}

/**
 * A refund given back to the original tenders (issue 19): `refundMinor` (a magnitude) split over
 * what each original tender still has to give back (magnitudes), in proportion, the shares adding
 * up exactly (largest remainder), never more than a tender has left.
 */
export function splitRefund(refundMinor: number, available: readonly number[]): number[] {
  const total = available.reduce((s, a) => s + a, 0);
  if (total <= 0 || refundMinor <= 0) return available.map(() => 0);
  const amount = Math.min(refundMinor, total);
  const base = available.map((a) => Math.floor((amount * a) / total));
  let left = amount - base.reduce((s, x) => s + x, 0);
  const order = available.map((a, i) => ({ i, rem: (amount * a) % total })).sort((x, y) => y.rem - x.rem || x.i - y.i);
  for (const { i } of order) {
    if (left === 0) break;
    if (base[i] < available[i]) { base[i] += 1; left -= 1; }
  }
  return base;
}

/**
 * Received minus grand total. Positive: change due to the customer. Negative: still
 * receivable. (The reference flipped the adjustment's sign with split payments; here the
 * caller passes the grand total including the adjustment.)
 */
export function changeDue(grandTotalCents: number, payments: ReadonlyArray<{ receivedCents: number }>): number {
  return sumCents(payments.map((p) => p.receivedCents)) - grandTotalCents;
}

export interface PaymentAddInput {
  amountCents: number;
  paymentType: { name: string; canHaveChangeDue?: boolean | null };
  /** Sum already received from the payments added before this one. */
  alreadyReceivedCents: number;
  /** Grand total (including the adjustment). */
  totalCents: number;
}

/**
 * Checks a payment about to be added. Returns null when it may be added, otherwise the
 * message to show: 'Amount cannot be zero', or 'Please add exact amount for {name}' when a
 * type that cannot give change would take the received sum past the total (below it for a
 * refund, where amounts are negative).
 */
export function validatePaymentAdd(input: PaymentAddInput): string | null {
  const { amountCents, paymentType, alreadyReceivedCents, totalCents } = input;
  if (amountCents === 0) return 'Amount cannot be zero';
  if (!paymentType.canHaveChangeDue) {
    const received = alreadyReceivedCents + amountCents;
    const over = totalCents >= 0 ? received > totalCents : received < totalCents;
    if (over) return `Please add exact amount for ${paymentType.name}`;
  }
  return null;
}

export interface CanSettleInput {
  lineCount: number;
  saving: boolean;
  changeDueCents: number;
}

/** Done is enabled only with a non-empty cart, no save in flight and nothing receivable. */
export function canSettle(input: CanSettleInput): boolean {
  return input.lineCount > 0 && !input.saving && input.changeDueCents >= 0;
}

export interface PaymentTypeAvailabilityInput {
  /** Payment type kind: 'cash' | 'credit card' | 'credit'. */
  type: string;
  hasCustomer: boolean;
  lineCount: number;
}

/**
 * Spec 5: the credit payment type is disabled when no customer is attached or the cart is
 * empty. Other types are always available. (Credit limits are checked by ledger.creditCheck.)
 */
export function isPaymentTypeAvailable(input: PaymentTypeAvailabilityInput): boolean {
  if (input.type !== 'credit') return true;
  return input.hasCustomer && input.lineCount > 0;
}

export interface TenderedPayment {
  receivedCents: number;
  /** True for cash-like types that may hand back change. */
  canHaveChangeDue?: boolean | null;
}

export interface AllocatedPayment {
  /** Amount handed over by the customer for this row. */
  receivedCents: number;
  /** Portion of the grand total this row settles (stored `total`). */
  totalCents: number;
  /** Change handed back from this row: received - total (stored `due`). */
  dueCents: number;
}

/**
 * Turns the tendered payments into stored rows {total, received, due}, in input order.
 *
 * Choice: `total` is the part of the grand total each row settles, so the stored `total`s
 * add up to the grand total whenever the order is fully paid (to the sum received when it
 * is under-paid, which canSettle refuses anyway). Any excess is change: it is taken from
 * the LAST change-capable (cash-like) row first, then earlier cash-like rows, and only as a
 * fallback (unvalidated input) from other rows, last first. Each row's `due` is the change
 * handed back from it, so sum(due) = max(0, changeDue). The reference instead stored
 * total = grand total on every split row, which double counts.
 * For a refund (negative grand total) everything is mirrored.
 */
export function allocatePayments<T extends TenderedPayment>(
  grandTotalCents: number,
  payments: readonly T[],
): Array<T & AllocatedPayment> {
  const sign = grandTotalCents < 0 ? -1 : 1;
  // Work on magnitudes so a refund is handled by the same code as a sale.
  const rows = payments.map((p) => ({ p, received: sign * p.receivedCents, take: 0 }));
  let excess = sumCents(rows.map((r) => r.received)) - sign * grandTotalCents;
  const takeOrder = [...rows.filter((r) => r.p.canHaveChangeDue).reverse(), ...rows.filter((r) => !r.p.canHaveChangeDue).reverse()];
  for (const row of takeOrder) {
    if (excess <= 0) break;
    row.take = Math.min(Math.max(row.received, 0), excess);
    excess -= row.take;
  }
  const signed = (x: number): number => (x === 0 ? 0 : sign * x);
  return rows.map(({ p, received, take }) => ({
    ...p,
    receivedCents: p.receivedCents,
    totalCents: signed(received - take),
    dueCents: signed(take),
  }));
}
