import { useCartTotals } from '@/features/cart/use-cart-totals';
import { useCallback, useEffect, useImperativeHandle, useMemo, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { canSettle, isPaymentTypeAvailable } from '@pos/domain/tender';
import { CREDIT_NOT_ALLOWED_MESSAGE, creditCheck, customerBalance } from '@pos/domain/ledger';
import { sumCents } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { MoneyInput } from '@/components/ui/money-input';
import { toast } from '@/components/ui/toast';
import { HttpError } from '@/lib/api-client';
import { useMoney, type Money } from '@/lib/money';
import { paymentTypeName } from '@/lib/payment-type-name';
import { useCan } from '@/lib/permissions';
import { errorText } from '@/lib/form-errors';
import type { Customer, Order, PaymentType } from '@/features/catalogue-cache/types';
import { emptyCart, setPaymentType } from '@/features/cart/cart-logic';
import { cartStore, updateCart, useCart } from '@/features/cart/cart-store';
import { cashRoundingMinor, computeCartTotals, type CartTotals } from '@/features/cart/cart-totals';
import type { CartDefaults } from '@/features/cart/cart-types';
import { saveOrder } from '@/features/payment/api/save-order';
import { buildSaleBody } from '@/features/payment/build-sale';
import { useSaveWithApproval } from '@/features/payment/components/approval-dialog';
import {
  applyNote, changeDueOf, parseReceived, refundTenders, remaining, tendered, validateAdd, wirePayments,
  type QuickCashMode, type TenderRow,
} from '@/features/payment/payment-logic';
import { QuickCash, TenderRows } from '@/features/payment/components/tender-controls';

export type PaymentMode = 'pos' | 'order' | 'payment';

export interface PaymentPanelHandle {
  /** ctrl+enter: focus the received field. */
  focusPayment(): void;
  /** ctrl+s: settle (same as Done). */
  settle(): void;
  /** ctrl+x: clear the cart (or cancel the order being edited), after asking when it has lines. */
  clear(): Promise<void>;
  /** alt+p+index: pick the payment type at index. */
  selectType(index: number): void;
  /** ctrl+shift+s (issue 29.3): the exact amount still due in cash, and done. */
  exactCash(): void;
  /** F8 (issue 29.3): hold (suspend) the sale, as the Suspend button. */
  hold(): void;
}

export interface PaymentPanelProps {
  paymentTypes: PaymentType[];
  mode: PaymentMode;
  storeId: number;
  terminalId: number;
  defaults: CartDefaults;
  /** Require a name in the customer-name box (when the box is shown). */
  requireCustomerName: boolean;
  displayShortcuts?: boolean;
  locale?: string;
  /** A completed sale: print and preview the receipt. */
  onCompleted?: (order: Order) => void;
  /** Any saved order (completed, pending, held). */
  onSaved?: (order: Order) => void;
  ref?: Ref<PaymentPanelHandle>;
}

let rowSeq = 0;

const isCash = (r: TenderRow) => r.type.canHaveChangeDue === true;

/**
 * What is due for these tenders: the total plus the store's cash rounding of the cash part (issue 19).
 * The panel works in the MINOR units of the store's currency (the totals' `minor` figures), so a
 * KWD total keeps its fils from the cart to the wire.
 */
function dueFor(totals: CartTotals, stepMinor: number, list: readonly TenderRow[], cashPending = false): { due: number; rounding: number } {
  const exact = sumCents(list.filter((r) => !isCash(r)).map((r) => r.receivedCents));
  const rounding = cashRoundingMinor(totals, stepMinor, exact, cashPending || list.some(isCash));
  return { due: totals.minor.grandTotalCents + rounding, rounding };
}

/** Credit needs a customer who may buy on credit, within the credit limit (@pos/domain/ledger). */
function creditProblem(customer: Customer | null, payments: ReturnType<typeof wirePayments>, t: TFunction<'sale'>, currency: Money): string | null {
  // Minor units of the store's currency (issue 19): a KWD credit keeps its fils.
  const newCredit = sumCents(payments.filter((p) => p.type.type === 'credit').map((p) => currency.minor(p.total)));
  if (newCredit === 0) return null;
  if (!customer) return t('messages.creditNeedsCustomer');
  const limitCents = customer.creditLimit === null || customer.creditLimit === undefined || customer.creditLimit === '' ? null : currency.minor(customer.creditLimit);
  const balanceCents = customerBalance({ outstandingCents: currency.minor(customer.outstanding ?? 0), openingBalanceCents: currency.minor(customer.openingBalance ?? 0) });
  const problem = creditCheck({ limitCents, balanceCents, newCreditCents: newCredit, allowCredit: customer.allowCreditSale });
  if (!problem) return null;
  if (problem === CREDIT_NOT_ALLOWED_MESSAGE) return t('messages.creditNotAllowed');
  return t('messages.creditLimit', { limit: currency.formatMinor(limitCents ?? 0), balance: currency.formatMinor(balanceCents + newCredit) });
}

export function PaymentPanel({
  paymentTypes, mode, storeId, terminalId, defaults, requireCustomerName, displayShortcuts = false, onCompleted, onSaved, ref,
}: PaymentPanelProps) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const { saveWithApproval, dialog: approvalDialog } = useSaveWithApproval(storeId);
  const added = useCart((s) => s.added);
  const adjustment = useCart((s) => s.adjustment);
  const customer = useCart((s) => s.customer);
  const selectedType = useCart((s) => s.paymentType);
  const notes = useCart((s) => s.notes);
  const uuid = useCart((s) => s.uuid);
  const totals = useCartTotals();
  // Minor units of the store's currency from here on (rows, field, due, change).
  const grand = totals.minor.grandTotalCents;
  const [rows, setRows] = useState<TenderRow[]>([]);
  const amountText = currency.inputTextMinor;
  const parse = currency.parseInputMinor;
  const [field, setField] = useState(() => amountText(grand));
  const [touched, setTouched] = useState(false);
  const [noteMode, setNoteMode] = useState<QuickCashMode>('add');
  const [noteCounts, setNoteCounts] = useState<Record<number, number>>({});
  const [saving, setSaving] = useState(false);
  const fieldRef = useRef<HTMLInputElement | null>(null);
  const takesPayment = mode !== 'order';

  // A new sale (new uuid) starts with no tender; a refund starts with its original tenders (issue 19).
  const refundPayments = useCart((s) => s.refundPayments);
  useEffect(() => {
    const total = computeCartTotals(cartStore.get(), currency).minor.grandTotalCents;
    setRows(refundPayments?.length && total < 0 ? refundTenders(total, refundPayments, paymentTypes, currency.digits) : []);
    setNoteCounts({});
  }, [uuid, refundPayments, paymentTypes, currency]);
  const isAdmin = useCan('refund.cashForNonCash');

  const type = useMemo(() => {
    const usable = (p: PaymentType) => isPaymentTypeAvailable({ type: p.type, hasCustomer: !!customer, lineCount: added.length });
    if (selectedType && paymentTypes.some((p) => p.id === selectedType.id) && usable(selectedType)) return selectedType;
    return paymentTypes.find((p) => p.id === defaults.paymentType?.id && usable(p)) ?? paymentTypes.find(usable) ?? null;
  }, [selectedType, paymentTypes, defaults.paymentType, customer, added.length]);

  const step = currency.cashRoundingStep;
  // What the field starts at: what is still to be paid, the cash part rounded when the selected type is cash.
  const fieldDue = dueFor(totals, step, rows, type?.canHaveChangeDue === true).due;
  // The field resets to what is still to be paid after every change of the total or the rows.
  useEffect(() => {
    setField(amountText(remaining(fieldDue, rows)));
    setTouched(false);
  }, [fieldDue, rows, amountText]);

  const fieldCents = parseReceived(field, parse);
  const all = tendered(rows, fieldCents, type);
  const { due, rounding } = dueFor(totals, step, all);
  const change = changeDueOf(due, all);
  const doneEnabled = takesPayment
    ? canSettle({ lineCount: added.length, saving, changeDueCents: change }) && fieldCents !== null
    : added.length > 0 && !saving;

  const selectType = useCallback((p: PaymentType) => updateCart((s) => setPaymentType(s, p)), []);

  /** A card (any type that cannot give change) paying more than is due: refused, naming what is due. */
  const overTender = useCallback(
    (p: PaymentType, before: readonly TenderRow[]) => t('messages.overTender', { name: paymentTypeName(p, t), due: currency.formatMinor(Math.max(remaining(grand, before), 0)) }),
    [t, currency, grand],
  );

  const addRow = useCallback(() => {
    if (!type) return;
    const amount = parseReceived(field, parse);
    if (amount === null) {
      toast.error(t('messages.number'));
      return;
    }
    const problem = validateAdd(amount, type, rows, grand);
    if (problem) {
      toast.error(problem === 'Amount cannot be zero' ? t('messages.amountZero') : overTender(type, rows));
      return;
    }
    setRows((r) => [...r, { key: `p${++rowSeq}`, type, receivedCents: amount }]);
  }, [type, field, rows, grand, t, parse, overTender]);

  const clear = useCallback(async () => {
    // Nothing lost by one tap (issue 23.3): a cart with lines asks first.
    if (cartStore.get().added.length && !(await confirm(t('payment.clearQ'), { title: t('payment.clear'), confirmLabel: t('payment.clear'), danger: true }))) return;
    cartStore.set(emptyCart(defaults));
    setRows([]);
    setNoteCounts({});
  }, [defaults, t]);

  const submit = useCallback(async (suspend: boolean, exactIn?: PaymentType) => {
    const cart = cartStore.get();
    if (!cart.added.length || saving) return;
    if (requireCustomerName && mode !== 'payment' && !cart.customerName.trim()) {
      toast.error(t('messages.addCustomerName'));
      return;
    }
    let payments: ReturnType<typeof wirePayments> = [];
    if (takesPayment && !suspend) {
      const tender = exactIn ?? type; // exact cash: what is still due, in cash, whatever the field says
      const pending = exactIn ? remaining(dueFor(totals, step, rows, true).due, rows) : parseReceived(field, parse);
      if (pending === null) {
        toast.error(t('messages.number'));
        return;
      }
      if (pending !== 0 && tender) {
        const problem = validateAdd(pending, tender, rows, grand);
        if (problem && problem !== 'Amount cannot be zero') {
          toast.error(overTender(tender, rows));
          return;
        }
      }
      const list = tendered(rows, pending, tender);
      const listDue = dueFor(totals, step, list).due;
      if (!canSettle({ lineCount: cart.added.length, saving, changeDueCents: changeDueOf(listDue, list) })) return;
      payments = wirePayments(listDue, list, currency.digits);
      const credit = creditProblem(cart.customer, payments, t, currency);
      if (credit) {
        toast.error(credit);
        return;
      }
    }
    const status = mode === 'order' ? 'Pending' : 'Completed';
    const body = buildSaleBody({ cart, totals: computeCartTotals(cart, currency), payments, storeId, terminalId, status, suspend });
    setSaving(true);
    try {
      const { order } = await saveWithApproval(body, (b) => saveOrder(b, cart.orderId, { customer: cart.customer }));
      cartStore.set(emptyCart(defaults));
      setRows([]);
      setNoteCounts({});
      if (suspend) toast.success(t('payment.held'));
      else if (status === 'Pending') toast.success(t('payment.orderPlaced', { number: order.orderId ?? order.id }));
      onSaved?.(order);
      // Only a completed order prints its receipt (spec 4).
      if (order.status === 'Completed' && !suspend) onCompleted?.(order);
    } catch (error) {
      if (error instanceof HttpError && error.status < 500) {
        // Refused: nothing was stored, so the next attempt is a new request with a new key.
        cartStore.set((s) => ({ ...s, uuid: emptyCart().uuid }));
      }
      if (error instanceof HttpError && error.status === 422 && error.violations.length) {
        toast.error(error.violations.map((v) => v.message).join(', '));
      } else {
        toast.error(errorText(error));
      }
    } finally {
      setSaving(false);
    }
  }, [saving, requireCustomerName, mode, takesPayment, field, type, rows, grand, totals, step, storeId, terminalId, defaults, onSaved, onCompleted, t, parse, currency, overTender, saveWithApproval]);

  useImperativeHandle(ref, () => ({
    focusPayment: () => fieldRef.current?.focus(),
    settle: () => {
      if (doneEnabled) void submit(false);
    },
    clear,
    exactCash: () => {
      const cash = paymentTypes.find((p) => p.canHaveChangeDue === true && isPaymentTypeAvailable({ type: p.type, hasCustomer: !!cartStore.get().customer, lineCount: added.length }));
      if (cash && takesPayment && added.length) void submit(false, cash);
    },
    hold: () => {
      if (added.length && !saving) void submit(true);
    },
    selectType: (index: number) => {
      const p = paymentTypes[index];
      if (p && isPaymentTypeAvailable({ type: p.type, hasCustomer: !!cartStore.get().customer, lineCount: cartStore.get().added.length })) selectType(p);
    },
  }), [doneEnabled, submit, clear, paymentTypes, selectType, added.length, takesPayment, saving]);

  const applyQuickNote = (minor: number) => {
    const next = applyNote(fieldCents ?? 0, touched, minor, noteMode);
    setField(amountText(next));
    setTouched(true);
    setNoteCounts((c) => ({ ...c, [minor]: (c[minor] ?? 0) + (noteMode === 'add' ? 1 : -1) }));
  };

  const money = currency.formatMinor;

  return (
    <section className="payment-panel" aria-label={t('payment.title')}>
      <div className="payment-total">
        <span>{t('payment.total')}</span>
        <strong data-testid="payment-total">{money(grand)}</strong>
      </div>

      {/* The store's cash rounding (issue 19): its own line, only when the store rounds and cash is tendered. */}
      {takesPayment && step > 0 && rounding !== 0 && (
        <>
          <div className="row payment-rounding" data-testid="payment-rounding">
            <span className="grow">{t('payment.cashRounding')}</span>
            <span className={rounding < 0 ? 'text-danger' : 'text-success'}>{money(rounding)}</span>
          </div>
          <div className="payment-total">
            <span>{t('payment.amountDue')}</span>
            <strong data-testid="payment-due">{money(due)}</strong>
          </div>
        </>
      )}
      {/* A cart saved by an older till with the old one-tap rounding: it can be taken off. */}
      {added.length > 0 && adjustment !== 0 && (
        <div className="row payment-rounding">
          <Button size="sm" variant="ghost" onClick={() => updateCart((s) => ({ ...s, adjustment: 0 }))}>
            {t('payment.removeRounding')} <span className={adjustment < 0 ? 'text-danger' : 'text-success'}>({currency.format(adjustment)})</span>
          </Button>
        </div>
      )}

      {/* The tenders and Done stay in view; what is between them scrolls in the panel when the screen is short (issue 23.2). */}
      {takesPayment && (
        <div className="payment-types" role="radiogroup" aria-label={t('payment.types')}>
          {paymentTypes.map((p, i) => {
            const available = isPaymentTypeAvailable({ type: p.type, hasCustomer: !!customer, lineCount: added.length });
            return (
              <Button
                key={p.id}
                size="sm"
                role="radio"
                aria-checked={type?.id === p.id}
                variant={type?.id === p.id ? 'primary' : 'secondary'}
                disabled={!available}
                onClick={() => selectType(p)}
                title={`alt+p+${i + 1}`}
              >
                {paymentTypeName(p, t)}
                {displayShortcuts && <kbd className="shortcut-hint">alt+p+{i + 1}</kbd>}
              </Button>
            );
          })}
        </div>
      )}
      <div className="payment-details">
        {takesPayment ? (
          <>
            <div className="payment-received row">
              <MoneyInput
                label={t('payment.received')}
                value={field}
                allowNegative
                ref={fieldRef}
                containerClassName="grow"
                onValueChange={(text) => {
                  setField(text);
                  setTouched(true);
                }}
                onKeyDown={(e: KeyboardEvent<HTMLInputElement>) => {
                  if (e.key === 'Enter') {
                    // Enter or ctrl+enter in the field adds a split payment row.
                    e.preventDefault();
                    addRow();
                  }
                }}
              />
              <Button size="sm" variant="secondary" aria-label={t('payment.addPayment')} onClick={addRow} disabled={!added.length}>+</Button>
            </div>

            <QuickCash
              disabled={!added.length} displayShortcuts={displayShortcuts}
              noteMode={noteMode}
              onNoteMode={setNoteMode}
              noteCounts={noteCounts}
              onExact={() => { setField(amountText(remaining(fieldDue, rows))); setTouched(true); }}
              onNote={applyQuickNote}
            />
            <TenderRows rows={rows} isAdmin={isAdmin} onRemove={(key) => setRows((list) => list.filter((x) => x.key !== key))} />

            <div
              className={change < 0 ? 'payment-change payment-receivable' : change > 0 ? 'payment-change payment-change--due' : 'payment-change'}
              data-testid="change-due"
              role="status"
              aria-live="polite"
            >
              <span>{change < 0 ? t('payment.receivable') : t('payment.change')}</span>
              <strong data-testid={change > 0 ? 'change-amount' : undefined}>{money(Math.abs(change))}</strong>
            </div>
          </>
        ) : (
          <p className="text-muted">{t('payment.orderOnly')}</p>
        )}

        <textarea
          className="input payment-notes"
          aria-label={t('payment.notes')}
          placeholder={t('payment.notes')}
          value={notes}
          rows={2}
          onChange={(e) => updateCart((s) => ({ ...s, notes: e.target.value }))}
        />
      </div>

      <div className="payment-actions">
        <Button variant="success" size="lg" block loading={saving} disabled={!doneEnabled} onClick={() => void submit(false)}>
          {t('payment.done')}
          {displayShortcuts && <kbd className="shortcut-hint">ctrl+s</kbd>}
        </Button>
        <div className="row">
          <Button variant="secondary" className="grow" disabled={!added.length || saving} onClick={() => void submit(true)}>{t('payment.hold')}{displayShortcuts && <kbd className="shortcut-hint">f8</kbd>}</Button>
          <Button variant="danger" className="grow" disabled={saving} onClick={() => void clear()}>
            {t('payment.clear')}
            {displayShortcuts && <kbd className="shortcut-hint">ctrl+x</kbd>}
          </Button>
        </div>
      </div>
      {approvalDialog}
    </section>
  );
}
