import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@pos/domain/format';
import { useMoney } from '@/lib/money';
import { paymentTypeName } from '@/lib/payment-type-name';
import { quantityToString } from '@pos/domain/money';
import type { Order, Setting } from '@/features/catalogue-cache/types';
import { receiptFigures } from '@/features/receipt/receipt-figures';

export const RECEIPT_FOOTER = 'Thank you for your visit';

/** Shop name and footer from the cached 'sale_receipt' settings. */
export function receiptSettings(settings: Setting[]): { shopName: string; footer: string | null } {
  const own = settings.filter((s) => s.type === 'sale_receipt');
  const get = (name: string) => own.find((s) => s.name === name)?.value?.trim() || null;
  return { shopName: get('shop_name') ?? 'Shop name', footer: get('receipt_footer') };
}

/** The 3.5-inch sale receipt. Rendered in the preview and copied into the print frame. */
export function Receipt({ order, settings, ref }: { order: Order; settings: Setting[]; locale?: string; ref?: React.Ref<HTMLDivElement> }) {
  const currency = useMoney(order.store);
  const { t } = useTranslation('sale');
  const f = receiptFigures(order, currency.digits);
  const s = receiptSettings(settings);
  const money = (minor: number) => currency.formatMinor(minor);
  const customer = typeof order.customer === 'string' ? order.customer : order.customer?.name ?? order.customerName ?? null;
  return (
    <div className="receipt" ref={ref} data-testid="receipt">
      <h1>{s.shopName}</h1>
      {order.localRef ? (
        <p data-testid="receipt-unsent"><strong>{t('outbox:receiptNotSent', { ref: order.localRef })}</strong></p>
      ) : (
        <p>{t('order.number', { number: order.orderId ?? order.id })}</p>
      )}
      <p>{formatDateTime(order.createdAt)}</p>
      {order.store?.name && <p>{order.store.name}{order.terminal?.code ? ` / ${order.terminal.code}` : ''}</p>}
      {order.user?.displayName && <p>{t('receipt.cashier')}: {order.user.displayName}</p>}
      {customer && <p>{t('receipt.customer')}: {customer}</p>}
      {order.returnedFrom && <p>{t('receipt.refundOf', { number: order.returnedFrom.orderId ?? order.returnedFrom.id })}</p>}
      <hr />
      <table>
        <thead>
          <tr>
            <th>{t('cart.item')}</th>
            <th className="num">{t('cart.qty')}</th>
            <th className="num">{t('cart.rate')}</th>
            <th className="num">{t('cart.total')}</th>
          </tr>
        </thead>
        <tbody>
          {f.lines.map((l, i) => (
            <tr key={i}>
              <td>
                {l.name}
                {l.variant && <div className="receipt-variant">{l.variant}</div>}
              </td>
              <td className="num">{quantityToString(l.qtyMilli)}</td>
              <td className="num">{money(l.priceCents)}</td>
              <td className="num">{money(l.totalCents)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <hr />
      <table>
        <tbody>
          <tr><td>{t('receipt.itemsTotal')}</td><td className="num">{money(f.itemsTotalCents)}</td></tr>
          {f.discountCents !== 0 && <tr><td>{t('totals.discount')}</td><td className="num">{money(-f.discountCents)}</td></tr>}
          {f.taxCents !== 0 && <tr><td>{t('totals.taxes')}</td><td className="num">{money(f.taxCents)}</td></tr>}
          <tr><td><strong>{t('receipt.netTotal')}</strong></td><td className="num"><strong>{money(f.netTotalCents)}</strong></td></tr>
          {f.adjustmentCents !== 0 && <tr><td>{t('totals.adjustment')}</td><td className="num">{money(f.adjustmentCents)}</td></tr>}
          {f.adjustmentCents !== 0 && <tr><td><strong>{t('totals.total')}</strong></td><td className="num"><strong>{money(f.grandTotalCents)}</strong></td></tr>}
          {f.roundingCents !== 0 && <tr><td>{t('receipt.rounding')}</td><td className="num" data-testid="receipt-rounding">{money(f.roundingCents)}</td></tr>}
          {f.payments.map((p, i) => (
            p.cash ? (
              <tr key={i}><td>{t('receipt.cashTendered')}{p.name && p.name !== 'Cash' ? ` (${paymentTypeName({ name: p.name, type: p.kind }, t)})` : ''}</td><td className="num" data-testid="receipt-tendered">{money(p.tenderedCents)}</td></tr>
            ) : (
              <tr key={i}><td>{paymentTypeName({ name: p.name, type: p.kind }, t)}</td><td className="num">{money(p.receivedCents)}</td></tr>
            )
          ))}
          {f.changeCents !== 0 && <tr><td>{t('receipt.change')}</td><td className="num" data-testid="receipt-change">{money(f.changeCents)}</td></tr>}
        </tbody>
      </table>
      {f.taxBreakdown.length > 0 && (
        <table data-testid="receipt-tax-breakdown">
          <thead>
            <tr><th>{t('receipt.taxRate')}</th><th className="num">{t('receipt.net')}</th><th className="num">{t('receipt.tax')}</th><th className="num">{t('receipt.gross')}</th></tr>
          </thead>
          <tbody>
            {f.taxBreakdown.map((r, i) => (
              <tr key={i}><td>{r.label}</td><td className="num">{money(r.netCents)}</td><td className="num">{money(r.taxCents)}</td><td className="num">{money(r.grossCents)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
      {order.notes && <p>{order.notes}</p>}
      <p className="receipt-footer">{s.footer ?? t('receipt.footer')}</p>
    </div>
  );
}
