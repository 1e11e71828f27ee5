import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useMoney, type Money } from '@/lib/money';
import { errorText } from '@/lib/form-errors';
import { apiGet } from '@/features/list-table/api/http';
import { wireDate } from '@/features/list-table/lib/dates';
import { usePreferences } from '@/features/sale/preferences-store';
import { printReceipt } from '@/features/receipt/print-receipt';
import { paymentKindName } from '@/lib/payment-type-name';
import { sendClosingReport } from '../api/closing-report.ts';
import type { Closing } from '../api/closing.ts';
import { OverShort } from './over-short.tsx';

/** A closed day as GET /api/admin/closing/list presents it: the server's stored figures. */
export interface PastClosing extends Closing {
  expenses?: number | string | null;
  sales?: Record<string, number | string> | null;
  expectedCash?: number | string | null;
  countedCash?: number | string | null;
  overShort?: number | string | null;
  closedBy?: { displayName?: string; username?: string } | null;
}

const PAGE = 10;

/** GET /api/admin/closing/list?store&terminal: this till's closed days, newest first. */
function usePastClosings(storeId: number | undefined, terminalId: number | undefined, page: number) {
  return useQuery({
    queryKey: ['closing', 'list', storeId, terminalId, page],
    queryFn: () => apiGet<{ list: PastClosing[]; total: number }>('/admin/closing/list', { store: storeId, terminal: terminalId, page, itemsPerPage: PAGE }),
    enabled: storeId !== undefined,
  });
}

/** The Z report of a past day through the browser's print dialog: the server's stored figures as a table. */
function zReportNode(day: PastClosing, money: Money, title: string, rows: Array<[string, unknown]>) {
  const node = document.createElement('div');
  node.className = 'receipt';
  const h = document.createElement('h1');
  h.textContent = title;
  const table = document.createElement('table');
  for (const [label, value] of rows) {
    const tr = table.insertRow();
    const th = document.createElement('th');
    th.scope = 'row';
    th.textContent = label;
    tr.append(th);
    tr.insertCell().textContent = value === null || value === undefined ? '' : money.formatWire(value);
  }
  node.append(h, table);
  node.dataset.closing = String(day.id);
  return node;
}

/**
 * Past closings of this till (issue 23.4): when each day closed, who closed it, the expected and the
 * counted cash and the difference, and a Z report reprint (network printer, else the browser).
 */
export function PastClosings({ storeId, terminalId, onBack }: { storeId?: number; terminalId?: number; onBack: () => void }) {
  const { t } = useTranslation('backoffice');
  const money = useMoney();
  const printer = usePreferences((p) => p.receiptPrinter);
  const [page, setPage] = useState(1);
  const [printing, setPrinting] = useState<number | null>(null);
  const query = usePastClosings(storeId, terminalId, page);
  const list = query.data?.list ?? [];
  const pages = Math.max(1, Math.ceil((query.data?.total ?? 0) / PAGE));

  async function reprint(day: PastClosing) {
    const title = t('closing.zReport');
    if (!printer) {
      const sales = Object.entries(day.sales ?? {}).map(([k, v]) => [t('closing.saleOf', { key: paymentKindName(k, t) }), v] as [string, unknown]);
      printReceipt(zReportNode(day, money, title, [
        [t('closing.openingBalance'), day.openingBalance],
        ...sales,
        [t('closing.expenses'), day.expenses],
        [t('closing.expectedCash'), day.expectedCash],
        [t('closing.counted'), day.countedCash],
        [t('closing.overShort'), day.overShort],
      ]));
      return;
    }
    setPrinting(day.id);
    await sendClosingReport(day.id, printer, title, t);
    setPrinting(null);
  }

  return (
    <section className="past-closings" aria-labelledby="past-closings-title">
      <h3 id="past-closings-title">{t('closing.pastClosings')}</h3>
      {query.isPending ? (
        <Spinner />
      ) : query.isError ? (
        <p role="alert">{errorText(query.error)}</p>
      ) : list.length === 0 ? (
        <p className="muted">{t('closing.noPastClosings')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact">
            <thead>
              <tr>
                <th scope="col">{t('closing.closedAt')}</th>
                <th scope="col">{t('closing.closedBy')}</th>
                <th scope="col" className="num">{t('closing.expectedCash')}</th>
                <th scope="col" className="num">{t('closing.counted')}</th>
                <th scope="col" className="num">{t('closing.overShort')}</th>
                <th scope="col"><span className="visually-hidden">{t('closing.printZ')}</span></th>
              </tr>
            </thead>
            <tbody>
              {list.map((day) => {
                const closed = wireDate(day.closedAt);
                return (
                  <tr key={day.id}>
                    <td>{closed ? formatDateTime(closed, money.timeZone) : ''}</td>
                    <td>{day.closedBy?.displayName || day.closedBy?.username || ''}</td>
                    <td className="num">{money.formatWire(day.expectedCash)}</td>
                    <td className="num">{day.countedCash === null || day.countedCash === undefined ? '—' : money.formatWire(day.countedCash)}</td>
                    <td className="num">{day.overShort === null || day.overShort === undefined ? '—' : <OverShort minor={money.minor(day.overShort)} />}</td>
                    <td>
                      <Button size="sm" variant="secondary" onClick={() => void reprint(day)} loading={printing === day.id}
                        aria-label={t('closing.printZOf', { date: closed ? formatDateTime(closed, money.timeZone) : String(day.id) })}>
                        {t('closing.printZ')}
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <div className="dialog-actions">
        {pages > 1 && (
          <>
            <Button variant="ghost" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>{t('closing.newer')}</Button>
            <span className="muted">{t('closing.pageOf', { page, pages })}</span>
            <Button variant="ghost" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>{t('closing.older')}</Button>
          </>
        )}
        <Button variant="secondary" onClick={onBack} data-past-back>{t('closing.backToToday')}</Button>
      </div>
    </section>
  );
}
