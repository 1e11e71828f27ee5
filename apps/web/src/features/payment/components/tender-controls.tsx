import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useMoney } from '@/lib/money';
import { paymentTypeName } from '@/lib/payment-type-name';
import type { QuickCashMode, TenderRow } from '@/features/payment/payment-logic';
import { cashNotes } from '@/features/payment/quick-cash';

/**
 * Parts of the payment panel (payment-panel.tsx): the quick-cash buttons (exact amount, add or
 * subtract mode, one button a banknote of the store's currency with how many were tapped) and the
 * list of split tender rows, each with its remove button.
 */
export function QuickCash({ disabled, displayShortcuts = false, noteMode, onNoteMode, noteCounts, onExact, onNote }: {
  disabled: boolean;
  /** Show ctrl+shift+s (exact cash and done) on the Exact button. */
  displayShortcuts?: boolean;
  noteMode: QuickCashMode;
  onNoteMode: (mode: QuickCashMode) => void;
  /** Taps per note, by its value in minor units. */
  noteCounts: Record<number, number>;
  onExact: () => void;
  onNote: (minor: number) => void;
}) {
  const { t } = useTranslation('sale');
  const currency = useMoney();
  return (
    <div className="quick-cash">
      <div className="row">
        <Button size="sm" variant="success" disabled={disabled} onClick={onExact} title={t('payment.exactShortcut')} aria-keyshortcuts="Control+Shift+S">
          {t('payment.exact')}
          {displayShortcuts && <kbd className="shortcut-hint">ctrl+shift+s</kbd>}
        </Button>
        <div className="row" role="radiogroup" aria-label={t('payment.noteMode')}>
          {(['add', 'subtract'] as const).map((m) => (
            <Button key={m} size="sm" role="radio" aria-checked={noteMode === m} variant={noteMode === m ? 'primary' : 'ghost'} onClick={() => onNoteMode(m)}>
              {t(`payment.${m}`)}
            </Button>
          ))}
        </div>
      </div>
      <div className="quick-cash-notes">
        {cashNotes(currency.currency).map((minor) => (
          <Button key={minor} size="sm" variant="secondary" disabled={disabled} onClick={() => onNote(minor)}>
            {currency.formatMinor(minor)}
            {noteCounts[minor] ? <>{' '}<span className="badge">×{noteCounts[minor]}</span></> : null}
          </Button>
        ))}
      </div>
    </div>
  );
}

/** The split tender rows; a refund's card row stays unless the user may refund a card in cash. */
export function TenderRows({ rows, isAdmin, onRemove }: { rows: readonly TenderRow[]; isAdmin: boolean; onRemove: (key: string) => void }) {
  const { t } = useTranslation('sale');
  const currency = useMoney();
  if (rows.length === 0) return null;
  return (
    <ul className="payment-rows" aria-label={t('payment.payments')}>
      {rows.map((r) => (
        <li key={r.key} className="row">
          <span className="grow">{paymentTypeName(r.type, t)}</span>
          <span>{currency.formatMinor(r.receivedCents)}</span>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-label={t('payment.removePayment', { name: paymentTypeName(r.type, t) })}
            // Refunding a card in cash is an administrator's choice (issue 19): the card row of a refund stays.
            disabled={r.key.startsWith('refund-') && !r.type.canHaveChangeDue && !isAdmin}
            title={r.key.startsWith('refund-') && !r.type.canHaveChangeDue && !isAdmin ? t('refund.cardToCashAdmin') : undefined}
            onClick={() => onRemove(r.key)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
