import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { minorToString, parseRate } from '@pos/domain/money';
import { minorToCents } from '@pos/domain/format';
import { MoneyInput } from '@/components/ui/money-input';
import { useMoney } from '@/lib/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { normaliseNumberText, NumberInput } from '@/components/ui/number-input';
import { Select } from '@/components/ui/select';
import type { DiscountRateType } from '@/features/cart/cart-types';

export interface LineDiscountDialogProps {
  open: boolean;
  onClose: () => void;
  /** fixed: value in cents and `exact` the amount's decimal text (KWD "0.125"); percent: hundredths of a percent. */
  onApply: (type: DiscountRateType, value: number, exact?: string) => void;
}

/** "Update discount": fixed or percent, and a required number. */
export function LineDiscountDialog({ open, onClose, onApply }: LineDiscountDialogProps) {
  const { t } = useTranslation('sale');
  const money = useMoney();
  const [type, setType] = useState<DiscountRateType>('fixed');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/\d/.test(text)) {
      setError(t('messages.required'));
      return;
    }
    const minor = type === 'percent' ? null : money.parseInputMinor(text);
    const value = type === 'percent' ? parseRate(normaliseNumberText(text)) : minor === null ? null : minorToCents(minor, money.currency);
    if (value === null) {
      setError(t('messages.number'));
      return;
    }
    onApply(type, value, minor === null ? undefined : minorToString(minor, money.digits));
    setText('');
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('cart.updateDiscount')} size="sm">
      <form onSubmit={submit} noValidate className="stack">
        <Select
          label={t('discounts.rateType')}
          value={type}
          onChange={(e) => setType(e.target.value as DiscountRateType)}
          options={[{ value: 'fixed', label: t('discounts.fixed') }, { value: 'percent', label: t('discounts.percent') }]}
        />
        {type === 'percent' ? (
          <NumberInput label={t('cart.discount')} value={text} decimals={2} onValueChange={(v) => setText(v)} error={error} required data-autofocus />
        ) : (
          <MoneyInput label={t('cart.discount')} value={text} onValueChange={(v) => setText(v)} error={error} required data-autofocus />
        )}
        <Button type="submit">{t('cart.update')}</Button>
      </form>
    </Dialog>
  );
}
