/**
 * A sale's payments (issue 19): the sign rule, exact tenders, cash rounding of the cash part,
 * tendered and change per cash payment, the covered total, refunds to the original tenders.
 * Amounts are minor units of the store's currency. Pure: the customer's credit headroom is checked
 * by the server under a lock on the customer when it writes the sale (`creditCents` says how much).
 */
import { forbidden, type Violation } from './errors.ts';
import { minorToString, parseMinor, parseWireAmount } from './money.ts';
import { allocatePayments, cashRounding, splitRefund } from './tender.ts';
import { SALE_MESSAGES, type SalePaymentInput } from './schemas/sale.ts';
import { fail, notFoundRef, safe, type Cents, type FactPaymentType } from './sale-facts.ts';

export interface PaymentRow { typeId: number; totalCents: Cents; receivedCents: Cents; dueCents: Cents }

/** What the original tenders of a sale can still give back, per payment type (magnitudes). */
export interface RefundableTender { typeId: number; availableCents: Cents }

export interface SettleInput {
  payments: SalePaymentInput[];
  types: FactPaymentType[];
  /** total + adjustment (before cash rounding), signed: negative for a return. */
  grandCents: Cents;
  settling: boolean;
  isReturn: boolean;
  customerId: number | null;
  digits: number;
  /** Store cash rounding step in minor units (0 = none); not applied with an old-client adjustment. */
  roundingStep: number;
  /** A return: what the original's tenders can still give back (see refundableTenders). */
  refundable: RefundableTender[] | null;
  /** The caller holds 'refund.cashForNonCash'. */
  mayRefundCashForNonCash: boolean;
}

export interface Settled {
  payments: PaymentRow[];
  roundingCents: Cents;
  /** What the sale puts on the customer's account (credit tenders of a settled sale), for the server's locked credit check. */
  creditCents: Cents;
}

const isCash = (t: FactPaymentType) => Boolean(t.canHaveChangeDue);

/** A return with no payments sent: its refund split over the original tenders in proportion. */
function defaultRefund(s: SettleInput): SalePaymentInput[] {
  const tenders = s.refundable ?? [];
  const shares = splitRefund(Math.abs(s.grandCents), tenders.map((x) => x.availableCents));
  // Whatever the tenders cannot take (nothing was paid: a zero sale) goes back in the first cash-like type.
  return tenders.map((x, i) => ({ typeId: x.typeId, received: minorToString(-shares[i], s.digits), typed: true }))
    .filter((p) => parseMinor(p.received, s.digits) !== 0);
}

