import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { NumberInput } from '@/components/ui/number-input';
import { MoneyInput, moneyText } from '@/components/ui/money-input';
import type { Discount } from '@/features/catalogue-cache/types';
import { setDiscount, setOpenDiscount } from '@/features/cart/cart-logic';
import { updateCart, useCart } from '@/features/cart/cart-store';
import type { DiscountRateType } from '@/features/cart/cart-types';

/**
 * Discounts (ctrl+shift+d): a clear button, one button per preset discount and the open amount
 * form with a Fixed (default) / Percent choice. What is typed is kept as typed and sent as
 * `discountAmount`; the amount is computed by @pos/domain (and again by the server).
 */
export function DiscountsDialog({ open, onClose, discounts }: { open: boolean; onClose: () => void; discounts: Discount[] }) {
  const { t } = useTranslation('sale');
  const current = useCart((s) => s.discount);
  const [amount, setAmount] = useState('');
  const [rateType, setRateType] = useState<DiscountRateType>('fixed');
  const [error, setError] = useState<string | null>(null);
  const presets = discounts.filter((d) => d.scope !== 'open');
  const openDiscount = discounts.find((d) => d.scope === 'open') ?? null;

  const pick = (d: Discount | null) => {
    updateCart((s) => setDiscount(s, d));
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/\d/.test(amount)) {
      setError(t('messages.required'));
      return;
    }
    // The typed figure in the wire's form (digits 0-9, '.' separator), whatever the keyboard.
    updateCart((s) => setOpenDiscount(s, openDiscount, moneyText(amount), rateType));
    setAmount('');
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('discounts.title')} size="md">
      <div className="stack">
        <div className="choice-grid">
          <Button variant="danger" onClick={() => pick(null)}>{t('discounts.clear')}</Button>
          {presets.map((d) => (
            <Button key={d.id} variant={current?.id === d.id ? 'primary' : 'secondary'} aria-pressed={current?.id === d.id} onClick={() => pick(d)}>
              {d.name}
            </Button>
          ))}
        </div>
        <form onSubmit={submit} noValidate className="stack" aria-label={t('discounts.open')}>
          <div className="row" role="radiogroup" aria-label={t('discounts.rateType')}>
            {(['fixed', 'percent'] as const).map((rt) => (
              <Button key={rt} size="sm" role="radio" aria-checked={rateType === rt} variant={rateType === rt ? 'primary' : 'secondary'} onClick={() => setRateType(rt)}>
                {t(`discounts.${rt}`)}
              </Button>
            ))}
          </div>
          {rateType === 'percent' ? (
            <NumberInput label={t('discounts.amount')} value={amount} decimals={2} onValueChange={(v) => setAmount(v)} error={error} />
          ) : (
            <MoneyInput label={t('discounts.amount')} value={amount} onValueChange={(v) => setAmount(v)} error={error} />
          )}
          <Button type="submit">{t('discounts.apply')}</Button>
        </form>
      </div>
    </Dialog>
  );
}
