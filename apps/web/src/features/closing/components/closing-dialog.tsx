import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { isOpeningStale } from '@pos/domain/closing';
import { minorToDecimal, minorToString } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { confirm } from '@/components/ui/confirm-dialog';
import { Dialog } from '@/components/ui/dialog';
import { NumberInput } from '@/components/ui/number-input';
import { MoneyInput, moneyText } from '@/components/ui/money-input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { useSession } from '@/lib/session';
import { errorText } from '@/lib/form-errors';
import { isHttpError } from '@/lib/api-client';
import { wireDate } from '@/features/list-table/lib/dates';
import { usePreferences } from '@/features/sale/preferences-store';
import { printReceipt } from '@/features/receipt/print-receipt';
import { paymentKindName } from '@/lib/payment-type-name';
import { sendClosingReport } from '../api/closing-report.ts';
import { useClosingFigures, useOpenedClosing, useSaveClosing, type Closing, type ClosingBody } from '../api/closing.ts';
import { closingFigures, countsOf, denominationsOf } from '../lib/closing-figures.ts';
import { OverShort, overShortText } from './over-short.tsx';
import { PastClosings } from './past-closings.tsx';
import '@/features/list-table/backoffice.css';

export interface ClosingDialogProps {
  open: boolean;
  onClose: () => void;
}

export type ClosingState = 'start' | 'stale' | 'normal';