export function settlePayments(s: SettleInput): Settled {
  const v: Violation[] = [];
  const typeBy = new Map(s.types.map((x) => [x.id, x]));
  const sent = s.isReturn && s.settling && s.payments.length === 0 ? defaultRefund(s) : s.payments;
  const defaulted = sent !== s.payments;
  const tendered: { index: number; receivedCents: Cents; type: FactPaymentType }[] = [];
  sent.forEach((p, i) => {
    const type = typeBy.get(p.typeId);
    if (!type) { v.push({ propertyPath: `payments[${i}].type`, message: notFoundRef('Payment', p.typeId) }); return; }
    const receivedCents = safe(() => (p.typed ? parseWireAmount(p.received, s.digits) : parseMinor(p.received, s.digits)), v, `payments[${i}].received`);
    if (receivedCents === undefined) return;
    // The sign rule: a sale is paid with positive amounts; a refund's payments carry its (negative) sign.
    if (!s.isReturn && receivedCents < 0) { v.push({ propertyPath: `payments[${i}].received`, message: 'A payment on a sale cannot be negative.' }); return; }
    if (s.isReturn && receivedCents > 0) { v.push({ propertyPath: `payments[${i}].received`, message: 'The payments of a refund are negative (money given back).' }); return; }
    tendered.push({ index: i, receivedCents, type });
  });
  fail(v);
  const sign = s.grandCents < 0 || s.isReturn ? -1 : 1;
  const mag = (x: number) => sign * x;
  // A zero payment is meaningless; for a zero total (everything discounted) the till sends one anyway.
  const kept = tendered.filter((p) => p.receivedCents !== 0 || (s.settling && s.grandCents !== 0));
  let roundingCents = 0;
  if (s.settling) {
    if (kept.length === 0 && s.grandCents !== 0) v.push({ propertyPath: 'payments', message: SALE_MESSAGES.noPayments });
    for (const p of kept.filter((x) => x.receivedCents === 0)) v.push({ propertyPath: `payments[${p.index}].received`, message: 'Amount cannot be zero' });
    // Exact tenders (card, credit, ...) never exceed what is due: no change is given from them.
    let exact = 0;
    for (const p of kept.filter((x) => !isCash(x.type))) {
      exact += mag(p.receivedCents);
      if (exact > mag(s.grandCents)) v.push({ propertyPath: `payments[${p.index}].received`, message: `Please add exact amount for ${p.type.name}` });
    }
    fail(v);
    // Cash rounding applies to the cash part only, and only when cash is tendered.
    const cash = kept.filter((x) => isCash(x.type));
    if (cash.length && s.roundingStep > 0) roundingCents = cashRounding(s.grandCents - sign * exact, s.roundingStep);
    if (defaulted && roundingCents !== 0) cash[cash.length - 1].receivedCents += roundingCents;
    const received = kept.reduce((x, p) => x + mag(p.receivedCents), 0);
    const due = mag(s.grandCents + roundingCents);
    if (kept.length && received < due) {
      v.push({ propertyPath: 'payments', message: `The payments do not cover the total: ${minorToString(due - received, s.digits)} still to ${sign > 0 ? 'receive' : 'pay back'}` });
    }
    kept.forEach((p) => {
      if (p.type.type === 'credit' && s.customerId == null) v.push({ propertyPath: `payments[${p.index}].type`, message: 'A customer is required for credit payments' });
    });
  }
  fail(v);
  const allocated = allocatePayments(s.grandCents + roundingCents, kept.map((p) => ({ receivedCents: p.receivedCents, canHaveChangeDue: p.type.canHaveChangeDue, type: p.type, index: p.index })));

  if (s.settling && s.isReturn && s.refundable) {
    // Refunds go back to the original tenders: never more to a tender than it has left, and cash
    // beyond the original cash (a card payment refunded in cash) only with the permission.
    const left = new Map(s.refundable.map((x) => [x.typeId, x.availableCents]));
    const cashTypes = new Set(s.types.filter(isCash).map((t) => t.id));
    const cashLeft = s.refundable.filter((x) => cashTypes.has(x.typeId)).reduce((a, x) => a + x.availableCents, 0) + Math.abs(roundingCents);
    let cashOut = 0;
    for (const p of allocated) {
      const out = -p.totalCents;
      if (isCash(p.type)) { cashOut += out; continue; }
      const has = left.get(p.type.id) ?? 0;
      if (out > has) v.push({ propertyPath: `payments[${p.index}].received`, message: `Only ${minorToString(has, s.digits)} can be refunded to ${p.type.name}` });
      left.set(p.type.id, has - out);
    }
    fail(v);
    if (cashOut > cashLeft && !s.mayRefundCashForNonCash) throw forbidden("Refunding a card payment in cash needs the 'refund.cashForNonCash' permission.");
  }

  const creditCents = s.settling && s.customerId != null
    ? allocated.filter((p) => p.type.type === 'credit').reduce((x, p) => x + p.totalCents, 0) : 0;
  return {
    payments: allocated.map((p) => ({ typeId: p.type.id, totalCents: p.totalCents, receivedCents: p.receivedCents, dueCents: p.dueCents })),
    roundingCents,
    creditCents,
  };
}
