/**
 * Customer and supplier balances, purchase totals and ledgers (reference client 4.10,
 * spec sections 3, 4 and 9). Amounts in integer cents, quantities in milli.
 */
import { mulPriceQty, sumCents, toDecimalString } from './money.ts';

/** Displayed customer balance = outstanding + opening balance. */
export function customerBalance(input: { outstandingCents: number; openingBalanceCents: number }): number {
  return sumCents([input.outstandingCents, input.openingBalanceCents]);
}

export interface CustomerFigures {
  /** Total credit sales. */
  sale: number;
  /** Total payments received. */
  paid: number;
  /** sale - paid (the opening balance is added only for display, see customerBalance). */
  outstanding: number;
}

export function customerFigures(input: { creditSalesCents: readonly number[]; paymentsCents: readonly number[] }): CustomerFigures {
  const sale = sumCents(input.creditSalesCents);
  const paid = sumCents(input.paymentsCents);
  return { sale, paid, outstanding: sale - paid };
}

/** Supplier outstanding = credit purchase totals - payments + opening balance. */
export function supplierOutstanding(input: {
  creditPurchaseTotals: readonly number[];
  payments: readonly number[];
  openingBalance: number;
}): number {
  return sumCents([sumCents(input.creditPurchaseTotals), -sumCents(input.payments), input.openingBalance]);
}

export interface PurchaseLineInput {
  qtyMilli: number;
  costCents: number;
  variants?: ReadonlyArray<{ qtyMilli: number; costCents: number }> | null;
}

/** Cost of one purchase line: qty x cost, rounded once. */
export function purchaseLineTotal(line: { qtyMilli: number; costCents: number }): number {
  return mulPriceQty(line.costCents, line.qtyMilli);
}

/**
 * Purchase total = sum of qty x cost over every item AND every variant of every item.
 * (The reference counted only the last item's variants.)
 */
export function purchaseTotal(items: readonly PurchaseLineInput[]): number {
  const amounts: number[] = [];
  for (const item of items) {
    amounts.push(purchaseLineTotal(item));
    for (const v of item.variants ?? []) amounts.push(purchaseLineTotal(v));
  }
  return sumCents(amounts);
}

/** Total quantity (milli) over every item and every variant. */
export function purchaseQuantity(items: readonly PurchaseLineInput[]): number {
  const qty: number[] = [];
  for (const item of items) {
    qty.push(item.qtyMilli);
    for (const v of item.variants ?? []) qty.push(v.qtyMilli);
  }
  return sumCents(qty);
}

export interface LedgerEntryLike {
  createdAt: string | Date;
}

const timeOf = (e: LedgerEntryLike): number => {
  const t = e.createdAt instanceof Date ? e.createdAt.getTime() : Date.parse(e.createdAt);
  return Number.isNaN(t) ? -Infinity : t;
};

/**
 * Sorts ledger entries (payments, orders, purchases...) by createdAt, newest first. Ties
 * keep their input order; unparseable dates go last. Returns a new array. To merge several
 * lists pass them concatenated: mergeLedger([...payments, ...orders]).
 */
export function mergeLedger<T extends LedgerEntryLike>(entries: readonly T[]): T[] {
  return entries
    .map((entry, index) => ({ entry, index, t: timeOf(entry) }))
    .sort((a, b) => (a.t === b.t ? a.index - b.index : b.t > a.t ? 1 : -1))
    .map((x) => x.entry);
}

export interface CreditCheckInput {
  /** null: no limit. */
  limitCents: number | null;
  /** Current balance owed (outstanding + opening balance). */
  balanceCents: number;
  /** New credit this sale adds. */
  newCreditCents: number;
  /** When explicitly false the customer may not buy on credit at all. */
  allowCredit?: boolean | null;
}

export const CREDIT_NOT_ALLOWED_MESSAGE = 'Credit sales are not allowed for this customer';

/**
 * null when the credit may be given, otherwise a message. A sale that does not add credit
 * (zero or a refund) is always allowed; otherwise balance + new credit must not exceed the limit.
 */
export function creditCheck(input: CreditCheckInput): string | null {
  if (input.newCreditCents <= 0) return null;
  if (input.allowCredit === false) return CREDIT_NOT_ALLOWED_MESSAGE;
  if (input.limitCents === null) return null;
  const after = input.balanceCents + input.newCreditCents;
  if (after <= input.limitCents) return null;
  return `Credit limit of ${toDecimalString(input.limitCents)} exceeded: balance would be ${toDecimalString(after)}`;
}
