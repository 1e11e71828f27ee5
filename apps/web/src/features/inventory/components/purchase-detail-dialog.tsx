import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { parseQuantity, quantityToString } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { money } from '@/features/list-table/lib/amounts';
import { lineTotals, linesFromPurchase, rowTotal } from '../lib/lines.ts';
import { printElement } from '../lib/print.ts';
import type { Purchase } from '../lib/types.ts';
import { PurchaseLabels } from './purchase-labels.tsx';

const q = (v: unknown) => (v === null || v === undefined || v === '' ? '' : quantityToString(parseQuantity(String(v))));

/** "Purchase no. {number}": totals, payment, lines with nested variants, Print, and Print labels (one per unit received). */
export function PurchaseDetailDialog({ purchase, onClose }: { purchase: Purchase; onClose: () => void }) {
  const currency = useMoney();
  const { t, i18n } = useTranslation('backoffice');
  const body = useRef<HTMLDivElement>(null);
  const lng = i18n.language;
  const totals = lineTotals(linesFromPurchase(purchase.items ?? []), currency.digits);
  const title = t('purchases.detailTitle', { number: purchase.purchaseNumber });
  return (
    <Dialog
      open
      onClose={onClose}
      size="xl"
      title={title}
      footer={
        <div className="row">
          <PurchaseLabels purchase={purchase} />
          <Button onClick={() => body.current && printElement(body.current, title)}>
            {t('common.print')}
          </Button>
        </div>
      }
    >
      <div ref={body} className="purchase-detail">
        <h3 className="print-only">{title}</h3>
        <div className="summary-boxes">
          <div className="summary-box">
            <span>{t('purchases.itemsTotal')}</span>
            <strong>{currency.formatMinor(totals.cost)}</strong>
          </div>
          <div className="summary-box">
            <span>{t('purchases.total')}</span>
            <strong>{money(purchase.total, lng)}</strong>
          </div>
          <div className="summary-box">
            <span>{t('purchases.payments')}</span>
            <strong>
              {purchase.paymentType?.name ?? '—'}: {currency.formatWire(purchase.total)}
            </strong>
          </div>
        </div>
        <p>
          {formatDateTime(purchase.createdAt)} · {purchase.supplier?.name ?? ''} · {purchase.store?.name ?? ''}
        </p>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{t('inventory.item')}</th>
              <th scope="col">{t('inventory.quantityRequested')}</th>
              <th scope="col">{t('inventory.quantity')}</th>
              <th scope="col">{t('purchases.purchasePrice')}</th>
              <th scope="col">{t('inventory.totalCost')}</th>
              <th scope="col">{t('inventory.comments')}</th>
            </tr>
          </thead>
          <tbody>
            {(purchase.items ?? []).map((item) => [
              <tr key={item.id}>
                <th scope="row">{item.item?.name}</th>
                <td>{q(item.quantityRequested)}</td>
                <td>{q(item.quantity)}</td>
                <td>{money(item.purchasePrice, lng)}</td>
                <td>{currency.formatMinor(rowTotal(String(item.quantity), String(item.purchasePrice), currency.digits))}</td>
                <td>{item.comments}</td>
              </tr>,
              item.variants?.length ? (
                <tr key={`${item.id}-v`}>
                  <td colSpan={6}>
                    <table className="table table-nested" aria-label={t('inventory.variantsOf', { name: item.item?.name })}>
                      <thead>
                        <tr>
                          <th scope="col">{t('inventory.variant')}</th>
                          <th scope="col">{t('inventory.quantity')}</th>
                          <th scope="col">{t('purchases.purchasePrice')}</th>
                          <th scope="col">{t('inventory.totalCost')}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {item.variants.map((v) => (
                          <tr key={v.id}>
                            <th scope="row">{v.variant?.attributeValue}</th>
                            <td>{q(v.quantity)}</td>
                            <td>{money(v.purchasePrice, lng)}</td>
                            <td>{currency.formatMinor(rowTotal(String(v.quantity), String(v.purchasePrice), currency.digits))}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </td>
                </tr>
              ) : null,
            ])}
          </tbody>
          <tfoot>
            <tr className="totals-row">
              <th scope="row">{t('inventory.linesCount', { count: totals.count })}</th>
              <td>{quantityToString(totals.requested)}</td>
              <td>{quantityToString(totals.quantity)}</td>
              <td />
              <td>{currency.formatMinor(totals.cost)}</td>
              <td />
            </tr>
          </tfoot>
        </table>
      </div>
    </Dialog>
  );
}