/** Spec 4: no opening balance -> "Start day"; opened more than 24 h ago -> "Close previous day first". */
export function closingState(closing: Pick<Closing, 'openingBalance' | 'createdAt' | 'dateFrom'>, now = new Date()): ClosingState {
  if (closing.openingBalance === null || closing.openingBalance === undefined) return 'start';
  const opened = wireDate(closing.createdAt) ?? wireDate(closing.dateFrom);
  if (opened && isOpeningStale(new Date(opened), now)) return 'stale';
  return 'normal';
}

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function ClosingForm({ closing, state, onDone, onPast }: { closing: Closing; state: ClosingState; onDone: () => void; onPast: () => void }) {
  const currency = useMoney();
  const { t } = useTranslation('backoffice');
  const { store, terminal, user } = useSession();
  const started = state !== 'start';
  const dateFrom = wireDate(closing.dateFrom) ?? wireDate(closing.createdAt);
  const { expenses, orders } = useClosingFigures(store?.id, terminal?.id, dateFrom, started);
  const save = useSaveClosing();
  const printer = usePreferences((p) => p.receiptPrinter);
  const figuresRef = useRef<HTMLTableElement>(null);
  const [printing, setPrinting] = useState(false);
  const [opening, setOpening] = useState(str(closing.openingBalance ?? ''));
  const [added, setAdded] = useState(str(closing.cashAdded ?? ''));
  const [withdrawn, setWithdrawn] = useState(str(closing.cashWithdrawn ?? ''));
  const [counts, setCounts] = useState<Record<string, string>>(() =>
    Object.fromEntries(Object.entries(closing.denominations ?? {}).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)])),
  );

  // The drawer is counted in the store's own notes and coins (issue 19: KWD 0.250, JPY ¥10,000).
  const notes = useMemo(() => denominationsOf(currency.currency, currency.digits, closing.denominations ?? {}), [currency.currency, currency.digits, closing.denominations]);
  const figures = useMemo(
    () =>
      closingFigures({
        digits: currency.digits,
        openingBalance: moneyText(opening),
        cashAdded: moneyText(added),
        cashWithdrawn: moneyText(withdrawn),
        expenses: (expenses.data ?? []).map((x) => x.amount),
        payments: orders.data?.payments ?? {},
        orders: orders.data?.list ?? [],
        counts,
      }),
    [opening, added, withdrawn, expenses.data, orders.data, counts, currency.digits],
  );
  // Every figure in minor units of the store's currency (issue 19).
  const cur = (minor: number) => currency.formatMinor(minor);
  const digits = currency.digits;

  /**
   * The day's report on this till's network printer (issue 26): X while the day is open, Z once it
   * is closed (the server tells which from the day). Without a network printer, the report is the
   * figures shown here through the browser's print dialog (X on request, Z when the day closes).
   */
  async function printReport(report: 'x' | 'z') {
    const name = t(report === 'x' ? 'closing.xReport' : 'closing.zReport');
    if (!printer) {
      const table = figuresRef.current;
      if (table) {
        const node = document.createElement('div');
        node.className = 'receipt';
        const title = document.createElement('h1');
        title.textContent = name;
        node.append(title, table.cloneNode(true));
        printReceipt(node);
      }
      return;
    }
    setPrinting(true);
    await sendClosingReport(closing.id, printer, name, t);
    setPrinting(false);
  }

  async function submit(kind: 'start' | 'update' | 'close') {
    const body: ClosingBody = {
      id: closing.id,
      openingBalance: moneyText(opening) || '0',
      cashAdded: moneyText(added) || '0',
      cashWithdrawn: moneyText(withdrawn) || '0',
      expenses: minorToDecimal(figures.expenses, digits),
      data: Object.fromEntries(Object.entries(figures.sales).map(([k, v]) => [k, minorToString(v, digits)])),
      terminal: terminal?.id ?? 0,
      denominations: countsOf(counts),
    };
    if (started) {
      body.closedBy = user?.id;
      body.closingBalance = minorToString(figures.cashInHand, digits);
    }
    // Closing the day cannot be undone: the cashier sees expected, counted and the difference first.
    if (kind === 'close') {
      const ok = await confirm(
        t('closing.confirmClose', {
          expected: cur(figures.cashInHand), counted: cur(figures.counted),
          difference: overShortText(figures.counted - figures.cashInHand, cur, t),
        }),
        { title: t('closing.closeDay'), confirmLabel: t('closing.closeDay'), danger: true },
      );
      if (!ok) return;
      body.closedAt = { datetime: new Date().toISOString() };
    }
    else body.updateOnly = true;
    try {
      await save.mutateAsync(body);
      toast.success(t(kind === 'start' ? 'closing.started' : kind === 'update' ? 'closing.updated' : 'closing.closed'));
      // Closing the day prints its Z report: on the till's network printer, else through the browser.
      if (kind === 'close') await printReport('z');
      if (kind !== 'start') onDone();
    } catch (error) {
      // Spec 8: day closing shows errorMessage as a toast.
      toast.error(isHttpError(error) && error.errorMessage ? error.errorMessage : errorText(error));
    }
  }

  const loadingFigures = started && (expenses.isPending || orders.isPending);

  // Enter in any field saves: 'Start day' before the day starts, 'Update' after (never 'Close day').
  return (
    <form className="closing" noValidate onSubmit={(e) => { e.preventDefault(); void submit(started ? 'update' : 'start'); }}>
      <p className="muted">
        {dateFrom && t('closing.openedAt', { date: formatDateTime(dateFrom, currency.timeZone) })}
        {closing.openedBy?.displayName && ` · ${t('closing.openedBy', { name: closing.openedBy.displayName })}`}
      </p>
      <div className="form-row">
        <MoneyInput label={t('closing.openingBalance')} value={opening} onValueChange={(v) => setOpening(v)} autoFocus={!started} />
        {started && (
          <>
            <MoneyInput label={t('closing.cashAdded')} value={added} onValueChange={(v) => setAdded(v)} />
            <MoneyInput label={t('closing.cashWithdrawn')} value={withdrawn} onValueChange={(v) => setWithdrawn(v)} />
          </>
        )}
      </div>

      {started && (
        <>
          {loadingFigures ? (
            <Spinner />
          ) : (
            <table className="table table-compact closing-figures" ref={figuresRef}>
              <tbody>
                <tr>
                  <th scope="row">{t('closing.openingBalance')}</th>
                  <td className="num">{cur(currency.minor(moneyText(opening)))}</td>
                </tr>
                {Object.entries(figures.sales).map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{t('closing.saleOf', { key: paymentKindName(k, t) })}</th>
                    <td className="num">{cur(v)}</td>
                  </tr>
                ))}
                <tr>
                  <th scope="row">{t('closing.expenses')}</th>
                  <td className="num" data-testid="closing-expenses">
                    {cur(figures.expenses)}
                  </td>
                </tr>
                <tr className="closing-cash">
                  <th scope="row">{t('closing.expectedCash')}</th>
                  <td className="num" data-testid="cash-in-hand">
                    <strong>{cur(figures.cashInHand)}</strong>
                  </td>
                </tr>
                <tr className={figures.profit.isLoss ? 'text-danger' : 'text-success'}>
                  <th scope="row">{figures.profit.isLoss ? t('closing.loss') : t('closing.profit')}</th>
                  <td className="num" data-testid="profit-or-loss">
                    {cur(figures.profit.amountCents)}
                  </td>
                </tr>
              </tbody>
            </table>
          )}

          <fieldset className="form-section denominations">
            <legend>{t('closing.denominations')}</legend>
            <table className="table table-compact">
              <thead>
                <tr>
                  <th scope="col">{t('closing.note')}</th>
                  <th scope="col">{t('closing.count')}</th>
                  <th scope="col">{t('closing.amount')}</th>
                </tr>
              </thead>
              <tbody>
                {notes.map(({ key, minor }) => (
                  <tr key={key}>
                    <th scope="row">{cur(minor)}</th>
                    <td>
                      <NumberInput
                        aria-label={t('closing.countOf', { note: cur(minor) })}
                        allowDecimal={false}
                        value={counts[key] ?? ''}
                        onValueChange={(v) => setCounts((c) => ({ ...c, [key]: v }))}
                      />
                    </td>
                    <td className="num">{cur(minor * (countsOf({ [key]: counts[key] ?? '' })[key] ?? 0))}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={2}>
                    {t('closing.counted')}
                  </th>
                  <td className="num" data-testid="counted-cash">
                    {cur(figures.counted)}
                  </td>
                </tr>
                <tr>
                  <th scope="row" colSpan={2}>
                    {t('closing.overShort')}
                  </th>
                  <td className="num">
                    <OverShort minor={figures.counted - figures.cashInHand} />
                  </td>
                </tr>
              </tfoot>
            </table>
          </fieldset>
        </>
      )}

      <div className="dialog-actions">
        <Button variant="link" className="action-start" onClick={onPast} data-past-open>
          {t('closing.pastClosings')}
        </Button>
        {!started ? (
          <Button type="submit" loading={save.isPending}>
            {t('closing.startDay')}
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={() => void printReport('x')} loading={printing} disabled={loadingFigures}>
              {t('closing.printX')}
            </Button>
            <Button type="submit" variant="secondary" loading={save.isPending}>
              {t('closing.update')}
            </Button>
            <Button variant="danger" onClick={() => submit('close')} loading={save.isPending}>
              {t('closing.closeDay')}
            </Button>
          </>
        )}
      </div>
    </form>
  );
}

