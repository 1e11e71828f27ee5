import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { tryParseScaled } from '@pos/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { NumberInput } from '@/components/ui/number-input';

export interface QuantityDialogProps {
  open: boolean;
  onClose: () => void;
  /** Quantity in milli; returns an error message to show, or nothing when applied. */
  onApply: (qtyMilli: number) => string | undefined | void;
}

/** "Update quantity": a number field, default 1. */
export function QuantityDialog({ open, onClose, onApply }: QuantityDialogProps) {
  const { t } = useTranslation('sale');
  const [text, setText] = useState('1');
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (text.trim() === '') {
      setError(t('messages.required'));
      return;
    }
    const problem = onApply(tryParseScaled(text, 3) ?? 0);
    if (problem) {
      setError(problem);
      return;
    }
    setText('1');
    setError(null);
    onClose();
  };
  return (
    <Dialog open={open} onClose={onClose} title={t('cart.updateQuantity')} size="sm">
      <form onSubmit={submit} noValidate className="stack">
        <NumberInput label={t('cart.quantity')} value={text} onValueChange={(v) => setText(v)} error={error} autoFocus data-autofocus />
        <Button type="submit">{t('cart.update')}</Button>
      </form>
    </Dialog>
  );
}
