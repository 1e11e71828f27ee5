import { useCartTotals } from '@/features/cart/use-cart-totals';
import { useTranslation } from 'react-i18next';
import { useMoney } from '@/lib/money';
import { customerBalance } from '@pos/domain/ledger';
import { confirm } from '@/components/ui/confirm-dialog';
import { setCustomer } from '@/features/cart/cart-logic';
import { updateCart, useCart } from '@/features/cart/cart-store';

/**
 * Cart totals (spec 2.5): sub total, taxable amount, taxes, discount, customer (detach asks
 * first), total. Figures from @pos/domain/cart, as the server computes them.
 */
export function CartTotals({ onCustomerClick }: { locale?: string; onCustomerClick?: () => void }) {
  const currency = useMoney();
  const { t } = useTranslation('sale');
  const tax = useCart((s) => s.tax);
  const discount = useCart((s) => s.discount);
  const discountAmount = useCart((s) => s.discountAmount);
  const discountRateType = useCart((s) => s.discountRateType);
  const customer = useCart((s) => s.customer);
  const totals = useCartTotals();
  // The cart's figures in the currency's minor units: a KWD total shows its fils (issue 19).
  const exact = (minor: number) => currency.formatMinor(minor);
  const balance = customer
    ? customerBalance({ outstandingCents: currency.minor(customer.outstanding ?? 0), openingBalanceCents: currency.minor(customer.openingBalance ?? 0) })
    : 0;

  const detach = async () => {
    if (await confirm(t('totals.detachCustomer', { name: customer?.name ?? '' }))) updateCart((s) => setCustomer(s, null));
  };

  const discountLabel = discountAmount
    ? `${t('totals.discount')} (${discountRateType === 'percent' ? `${discountAmount}%` : t('discounts.fixed')})`
    : discount
      ? `${t('totals.discount')} (${discount.name})`
      : t('totals.discount');

  return (
    <table className="cart-totals" aria-label={t('totals.title')}>
      <tbody>
        <tr><th scope="row">{t('totals.subTotal')}</th><td data-testid="sub-total">{exact(totals.minor.subTotalCents)}</td></tr>
        <tr><th scope="row">{t('totals.taxableAmount')}</th><td>{exact(totals.minor.taxableAmountCents)}</td></tr>
        <tr>
          <th scope="row">{tax ? `${t('totals.taxes')} (${tax.name} ${tax.rate}%)` : t('totals.taxes')}</th>
          <td data-testid="order-tax">{exact(totals.minor.orderTaxCents)}</td>
        </tr>
        <tr><th scope="row">{discountLabel}</th><td data-testid="order-discount">{exact(totals.minor.discountTotalCents)}</td></tr>
        <tr>
          <th scope="row">{t('totals.customer')}</th>
          <td>
            {customer ? (
              <span className="row cart-customer">
                <button type="button" className="btn btn-link btn-sm" onClick={onCustomerClick}>{customer.name}</button>
                <span className={balance > 0 ? 'text-danger' : 'text-success'} title={t('customers.outstanding')}>{exact(Math.abs(balance))}</span>
                <button type="button" className="btn btn-ghost btn-sm" aria-label={t('totals.detach')} onClick={() => void detach()}>×</button>
              </span>
            ) : (
              <span className="text-muted">-</span>
            )}
          </td>
        </tr>
        {totals.adjustmentCents !== 0 && (
          <tr><th scope="row">{t('totals.adjustment')}</th><td className={totals.adjustmentCents < 0 ? 'text-danger' : 'text-success'}>{exact(totals.minor.adjustmentCents)}</td></tr>
        )}
        <tr className="cart-grand-total"><th scope="row">{t('totals.total')}</th><td data-testid="grand-total">{exact(totals.minor.grandTotalCents)}</td></tr>
      </tbody>
    </table>
  );
}