/**
 * Day closing (toolbar 'Day closing'). Mounted always by the till: it opens by itself, forced, when
 * the day has no opening balance ('Start day') or was opened more than 24 h ago ('Close previous day first').
 */
export function ClosingDialog({ open, onClose }: ClosingDialogProps) {
  const { t } = useTranslation('backoffice');
  const { store, terminal, ready } = useSession();
  const query = useOpenedClosing(ready ? store?.id : undefined, ready ? terminal?.id : undefined);
  const { refetch } = query;
  useEffect(() => {
    if (open) void refetch();
  }, [open, refetch]);

  const [past, setPast] = useState(false);
  // Switching between today and the past closings keeps focus in the dialog: on "Back to today",
  // then on "Past closings" again (a control that vanishes would drop focus to <body>).
  const toggled = useRef(false);
  useEffect(() => {
    if (!toggled.current) return;
    const target = document.querySelector<HTMLElement>(past ? '[data-past-back]' : '[data-past-open]');
    target?.focus();
  }, [past]);
  const showPast = (on: boolean) => {
    toggled.current = true;
    setPast(on);
  };
  const closing = query.data;
  const state = closing ? closingState(closing) : 'normal';
  const forced = !!closing && state !== 'normal';
  if (!forced && !open) return null;

  const title = state === 'start' ? t('closing.startDay') : state === 'stale' ? t('closing.closePreviousFirst') : t('closing.title');
  return (
    <Dialog open onClose={forced ? undefined : onClose} closable={!forced} title={title} size="lg">
      {!closing ? (
        query.isError ? (
          <p role="alert">{errorText(query.error)}</p>
        ) : (
          <Spinner />
        )
      ) : (
        past ? (
          <PastClosings storeId={store?.id} terminalId={terminal?.id} onBack={() => showPast(false)} />
        ) : (
          <ClosingForm key={`${closing.id}-${state}`} closing={closing} state={state} onDone={onClose} onPast={() => showPast(true)} />
        )
      )}
    </Dialog>
  );
}
