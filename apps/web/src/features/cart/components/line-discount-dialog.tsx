import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { parseRate, tryParseMoney } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { NumberInput } from '@/components/ui/number-input';
import { Select } from '@/components/ui/select';
import type { DiscountRateType } from '@/features/cart/cart-types';

export interface LineDiscountDialogProps {
  open: boolean;
  onClose: () => void;
  /** fixed: value in cents; percent: hundredths of a percent. */
  onApply: (type: DiscountRateType, value: number) => void;
}

/** "Update discount": fixed or percent, and a required number. */
export function LineDiscountDialog({ open, onClose, onApply }: LineDiscountDialogProps) {
  const { t } = useTranslation('sale');
  const [type, setType] = useState<DiscountRateType>('fixed');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!/\d/.test(text)) {
      setError(t('messages.required'));
      return;
    }
    const value = type === 'percent' ? parseRate(text) : tryParseMoney(text);
    if (value === null) {
      setError(t('messages.number'));
      return;
    }
    onApply(type, value);
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
        <NumberInput label={t('cart.discount')} value={text} onValueChange={(v) => setText(v)} error={error} required data-autofocus />
        <Button type="submit">{t('cart.update')}</Button>
      </form>
    </Dialog>
  );
}
